// Joint Jacobians as the spatial Jacobian in world coordinates (Featherstone, RBDA §4.1.3): column k
// of J is ⁰X_j s_k, the motion axis of joint variable k (of joint j) in world coordinates. Every
// body's velocity, in world coordinates, is J with only its supporting joints' columns:
// ⁰v_i = Σ_{j ∈ support(i)} J_j q̇_j, and in body coordinates v_i = ⁱX_0 ⁰v_i.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"

namespace rbdgen {

template <class S> MatX<S> spatial_jacobian(const Model& model, const VecX<S>& q) {
    const int N = model.N();
    std::vector<Transform<S>> X_0(N);  // ⁱX_0
    MatX<S> J = MatX<S>::Zero(6, model.nv);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        X_0[i] = b.lambda < 0 ? X_up<S>(b, q.data()).composed() : X_up<S>(b, q.data()) * X_0[b.lambda];
        for (int k = 0; k < b.joint.nv(); ++k)
            J.col(b.v_index + k) = X_0[i].inverse_apply(motion_axis(b.joint, k).cast<S>());  // ⁰X_i s_k
    }
    return J;
}

// J and its time derivative J̇ (Featherstone, RBDA §4.1.3 and eq. 4.26 ff.): column k, of joint j,
// is s = ⁰X_j s_k, and ṡ = ⁰v_j × s with ⁰v_j = ⁰v_λ(j) + Σ s q̇ body j's velocity in world
// coordinates; J̇ q̇ is then the bodies' acceleration bias at q̈ = 0 in world coordinates.
template <class S> struct JacobianRate {
    MatX<S> J, Jdot;  // 6 x NV each
    std::vector<Vec6<S>> v;  // ⁰vᵢ, every body's velocity, world coordinates
};
template <class S> JacobianRate<S> spatial_jacobian_rate(const Model& model, const VecX<S>& q, const VecX<S>& qd) {
    JacobianRate<S> out{spatial_jacobian<S>(model, q), MatX<S>::Zero(6, model.nv), std::vector<Vec6<S>>(model.N())};
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        out.v[i] = b.lambda < 0 ? Vec6<S>(Vec6<S>::Zero()) : out.v[b.lambda];
        for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k) out.v[i] += Vec6<S>(out.J.col(k)) * qd[k];
        for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k) out.Jdot.col(k) = crm<S>(out.v[i], Vec6<S>(out.J.col(k)));
    }
    return out;
}

// The columns of the joints that support body i (i and its ancestors), others zero.
template <class S> MatX<S> body_support(const Model& model, const MatX<S>& J, int i) {
    MatX<S> J_i = MatX<S>::Zero(J.rows(), J.cols());
    for (int j = i; j >= 0; j = model.bodies[j].lambda)
        for (int k = 0; k < model.bodies[j].joint.nv(); ++k) J_i.col(model.bodies[j].v_index + k) = J.col(model.bodies[j].v_index + k);
    return J_i;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_SPATIAL_JACOBIAN(S) MatX<S> spatial_jacobian(const Model&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_SPATIAL_JACOBIAN)
#define RBDGEN_SPATIAL_JACOBIAN_RATE(S) JacobianRate<S> spatial_jacobian_rate(const Model&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_SPATIAL_JACOBIAN_RATE)

}  // namespace rbdgen
