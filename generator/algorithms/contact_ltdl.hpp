// Constrained dynamics in joint space with Featherstone's factorization (its §6 forward dynamics,
// with the contacts of RBDA ch. 8). Frames F held by contacts give rows J q̈ + k = 0, J the frames'
// Jacobians (world axes at F's origin) and k their motion at q̈ = 0, and the wrenches λ on the robot at F:
//   H q̈ + C = τ + Jᵀ λ.
// With H = Lᵀ D L (no fill, algorithms/ltdl.hpp), Y = L⁻ᵀ Jᵀ keeps the contacts' sparsity (column c is
// nonzero only on the DoFs that support its body), the operational-space inverse inertia
// J H⁻¹ Jᵀ = Yᵀ D⁻¹ Y is m × m (m rows), factorized dense by the same LTDL, and with z = L⁻ᵀ (τ − C)
//   (Yᵀ D⁻¹ Y) λ = −k − Yᵀ D⁻¹ z,   q̈ = L⁻¹ D⁻¹ (z + Y λ).
// An inelastic impact (Pinocchio's impulseDynamics), H (q̇⁺ − q̇) = Jᵀ Λ and J q̇⁺ = 0:
//   (Yᵀ D⁻¹ Y) Λ = −J q̇,   q̇⁺ = q̇ + L⁻¹ D⁻¹ Y Λ.
// The same equations as a contact problem's rows on Nori's system (sparse/problem_file.cpp), solved a
// second way: the LU eliminates the whole Newton–Euler system, this the joint space.
#pragma once

#include <vector>

#include "algorithms/crba.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "model/topology.hpp"

namespace rbdgen {

// A frame F held by a contact: the whole frame (6 rows: its angular acceleration and its origin's
// classical acceleration vanish) or, a point contact, its origin (3 rows; the wrench a force).
// Baumgarte's stabilization adds kd v_F + kp e to the rows, e F's position error in F coordinates
// (errors[error], 3 elements for a point, 6 [angular; linear] else).
struct HeldFrame {
    int body = -1;
    Transform<double> X;  // ᶠX_body
    bool point = false;
    double kd = 0, kp = 0;
    int error = -1;
};

template <class S> struct ConstrainedMotion {
    VecX<S> qdd;     // q̈, or q̇⁺ after an impact
    VecX<S> lambda;  // each frame's wrench (impulse) in F coordinates, [n; f] or f, frame after frame
};

template <class S>
ConstrainedMotion<S> contact_ltdl(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q, const VecX<S>& qd,
                                  const VecX<S>& tau, const Vec3<S>& gravity, const VecX<S>& errors, bool impulse) {
    const int n = model.nv;
    int m = 0;
    for (const HeldFrame& h : held) m += h.point ? 3 : 6;
    // J (as Jᵀ) and k, frame by frame. The rows in world axes at F's origin p (Pinocchio's
    // LOCAL_WORLD_ALIGNED): from the world-coordinate column (ω, v_0) of a joint supporting F's body,
    // (ω, v_0 + ω × p), cheaper than F's own axes; λ is rotated into F's axes at the end.
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const std::vector<Vec6<S>> a = accelerations<S>(model, kin, qd, VecX<S>::Zero(n));
    const MatX<S> J_0 = spatial_jacobian<S>(model, q);
    MatX<S> Jt = MatX<S>::Zero(n, m);
    VecX<S> k(m);
    std::vector<Mat3<S>> E(held.size());  // F's rotation, ᶠE_0
    for (int f = 0, r = 0; f < static_cast<int>(held.size()); ++f) {
        const HeldFrame& h = held[f];
        const int first = h.point ? 3 : 0, rows = 6 - first;
        const Transform<S> X = h.X.cast<S>(), X_0 = X * kin.X_0[h.body];
        E[f] = X_0.E;
        for (int j = h.body; j >= 0; j = model.bodies[j].lambda)
            for (int c = 0; c < model.bodies[j].joint.nv(); ++c) {
                const int col = model.bodies[j].v_index + c;
                const Vec3<S> w = J_0.col(col).template head<3>(), v_0 = J_0.col(col).template tail<3>();
                const Vec6<S> s = spatial<S>(w, v_0 + w.cross(X_0.r));
                for (int e = 0; e < rows; ++e) Jt(col, r + e) = s[first + e];
            }
        const Vec6<S> v = X.apply(kin.v[h.body]);
        Vec6<S> motion = v;  // an impact: J q̇
        if (!impulse) {      // the classical acceleration at q̈ = 0, and Baumgarte's terms
            motion = X.apply(a[h.body]);
            motion.template tail<3>() += Vec3<S>(ang(v)).cross(Vec3<S>(lin(v)));
            if (h.kd != 0) motion += S(h.kd) * v;
            for (int e = 0; h.kp != 0 && e < rows; ++e) motion[first + e] += S(h.kp) * errors[h.error + e];
        }
        motion = spatial<S>(X_0.E.transpose() * ang(motion), X_0.E.transpose() * lin(motion));  // in world axes
        for (int e = 0; e < rows; ++e) k[r + e] = motion[first + e];
        r += rows;
    }
    // H = Lᵀ D L, Y = L⁻ᵀ Jᵀ and D⁻¹ Y
    const std::vector<int> lambda = expanded_parent(model);
    MatX<S> LD = crba<S>(model, q);
    ltdl<S>(LD, lambda);
    MatX<S> Y = Jt, DY(n, m);
    for (int c = 0; c < m; ++c) {
        VecX<S> y = Y.col(c);
        Lt_solve<S>(LD, lambda, y, Diagonal::Unit);
        Y.col(c) = y;
        for (int i = 0; i < n; ++i) DY(i, c) = y[i] / LD(i, i);
    }
    // J H⁻¹ Jᵀ = Yᵀ D⁻¹ Y, its lower triangle, and the right-hand side
    MatX<S> A = MatX<S>::Zero(m, m);
    for (int r = 0; r < m; ++r)
        for (int c = 0; c <= r; ++c)
            for (int i = 0; i < n; ++i) A(r, c) = A(r, c) + Y(i, r) * DY(i, c);
    VecX<S> rhs = -k, z = VecX<S>::Zero(n);
    if (!impulse) {
        const VecX<S> C = rnea<S>(model, q, qd, VecX<S>::Zero(n), gravity);
        for (int i = 0; i < n; ++i) z[i] = tau[i] - C[i];
        Lt_solve<S>(LD, lambda, z, Diagonal::Unit);
        for (int r = 0; r < m; ++r)
            for (int i = 0; i < n; ++i) rhs[r] = rhs[r] - DY(i, r) * z[i];
    }
    const std::vector<int> dense = dense_parent(m);
    ltdl<S>(A, dense);
    ConstrainedMotion<S> out{VecX<S>(n), ltdl_solve<S>(A, dense, rhs)};
    VecX<S> world = out.lambda;  // each frame's wrench in world axes about F's origin, into F's axes
    for (int f = 0, r = 0; f < static_cast<int>(held.size()); ++f) {
        for (int part = held[f].point ? 1 : 0; part < 2; ++part, r += 3)
            out.lambda.template segment<3>(r) = E[f] * Vec3<S>(world.template segment<3>(r));
    }
    // q̈ = L⁻¹ D⁻¹ (z + Y λ), or q̇⁺ = q̇ + L⁻¹ D⁻¹ Y Λ
    VecX<S> x = z;
    for (int i = 0; i < n; ++i) {
        for (int c = 0; c < m; ++c) x[i] = x[i] + Y(i, c) * world[c];
        x[i] = x[i] / LD(i, i);
    }
    L_solve<S>(LD, lambda, x, Diagonal::Unit);
    for (int i = 0; i < n; ++i) out.qdd[i] = impulse ? S(qd[i] + x[i]) : x[i];
    return out;
}

}  // namespace rbdgen
