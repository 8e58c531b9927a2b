// The Coriolis matrix C(q, q̇) whose Christoffel symbols are those of H (Ḣ = C + Cᵀ, C q̇ = the
// bias forces without gravity), by the recursion of Echeandia and Wensing ("Numerical methods to
// compute the Coriolis matrix and Christoffel symbols for rigid-body systems", JCND 2021, Alg. 1),
// in world coordinates: H = Σ Jᵢᵀ Iᵢ Jᵢ and
//   C = Σᵢ Jᵢᵀ (Iᵢ J̇ᵢ + B(Iᵢ, vᵢ) Jᵢ),   B(I, v) = ½ (v×* I − I v× + (I v)×̄*)        (eq. 14)
// with (f ×̄*) u = u ×* f. B + Bᵀ = İ makes Ḣ = C + Cᵀ; B v = v ×* I v makes C q̇ the bias forces.
// Joint j's axis s in world coordinates is ⁰X_j s, its rate ṡ = v_j × s (v_j body j's velocity,
// world coordinates). With the subtree's sums Iᶜ and Bᶜ (no transforms: world coordinates), for the
// axes k of body i and r of an ancestor j of i (or of i itself):
//   C_rk = s_rᵀ (Iᶜᵢ ṡₖ + Bᶜᵢ sₖ),   C_kr = ṡ_rᵀ Iᶜᵢ sₖ + s_rᵀ Bᶜᵢᵀ sₖ   (j ≠ i)
// and every other entry a branch-induced zero, never computed. No B is formed as a 6 × 6 matrix:
// v×* I − I v× = İ, so Bᶜ = ½ (İᶜ + hᶜ ×̄*), İᶜ the subtree's inertia rate and hᶜ its momentum
// (rnea_derivatives.hpp InertiaRate, the 15 numbers of Carpentier and Mansard's B).
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

template <class S> MatX<S> coriolis(const Model& model, const VecX<S>& q, const VecX<S>& qd, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N(), n = model.nv;
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    // the subtree's Iᶜ, and its İᶜ and momentum hᶜ = Σ Iᵢ vᵢ (B_c = ½ (İᶜ + hᶜ ×̄*): B is linear in I and I v)
    std::vector<RigidBodyInertia<S>> I_c(N);
    std::vector<InertiaRate<S>> B_c(N);  // 2 Bᶜ
    std::vector<Vec6<S>> s(n), s_dot(n);  // the axes and their rates, world coordinates
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const Vec6<S> v = kin.X_0[i].inverse_apply(kin.v[i]);
        I_c[i] = body_inertia<S>(model, i, inertias).expressed_in_parent(kin.X_0[i]);
        B_c[i] = inertia_rate<S>(I_c[i], v);
        for (int k = 0; k < b.joint.nv(); ++k) {
            s[b.v_index + k] = kin.X_0[i].inverse_apply(motion_axis(b.joint, k).cast<S>());
            s_dot[b.v_index + k] = crm<S>(v, s[b.v_index + k]);
        }
    }
    MatX<S> C = MatX<S>::Zero(n, n);
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k) {
            // Bᶜ sₖ = ½ (İᶜ sₖ + sₖ ×* hᶜ) and Bᶜᵀ sₖ = ½ (İᶜ sₖ − sₖ ×* hᶜ) (f ×̄* is skew-symmetric)
            const Vec6<S> f1 = I_c[i] * s_dot[k] + S(0.5) * (B_c[i] * s[k]), f2 = I_c[i] * s[k],
                          f3 = S(0.5) * B_c[i].transpose_times(s[k]);
            for (int j = i; j >= 0; j = model.bodies[j].lambda) {
                const Body& bj = model.bodies[j];
                for (int r = bj.v_index; r < bj.v_index + bj.joint.nv(); ++r) {
                    C(r, k) = s[r].dot(f1);
                    if (j != i) C(k, r) = s_dot[r].dot(f2) + s[r].dot(f3);
                }
            }
        }
        if (b.lambda >= 0)
            I_c[b.lambda] = I_c[b.lambda] + I_c[i], B_c[b.lambda] = B_c[b.lambda] + B_c[i];
    }
    return C;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CORIOLIS(S) MatX<S> coriolis(const Model&, const VecX<S>&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CORIOLIS)

}  // namespace rbdgen
