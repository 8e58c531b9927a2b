// The Comprehensive Recursive Newton–Euler Algorithm (Samy et al. Alg. 1, eq. 28–31): the joint
// forces τ, τ̇, …, τ^(Q), Q = N − 1, from a motion of order N (ψ … ψ^(N), eq. 24):
//   ĥ_i = Ĩ_i ζ̂_i                                              (link momentum and its derivatives)
//   f̂_i = D_N ĥ_{i{1:N}} + [ζ̂_{i{0:Q}} ×̄] ĥ_{i{0:Q}}               (eq. 29)
//   f̂_i^{p(i)} = f̂_i − f̂_i^x + Σ_{j∈C(i)} ^iC̄_{j{0:Q}} f̂_j^i        (eq. 30, external forces f^x)
//   τ̂_i = G_iᵀ f̂_i^{p(i)}                                         (eq. 21)
// and the joint momenta ĥ_i^{p(i)} = ĥ_i + Σ_j ^iC̄_j ĥ_j^i (eq. 31), to order N. The motions ζ̂_i come
// from ncmtm_motions with gravity as the world's acceleration, so that order 1 is the RNEA.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/ncmtm_kinematics.hpp"

namespace rbdgen {

template <class S> struct CorneaBodies {
    std::vector<Stack<S, 6>> zeta, h_joint, f_joint;  // ζ_i, h_i^{p(i)} (to N), f_i^{p(i)} (to Q), no hats
};

// τ^(k) for k = 0..N−1, each in the model's velocity order. f_ext: body i's external force and its
// derivatives f^x, …, f^x(Q) in body coordinates (no hats), or none.
template <class S>
std::vector<VecX<S>> cornea(const Model& model, const Motion<S>& motion, const Vec3<S>& gravity,
                            const std::vector<Stack<S, 6>>* f_ext = nullptr, CorneaBodies<S>* bodies = nullptr) {
    const int N = motion.order(), Q = N - 1, n = model.N();
    std::vector<JointCmtm<S>> J;
    const std::vector<Stack<S, 6>> zeta_hat = ncmtm_motions<S>(model, motion, &gravity, &J);
    std::vector<Stack<S, 6>> h_hat(n), f_hat(n);
    for (int i = 0; i < n; ++i) {
        const Step<S> step;
        const RigidBodyInertia<S> I = model.bodies[i].I.template cast<S>();
        for (int k = 0; k <= N; ++k) h_hat[i].push_back(I * zeta_hat[i][k]);
        for (int k = 0; k <= Q; ++k) {  // eq. (29)
            Vec6<S> f = h_hat[i][k + 1] * S(k + 1.0);
            for (int p = 0; p <= k; ++p) f += crf<S>(zeta_hat[i][k - p], h_hat[i][p]);
            f_hat[i].push_back(f);
        }
        if (f_ext) {
            const Stack<S, 6> fx_hat = hat<S, 6>((*f_ext)[i]);
            for (int k = 0; k <= Q; ++k) f_hat[i][k] -= fx_hat[k];
        }
    }
    std::vector<VecX<S>> tau(N, VecX<S>(model.nv));
    for (int i = n - 1; i >= 0; --i) {  // leaves to root: f̂_i^{p(i)} and ĥ_i^{p(i)} are complete
        const Step<S> step;
        const Body& b = model.bodies[i];
        double factorial = 1;
        for (int k = 0; k <= Q; ++k) {
            factorial *= k > 0 ? k : 1;
            project<S>(b.joint, Vec6<S>(f_hat[i][k] * S(factorial)), tau[k].data() + b.v_index);
            add_armature<S>(b.joint, motion.psi[k + 1].data() + b.v_index, tau[k].data() + b.v_index);  // (armature q̈)^(k)
        }
        if (b.lambda >= 0) {
            const Stack<S, 6> f_up = to_parent<S>(J[i], f_hat[i]);
            for (int k = 0; k <= Q; ++k) f_hat[b.lambda][k] += f_up[k];
            if (bodies) {
                const Stack<S, 6> h_up = to_parent<S>(J[i], h_hat[i]);
                for (int k = 0; k <= N; ++k) h_hat[b.lambda][k] += h_up[k];
            }
        }
    }
    if (bodies) {
        bodies->zeta.clear(), bodies->h_joint.clear(), bodies->f_joint.clear();
        for (int i = 0; i < n; ++i) {
            bodies->zeta.push_back(unhat<S, 6>(zeta_hat[i]));
            bodies->h_joint.push_back(unhat<S, 6>(h_hat[i]));
            bodies->f_joint.push_back(unhat<S, 6>(f_hat[i]));
        }
    }
    return tau;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CORNEA(S) std::vector<VecX<S>> cornea(const Model&, const Motion<S>&, const Vec3<S>&, const std::vector<Stack<S, \
    6>>*, CorneaBodies<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CORNEA)

}  // namespace rbdgen
