// Articulated-body algorithm, q̈ = FD(q, q̇, τ, f^x) (RBDA Table 7.1, Nori §V-A), with multi-DoF
// joints: D_i = S_iᵀ U_i is inverted through its dense LTDL factorization.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"
#include "algorithms/ltdl.hpp"

namespace rbdgen {

template <class S> using Subspace = Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6>;

template <class S> Subspace<S> motion_subspace(const Joint& joint) {
    Subspace<S> s(6, joint.nv());
    for (int k = 0; k < joint.nv(); ++k) s.col(k) = motion_axis(joint, k).cast<S>();
    return s;
}

// What ABA computes for each body, for a caller that wants more than q̈ (the kernels name v, p_a
// and a; algorithms/contact_aba.hpp carries wrenches to the root with X, U, D and U / D).
template <class S> struct AbaBodies {
    std::vector<Vec6<S>> v, p_a, a;  // velocity, the bias force passed to the parent, acceleration
    std::vector<ScrewChain<S>> X;    // ⁱX_λ(i)
    std::vector<Subspace<S>> U;      // I_i^A S_i
    std::vector<MatX<S>> D_LD;       // D_i = S_iᵀ U_i as its LTDL factors; for a 1-DoF joint, 1 / D_i
    std::vector<Vec6<S>> U_D;        // 1-DoF joints: U_i / D_i
};

template <class S>
VecX<S> aba(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau, const Vec3<S>& gravity,
            const std::vector<Vec6<S>>* f_ext = nullptr, AbaBodies<S>* bodies = nullptr, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    std::vector<ScrewChain<S>> X(N);
    std::vector<Vec6<S>> v(N), c(N), p_A(N), a(N);
    std::vector<Mat6<S>> I_A(N);
    for (int i = 0; i < N; ++i) {  // pass 1: velocities, bias forces
        const Step<S> step;
        const Body& b = model.bodies[i];
        X[i] = X_up<S>(b, q.data());
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index);
        v[i] = b.lambda < 0 ? vJ : Vec6<S>(X[i].apply(v[b.lambda]) + vJ);
        c[i] = crm<S>(v[i], vJ);
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        I_A[i] = I.matrix();
        p_A[i] = crf<S>(v[i], I * v[i]);
        if (f_ext) p_A[i] -= (*f_ext)[i];
    }
    std::vector<Vec6<S>> p_a_of(N);
    auto accumulate_articulated = [&](int i, const Mat6<S>& I_a, const Vec6<S>& p_a) {
        const Body& b = model.bodies[i];
        p_a_of[i] = p_a;
        I_A[b.lambda] += X[i].articulated_in_parent(I_a);
        p_A[b.lambda] += X[i].transpose_apply(p_a);
    };
    std::vector<Subspace<S>> U(N);
    std::vector<MatX<S>> D_LD(N);  // D_i = S_iᵀ U_i as its LTDL factors; for a 1-DoF joint, 1 / D_i
    std::vector<VecX<S>> u(N);
    std::vector<Vec6<S>> U_D(N);   // 1-DoF joints: U_i / D_i, with (U / D)_k = S_k exactly when S = ±e_k
    auto D_solve = [&](int i, const VecX<S>& x) -> VecX<S> {  // D_i⁻¹ x
        if (D_LD[i].rows() == 1) return x * D_LD[i](0, 0);
        return ltdl_solve<S>(D_LD[i], dense_parent(static_cast<int>(D_LD[i].rows())), x);
    };
    for (int i = N - 1; i >= 0; --i) {  // pass 2: articulated-body inertias
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int n_i = b.joint.nv();
        const Subspace<S> S_i = motion_subspace<S>(b.joint);
        U[i] = I_A[i] * S_i;
        D_LD[i] = S_i.transpose() * U[i];
        if (b.joint.armature != 0) D_LD[i].diagonal().array() += S(b.joint.armature);  // D_i = S_iᵀ U_i + armature
        if (n_i == 1)
            D_LD[i](0, 0) = S(1) / D_LD[i](0, 0);
        else
            ltdl<S>(D_LD[i], dense_parent(n_i));
        u[i] = tau.segment(b.v_index, n_i) - S_i.transpose() * p_A[i];
        if (n_i == 1) {
            // I_a S = U − U (Sᵀ U) / D = 0: when S = ±e_k, row and column k of I_a are exactly zero (the
            // articulated inertia is 5 × 5), and (U / D)_k = S_k; both are set so, not computed. Not
            // with an armature: then D = Sᵀ U + armature.
            const Vec6<double> s = motion_axis(b.joint, 0), s_abs = s.cwiseAbs();
            Eigen::Index k = -1;
            if (s_abs.sum() == 1 && s_abs.maxCoeff() == 1 && b.joint.armature == 0) s_abs.maxCoeff(&k);
            for (int r = 0; r < 6; ++r) U_D[i][r] = r == k ? S(s[k]) : S(U[i](r, 0) * D_LD[i](0, 0));
            if (b.lambda < 0) continue;
            Mat6<S> I_a;  // I_A − U Uᵀ / D, symmetric: upper triangle only
            for (int r = 0; r < 6; ++r)
                for (int c = r; c < 6; ++c)
                    I_a(c, r) = I_a(r, c) = r == k || c == k ? S(0) : S(I_A[i](r, c) - U[i](r, 0) * U_D[i][c]);
            accumulate_articulated(i, I_a, Vec6<S>(p_A[i] + I_a * c[i] + U_D[i] * u[i][0]));
        } else if (b.lambda >= 0) {
            const MatX<S> Ut = U[i].transpose();
            MatX<S> Dinv_Ut(n_i, 6);
            for (int k = 0; k < 6; ++k) Dinv_Ut.col(k) = D_solve(i, Ut.col(k));
            const Mat6<S> I_a = I_A[i] - U[i] * Dinv_Ut;
            accumulate_articulated(i, I_a, Vec6<S>(p_A[i] + I_a * c[i] + U[i] * D_solve(i, u[i])));
        }
    }
    VecX<S> qdd(model.nv);
    for (int i = 0; i < N; ++i) {  // pass 3: accelerations; a_0 = (0, −g), which only turns: ⁱX_0 a_0 = (0, E (−g))
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int n_i = b.joint.nv();
        const Vec6<S> Xa = b.lambda < 0 ? spatial<S>(Vec3<S>::Zero(), X[i].rotate(-gravity)) : X[i].apply(a[b.lambda]);
        const Vec6<S> a_prime = Xa + c[i];
        const VecX<S> qdd_i = n_i == 1 ? VecX<S>(D_solve(i, u[i]) - U_D[i].transpose() * a_prime)  // D⁻¹u − (U/D)ᵀa′
                                       : D_solve(i, u[i] - U[i].transpose() * a_prime);
        qdd.segment(b.v_index, n_i) = qdd_i;
        a[i] = a_prime + motion<S>(b.joint, qdd_i.data());
    }
    if (bodies) *bodies = {v, p_a_of, a, X, U, D_LD, U_D};
    return qdd;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_ABA(S) VecX<S> aba(const Model&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, \
    const std::vector<Vec6<S>>*, AbaBodies<S>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_ABA)

}  // namespace rbdgen
