// emflow-sa with 5-byte indices (a translation unit of its own: the widths compile in parallel),
// and the construction with 5-byte tuples.
#include "run.hpp"

template void emflow::pipelines::sa::build_detail::run<emflow::uint40>(
    sa_algorithm, emflow_sa::open_file_text&, std::uint64_t,
    emflow_sa::construction_sink<emflow::uint40>&, const sa_config&);
template void emflow::pipelines::sa::build_detail::run_lcp<emflow::uint40>(
    emflow_sa::open_file_text&, std::uint64_t, emflow_sa::construction_sink<emflow::uint40>&,
    emflow_sa::construction_sink<emflow::uint40>&, const sa_config&);

int emflow_sa::run_width5(const options& o) { return run<emflow::uint40>(o); }
