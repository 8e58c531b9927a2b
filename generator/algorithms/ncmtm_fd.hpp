// Recursive forward dynamics of order N (Samy et al. Alg. 2, eq. 33–36): from q, ψ = q̇ and the joint
// forces τ, τ̇, …, τ^(N−1), the joint motion's derivatives ψ̇, …, ψ^(N). τ^(k−1) is linear in ψ^(k) with
// the joint-space inertia H(q) as coefficient (ψ^(k) enters CoRNEA where q̈ enters the RNEA), so
//   ψ̇ = ABA(q, ψ, τ)                                        (eq. 34)
//   ψ^(k) = H⁻¹ (τ^(k−1) − CoRNEA(ℵ[:k−1])^(k−1)),  k = 2..N  (eq. 35–36)
// where ℵ[:k−1] is the motion known so far with ψ^(k) = 0, and H⁻¹ x is the ABA at zero velocity and
// gravity (the articulated inertias are those of the first call: the tracer shares them).
#pragma once

#include <vector>

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/cornea.hpp"

namespace rbdgen {

template <class S>
std::vector<VecX<S>> ncmtm_fd(const Model& model, const VecX<S>& q, const VecX<S>& qd,
                              const std::vector<VecX<S>>& tau, const Vec3<S>& gravity) {
    const int N = static_cast<int>(tau.size());
    const VecX<S> zero = VecX<S>::Zero(model.nv);
    Motion<S> aleph{q, {qd, aba<S>(model, q, qd, tau[0], gravity)}};
    for (int k = 2; k <= N; ++k) {
        aleph.psi.push_back(zero);
        const std::vector<VecX<S>> bias = cornea<S>(model, aleph, gravity);
        aleph.psi[k] = aba<S>(model, q, zero, VecX<S>(tau[k - 1] - bias[k - 1]), Vec3<S>::Zero());
    }
    return std::vector<VecX<S>>(aleph.psi.begin() + 1, aleph.psi.end());
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_NCMTM_FD(S) std::vector<VecX<S>> ncmtm_fd(const Model&, const VecX<S>&, const VecX<S>&, \
    const std::vector<VecX<S>>&, const Vec3<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_NCMTM_FD)

}  // namespace rbdgen
