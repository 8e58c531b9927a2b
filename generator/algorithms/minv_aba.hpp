// H⁻¹ by the articulated-body recursion (Carpentier and Mansard, RSS 2018, §III-C; Pinocchio's
// computeMinverse): the ABA run on τ = every unit vector at once, with q̇ = 0 and no gravity. Column k
// of H⁻¹ is the q̈ of τ = e_k, and every quantity of ABA linear in τ becomes a 6 × NV block, a column
// per unit vector: the bias forces P_i (pass 2) and the accelerations A_i (pass 3). The articulated
// inertias, U_i and D_i are ABA's own (aba.hpp, whose velocity and gravity terms fold to zero here).
// Only the upper triangle is computed (row r from column r on: bodies come after their parent, so a
// body's descendants read no column before its own) and the lower one copied.
#pragma once

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"

namespace rbdgen {

template <class S> MatX<S> minv_aba(const Model& model, const VecX<S>& q, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N(), n = model.nv;
    const VecX<S> zero = VecX<S>::Zero(n);
    AbaBodies<S> ab;  // ⁱX_λ(i), U_i, D_i (as LTDL factors, or 1 / D_i) and U_i / D_i
    aba<S>(model, q, zero, zero, Vec3<S>::Zero(), nullptr, &ab, inertias);
    auto D_solve = [&](int i, const VecX<S>& x) -> VecX<S> {  // D_i⁻¹ x
        if (ab.D_LD[i].rows() == 1) return x * ab.D_LD[i](0, 0);
        return ltdl_solve<S>(ab.D_LD[i], dense_parent(static_cast<int>(ab.D_LD[i].rows())), x);
    };
    using Block = Eigen::Matrix<S, 6, Eigen::Dynamic>;
    std::vector<Block> P(N, Block::Zero(6, n));  // pass 2: the bias forces p_i^A of the unit τ's
    MatX<S> M = MatX<S>::Zero(n, n);              // pass 2: D⁻¹ u_i; pass 3: H⁻¹
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int n_i = b.joint.nv(), v = b.v_index;
        const Subspace<S> S_i = motion_subspace<S>(b.joint);
        for (int c = v; c < n; ++c) {  // u_i = τ_i − S_iᵀ p_i^A, nonzero on i's subtree only
            VecX<S> u = -(S_i.transpose() * P[i].col(c));
            if (c < v + n_i) u[c - v] += S(1);
            M.block(v, c, n_i, 1) = D_solve(i, u);
        }
        if (b.lambda < 0) continue;
        for (int c = v; c < n; ++c) {  // p_λ(i)^A += ⁱX_λ(i)ᵀ (p_i^A + U_i D_i⁻¹ u_i): I_a c = 0 without velocity
            const Vec6<S> p_a = n_i == 1 ? Vec6<S>(P[i].col(c) + ab.U[i].col(0) * M(v, c))
                                         : Vec6<S>(P[i].col(c) + ab.U[i] * M.block(v, c, n_i, 1));
            P[b.lambda].col(c) += ab.X[i].transpose_apply(p_a);
        }
    }
    std::vector<Block> A(N, Block::Zero(6, n));  // pass 3: the bodies' accelerations, a_0 = 0
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int n_i = b.joint.nv(), v = b.v_index;
        for (int c = v; c < n; ++c) {
            const Vec6<S> Xa = b.lambda < 0 ? Vec6<S>::Zero() : Vec6<S>(ab.X[i].apply(A[b.lambda].col(c)));
            const VecX<S> qdd = n_i == 1 ? VecX<S>(M.block(v, c, 1, 1) - ab.U_D[i].transpose() * Xa)  // D⁻¹u − (U/D)ᵀa′
                                         : VecX<S>(M.block(v, c, n_i, 1) - D_solve(i, ab.U[i].transpose() * Xa));
            M.block(v, c, n_i, 1) = qdd;
            A[i].col(c) = Xa + motion<S>(b.joint, qdd.data());
        }
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < r; ++c) M(r, c) = M(c, r);
    return M;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_MINV_ABA(S) MatX<S> minv_aba(const Model&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_MINV_ABA)

}  // namespace rbdgen
