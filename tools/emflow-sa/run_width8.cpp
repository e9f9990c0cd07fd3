// emflow-sa with 8-byte indices (a translation unit of its own: the widths compile in parallel).
#include "run.hpp"

int emflow_sa::run_width8(const options& o) { return run<std::uint64_t>(o); }
