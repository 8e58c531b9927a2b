// Forward dynamics the second way (Featherstone §6): H q̈ = τ − C with H from the CRBA, C from the
// RNEA at q̈ = 0, and H = Lᵀ D L factorized without fill, q̈ = L⁻¹ D⁻¹ L⁻ᵀ (τ − C).
#pragma once

#include "algorithms/compiled_once.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "model/topology.hpp"

namespace rbdgen {

// The joint-space system H q̈ = τ − C that the factorization solves: H and the bias forces C.
template <class S> struct JointSpaceSystem {
    MatX<S> H;
    VecX<S> C;
};
template <class S>
JointSpaceSystem<S> joint_space_system(const Model& model, const VecX<S>& q, const VecX<S>& qd, const Vec3<S>& gravity,
                                       const std::vector<Vec6<S>>* f_ext = nullptr, RneaBodies<S>* bodies = nullptr,
                                       const BodyInertias<S>* inertias = nullptr) {
    return {crba<S>(model, q, inertias), rnea<S>(model, q, qd, VecX<S>::Zero(model.nv), gravity, f_ext, bodies, inertias)};
}

template <class S>
VecX<S> fd_crba_ltdl(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                     const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr, RneaBodies<S>* bodies = nullptr,
                     const BodyInertias<S>* inertias = nullptr) {
    JointSpaceSystem<S> s = joint_space_system<S>(model, q, qd, gravity, f_ext, bodies, inertias);
    const std::vector<int> lambda = expanded_parent(model);
    ltdl<S>(s.H, lambda);
    return ltdl_solve<S>(s.H, lambda, VecX<S>(tau - s.C));
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_JOINT_SPACE_SYSTEM(S) JointSpaceSystem<S> joint_space_system(const Model&, const VecX<S>&, const VecX<S>&, \
    const Vec3<S>&, const std::vector<Vec6<S>>*, RneaBodies<S>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_JOINT_SPACE_SYSTEM)
#define RBDGEN_FD_CRBA_LTDL(S) VecX<S> fd_crba_ltdl(const Model&, const VecX<S>&, const VecX<S>&, const VecX<S>&, \
    const Vec3<S>&, const std::vector<Vec6<S>>*, RneaBodies<S>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_FD_CRBA_LTDL)

}  // namespace rbdgen
