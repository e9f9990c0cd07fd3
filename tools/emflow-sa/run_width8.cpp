// emflow-sa with 8-byte indices (a translation unit of its own: the widths compile in parallel),
// and the construction with 8-byte tuples.
#include "run.hpp"

template void emflow::pipelines::sa::build_detail::run<std::uint64_t>(
    sa_algorithm, emflow_sa::open_file_text&, std::uint64_t,
    emflow_sa::construction_sink<std::uint64_t>&, const sa_config&);
template void emflow::pipelines::sa::build_detail::run_lcp<std::uint64_t>(
    emflow_sa::open_file_text&, std::uint64_t, emflow_sa::construction_sink<std::uint64_t>&,
    emflow_sa::construction_sink<std::uint64_t>&, const sa_config&);

int emflow_sa::run_width8(const options& o) { return run<std::uint64_t>(o); }
