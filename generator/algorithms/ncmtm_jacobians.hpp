// Comprehensive Jacobians with the N-CMTM (Samy et al. §VI-B): the derivatives of the basic Jacobian
// of a link b, ^b𝒥^(p)_{b,j} = ^bC_{j{p}} S_j for j ∈ P(b) ∪ b (eq. 46), in the body frame, the
// inertial-fixed frame b^I (the world's orientation, b's origin: eq. 47–49) and the world frame (the
// spatial Jacobian, eq. 49); the link momentum and force Jacobians 𝒦_b = Ĩ_b 𝒥_b, 𝒩_b = 𝒟_b 𝒦_b
// (eq. 50–51), the joint momentum, joint force and torque Jacobians ℬ_i, 𝒬_i = 𝒟_i ℬ_i, ℛ_i = G_iᵀ 𝒬_i
// (eq. 52, 53, 57; the world at rest, no external force: what is linear in ℵ). As lower
// block-triangular maps of the hat-derivatives (eq. 67), ζ̂_{b,k} = Σ_j Σ_{p≤k} 𝒥^(k−p)_{b,j} ψ̂_{j,p}:
// the p-th block of each is returned as a 6 x NV matrix (the columns of joints not supporting b zero).
// The link N-CMTMs C_j are those of eq. (27) with the world at rest; ^bC_j = C_b⁻¹ C_j (eq. 26, 68) is
// never formed: its columns are carried from parent to child one joint N-CMTM at a time.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/ncmtm_kinematics.hpp"
#include "model/topology.hpp"

namespace rbdgen {

enum class JacobianFrame { Body, Inertial, World };

template <class S> struct ComprehensiveJacobian {
    std::vector<MatX<S>> J;  // J[p], p = 0..N: 6 x NV
};

// The stack [x_0; …; x_N] of column `col` of a Jacobian's blocks, and back.
template <class S> Stack<S, 6> column_stack(const ComprehensiveJacobian<S>& J, int col) {
    Stack<S, 6> x;
    for (const MatX<S>& block : J.J) x.push_back(block.col(col));
    return x;
}
template <class S> void set_column(ComprehensiveJacobian<S>& J, int col, const Stack<S, 6>& x) {
    for (size_t p = 0; p < J.J.size(); ++p) J.J[p].col(col) = x[p];
}

// The body-frame Jacobians of every link. Column j of link b is ^bC_j S_j (eq. 46) as a stack, and
// ^bC_j = ^bC_{p(b)} ^{p(b)}C_j: each column of the parent's Jacobian carried to the child (eq. 68 on
// a stack, as the motions of eq. 37), the joint's own columns S_b in block 0 (^bC_b = 1). One joint
// N-CMTM applied to a stack a column, never a product of two link N-CMTMs.
// `joints`: every joint's N-CMTM (ncmtm_motions makes them), or none to make them here.
template <class S>
std::vector<ComprehensiveJacobian<S>> ncmtm_body_jacobians(const Model& model, const Motion<S>& motion,
                                                           const std::vector<JointCmtm<S>>* joints = nullptr) {
    const int N = motion.order();
    std::vector<ComprehensiveJacobian<S>> J(model.N());
    for (int b = 0; b < model.N(); ++b) {  // parents first
        const Body& body = model.bodies[b];
        const JointCmtm<S> C_b = joints ? (*joints)[b] : [&] {
            const Step<S> step;
            return joint_cmtm<S>(body, motion);
        }();
        J[b].J.assign(N + 1, MatX<S>::Zero(6, model.nv));
        for (int j = body.lambda; j >= 0; j = model.bodies[j].lambda)
            for (int col = model.bodies[j].v_index; col < model.bodies[j].v_index + model.bodies[j].joint.nv(); ++col) {
                const Step<S> step;
                set_column(J[b], col, to_child<S>(C_b, column_stack(J[body.lambda], col)));
            }
        for (int k = 0; k < body.joint.nv(); ++k) J[b].J[0].col(body.v_index + k) = motion_axis(body.joint, k).cast<S>();
    }
    return J;
}

template <class S>
ComprehensiveJacobian<S> ncmtm_jacobian(const Model& model, const Motion<S>& motion, int b, JacobianFrame frame) {
    const int N = motion.order();
    if (frame == JacobianFrame::World) {  // ⁰C_j S_j: the link N-CMTMs' columns
        std::vector<Cmtm<S, 6>> C = ncmtm_link_cmtms<S>(model, motion, nullptr);
        ComprehensiveJacobian<S> out;
        out.J.assign(N + 1, MatX<S>::Zero(6, model.nv));
        for (int j = b; j >= 0; j = model.bodies[j].lambda) {
            const Step<S> step;
            const Body& body = model.bodies[j];
            for (int p = 0; p <= N; ++p)
                for (int k = 0; k < body.joint.nv(); ++k)
                    out.J[p].col(body.v_index + k) = C[j].C[p] * motion_axis(body.joint, k).cast<S>();
        }
        return out;
    }
    ComprehensiveJacobian<S> out = ncmtm_body_jacobians<S>(model, motion)[b];
    if (frame == JacobianFrame::Inertial) {
        // ^{b^I}X_b = rot(⁰R_b) without translation; b moves relative to b^I by its rotation alone
        const Step<S> step;
        const Block<S, 6> E = ncmtm_link_cmtms<S>(model, motion, nullptr)[b].C[0];
        Block<S, 6> R = Block<S, 6>::Zero();
        R.template topLeftCorner<3, 3>() = E.template topLeftCorner<3, 3>();
        R.template bottomRightCorner<3, 3>() = E.template topLeftCorner<3, 3>();
        Stack<S, 6> omega = ncmtm_motions<S>(model, motion, nullptr)[b];
        for (Vec6<S>& w : omega) w.template tail<3>().setZero();
        const Cmtm<S, 6> to_inertial = construct<S, 6>(R, omega, Cross::Motion6);
        for (int col = 0; col < model.nv; ++col) set_column(out, col, to_inertial * column_stack(out, col));
    }
    return out;
}

// The link momentum Jacobian 𝒦_b = Ĩ_b 𝒥_b (eq. 50), from the body-frame 𝒥_b: ĥ_b = 𝒦_b ℵ.
template <class S> ComprehensiveJacobian<S> ncmtm_momentum_jacobian(const Model& model, const ComprehensiveJacobian<S>& body_J, int b) {
    ComprehensiveJacobian<S> K = body_J;
    const Mat6<S> I = model.bodies[b].I.template cast<S>().matrix();
    for (long col = 0; col < K.J[0].cols(); ++col) {
        const Step<S> step;
        for (MatX<S>& block : K.J) block.col(col) = I * block.col(col);
    }
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
    const long cols = H.J[0].cols();
    std::vector<Block<S, 6>> cross;  // [ζ̂_m ×̄]
    {
        const Step<S> step;
        for (int m = 0; m < N; ++m) cross.push_back(cross6_dual<S>(zeta_hat[m]));
    }
    BlockJacobian<S> F;
    F.Q.assign(N, std::vector<MatX<S>>(N + 1, MatX<S>::Zero(6, cols)));
    for (long col = 0; col < cols; ++col) {  // a column at a time: the same operations for every column
        const Step<S> step;
        for (int k = 0; k < N; ++k)
            for (int q = 0; q <= N; ++q) {
                Vec6<S> f = q <= k + 1 ? Vec6<S>(H.J[k + 1 - q].col(col) * S(k + 1.0)) : Vec6<S>::Zero();
                for (int p = q; p <= k; ++p) f += cross[k - p] * H.J[p - q].col(col);
                F.Q[k][q].col(col) = f;
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
// Whether column col (a joint's velocity) can move a body of the subtree of c: its joint is c, an
// ancestor of c or in c's subtree (λ the parent array). Other columns of ℬ_c are zero.
inline bool supports(const Model& model, const std::vector<int>& lambda, int col, int c) {
    int j = 0;
    while (j + 1 < model.N() && model.bodies[j + 1].v_index <= col) ++j;  // the body of column col
    return in_subtree(lambda, c, j) || in_subtree(lambda, j, c);
}

// `given`: every joint's N-CMTM, made once by the caller (ncmtm_motions), or none to make them here.
template <class S>
std::vector<ComprehensiveJacobian<S>> ncmtm_joint_momentum_jacobians(const Model& model, const Motion<S>& motion,
                                                                     const std::vector<JointCmtm<S>>* given = nullptr) {
    std::vector<JointCmtm<S>> made;
    if (!given) ncmtm_motions<S>(model, motion, nullptr, &made);
    const std::vector<JointCmtm<S>>& joints = given ? *given : made;
    const std::vector<ComprehensiveJacobian<S>> J = ncmtm_body_jacobians<S>(model, motion, &joints);
    std::vector<ComprehensiveJacobian<S>> B;
    for (int k = 0; k < model.N(); ++k) B.push_back(ncmtm_momentum_jacobian<S>(model, J[k], k));
    const std::vector<int> lambda = parent_array(model);
    for (int c = model.N() - 1; c >= 0; --c) {  // children follow their parents: ℬ_c is complete here
        const int i = model.bodies[c].lambda;
        if (i < 0) continue;
        const JointCmtm<S>& C_c = joints[c];
        for (int col = 0; col < model.nv; ++col) {  // ^iC̄_c carries a column as forces to the parent (eq. 30)
            if (!supports(model, lambda, col, c)) continue;
            const Step<S> step;
            const Stack<S, 6> carried = to_parent<S>(C_c, column_stack(B[c], col));
            for (size_t p = 0; p < carried.size(); ++p) B[i].J[p].col(col) += carried[p];
        }
    }
    return B;
}

// 𝒬_i = 𝒟_i ℬ_i (eq. 53) of every joint: the force through joint i and its derivatives to order N − 1.
template <class S> std::vector<BlockJacobian<S>> ncmtm_joint_force_jacobians(const Model& model, const Motion<S>& motion) {
    std::vector<JointCmtm<S>> joints;  // each joint's N-CMTM, made once
    const std::vector<Stack<S, 6>> zeta_hat = ncmtm_motions<S>(model, motion, nullptr, &joints);
    const std::vector<ComprehensiveJacobian<S>> B = ncmtm_joint_momentum_jacobians<S>(model, motion, &joints);
    std::vector<BlockJacobian<S>> Q;
    for (int i = 0; i < model.N(); ++i) Q.push_back(apply_D<S>(zeta_hat[i], B[i]));
    return Q;
}

// ℛ_i = G_iᵀ 𝒬_i (eq. 57) of every joint: joint i's forces τ̂_i (n_i rows a block), with its armature's.
template <class S> std::vector<BlockJacobian<S>> ncmtm_torque_jacobians(const Model& model, const Motion<S>& motion) {
    std::vector<BlockJacobian<S>> R = ncmtm_joint_force_jacobians<S>(model, motion);
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Joint& joint = model.bodies[i].joint;
        const Subspace<S> S_i = motion_subspace<S>(joint);
        for (auto& row : R[i].Q)
            for (MatX<S>& block : row) block = S_i.transpose() * block;
        if (joint.armature == 0) continue;
        // the armature's (armature q̈)^(k) = armature ψ^(k+1): τ̂_k gains armature (k + 1) ψ̂_{k+1}
        for (size_t k = 0; k < R[i].Q.size(); ++k)
            for (int e = 0; e < joint.nv(); ++e) {
                S& entry = R[i].Q[k][k + 1](e, model.bodies[i].v_index + e);
                entry = entry + S(joint.armature * (k + 1.0));
            }
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

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_NCMTM_JACOBIAN(S) ComprehensiveJacobian<S> ncmtm_jacobian(const Model&, const Motion<S>&, int, JacobianFrame)
RBDGEN_COMPILED_ONCE(RBDGEN_NCMTM_JACOBIAN)
#define RBDGEN_NCMTM_TORQUE_JACOBIANS(S) std::vector<BlockJacobian<S>> ncmtm_torque_jacobians(const Model&, const Motion<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_NCMTM_TORQUE_JACOBIANS)

}  // namespace rbdgen
