// Analytical derivatives of inverse dynamics, ∂τ/∂q and ∂τ/∂q̇ (Carpentier and Mansard, "Analytical
// Derivatives of Rigid Body Dynamics Algorithms", RSS 2018, §III-B; Pinocchio's computeRNEADerivatives),
// with every quantity of a body in one frame 0, about its origin (the fixed world in the paper):
//   s the columns of ⁰S_i,  v_i = v_λ + S_i q̇_i,  a_i = a_λ + S_i q̈_i + v_i × S_i q̇_i  (a_0 = −g),
//   f_i = I_i a_i + v_i ×* I_i v_i − f^x_i,  F_i = Σ_subtree(i) f_k,  τ_i = S_iᵀ F_i.
// Moving q_j (column s) turns everything of subtree(j) about s: a motion m there changes by s × m,
// a force by s ×* f, an inertia by s ×* I − I s×; what does not turn with the subtree is left over:
//   ∂v_k/∂q_j = s × v_k + u_j,            u_j = v_λ × s                      (Pinocchio's dV/dq)
//   ∂a_k/∂q_j = s × a_k + α_j + u_j × v_k, α_j = a_λ × s + v_λ × u_j          (dA/dq)
//   ∂v_k/∂q̇_j = s,  ∂a_k/∂q̇_j = s × v_k + β_j,  β_j = (v_λ + v_j) × s        (dA/dv)
//   (a joint of one dof: v_j × s = v_λ × s, so β_j = 2 u_j and v_j × S_j q̇_j = u_j q̇_j)
// and with B_k u = I_k (u × v_k) + u ×* (I_k v_k) + v_k ×* (I_k u) (Pinocchio's doYcrb) summed over a
// subtree as Y_i = Σ I_k and B_i = Σ B_k:
//   ∂F_i/∂q_j = s ×* F_i + Y_i α_j + B_i u_j  (i in subtree(j); an ancestor i of j sees F_j's),
//   ∂F_i/∂q̇_j = Y_i β_j + B_i s.
// Since ∂S_i/∂q_j = s × S_i for i in subtree(j), (s × S_i)ᵀ F_i + S_iᵀ (s ×* F_i) = 0, and
//   ∂τ_i/∂q_j = (Y_i S_i)ᵀ α_j + (B_iᵀ S_i)ᵀ u_j        j an ancestor of i or i itself,
//   ∂τ_i/∂q_j = S_iᵀ (s ×* F_j + Y_j α_j + B_j u_j)    i a strict ancestor of j,
// the same with β_j and s for q̇. Every other entry is a branch-induced zero, never computed.
// Each entry is a scalar product of vectors of one configuration, the same in any frame: frame 0 is
// the root body's when the tree has one root, where a floating base's S is the identity, its u zero
// and its α and β sparse (the humanoid's ∂τ: 33.8k → k operations), and the world's otherwise.
// A floating base's columns are along q ⊕ δ, δ = [δω; δv] in base coordinates: X exp(δ), as the
// columns s = ⁰X_1 e_c give it (Pinocchio's convention, to first order).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"
#include "model/topology.hpp"

namespace rbdgen {

// B u = İ u + u ×* H: a subtree's inertia rate İ = Σ (v_k ×* I_k − I_k v_k×), the derivative of its
// inertias as they move, and its momentum H = Σ I_k v_k. İ has a rigid-body inertia's form with ṁ = 0:
// ḣ = m v_O + ω × h, and Ī̇ = ω×Ī − Īω× − (v_O×h× + h×v_O×), v = (ω, v_O) (each point moves at
// v_O + ω × p); so a subtree's B is 15 numbers, not a 6 × 6 matrix.
template <class S> struct InertiaRate {
    RigidBodyInertia<S> Idot;  // m = 0
    Vec6<S> H = Vec6<S>::Zero();
    Vec6<S> operator*(const Vec6<S>& u) const { return Idot * u + crf<S>(u, H); }
    Vec6<S> transpose_times(const Vec6<S>& s) const { return Idot * s - crf<S>(s, H); }  // Bᵀ s
    InertiaRate operator+(const InertiaRate& o) const { return {Idot + o.Idot, H + o.H}; }
};
template <class S> InertiaRate<S> inertia_rate(const RigidBodyInertia<S>& I, const Vec6<S>& v) {
    const Vec3<S> w = ang(v), vO = lin(v);
    const Mat3<S> wI = skew<S>(w) * I.Ibar, vh = vO * I.h.transpose();
    Mat3<S> Ibar_dot;
    const S vh_trace = S(2) * vO.dot(I.h);
    for (int r = 0; r < 3; ++r)  // v_O×h× + h×v_O× = h v_Oᵀ + v_O hᵀ − 2 (v_O·h) 1; ω×Ī − Īω× = ω×Ī + (ω×Ī)ᵀ
        for (int c = r; c < 3; ++c) Ibar_dot(r, c) = wI(r, c) + wI(c, r) - vh(r, c) - vh(c, r) + (r == c ? vh_trace : S(0));
    return {{S(0), Vec3<S>(I.m * vO + w.cross(I.h)), mirror_upper<S>(Ibar_dot)}, I * v};
}

template <class S> struct RneaDerivatives {
    MatX<S> dtau_dq, dtau_dqd;  // NV x NV: row i, column j is ∂τ_i/∂q_j (∂τ_i/∂q̇_j)
};

// What the pair terms take, six numbers each, a DoF (a column s of its joint's S) each: the column's
// s, u, α, β, the row's Y_i s and B_iᵀ s, and for the rows of its strict ancestors ∂F/∂q and ∂F/∂q̇
// (zero on a root's DoFs). In this order, a DoF's 48 numbers after the other's (the compact emission's
// loops read them so: rbdgen_rnea_derivative_pairs in the runtime header).
enum DerivativeVector { kS, kU, kAlpha, kBeta, kYS, kBS, kdFdq, kdFdqd, kDerivativeVectors };
template <class S> using DerivativeVectors = std::vector<std::array<Vec6<S>, kDerivativeVectors>>;

// The two passes, and what they leave: the vectors V, and for each body i the sums over subtree(i)
// Y_i, B_i (whose H is the subtree's momentum Σ I_k v_k) and F_i, all in frame 0; in the world's
// when `world` is set or the tree has more than one root, else in the root body's.
template <class S> struct DerivativePasses {
    DerivativeVectors<S> V;
    std::vector<RigidBodyInertia<S>> Y;
    std::vector<InertiaRate<S>> B;
    std::vector<Vec6<S>> F;
};

template <class S>
DerivativePasses<S> rnea_derivative_passes(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                           const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext,
                                           const BodyInertias<S>* inertias, bool world) {
    const int N = model.N();
    std::vector<Transform<S>> X0(N);  // ⁱX_0
    std::vector<Vec6<S>> v(N), a(N);
    DerivativePasses<S> out{DerivativeVectors<S>(model.nv), std::vector<RigidBodyInertia<S>>(N), std::vector<InertiaRate<S>>(N),
                            std::vector<Vec6<S>>(N)};
    auto& [V, Y, B, F] = out;
    for (auto& d : V) d.fill(Vec6<S>::Zero());
    const bool one_root =
        !world && std::count_if(model.bodies.begin(), model.bodies.end(), [](const Body& b) { return b.lambda < 0; }) == 1;
    const Vec6<S> zero = Vec6<S>::Zero();
    Vec6<S> a_0 = spatial<S>(Vec3<S>::Zero(), Vec3<S>(-gravity));  // the world's, in frame 0
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int p = b.lambda;
        const ScrewChain<S> X = X_up<S>(b, q.data());
        if (p >= 0) X0[i] = X * X0[p];
        else if (!one_root) X0[i] = X.composed();
        else a_0 = X.apply(a_0);  // frame 0 is body i's: ⁱX_0 = 1
        const Vec6<S>& v_p = p < 0 ? zero : v[p];
        const Vec6<S>& a_p = p < 0 ? a_0 : a[p];
        Vec6<S> vJ = zero, aJ = zero;
        for (int c = 0; c < b.joint.nv(); ++c) {
            auto& d = V[b.v_index + c];
            d[kS] = X0[i].inverse_apply(motion_axis(b.joint, c).cast<S>());
            d[kU] = crm<S>(v_p, d[kS]);
            vJ += d[kS] * qd[b.v_index + c];
            aJ += d[kS] * qdd[b.v_index + c];
        }
        // a joint of one dof: v_i × s q̇ = v_λ × s q̇ = u q̇ and β = (v_λ + v_i) × s = 2 u
        const bool one_dof = b.joint.nv() == 1;
        v[i] = v_p + vJ;
        a[i] = a_p + aJ + (one_dof ? Vec6<S>(V[b.v_index][kU] * qd[b.v_index]) : crm<S>(v[i], vJ));
        for (int c = 0; c < b.joint.nv(); ++c) {
            auto& d = V[b.v_index + c];
            d[kAlpha] = crm<S>(a_p, d[kS]) + crm<S>(v_p, d[kU]);
            d[kBeta] = one_dof ? Vec6<S>(d[kU] + d[kU]) : crm<S>(Vec6<S>(v_p + v[i]), d[kS]);
        }
        Y[i] = body_inertia<S>(model, i, inertias).expressed_in_parent(X0[i]);
        F[i] = Y[i] * a[i] + crf<S>(v[i], Y[i] * v[i]);
        if (f_ext) F[i] -= X0[i].transpose_apply((*f_ext)[i]);
        B[i] = inertia_rate<S>(Y[i], v[i]);
    }
    for (int i = N - 1; i >= 0; --i) {  // Y_i, B_i and F_i hold subtree(i) when i's turn comes
        const Step<S> step;
        const Body& b = model.bodies[i];
        for (int c = 0; c < b.joint.nv(); ++c) {
            auto& d = V[b.v_index + c];
            d[kYS] = Y[i] * d[kS], d[kBS] = B[i].transpose_times(d[kS]);
            if (b.lambda < 0 && one_root) continue;  // frame 0 turns with the root: never read
            d[kdFdq] = crf<S>(d[kS], F[i]) + Y[i] * d[kAlpha] + B[i] * d[kU];
            d[kdFdqd] = Y[i] * d[kBeta] + B[i] * d[kS];
        }
        if (b.lambda >= 0) {
            Y[b.lambda] = Y[b.lambda] + Y[i];
            B[b.lambda] = B[b.lambda] + B[i];
            F[b.lambda] += F[i];
        }
    }
    return out;
}

template <class S>
DerivativeVectors<S> rnea_derivative_vectors(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                             const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr,
                                             const BodyInertias<S>* inertias = nullptr) {
    return rnea_derivative_passes<S>(model, q, qd, qdd, gravity, f_ext, inertias, false).V;
}

// The pair terms, for each DoF i (row) and each DoF j of its joint or an ancestor's (column):
// ∂τ_i/∂q_j = (Y S)_iᵀ α_j + (Bᵀ S)_iᵀ u_j, and the same with β_j, s_j for q̇; and for the row j,
// column i, s_jᵀ ∂F/∂q of i where j's joint is a strict ancestor of i's, or the same form as before
// with i and j exchanged where they are DoFs of one joint (a floating base). first[k]: the first DoF
// of k's joint.
template <class S> RneaDerivatives<S> rnea_derivative_pairs(const Model& model, const DerivativeVectors<S>& V) {
    const int n = model.nv;
    std::vector<int> first(n);
    for (const Body& b : model.bodies)
        for (int c = 0; c < b.joint.nv(); ++c) first[b.v_index + c] = b.v_index;
    const std::vector<int> lambda = expanded_parent(model);
    RneaDerivatives<S> d{MatX<S>::Zero(n, n), MatX<S>::Zero(n, n)};
    const auto row_terms = [&](int i, int j) {
        d.dtau_dq(i, j) = V[i][kYS].dot(V[j][kAlpha]) + V[i][kBS].dot(V[j][kU]);
        d.dtau_dqd(i, j) = V[i][kYS].dot(V[j][kBeta]) + V[i][kBS].dot(V[j][kS]);
    };
    for (int i = 0; i < n; ++i) {
        const Step<S> step;
        for (int j = i; j >= 0; j = lambda[j]) {
            row_terms(i, j);
            if (j == i) continue;
            if (first[j] == first[i]) {
                row_terms(j, i);
                continue;
            }
            d.dtau_dq(j, i) = V[j][kS].dot(V[i][kdFdq]);
            d.dtau_dqd(j, i) = V[j][kS].dot(V[i][kdFdqd]);
        }
    }
    return d;
}

template <class S>
RneaDerivatives<S> rnea_derivatives(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                    const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr,
                                    const BodyInertias<S>* inertias = nullptr) {
    return rnea_derivative_pairs<S>(model, rnea_derivative_vectors<S>(model, q, qd, qdd, gravity, f_ext, inertias));
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_RNEA_DERIVATIVE_PASSES(S) DerivativePasses<S> rnea_derivative_passes(const Model&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const std::vector<Vec6<S>>*, const BodyInertias<S>*, bool)
RBDGEN_COMPILED_ONCE(RBDGEN_RNEA_DERIVATIVE_PASSES)
#define RBDGEN_RNEA_DERIVATIVE_VECTORS(S) DerivativeVectors<S> rnea_derivative_vectors(const Model&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const std::vector<Vec6<S>>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_RNEA_DERIVATIVE_VECTORS)
#define RBDGEN_RNEA_DERIVATIVES(S) RneaDerivatives<S> rnea_derivatives(const Model&, const VecX<S>&, const VecX<S>&, \
    const VecX<S>&, const Vec3<S>&, const std::vector<Vec6<S>>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_RNEA_DERIVATIVES)

}  // namespace rbdgen
