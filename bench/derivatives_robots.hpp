// The robots of the derivatives benchmark (bench_derivatives.cpp): each one's generated rnea, aba and
// their derivatives as plain functions.
#pragma once

#include <string>
#include <vector>

namespace rbdgen::bench {

using Kernel4 = void (*)(const double*, const double*, const double*, const double*, double*);

struct DerivativesRobot {
    std::string label, urdf, report;
    bool floating_base = false;
    int nq = 0, nv = 0;
    Kernel4 rnea, aba;
    void (*rnea_derivatives)(const double* q, const double* qd, const double* qdd, const double* g, double* dtau_dq,
                             double* dtau_dqd);
    void (*aba_derivatives)(const double* q, const double* qd, const double* tau, const double* g, double* dqdd_dq,
                            double* dqdd_dqd, double* dqdd_dtau);
    // the same built with -O2 -march=native
    decltype(rnea_derivatives) rnea_derivatives_native;
    decltype(aba_derivatives) aba_derivatives_native;
};

std::vector<DerivativesRobot> derivatives_robots();  // derivatives_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
