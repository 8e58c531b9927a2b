// H⁻¹ through Featherstone's LTDL factors (App. A), which never fill in: H from the CRBA, H = Lᵀ D L,
// and H⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ formed from W = L⁻¹ (ltdl.hpp ltdl_inverse), the one way H⁻¹ is formed here
// (aba_derivatives' ∂q̈/∂τ is the same).
#pragma once

#include "algorithms/compiled_once.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/ltdl.hpp"
#include "model/topology.hpp"

namespace rbdgen {

template <class S> MatX<S> minv(const Model& model, const VecX<S>& q, const BodyInertias<S>* inertias = nullptr) {
    MatX<S> H = crba<S>(model, q, inertias);
    const std::vector<int> lambda = expanded_parent(model);
    ltdl<S>(H, lambda);
    return ltdl_inverse<S>(H, lambda);
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_MINV(S) MatX<S> minv(const Model&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_MINV)

}  // namespace rbdgen
