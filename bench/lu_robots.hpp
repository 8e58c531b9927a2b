// The robots of the LU benchmark (bench_lu.cpp): each problem's generated kernels as plain functions.
#pragma once

#include <string>
#include <vector>

namespace rbdgen::bench {

using Kernel4 = void (*)(const double*, const double*, const double*, const double*, double*);

struct LuProblem {
    void (*assemble)(const double*, const double*, const double*, const double*, double*, double*);
    void (*factor)(const double*, double*);
    void (*solve)(const double*, const double*, const double*, double*);
    Kernel4 fused;
    int D_size, b_size, LU_size, d_size;
};

struct LuRobot {
    std::string label, urdf, report;
    bool floating_base = false;
    int nq = 0, nv = 0;
    LuProblem id, fd;
    LuProblem id_native, fd_native;  // the same kernels built with -O2 -march=native
    // Constrained dynamics, on the floating robots: the problem contact:<contacts> (README "Problems").
    std::string contacts;  // empty: none
    LuProblem contact, contact_native;
    Kernel4 contact_aba = nullptr;  // the same problem by the articulated-body algorithm
    Kernel4 rnea, aba, fd_crba_ltdl;
};

std::vector<LuRobot> lu_robots();  // lu_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
