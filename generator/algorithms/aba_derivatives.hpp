// Derivatives of forward dynamics q̈ = FD(q, q̇, τ) through inverse dynamics (Carpentier and Mansard,
// RSS 2018, §III-C): ID(q, q̇, FD(q, q̇, τ)) = τ, so at q̈ = FD(q, q̇, τ)
//   ∂q̈/∂q = −H⁻¹ ∂τ/∂q,   ∂q̈/∂q̇ = −H⁻¹ ∂τ/∂q̇,   ∂q̈/∂τ = H⁻¹,
// every H⁻¹ one back-substitution with Featherstone's LTDL factors, which never fill in (App. A),
// and H⁻¹ itself from them (ltdl.hpp ltdl_inverse). aba_derivatives_articulated is Carpentier and
// Mansard's own route: q̈ by the ABA, H⁻¹ by the articulated-body recursion (minv_aba.hpp), and the
// products −H⁻¹ ∂τ/∂q, −H⁻¹ ∂τ/∂q̇; the generator emits the one that costs less for the robot.
#pragma once

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/minv_aba.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

template <class S> struct AbaDerivatives {
    MatX<S> dqdd_dq, dqdd_dqd, Minv;  // NV x NV each
};

template <class S>
AbaDerivatives<S> aba_derivatives(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                                  const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr,
                                  const BodyInertias<S>* inertias = nullptr) {
    const int n = model.nv;
    JointSpaceSystem<S> s = joint_space_system<S>(model, q, qd, gravity, f_ext, nullptr, inertias);
    const std::vector<int> lambda = expanded_parent(model);
    ltdl<S>(s.H, lambda);  // s.H now holds L and D
    const VecX<S> qdd = ltdl_solve<S>(s.H, lambda, VecX<S>(tau - s.C));
    const RneaDerivatives<S> id = rnea_derivatives<S>(model, q, qd, qdd, gravity, f_ext, inertias);
    AbaDerivatives<S> d{MatX<S>(n, n), MatX<S>(n, n), MatX<S>(n, n)};
    for (int k = 0; k < n; ++k) {
        d.dqdd_dq.col(k) = -ltdl_solve<S>(s.H, lambda, VecX<S>(id.dtau_dq.col(k)));
        d.dqdd_dqd.col(k) = -ltdl_solve<S>(s.H, lambda, VecX<S>(id.dtau_dqd.col(k)));
    }
    d.Minv = ltdl_inverse<S>(s.H, lambda);
    return d;
}

template <class S>
AbaDerivatives<S> aba_derivatives_articulated(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                                              const Vec3<S>& gravity, const std::vector<Vec6<S>>* f_ext = nullptr,
                                              const BodyInertias<S>* inertias = nullptr) {
    const VecX<S> qdd = aba<S>(model, q, qd, tau, gravity, f_ext, nullptr, inertias);
    const RneaDerivatives<S> id = rnea_derivatives<S>(model, q, qd, qdd, gravity, f_ext, inertias);
    const MatX<S> Minv = minv_aba<S>(model, q, inertias);
    return {-Minv * id.dtau_dq, -Minv * id.dtau_dqd, Minv};
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_ABA_DERIVATIVES_ARTICULATED(S) AbaDerivatives<S> aba_derivatives_articulated(const Model&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const Vec3<S>&, const std::vector<Vec6<S>>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_ABA_DERIVATIVES_ARTICULATED)
#define RBDGEN_ABA_DERIVATIVES(S) AbaDerivatives<S> aba_derivatives(const Model&, const VecX<S>&, const VecX<S>&, \
    const VecX<S>&, const Vec3<S>&, const std::vector<Vec6<S>>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_ABA_DERIVATIVES)

}  // namespace rbdgen
