// Derivatives of constrained dynamics and of an impact (contact_aba.hpp) by the KKT system's implicit
// derivative (Carpentier and Mansard, RSS 2018, §III-C, with the contacts' rows; Pinocchio's
// computeConstraintDynamicsDerivatives and computeImpulseDynamicsDerivatives). With the contacts'
// wrenches λ (in their frames, as external forces) constrained dynamics is
//   ID(q, q̇, q̈, λ) = H q̈ + C − Jᵀ λ = τ,   m(q, q̇, q̈) = J q̈ + k = 0,
// m the held components of each frame's classical acceleration plus Baumgarte's kd v + kp e. At the
// solution, along any x of q (tangent space), q̇ or τ, with R = ∂ID/∂x (rnea_derivatives.hpp at q̈ and
// λ, the wrenches turning with their bodies) and M = ∂m/∂x at fixed q̈ (frame_motion_derivatives.hpp):
//   H ∂q̈ − Jᵀ ∂λ = ∂τ/∂x − R,   J ∂q̈ = −M,
// solved with H's LTDL factors (which never fill in, Featherstone App. A), W = H⁻¹ Jᵀ and the
// operational-space matrix A = J H⁻¹ Jᵀ, factorized dense (m × m):
//   Y = H⁻¹ R,   A ∂λ = J Y − M,   ∂q̈ = W ∂λ − Y;     ∂λ/∂τ = −A⁻¹ Wᵀ,   ∂q̈/∂τ = H⁻¹ − W A⁻¹ Wᵀ.
// An inelastic impact, H (q̇⁺ − q̇) − Jᵀ Λ = 0 and J q̇⁺ = 0, is the same with R = ∂/∂q of
// RNEA(q, 0, q̇⁺ − q̇, no gravity, Λ), M = ∂(J q̇⁺)/∂q at fixed q̇⁺, and along q̇ (before) R = −H, M = 0:
//   ∂Λ/∂q̇ = −A⁻¹ J,   ∂q̇⁺/∂q̇ = 1 − W A⁻¹ J.
// The forward solution is H's too: q̈_free = H⁻¹ (τ − C), A λ = −(J q̈_free + k), q̈ = q̈_free + W λ.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

template <class S> struct ContactDerivatives {
    VecX<S> qdd, lambda;  // q̈ (an impact: q̇⁺) and the wrenches (impulses), contact_aba's
    MatX<S> dqdd_dq, dqdd_dqd, dqdd_dtau;           // NV x NV (an impact: ∂q̇⁺/∂q, ∂q̇⁺/∂q̇, no dtau)
    MatX<S> dlambda_dq, dlambda_dqd, dlambda_dtau;  // m x NV
};

template <class S>
ContactDerivatives<S> contact_dynamics_derivatives(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q,
                                                   const VecX<S>& qd, const VecX<S>& tau, const Vec3<S>& gravity,
                                                   const VecX<S>& errors, bool impulse) {
    const int n = model.nv;
    std::vector<LinkFrame> frames;
    std::vector<int> first;  // each frame's first held component: 0 (6D) or 3 (a point)
    int m = 0;
    for (const HeldFrame& h : held) {
        frames.push_back({"", h.body, h.X, {}});
        first.push_back(h.point ? 3 : 0);
        m += h.point ? 3 : 6;
    }
    const VecX<S> zero = VecX<S>::Zero(n);
    const Vec3<S> no_gravity = Vec3<S>::Zero();
    // H, C and H's factors; J and k = m at q̈ = 0 (an impact: J q̇ for k)
    JointSpaceSystem<S> sys = joint_space_system<S>(model, q, impulse ? zero : qd, impulse ? no_gravity : gravity);
    const std::vector<int> lambda = expanded_parent(model), dense = dense_parent(m);
    ltdl<S>(sys.H, lambda);
    const auto held_rows = [&](const std::vector<FrameMotionDerivatives<S>>& f, auto part) {
        MatX<S> out(m, part(f[0]).cols());
        for (size_t h = 0, r = 0; h < held.size(); ++h)
            for (int e = first[h]; e < 6; ++e) out.row(r++) = part(f[h]).row(e);
        return out;
    };
    const std::vector<FrameMotionDerivatives<S>> at_rest = frame_motion_derivatives<S>(model, frames, q, qd, zero);
    const MatX<S> J = held_rows(at_rest, [](const FrameMotionDerivatives<S>& f) -> const MatX<S>& { return f.J; });
    VecX<S> k(m);
    for (size_t h = 0, r = 0; h < held.size(); ++h) {
        const HeldFrame& c = held[h];
        Vec6<S> motion = impulse ? at_rest[h].v : at_rest[h].a;
        if (!impulse && c.kd != 0) motion += S(c.kd) * at_rest[h].v;
        for (int e = first[h]; !impulse && c.kp != 0 && e < 6; ++e) motion[e] += S(c.kp) * errors[c.error + e - first[h]];
        for (int e = first[h]; e < 6; ++e) k[r++] = motion[e];
    }
    // W = H⁻¹ Jᵀ, A = J W, factorized
    MatX<S> W(n, m), A = MatX<S>::Zero(m, m);
    for (int c = 0; c < m; ++c) {
        const Step<S> step;
        W.col(c) = ltdl_solve<S>(sys.H, lambda, VecX<S>(J.row(c).transpose()));
    }
    for (int r = 0; r < m; ++r)
        for (int c = 0; c <= r; ++c) A(r, c) = J.row(r).dot(W.col(c));
    ltdl<S>(A, dense);
    // The forward solution
    ContactDerivatives<S> d;
    const VecX<S> free = impulse ? qd : VecX<S>(ltdl_solve<S>(sys.H, lambda, VecX<S>(tau - sys.C)));
    d.lambda = ltdl_solve<S>(A, dense, VecX<S>(impulse ? VecX<S>(-k) : VecX<S>(-(J * free + k))));  // an impact: k = J q̇
    d.qdd = free + W * d.lambda;
    std::vector<Vec6<S>> f_ext(model.N(), Vec6<S>::Zero());
    for (size_t h = 0, r = 0; h < held.size(); ++h) {
        Vec6<S> wF = Vec6<S>::Zero();
        for (int e = first[h]; e < 6; ++e) wF[e] = d.lambda[r++];
        f_ext[held[h].body] += held[h].X.cast<S>().transpose_apply(wF);
    }
    // R and M along q and q̇
    const RneaDerivatives<S> id = impulse ? rnea_derivatives<S>(model, q, zero, VecX<S>(d.qdd - qd), no_gravity, &f_ext)
                                          : rnea_derivatives<S>(model, q, qd, d.qdd, gravity, &f_ext);
    const std::vector<FrameMotionDerivatives<S>> at_solution =
        impulse ? frame_motion_derivatives<S>(model, frames, q, d.qdd, zero) : frame_motion_derivatives<S>(model, frames, q, qd, d.qdd);
    MatX<S> M_q = held_rows(at_solution, [&](const FrameMotionDerivatives<S>& f) -> MatX<S> { return impulse ? f.dv_dq : f.da_dq; });
    MatX<S> M_qd = held_rows(at_solution, [](const FrameMotionDerivatives<S>& f) -> const MatX<S>& { return f.da_dqd; });
    for (size_t h = 0, r = 0; h < held.size() && !impulse; ++h)
        for (int e = first[h]; e < 6; ++e, ++r)
            if (held[h].kd != 0) {  // + kd ∂v: ∂v/∂q and J
                M_q.row(r) += S(held[h].kd) * at_solution[h].dv_dq.row(e);
                M_qd.row(r) += S(held[h].kd) * J.row(r);
            }
    // ∂λ = A⁻¹ (J Y − M), ∂q̈ = W ∂λ − Y for the columns of Y = H⁻¹ R
    const auto solve = [&](const MatX<S>& Y, const MatX<S>& M, MatX<S>& dqdd, MatX<S>& dlambda) {
        dqdd = MatX<S>(n, Y.cols()), dlambda = MatX<S>(m, Y.cols());
        for (int c = 0; c < Y.cols(); ++c) {
            const Step<S> step;
            dlambda.col(c) = ltdl_solve<S>(A, dense, VecX<S>(J * Y.col(c) - M.col(c)));
            dqdd.col(c) = W * dlambda.col(c) - Y.col(c);
        }
    };
    const auto H_solve = [&](const MatX<S>& R) {
        MatX<S> Y(n, R.cols());
        for (int c = 0; c < R.cols(); ++c) {
            const Step<S> step;
            Y.col(c) = ltdl_solve<S>(sys.H, lambda, VecX<S>(R.col(c)));
        }
        return Y;
    };
    solve(H_solve(id.dtau_dq), M_q, d.dqdd_dq, d.dlambda_dq);
    if (impulse) {  // along q̇: Y = −1, M = 0
        solve(-MatX<S>::Identity(n, n), MatX<S>::Zero(m, n), d.dqdd_dqd, d.dlambda_dqd);
        return d;
    }
    solve(H_solve(id.dtau_dqd), M_qd, d.dqdd_dqd, d.dlambda_dqd);
    // along τ: ∂λ/∂τ = −A⁻¹ Wᵀ, ∂q̈/∂τ = H⁻¹ − W A⁻¹ Wᵀ
    d.dlambda_dtau = MatX<S>(m, n);
    for (int c = 0; c < n; ++c) {
        const Step<S> step;
        d.dlambda_dtau.col(c) = -ltdl_solve<S>(A, dense, VecX<S>(W.row(c).transpose()));
    }
    d.dqdd_dtau = ltdl_inverse<S>(sys.H, lambda) + W * d.dlambda_dtau;
    return d;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CONTACT_DYNAMICS_DERIVATIVES(S) ContactDerivatives<S> contact_dynamics_derivatives(const Model&, \
    const std::vector<HeldFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_DYNAMICS_DERIVATIVES)

}  // namespace rbdgen
