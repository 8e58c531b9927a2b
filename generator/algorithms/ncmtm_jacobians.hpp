// Comprehensive Jacobians with the N-CMTM (Samy et al. §VI-B): the derivatives of the basic Jacobian
// of a link b, ^b𝒥^(p)_{b,j} = ^bC_{j{p}} S_j for j ∈ P(b) ∪ b (eq. 46), in the body frame, the
// inertial-fixed frame b^I (the world's orientation, b's origin: eq. 47–49) and the world frame (the
// spatial Jacobian, eq. 49); the link momentum and force Jacobians 𝒦_b = Ĩ_b 𝒥_b, 𝒩_b = 𝒟_b 𝒦_b
// (eq. 50–51), the joint momentum, joint force and torque Jacobians ℬ_i, 𝒬_i = 𝒟_i ℬ_i, ℛ_i = G_iᵀ 𝒬_i
// (eq. 52, 53, 57; the world at rest, no external force: what is linear in ℵ). As lower
// block-triangular maps of the hat-derivatives (eq. 67), ζ̂_{b,k} = Σ_j Σ_{p≤k} 𝒥^(k−p)_{b,j} ψ̂_{j,p}:
// the p-th block of each is returned as a 6 x NV matrix (the columns of joints not supporting b zero).
// The link N-CMTMs C_j are those of eq. (27) with the world at rest; ^bC_j = C_b⁻¹ C_j (eq. 26, 68).
#pragma once

#include <vector>

#include "algorithms/ncmtm_kinematics.hpp"

namespace rbdgen {

enum class JacobianFrame { Body, Inertial, World };

template <class S> struct ComprehensiveJacobian {
    std::vector<MatX<S>> J;  // J[p], p = 0..N: 6 x NV
};

template <class S>
ComprehensiveJacobian<S> ncmtm_jacobian(const Model& model, const Motion<S>& motion, int b, JacobianFrame frame) {
    const int N = motion.order();
    std::vector<Cmtm<S, 6>> C = ncmtm_link_cmtms<S>(model, motion, nullptr);
    for (Cmtm<S, 6>& c : C) c.C.resize(N + 1);  // order N
    // the map applied before C_j: C_b⁻¹ (body), CMTM(^{b^I}X_b) C_b⁻¹ (inertial frame), 1 (world)
    Cmtm<S, 6> left = inverse(C[b]);
    if (frame == JacobianFrame::Inertial) {
        // ^{b^I}X_b = rot(⁰R_b) without translation; b moves relative to b^I by its rotation alone
        Block<S, 6> R = Block<S, 6>::Zero();
        R.template topLeftCorner<3, 3>() = C[b].C[0].template topLeftCorner<3, 3>();
        R.template bottomRightCorner<3, 3>() = C[b].C[0].template topLeftCorner<3, 3>();
        Stack<S, 6> omega = ncmtm_motions<S>(model, motion, nullptr)[b];
        for (Vec6<S>& w : omega) w.template tail<3>().setZero();
        left = construct<S, 6>(R, omega, Cross::Motion6) * left;
    }
    ComprehensiveJacobian<S> out;
    out.J.assign(N + 1, MatX<S>::Zero(6, model.nv));
    for (int j = b; j >= 0; j = model.bodies[j].lambda) {
        const Cmtm<S, 6> bC_j = frame == JacobianFrame::World ? C[j] : left * C[j];
        const Body& body = model.bodies[j];
        for (int p = 0; p <= N; ++p)
            for (int k = 0; k < body.joint.nv(); ++k)
                out.J[p].col(body.v_index + k) = bC_j.C[p] * motion_axis(body.joint, k).cast<S>();
    }
    return out;
}

// The link momentum Jacobian 𝒦_b = Ĩ_b 𝒥_b (eq. 50), from the body-frame 𝒥_b: ĥ_b = 𝒦_b ℵ.
template <class S> ComprehensiveJacobian<S> ncmtm_momentum_jacobian(const Model& model, const ComprehensiveJacobian<S>& body_J, int b) {
    ComprehensiveJacobian<S> K = body_J;
    const Mat6<S> I = model.bodies[b].I.template cast<S>().matrix();
    for (MatX<S>& block : K.J) block = I * block;
    return K;
}

// A Jacobian as all its blocks, out̂_k = Σ_q Q[k][q] ψ̂_q: what 𝒟 makes of a lower block-triangular
// one, since f̂_k = (k+1) ĥ_{k+1} + … reaches ψ̂_{k+1} with a weight that depends on k ("the hat
// notation shift": 𝒩, 𝒬, ℛ lose the layout of Appendix A).
template <class S> struct BlockJacobian {
    std::vector<std::vector<MatX<S>>> Q;  // Q[k][q], k = 0..N−1 (outputs), q = 0..N (ψ̂_q)
};

// 𝒟_b (eq. 51) on a momentum Jacobian H (ĥ = H ℵ): f̂_k = (k+1) ĥ_{k+1} + Σ_{p≤k} [ζ̂_{b,k−p} ×̄] ĥ_p,
// k = 0..N−1, ζ̂_b the body's motion with the world at rest (ncmtm_motions).
template <class S> BlockJacobian<S> apply_D(const Stack<S, 6>& zeta_hat, const ComprehensiveJacobian<S>& H) {
    const int N = static_cast<int>(H.J.size()) - 1;
    const auto h = [&H](int k, int q) { return q <= k ? H.J[k - q] : MatX<S>(MatX<S>::Zero(6, H.J[0].cols())); };
    BlockJacobian<S> F;
    for (int k = 0; k < N; ++k) {
        F.Q.emplace_back();
        for (int q = 0; q <= N; ++q) {
            MatX<S> f = h(k + 1, q) * S(k + 1.0);
            for (int p = 0; p <= k; ++p) f += cross6_dual<S>(zeta_hat[k - p]) * h(p, q);
            F.Q[k].push_back(f);
        }
    }
    return F;
}

// 𝒩_b = 𝒟_b 𝒦_b (eq. 51): the link force f̂_b = ḣ_b + ν_b ×̄ h_b and its derivatives, to order N − 1.
template <class S> BlockJacobian<S> ncmtm_link_force_jacobian(const Model& model, const Motion<S>& motion, int b) {
    const Stack<S, 6> zeta_hat = ncmtm_motions<S>(model, motion, nullptr)[b];
    return apply_D<S>(zeta_hat, ncmtm_momentum_jacobian<S>(model, ncmtm_jacobian<S>(model, motion, b, JacobianFrame::Body), b));
}

// ℬ_i (eq. 52) of every joint: the momentum through joint i, ĥ_i^{p(i)} = Σ_{k in i's subtree} ^iC̄_k 𝒦_k ℵ,
// with ^iC̄_k the dual N-CMTM, blockwise the transpose of ^kC_i = C_k⁻¹ C_i. Since ^iC̄_k = ^iC̄_c ^cC̄_k
// for k in the subtree of a child c, the sum is the recursion the paper points to (as the CRBA's
// composite inertias): ℬ_i = 𝒦_i + Σ_{c ∈ C(i)} ^iC̄_c ℬ_c, one CMTM product a joint.
template <class S> std::vector<ComprehensiveJacobian<S>> ncmtm_joint_momentum_jacobians(const Model& model, const Motion<S>& motion) {
    const int N = motion.order();
    std::vector<Cmtm<S, 6>> C = ncmtm_link_cmtms<S>(model, motion, nullptr);
    for (Cmtm<S, 6>& c : C) c.C.resize(N + 1);
    std::vector<ComprehensiveJacobian<S>> B;
    for (int k = 0; k < model.N(); ++k)
        B.push_back(ncmtm_momentum_jacobian<S>(model, ncmtm_jacobian<S>(model, motion, k, JacobianFrame::Body), k));
    for (int c = model.N() - 1; c >= 0; --c) {  // children follow their parents: ℬ_c is complete here
        const Step<S> step;
        const int i = model.bodies[c].lambda;
        if (i < 0) continue;
        const Cmtm<S, 6> cC_i = inverse(C[c]) * C[i];
        for (int p = N; p >= 0; --p)
            for (int q = 0; q <= p; ++q) B[i].J[p] += cC_i.C[p - q].transpose() * B[c].J[q];
    }
    return B;
}

// 𝒬_i = 𝒟_i ℬ_i (eq. 53) of every joint: the force through joint i and its derivatives to order N − 1.
template <class S> std::vector<BlockJacobian<S>> ncmtm_joint_force_jacobians(const Model& model, const Motion<S>& motion) {
    const std::vector<Stack<S, 6>> zeta_hat = ncmtm_motions<S>(model, motion, nullptr);
    const std::vector<ComprehensiveJacobian<S>> B = ncmtm_joint_momentum_jacobians<S>(model, motion);
    std::vector<BlockJacobian<S>> Q;
    for (int i = 0; i < model.N(); ++i) Q.push_back(apply_D<S>(zeta_hat[i], B[i]));
    return Q;
}

// ℛ_i = G_iᵀ 𝒬_i (eq. 57) of every joint: joint i's forces τ̂_i (n_i rows a block).
template <class S> std::vector<BlockJacobian<S>> ncmtm_torque_jacobians(const Model& model, const Motion<S>& motion) {
    std::vector<BlockJacobian<S>> R = ncmtm_joint_force_jacobians<S>(model, motion);
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Subspace<S> S_i = motion_subspace<S>(model.bodies[i].joint);
        for (auto& row : R[i].Q)
            for (MatX<S>& block : row) block = S_i.transpose() * block;
    }
    return R;
}

// ψ̂_q = ψ^(q) / q! of every joint.
template <class S> VecX<S> psi_hat(const Motion<S>& motion, int q) {
    double factorial = 1;
    for (int m = 2; m <= q; ++m) factorial *= m;
    return motion.psi[q] * S(1.0 / factorial);
}

// 𝒥 ℵ: the hat-derivatives a Jacobian maps the joint motion to (eq. 67), one a block of the Jacobian.
template <class S> std::vector<VecX<S>> apply_jacobian(const ComprehensiveJacobian<S>& J, const Motion<S>& motion) {
    std::vector<VecX<S>> out;
    for (size_t k = 0; k < J.J.size(); ++k) {
        VecX<S> sum = VecX<S>::Zero(J.J[k].rows());
        for (size_t p = 0; p <= k; ++p) sum += J.J[k - p] * psi_hat(motion, static_cast<int>(p));
        out.push_back(sum);
    }
    return out;
}
template <class S> std::vector<VecX<S>> apply_jacobian(const BlockJacobian<S>& J, const Motion<S>& motion) {
    std::vector<VecX<S>> out;
    for (const auto& row : J.Q) {
        VecX<S> sum = VecX<S>::Zero(row[0].rows());
        for (size_t q = 0; q < row.size(); ++q) sum += row[q] * psi_hat(motion, static_cast<int>(q));
        out.push_back(sum);
    }
    return out;
}

}  // namespace rbdgen
