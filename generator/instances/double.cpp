// The algorithms in double, at the generator's -O3: the reference that tests and benchmarks compare
// against, the generator's checks (the pivot check's 10,000 states) and `rbdgen eval`.
#include "instances/instances.hpp"

namespace rbdgen {
RBDGEN_INSTANCES(double)
}  // namespace rbdgen
