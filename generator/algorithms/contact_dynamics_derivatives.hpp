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
// Baumgarte's errors e (an input; k's row r holds kp e_j, ∂k/∂e = Kp) enter as M = Kp with R = 0:
//   ∂q̈/∂e = −Gᵀ Kp,   ∂λ/∂e = −A⁻¹ Kp.
// The forward solution is H's too: q̈_free = H⁻¹ (τ − C), A λ = −(J q̈_free + k), q̈ = q̈_free + W λ.
// Along q and q̇ the products with 𝒦⁻¹ are solves with the factors, cheaper than 𝒦⁻¹ formed (H⁻¹ is
// dense, L is not): Y = H⁻¹ R, ∂λ = A⁻¹ (J Y − M), ∂q̈ = W ∂λ − Y.
// The emitted kernel runs contact_system (traced: H's factors, J, τ − C and k), then every dense step
// as loops over whole rows (emit/ltdl_loops.hpp, KernelSpec::LtdlLoops::Kkt): W, A and its factors, G,
// K, then λ = −A⁻¹ (Wᵀ b + k) and q̈ = K b − Gᵀ k (b = τ − C: the same numbers, without H⁻¹ b's solve
// of one vector), contact_kkt_sides (R and M traced, into the outputs) and the solves above. An
// impact's loops form no G: −A⁻¹ J, then 1 − Gᵀ J as 1 + W (−A⁻¹ J), Λ = (−A⁻¹ J) q̇ and q̇⁺ = q̇ + W Λ.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

// The KKT system as the emitted kernel's head traces it: H's LTDL factors, the held rows J of the
// frames' Jacobians, b = τ − C (an impact: q̇) and k = m at q̈ = 0 (an impact: zero), so that
// A λ = −(J H⁻¹ b + k) (an impact: A Λ = −J q̇).
template <class S> struct ContactSystem {
    MatX<S> LD;    // H's factors, in H's lower triangle (ltdl.hpp)
    MatX<S> J;     // m x NV
    VecX<S> b, k;  // NV and m
};

template <class S>
ContactSystem<S> contact_system(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q, const VecX<S>& qd,
                                const VecX<S>& tau, const Vec3<S>& gravity, const VecX<S>& errors, bool impulse) {
    const int n = model.nv, m = held_rows(held);
    const VecX<S> zero = VecX<S>::Zero(n);
    JointSpaceSystem<S> sys = joint_space_system<S>(model, q, impulse ? zero : qd, impulse ? Vec3<S>::Zero() : gravity);
    ltdl<S>(sys.H, expanded_parent(model));
    const std::vector<FrameMotionDerivatives<S>> at_rest = frame_motion_derivatives<S>(model, held_link_frames(held), q, qd, zero);
    ContactSystem<S> s{sys.H, MatX<S>(m, n), impulse ? qd : VecX<S>(tau - sys.C), VecX<S>(m)};
    for (size_t h = 0, r = 0; h < held.size(); ++h) {
        const HeldFrame& c = held[h];
        Vec6<S> motion = impulse ? Vec6<S>::Zero() : at_rest[h].a;
        if (!impulse && c.kd != 0) motion += S(c.kd) * at_rest[h].v;
        for (int e = c.first(); !impulse && c.kp != 0 && e < 6; ++e) motion[e] += S(c.kp) * errors[c.error_at(e)];
        for (int e = c.first(); e < 6; ++e, ++r) s.J.row(r) = at_rest[h].J.row(e), s.k[r] = motion[e];
    }
    return s;
}

// The rest of 𝒦⁻¹'s pieces, and the forward solution: W = H⁻¹ Jᵀ, A = J W and its LTDL factors
// (dense, m x m), G = A⁻¹ Wᵀ, q̈ (an impact: q̇⁺) and λ (the impulses).
template <class S> struct ContactKkt {
    ContactSystem<S> sys;
    MatX<S> W, LA, G;
    VecX<S> qdd, lambda;
};

template <class S> ContactKkt<S> contact_kkt(const Model& model, ContactSystem<S> sys, bool impulse) {
    const int n = model.nv, m = static_cast<int>(sys.k.size());
    const std::vector<int> lambda = expanded_parent(model), dense = dense_parent(m);
    ContactKkt<S> d{std::move(sys), MatX<S>(n, m), MatX<S>::Zero(m, m), MatX<S>(m, n), VecX<S>(), VecX<S>()};
    const MatX<S>& J = d.sys.J;
    for (int c = 0; c < m; ++c) d.W.col(c) = ltdl_solve<S>(d.sys.LD, lambda, VecX<S>(J.row(c).transpose()));
    for (int r = 0; r < m; ++r)
        for (int c = 0; c <= r; ++c) d.LA(r, c) = J.row(r).dot(d.W.col(c));
    ltdl<S>(d.LA, dense);
    for (int c = 0; c < n; ++c) d.G.col(c) = ltdl_solve<S>(d.LA, dense, VecX<S>(d.W.row(c).transpose()));
    const VecX<S> free = impulse ? d.sys.b : VecX<S>(ltdl_solve<S>(d.sys.LD, lambda, d.sys.b));
    d.lambda = ltdl_solve<S>(d.LA, dense, VecX<S>(-(J * free + d.sys.k)));  // an impact: −A⁻¹ J q̇
    d.qdd = free + d.W * d.lambda;
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
        for (int e = held[h].first(); e < 6; ++e, ++r) {  // + kd ∂v: ∂v/∂q and J
            if (impulse) {
                sides[0].row(r) = f[h].dv_dq.row(e);
                continue;
            }
            sides[0].row(r) = f[h].da_dq.row(e) + S(held[h].kd) * f[h].dv_dq.row(e);
            sides[1].row(r) = f[h].da_dqd.row(e) + S(held[h].kd) * f[h].J.row(e);
        }
    return sides;
}

// Baumgarte's errors, element by element (the problem's measurements input: the frames with kp ≠ 0,
// their held components in order): the row r of k it enters, as kp e.
struct HeldError {
    int row = 0;
    double kp = 0;
};
inline std::vector<HeldError> held_errors(const std::vector<HeldFrame>& held) {
    std::vector<HeldError> errors;
    for (size_t h = 0, r = 0; h < held.size(); ++h)
        for (int e = held[h].first(); e < 6; ++e, ++r) {
            if (held[h].kp == 0) continue;
            const size_t j = held[h].error_at(e);
            if (errors.size() <= j) errors.resize(j + 1);
            errors[j] = {static_cast<int>(r), held[h].kp};
        }
    return errors;
}

// The whole: along q and q̇ (an impact: q), Y = H⁻¹ R, ∂λ = A⁻¹ (J Y − M), ∂q̈ = W ∂λ − Y; along τ,
// K = H⁻¹ − W G and −G; along Baumgarte's errors −Gᵀ Kp and −A⁻¹ Kp; an impact's along q̇, 1 − Gᵀ J
// and −A⁻¹ J.
template <class S> struct ContactDerivatives {
    MatX<S> dqdd_dq, dqdd_dqd, dqdd_dtau;           // NV x NV (an impact: ∂q̇⁺/∂q, ∂q̇⁺/∂q̇, no dtau)
    MatX<S> dlambda_dq, dlambda_dqd, dlambda_dtau;  // m x NV
    MatX<S> dqdd_de, dlambda_de;                    // NV x ne and m x ne (held_errors; none without, or an impact)
};
template <class S>
ContactDerivatives<S> contact_dynamics_derivatives(const Model& model, const std::vector<HeldFrame>& held, const VecX<S>& q,
                                                   const VecX<S>& qd, const VecX<S>& tau, const Vec3<S>& gravity,
                                                   const VecX<S>& errors, bool impulse) {
    const int n = model.nv;
    const ContactKkt<S> kkt = contact_kkt<S>(model, contact_system<S>(model, held, q, qd, tau, gravity, errors, impulse), impulse);
    const std::vector<MatX<S>> sides = contact_kkt_sides<S>(model, held, q, qd, kkt.qdd, kkt.lambda, gravity, impulse);
    const int m = static_cast<int>(kkt.lambda.size());
    const std::vector<int> lambda = expanded_parent(model), dense = dense_parent(m);
    const MatX<S>& J = kkt.sys.J;
    std::vector<MatX<S>> dqdd, dlambda;
    for (const MatX<S>& X : sides) {
        MatX<S> Y(n, n), T(m, n);
        for (int c = 0; c < n; ++c) Y.col(c) = ltdl_solve<S>(kkt.sys.LD, lambda, VecX<S>(X.col(c).head(n)));
        const MatX<S> JY = J * Y;
        for (int c = 0; c < n; ++c) T.col(c) = ltdl_solve<S>(kkt.LA, dense, VecX<S>(JY.col(c) - X.col(c).tail(m)));
        dqdd.push_back(kkt.W * T - Y), dlambda.push_back(T);
    }
    if (impulse) {
        MatX<S> AJ(m, n);
        for (int c = 0; c < n; ++c) AJ.col(c) = ltdl_solve<S>(kkt.LA, dense, VecX<S>(J.col(c)));
        dqdd.push_back(MatX<S>::Identity(n, n) - kkt.G.transpose() * J), dlambda.push_back(-AJ);
    } else {
        dqdd.push_back(ltdl_inverse<S>(kkt.sys.LD, lambda) - kkt.W * kkt.G), dlambda.push_back(-kkt.G);
        const std::vector<HeldError> E = held_errors(held);
        MatX<S> Kp = MatX<S>::Zero(m, static_cast<int>(E.size()));
        for (size_t j = 0; j < E.size(); ++j) Kp(E[j].row, j) = S(E[j].kp);
        MatX<S> AK(m, Kp.cols());
        for (int c = 0; c < Kp.cols(); ++c) AK.col(c) = ltdl_solve<S>(kkt.LA, dense, VecX<S>(-Kp.col(c)));
        dqdd.push_back(-kkt.G.transpose() * Kp), dlambda.push_back(AK);
    }
    ContactDerivatives<S> d;
    d.dqdd_dq = dqdd[0], d.dlambda_dq = dlambda[0];
    d.dqdd_dqd = dqdd[1], d.dlambda_dqd = dlambda[1];
    if (!impulse) d.dqdd_dtau = dqdd[2], d.dlambda_dtau = dlambda[2], d.dqdd_de = dqdd[3], d.dlambda_de = dlambda[3];
    return d;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CONTACT_SYSTEM(S) ContactSystem<S> contact_system(const Model&, const std::vector<HeldFrame>&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_SYSTEM)
#define RBDGEN_CONTACT_KKT_SIDES(S) std::vector<MatX<S>> contact_kkt_sides(const Model&, const std::vector<HeldFrame>&, \
    const VecX<S>&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_KKT_SIDES)
#define RBDGEN_CONTACT_DYNAMICS_DERIVATIVES(S) ContactDerivatives<S> contact_dynamics_derivatives(const Model&, \
    const std::vector<HeldFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, const VecX<S>&, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_CONTACT_DYNAMICS_DERIVATIVES)

}  // namespace rbdgen
