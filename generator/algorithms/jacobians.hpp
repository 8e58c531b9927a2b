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

}  // namespace rbdgen
