// Forward dynamics the second way (Featherstone §6): H q̈ = τ − C with H from the CRBA, C from the
// RNEA at q̈ = 0, and H = Lᵀ D L factorized without fill, q̈ = L⁻¹ D⁻¹ L⁻ᵀ (τ − C).
#pragma once

#include "algorithms/crba.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "model/topology.hpp"

namespace rbdgen {

template <class S>
VecX<S> fd_crba_ltdl(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                     const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr, RneaBodies<S>* bodies = nullptr,
                     const BodyInertias<S>* inertias = nullptr) {
    const VecX<S> C = rnea<S>(model, q, qd, VecX<S>::Zero(model.nv), gravity, f_ext, bodies, inertias);
    MatX<S> H = crba<S>(model, q, inertias);
    const std::vector<int> lambda = expanded_parent(model);
    ltdl<S>(H, lambda);
    return ltdl_solve<S>(H, lambda, VecX<S>(tau - C));
}

}  // namespace rbdgen
