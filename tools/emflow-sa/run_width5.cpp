// emflow-sa with 5-byte indices (a translation unit of its own: the widths compile in parallel).
#include "run.hpp"

int emflow_sa::run_width5(const options& o) { return run<emflow::uint40>(o); }
