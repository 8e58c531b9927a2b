// Constrained dynamics with the articulated-body algorithm (RBDA ch. 7 and 8). Frames F held by
// contacts give rows J q̈ + k = 0 and the wrenches λ on the robot at F, H q̈ + C = τ + Jᵀ λ, so that
//   q̈ = q̈_free + H⁻¹ Jᵀ λ,   (J H⁻¹ Jᵀ) λ = −(J q̈_free + k),
// q̈_free the ABA's. The ABA is H's factorization by bodies: a wrench w on body i reaches its parent
// as ⁱX_λᵀ (w − U_i D_i⁻¹ S_iᵀ w) (the articulated transfer of its backward pass), so that with
// y_i = S_iᵀ w_i, each row's unit wrench carried from its body to the root,
//   J H⁻¹ Jᵀ = Σ_i y_iᵀ D_i⁻¹ y_i
// over the bodies that support the contacts (Featherstone's Λ⁻¹ through the articulated inertias; the
// LTDL's Yᵀ D⁻¹ Y, its blocks the bodies'). That m × m matrix is factorized dense by LTDL, and q̈ is the
// ABA again with the wrenches λ as external forces: the articulated inertias are the first call's
// (the tracer shares them), only the bias forces on the contacts' paths and the last pass are new.
// An inelastic impact (Pinocchio's impulseDynamics), H (q̇⁺ − q̇) = Jᵀ Λ and J q̇⁺ = 0:
//   (J H⁻¹ Jᵀ) Λ = −J q̇,   q̇⁺ = q̇ + ABA(q, 0, 0, no gravity, Λ).
// The same equations as a contact problem's rows on Nori's system (sparse/problem_file.cpp), solved a
// second way: the LU eliminates the whole Newton–Euler system, this the tree body by body.
#pragma once

#include <vector>

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"

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
    int first() const { return point ? 3 : 0; }                // the first held component of a 6-vector [angular; linear]
    int error_at(int e) const { return error + e - first(); }  // held component e's element of the errors
};

// The rows of the held frames (3 a point, 6 else); the frames as operational frames; their wrenches
// λ (in their frames, [n; f] or f, frame after frame) as each body's, in its own coordinates.
inline int held_rows(const std::vector<HeldFrame>& held) {
    int m = 0;
    for (const HeldFrame& h : held) m += h.point ? 3 : 6;
    return m;
}
inline std::vector<LinkFrame> held_link_frames(const std::vector<HeldFrame>& held) {
    std::vector<LinkFrame> frames;
    for (const HeldFrame& h : held) frames.push_back({"", h.body, h.X, {}});
    return frames;
}
template <class S> std::vector<Vec6<S>> held_wrenches(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& lambda) {
    std::vector<Vec6<S>> f_ext(model.N(), Vec6<S>::Zero());
    for (size_t h = 0, r = 0; h < held.size(); ++h) {
        Vec6<S> wF = Vec6<S>::Zero();
        for (int e = held[h].first(); e < 6; ++e) wF[e] = lambda[r++];
        f_ext[held[h].body] += held[h].X.template cast<S>().transpose_apply(wF);
    }
    return f_ext;
}

template <class S> struct ConstrainedMotion {
    VecX<S> qdd;     // q̈, or q̇⁺ after an impact
    VecX<S> lambda;  // each frame's wrench (impulse) in F coordinates, [n; f] or f, frame after frame
};

template <class S>
ConstrainedMotion<S> contact_aba(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q, const VecX<S>& qd,
                                 const VecX<S>& tau, const Vec3<S>& gravity, const VecX<S>& errors, bool impulse) {
    const int N = model.N(), n = model.nv, m = held_rows(held);
    const VecX<S> zero = VecX<S>::Zero(n);
    // The free motion (an impact: only the velocities and the articulated inertias are used).
    AbaBodies<S> free;
    aba<S>(model, q, qd, impulse ? zero : tau, impulse ? Vec3<S>::Zero() : gravity, nullptr, &free);
    // D_i⁻¹ x and the articulated transfer of a wrench w on body i to its parent.
    const auto D_solve = [&](int i, const VecX<S>& x) -> VecX<S> {
        if (free.D_LD[i].rows() == 1) return x * free.D_LD[i](0, 0);
        return ltdl_solve<S>(free.D_LD[i], dense_parent(static_cast<int>(free.D_LD[i].rows())), x);
    };
    // Each row's unit wrench at F (rows in F's axes), carried to the root: y[i] column r is S_iᵀ w_i.
    std::vector<MatX<S>> y(N), Dy(N);
    for (int i = 0; i < N; ++i) y[i] = MatX<S>::Zero(model.bodies[i].joint.nv(), m);
    for (int f = 0, r = 0; f < static_cast<int>(held.size()); ++f) {
        const HeldFrame& h = held[f];
        for (int e = h.first(); e < 6; ++e, ++r) {
            Vec6<double> unit = Vec6<double>::Zero();
            unit[e] = 1;
            Vec6<S> w = h.X.transpose_apply(unit).cast<S>();  // ᵇX_F* e, in the body's coordinates
            for (int i = h.body; i >= 0; i = model.bodies[i].lambda) {
                const Subspace<S> S_i = motion_subspace<S>(model.bodies[i].joint);
                const VecX<S> y_i = S_i.transpose() * w;
                y[i].col(r) = y_i;
                if (model.bodies[i].lambda < 0) break;
                w = free.X[i].transpose_apply(Vec6<S>(w - (y_i.size() == 1 ? Vec6<S>(free.U_D[i] * y_i[0]) : Vec6<S>(free.U[i] * D_solve(i, y_i)))));
            }
        }
    }
    // J H⁻¹ Jᵀ = Σ_i y_iᵀ D_i⁻¹ y_i, its lower triangle; a multi-DoF D_i = Lᵀ D L as (L⁻ᵀ y)ᵀ D⁻¹ (L⁻ᵀ y)
    MatX<S> A = MatX<S>::Zero(m, m);
    for (int i = 0; i < N; ++i) {
        const int n_i = static_cast<int>(y[i].rows());
        Dy[i] = MatX<S>(n_i, m);
        for (int c = 0; c < m; ++c) {
            if (n_i == 1) {
                Dy[i](0, c) = y[i](0, c) * free.D_LD[i](0, 0);
                continue;
            }
            VecX<S> x = y[i].col(c);
            Lt_solve<S>(free.D_LD[i], dense_parent(n_i), x, Diagonal::Unit);
            y[i].col(c) = x;
            for (int k = 0; k < n_i; ++k) Dy[i](k, c) = x[k] / free.D_LD[i](k, k);
        }
        for (int r = 0; r < m; ++r)
            for (int c = 0; c <= r; ++c)
                for (int k = 0; k < n_i; ++k) A(r, c) = A(r, c) + y[i](k, r) * Dy[i](k, c);
    }
    // The right-hand side: the frames' motion at q̈_free. The ABA's accelerations carry gravity
    // reversed (a_0 = −a_g): ᶠX_0 a_g, gravity in F's axes, is added back.
    std::vector<Vec3<S>> g(N);  // gravity in each body's axes
    for (int i = 0; i < N; ++i) g[i] = free.X[i].rotate(model.bodies[i].lambda < 0 ? gravity : g[model.bodies[i].lambda]);
    VecX<S> rhs(m);
    for (int f = 0, r = 0; f < static_cast<int>(held.size()); ++f) {
        const HeldFrame& h = held[f];
        const Transform<S> X = h.X.cast<S>();
        const Vec6<S> v = X.apply(free.v[h.body]);
        Vec6<S> motion = v;  // an impact: J q̇
        if (!impulse) {      // the classical acceleration, and Baumgarte's terms
            motion = X.apply(free.a[h.body]);
            motion.template tail<3>() += X.E * g[h.body] + Vec3<S>(ang(v)).cross(Vec3<S>(lin(v)));
            if (h.kd != 0) motion += S(h.kd) * v;
            for (int e = h.first(); h.kp != 0 && e < 6; ++e) motion[e] += S(h.kp) * errors[h.error_at(e)];
        }
        for (int e = h.first(); e < 6; ++e) rhs[r++] = -motion[e];
    }
    const std::vector<int> dense = dense_parent(m);
    ltdl<S>(A, dense);
    ConstrainedMotion<S> out{VecX<S>(n), ltdl_solve<S>(A, dense, rhs)};
    // q̈ = ABA with the wrenches as external forces, in the bodies' coordinates
    const std::vector<Vec6<S>> f_ext = held_wrenches(model, held, out.lambda);
    out.qdd = impulse ? VecX<S>(qd + aba<S>(model, q, zero, zero, Vec3<S>::Zero(), &f_ext))
                      : aba<S>(model, q, qd, tau, gravity, &f_ext);
    return out;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CONTACT_ABA(S) ConstrainedMotion<S> contact_aba(const Model&, const std::vector<HeldFrame>&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_ABA)

}  // namespace rbdgen
