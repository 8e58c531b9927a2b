// Joint Jacobians: for every body i, J_i with v_i = J_i q̇ in body-i coordinates. Column block j of
// J_i is ⁱX_j S_j for each ancestor j of i (including i), zero elsewhere.
#pragma once

#include <vector>

#include "algorithms/jcalc.hpp"

namespace rbdgen {

template <class S> std::vector<MatX<S>> jacobians(const Model& model, const VecX<S>& q) {
    const int N = model.N();
    std::vector<Transform<S>> X_0(N);  // ⁱX_0
    for (int i = 0; i < N; ++i) {
        const Body& b = model.bodies[i];
        X_0[i] = b.lambda < 0 ? X_up<S>(b, q.data()) : X_up<S>(b, q.data()) * X_0[b.lambda];
    }
    std::vector<MatX<S>> J(N, MatX<S>::Zero(6, model.nv));
    for (int i = 0; i < N; ++i) {
        for (int j = i; j >= 0; j = model.bodies[j].lambda) {
            const Body& bj = model.bodies[j];
            const Transform<S> X_ij = X_0[i] * X_0[j].inverse();  // ⁱX_j
            for (int k = 0; k < bj.joint.nv(); ++k)
                J[i].col(bj.v_index + k) = X_ij.apply(motion_axis(bj.joint, k).cast<S>());
        }
    }
    return J;
}

}  // namespace rbdgen
