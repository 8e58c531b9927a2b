// Derivatives of constrained dynamics and of an impact (contact_aba.hpp) by the KKT system's implicit
// derivative (Carpentier and Mansard, RSS 2018, §III-C, with the contacts' rows; Pinocchio's
// computeConstraintDynamicsDerivatives and computeImpulseDynamicsDerivatives). With the contacts'
// wrenches λ (in their frames, as external forces) constrained dynamics is
//   ID(q, q̇, q̈, λ) = H q̈ + C − Jᵀ λ = τ,   m(q, q̇, q̈) = J q̈ + k = 0,
// m the held components of each frame's classical acceleration plus Baumgarte's kd v + kp e. At the
// solution, along any x of q (tangent space), q̇ or τ, with R = ∂ID/∂x (rnea_derivatives.hpp at q̈ and
// λ, the wrenches turning with their bodies) and M = ∂m/∂x at fixed q̈ (frame_motion_derivatives.hpp):
//   H ∂q̈ − Jᵀ ∂λ = ∂τ/∂x − R,   J ∂q̈ = −M,
// solved with H's LTDL factors (which never fill in, Featherstone App. A), W = H⁻¹ Jᵀ, the
// operational-space matrix A = J H⁻¹ Jᵀ factorized dense (m × m) and G = A⁻¹ Wᵀ: the KKT matrix
// [H −Jᵀ; J 0] has the inverse 𝒦⁻¹ = [K Gᵀ; −G A⁻¹], K = H⁻¹ − W G the constrained inverse, so that
//   [∂q̈; ∂λ] = −𝒦⁻¹ [R; M] along q and q̇,   [∂q̈/∂τ; ∂λ/∂τ] = [K; −G].
// An inelastic impact, H (q̇⁺ − q̇) − Jᵀ Λ = 0 and J q̇⁺ = 0, is the same with R = ∂/∂q of
// RNEA(q, 0, q̇⁺ − q̇, no gravity, Λ), M = ∂(J q̇⁺)/∂q at fixed q̇⁺, and along q̇ (before) R = −H, M = 0:
//   ∂q̇⁺/∂q̇ = 1 − Gᵀ J,   ∂Λ/∂q̇ = −A⁻¹ J.
// The forward solution is H's too: q̈_free = H⁻¹ (τ − C), A λ = −(J q̈_free + k), q̈ = q̈_free + W λ.
// The emitted kernel runs contact_kkt (traced, all but K: H's factors, W, G, the other blocks of 𝒦⁻¹, q̈,
// λ), K = H⁻¹ − W G as loops over whole rows (H⁻¹ by solves with the factors), contact_kkt_sides ([R; M],
// traced) and the products −𝒦⁻¹ [R; M] as loops (emit/ltdl_loops.hpp, KernelSpec::LtdlLoops::Kkt).
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

// The KKT system's inverse, and what its forward solve gives (the emitted kernel's head). Along any x,
// [H −Jᵀ; J 0] [∂q̈; ∂λ] = [∂τ/∂x − R; −M], whose inverse is 𝒦⁻¹ = [K Gᵀ; −G A⁻¹] with G = A⁻¹ Wᵀ and
// K = H⁻¹ − W G (the constrained inverse): [∂q̈; ∂λ] = −𝒦⁻¹ [R; M] along q and q̇, 𝒦⁻¹ [1; 0] along τ.
template <class S> struct ContactKkt {
    VecX<S> qdd, lambda;  // q̈ (an impact: q̇⁺) and the wrenches (impulses), contact_aba's
    MatX<S> Kinv;         // 𝒦⁻¹, (NV + m) x (NV + m)
    MatX<S> LD, W, G;     // H's LTDL factors, H⁻¹ Jᵀ and A⁻¹ Wᵀ: K = H⁻¹ − W G
    // along τ: [K; −G]; an impact, along q̇ (R = −H, M = 0): 𝒦⁻¹ [H; 0] = [1 − Gᵀ J; −A⁻¹ J]
    MatX<S> along;
};

template <class S>
ContactKkt<S> contact_kkt(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q, const VecX<S>& qd,
                          const VecX<S>& tau, const Vec3<S>& gravity, const VecX<S>& errors, bool impulse) {
    const int n = model.nv, m = held_rows(held);
    const std::vector<LinkFrame> frames = held_link_frames(held);
    std::vector<int> first;  // each frame's first held component: 0 (6D) or 3 (a point)
    for (const HeldFrame& h : held) first.push_back(h.point ? 3 : 0);
    const VecX<S> zero = VecX<S>::Zero(n);
    // H, C and H's factors; J and k = m at q̈ = 0 (an impact: k = J q̇)
    JointSpaceSystem<S> sys = joint_space_system<S>(model, q, impulse ? zero : qd, impulse ? Vec3<S>::Zero() : gravity);
    const std::vector<int> lambda = expanded_parent(model), dense = dense_parent(m);
    ltdl<S>(sys.H, lambda);
    const std::vector<FrameMotionDerivatives<S>> at_rest = frame_motion_derivatives<S>(model, frames, q, qd, zero);
    MatX<S> J(m, n);
    VecX<S> k(m);
    for (size_t h = 0, r = 0; h < held.size(); ++h) {
        const HeldFrame& c = held[h];
        Vec6<S> motion = impulse ? at_rest[h].v : at_rest[h].a;
        if (!impulse && c.kd != 0) motion += S(c.kd) * at_rest[h].v;
        for (int e = first[h]; !impulse && c.kp != 0 && e < 6; ++e) motion[e] += S(c.kp) * errors[c.error + e - first[h]];
        for (int e = first[h]; e < 6; ++e, ++r) J.row(r) = at_rest[h].J.row(e), k[r] = motion[e];
    }
    // W = H⁻¹ Jᵀ, A = J W factorized, G = A⁻¹ Wᵀ
    MatX<S> W(n, m), A = MatX<S>::Zero(m, m), G(m, n);
    for (int c = 0; c < m; ++c) {
        const Step<S> step;
        W.col(c) = ltdl_solve<S>(sys.H, lambda, VecX<S>(J.row(c).transpose()));
    }
    for (int r = 0; r < m; ++r)
        for (int c = 0; c <= r; ++c) A(r, c) = J.row(r).dot(W.col(c));
    ltdl<S>(A, dense);
    for (int c = 0; c < n; ++c) {
        const Step<S> step;
        G.col(c) = ltdl_solve<S>(A, dense, VecX<S>(W.row(c).transpose()));
    }
    // The forward solution: q̈_free = H⁻¹ (τ − C), A λ = −(J q̈_free + k), q̈ = q̈_free + W λ (an impact: q̇⁺ = q̇ + W Λ, A Λ = −J q̇)
    ContactKkt<S> d;
    const VecX<S> free = impulse ? qd : VecX<S>(ltdl_solve<S>(sys.H, lambda, VecX<S>(tau - sys.C)));
    d.lambda = ltdl_solve<S>(A, dense, impulse ? VecX<S>(-k) : VecX<S>(-(J * free + k)));
    d.qdd = free + W * d.lambda;
    // 𝒦⁻¹: K = H⁻¹ − W G (symmetric), Gᵀ, −G and A⁻¹
    d.LD = sys.H, d.W = W, d.G = G;
    d.Kinv = MatX<S>(n + m, n + m);
    const MatX<S> Hinv = ltdl_inverse<S>(sys.H, lambda), Ainv = ltdl_inverse<S>(A, dense);
    for (int r = 0; r < n; ++r) {
        const Step<S> step;
        for (int c = 0; c <= r; ++c) d.Kinv(r, c) = d.Kinv(c, r) = Hinv(r, c) - W.row(r).dot(G.col(c));
    }
    d.Kinv.topRightCorner(n, m) = G.transpose();
    d.Kinv.bottomLeftCorner(m, n) = -G;
    d.Kinv.bottomRightCorner(m, m) = Ainv;
    if (impulse) {  // [1 − Gᵀ J; −A⁻¹ J]
        d.along = MatX<S>(n + m, n);
        d.along.topRows(n) = MatX<S>::Identity(n, n) - G.transpose() * J;
        d.along.bottomRows(m) = -(Ainv * J);
    } else {
        d.along = d.Kinv.leftCols(n);
    }
    return d;
}

// The right-hand sides [R; M] along q and q̇ (an impact: along q alone), (NV + m) x NV each, at the
// solution q̈ (q̇⁺) and λ (the emitted kernel's tail): R from rnea_derivatives with λ as the wrenches on
// the held frames' bodies, M from frame_motion_derivatives at fixed q̈ (an impact: ∂(J q̇⁺)/∂q at fixed q̇⁺).
template <class S>
std::vector<MatX<S>> contact_kkt_sides(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q, const VecX<S>& qd,
                                       const VecX<S>& qdd, const VecX<S>& lambda, const Vec3<S>& gravity, bool impulse) {
    const int n = model.nv, m = held_rows(held);
    const std::vector<LinkFrame> frames = held_link_frames(held);
    const std::vector<Vec6<S>> f_ext = held_wrenches(model, held, lambda);
    const VecX<S> zero = VecX<S>::Zero(n);
    const RneaDerivatives<S> id = impulse ? rnea_derivatives<S>(model, q, zero, VecX<S>(qdd - qd), Vec3<S>::Zero(), &f_ext)
                                          : rnea_derivatives<S>(model, q, qd, qdd, gravity, &f_ext);
    const std::vector<FrameMotionDerivatives<S>> f =
        impulse ? frame_motion_derivatives<S>(model, frames, q, qdd, zero) : frame_motion_derivatives<S>(model, frames, q, qd, qdd);
    std::vector<MatX<S>> sides(impulse ? 1 : 2, MatX<S>(n + m, n));
    sides[0].topRows(n) = id.dtau_dq;
    if (!impulse) sides[1].topRows(n) = id.dtau_dqd;
    for (size_t h = 0, r = n; h < held.size(); ++h)
        for (int e = held[h].point ? 3 : 0; e < 6; ++e, ++r) {  // + kd ∂v: ∂v/∂q and J
            if (impulse) {
                sides[0].row(r) = f[h].dv_dq.row(e);
                continue;
            }
            sides[0].row(r) = f[h].da_dq.row(e) + S(held[h].kd) * f[h].dv_dq.row(e);
            sides[1].row(r) = f[h].da_dqd.row(e) + S(held[h].kd) * f[h].J.row(e);
        }
    return sides;
}

// The whole: 𝒦⁻¹ and the sides, and −𝒦⁻¹ [R; M] for each.
template <class S> struct ContactDerivatives {
    MatX<S> dqdd_dq, dqdd_dqd, dqdd_dtau;           // NV x NV (an impact: ∂q̇⁺/∂q, ∂q̇⁺/∂q̇, no dtau)
    MatX<S> dlambda_dq, dlambda_dqd, dlambda_dtau;  // m x NV
};
template <class S>
ContactDerivatives<S> contact_dynamics_derivatives(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q,
                                                   const VecX<S>& qd, const VecX<S>& tau, const Vec3<S>& gravity,
                                                   const VecX<S>& errors, bool impulse) {
    const int n = model.nv;
    const ContactKkt<S> kkt = contact_kkt<S>(model, held, q, qd, tau, gravity, errors, impulse);
    const std::vector<MatX<S>> sides = contact_kkt_sides<S>(model, held, q, qd, kkt.qdd, kkt.lambda, gravity, impulse);
    const int m = static_cast<int>(kkt.lambda.size());
    std::vector<MatX<S>> along;
    for (const MatX<S>& X : sides) along.push_back(-(kkt.Kinv * X));
    along.push_back(kkt.along);
    ContactDerivatives<S> d;
    d.dqdd_dq = along[0].topRows(n), d.dlambda_dq = along[0].bottomRows(m);
    d.dqdd_dqd = along[1].topRows(n), d.dlambda_dqd = along[1].bottomRows(m);
    if (!impulse) d.dqdd_dtau = along[2].topRows(n), d.dlambda_dtau = along[2].bottomRows(m);
    return d;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CONTACT_KKT(S) ContactKkt<S> contact_kkt(const Model&, const std::vector<HeldFrame>&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_KKT)
#define RBDGEN_CONTACT_KKT_SIDES(S) std::vector<MatX<S>> contact_kkt_sides(const Model&, const std::vector<HeldFrame>&, \
    const VecX<S>&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_KKT_SIDES)
#define RBDGEN_CONTACT_DYNAMICS_DERIVATIVES(S) ContactDerivatives<S> contact_dynamics_derivatives(const Model&, \
    const std::vector<HeldFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_DYNAMICS_DERIVATIVES)

}  // namespace rbdgen
