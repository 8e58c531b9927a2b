// The algorithms over sym::Expr, which the tracer runs once a kernel: at -O1, like the kernel
// specification files, since the generator's time is in the graph they build (sym/expr.cpp).
#include "instances/instances.hpp"
#include "sym/expr.hpp"

namespace rbdgen {
RBDGEN_INSTANCES(sym::Expr)
}  // namespace rbdgen
