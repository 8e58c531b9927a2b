// The robots of bench_pinocchio.cpp: each one's generated kernels in four builds (bench/CMakeLists.txt):
// rbdgen_add_robot's default flags, -O2 portable, -O2 -march=native, and --lanes at -O2 -march=native.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "pinocchio.hpp"

namespace rbdgen::bench {

// `next`: the next state, whose q is difference_jacobians' q1
using Kernel = void (*)(const Inputs& state, const Inputs& next, double* out);
struct Build {
    std::string name;                          // "default", "O2", "native", "lanes"
    Kernel kernel[std::size(kFamilies)];       // by Family
};
struct PinocchioBenchRobot {
    std::string label, urdf;
    bool floating_base = false;
    int nq = 0, nv = 0;
    std::vector<JointSlot> joints;
    std::vector<Build> builds;
    std::string report_json;  // the default build's report (operations a kernel)
};

std::vector<PinocchioBenchRobot> pinocchio_robots();  // pinocchio_robots.cpp, written by CMake (bench_registry)

}  // namespace rbdgen::bench
