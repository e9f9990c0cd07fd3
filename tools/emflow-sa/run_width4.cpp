// emflow-sa with 4-byte indices (a translation unit of its own: the widths compile in parallel).
#include "run.hpp"

int emflow_sa::run_width4(const options& o) { return run<std::uint32_t>(o); }
