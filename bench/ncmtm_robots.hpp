// The robots of the N-CMTM benchmark (bench_ncmtm.cpp): each one's generated ncmtm_fk and cornea of
// one order, as plain functions.
#pragma once

#include <string>
#include <vector>

namespace rbdgen::bench {

struct NcmtmRobot {
    std::string label, urdf, report;
    int order = 0, nq = 0, nv = 0, bodies = 0;
    void (*fk)(const double* q, const double* Psi, double* zeta);
    void (*cornea)(const double* q, const double* Psi, const double* gravity, double* tau);
};

std::vector<NcmtmRobot> ncmtm_robots();  // ncmtm_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
