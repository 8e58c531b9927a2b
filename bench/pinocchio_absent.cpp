// Stands in for pinocchio.cpp where find_package(pinocchio) found nothing: bench_pinocchio then says
// that it skipped Pinocchio and times the generated kernels alone.
#include "pinocchio.hpp"

namespace rbdgen::bench {

std::unique_ptr<PinocchioRobot> pinocchio_robot(const std::string&, bool, const std::vector<JointSlot>&, std::string& why) {
    why = "Pinocchio was not found when bench/ was configured: build it with ../shared/peers/pinocchio/build.sh and configure "
          "with -DCMAKE_PREFIX_PATH=<the prefix it prints> (bench/pinocchio.sh does both)";
    return nullptr;
}

}  // namespace rbdgen::bench
