// The robots of the cold-call benchmark (bench_cold.cpp): each kernel's plain entry, its _cold entry
// and its warm(), as functions of plain arrays.
#pragma once

#include <string>
#include <vector>

#include "peers.hpp"

namespace rbdgen::bench {

struct ColdKernel {
    std::string name;  // rnea, crba, aba, fd_crba_ltdl
    Call plain, cold;
    void (*warm)();
};

struct ColdRobot {
    std::string label, urdf, report;
    bool floating_base = false;
    int nq = 0, nv = 0;
    std::vector<JointSlot> joints;
    std::vector<ColdKernel> kernels;
};

std::vector<ColdRobot> cold_robots();  // cold_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
