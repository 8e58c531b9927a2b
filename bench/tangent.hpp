// The tangent space of a floating robot of 1-DoF joints, for the derivative benchmarks' peers
// (bench_derivatives.cpp, bench_contact_derivatives.cpp): a step q ⊕ h e_k for differences, and the
// directions of q, q̇ and a third argument for ADOL-C's forward mode.
#pragma once

#include <Eigen/Geometry>
#include <vector>

namespace rbdgen::bench {

// q ⊕ h e_k: the floating base (q 0..6, v 0..5) turned by R exp(h e_k) or moved by h R e_(k−3); a
// joint's coordinate k + 1 moved by h.
inline void plus(const std::vector<double>& q, int k, double h, std::vector<double>& out) {
    out = q;
    if (k >= 6) {
        out[k + 1] += h;
        return;
    }
    const Eigen::Quaterniond Q(q[6], q[3], q[4], q[5]);
    if (k < 3) {
        const Eigen::Quaterniond R = Q * Eigen::Quaterniond(Eigen::AngleAxisd(h, Eigen::Vector3d::Unit(k)));
        out[3] = R.x(), out[4] = R.y(), out[5] = R.z(), out[6] = R.w();
    } else {
        const Eigen::Vector3d d = Q.toRotationMatrix().col(k - 3) * h;
        for (int c = 0; c < 3; ++c) out[c] += d[c];
    }
}

// X (nq + 2 nv rows, p = 2 nv or 3 nv columns): column k < nv q's tangent direction k, then unit
// directions of the arguments after q.
inline void tangent_directions(const std::vector<double>& q, int nq, int nv, int p, double** X) {
    for (int i = 0; i < nq + 2 * nv; ++i)
        for (int k = 0; k < p; ++k) X[i][k] = 0;
    const Eigen::Quaterniond Q(q[6], q[3], q[4], q[5]);
    const Eigen::Matrix3d R = Q.toRotationMatrix();
    for (int k = 0; k < 3; ++k) {  // the base: d(Q ⊗ (e_k / 2, 1)), R e_k
        const Eigen::Quaterniond d = Q * Eigen::Quaterniond(0, 0.5 * (k == 0), 0.5 * (k == 1), 0.5 * (k == 2));
        X[3][k] = d.x(), X[4][k] = d.y(), X[5][k] = d.z(), X[6][k] = d.w();
        for (int i = 0; i < 3; ++i) X[i][3 + k] = R(i, k);
    }
    for (int k = 6; k < nv; ++k) X[k + 1][k] = 1;
    for (int k = nv; k < p; ++k) X[nq + k - nv][k] = 1;
}

}  // namespace rbdgen::bench
