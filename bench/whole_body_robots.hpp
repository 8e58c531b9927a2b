// The robots of the whole-body benchmark (bench_whole_body.cpp): each one's generated centre of mass,
// centroidal, energy, Jacobian-rate, H⁻¹, Coriolis and ABA kernels, the centroidal derivatives and the
// configuration manifold's kernels, and the motion of operational frames and its derivatives, as plain
// functions.
#pragma once

#include <string>
#include <vector>

namespace rbdgen::bench {

struct WholeBodyRobot {
    std::string label, urdf, report;
    bool floating_base = false;
    int nq = 0, nv = 0;
    void (*com)(const double* q, double* c);
    void (*com_jacobian)(const double* q, double* Jc);
    void (*centroidal)(const double* q, const double* qd, double* A, double* h, double* Adot_qd);
    void (*centroidal_momentum_rate)(const double* q, const double* qd, const double* qdd, double* h, double* hdot);
    void (*energy)(const double* q, const double* qd, const double* g, double* T, double* V);
    void (*jacobians_dot)(const double* q, const double* qd, double* Jdot);
    void (*minv)(const double* q, double* Minv);
    void (*coriolis)(const double* q, const double* qd, double* C);
    void (*aba)(const double* q, const double* qd, const double* tau, const double* g, double* qdd);
    void (*centroidal_derivatives)(const double* q, const double* qd, const double* qdd, double* dh_dq, double* dhdot_dq,
                                   double* dhdot_dqd, double* dhdot_dqdd);
    void (*integrate)(const double* q, const double* v, double* q_next);
    void (*difference)(const double* q0, const double* q1, double* v);
    void (*integrate_jacobians)(const double* q, const double* v, double* dq_dq, double* dq_dv);
    void (*difference_jacobians)(const double* q0, const double* q1, double* dv_dq0, double* dv_dq1);
    // the frames' motion (--frames: the arm's flange, the humanoids' feet), 6 rows a frame, and its derivatives
    int frame_rows = 0;
    void (*frame_motion)(const double* q, const double* qd, const double* qdd, double* v, double* a);
    void (*frame_motion_derivatives)(const double* q, const double* qd, const double* qdd, double* dv_dq, double* dv_dqd, double* da_dq,
                                     double* da_dqd, double* da_dqdd);
};

std::vector<WholeBodyRobot> whole_body_robots();  // whole_body_robots.cpp, configured by CMake

}  // namespace rbdgen::bench
