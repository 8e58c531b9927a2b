// The robots of the contact derivatives benchmark (bench_contact_derivatives.cpp): each one's generated
// contact_aba and contact_derivatives, impulse_aba and impulse_derivatives as plain functions, portable
// and -march=native.
#pragma once

#include <string>
#include <vector>

namespace rbdgen::bench {

struct ContactDerivativesRobot {
    std::string label, urdf, contacts, report;
    int nq = 0, nv = 0, m = 0;  // m: the contacts' rows
    void (*contact_aba)(const double* q, const double* qd, const double* tau, const double* g, double* unknowns);
    using Derivatives = void (*)(const double* q, const double* qd, const double* tau, const double* g, double* dqdd_dq, double* dqdd_dqd,
                                 double* dqdd_dtau, double* dlambda_dq, double* dlambda_dqd, double* dlambda_dtau);
    Derivatives derivatives, derivatives_native, derivatives_lanes;  // -O2; -O2 -march=native; and with --lanes
    // the impact on the same contacts (impulse:<contacts>): q̇⁺ and the impulses, and their derivatives along q and q̇
    void (*impulse_aba)(const double* q, const double* qd, const double* g, double* unknowns);
    using ImpulseDerivatives = void (*)(const double* q, const double* qd, const double* g, double* dqd_plus_dq, double* dqd_plus_dqd,
                                        double* dimpulse_dq, double* dimpulse_dqd);
    ImpulseDerivatives impulse_derivatives, impulse_derivatives_native, impulse_derivatives_lanes;  // the same three builds
};

std::vector<ContactDerivativesRobot> contact_derivatives_robots();  // contact_derivatives_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
