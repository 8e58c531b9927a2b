// Forward kinematics of order N with the N-CMTM (Samy et al. §V-A): every link's velocity ν_i and its
// derivatives ν̇_i … ν_i^(N), in body coordinates, component-wise (the paper's local derivatives).
// A joint's motion Ψ_i = [ψ_i; ψ̇_i; …; ψ_i^(N)] (eq. 24) gives its relative motion ζ_i^{p(i)} = G_i Ψ_i,
// G_i = diag(S_i) (eq. 23, 25), and its N-CMTM ^{p(i)}C_i of ^{p(i)}X_i (eq. 22). Written
// ^{p}C_i = ^{p}X_i A_i with A_i the N-CMTM of the joint's motion alone (T = 1), so that only the A_i
// blocks (a few nonzeros for a joint along z) enter products.
// Two ways, equal: eq. (27) multiplies the link N-CMTMs C_i = C_{p(i)} ^{p(i)}C_i and deconstructs
// them (eq. 17); eq. (37), used by the kernels, propagates the motions,
//   ζ̂_i = ζ̂_i^{p(i)} + ^iC_{p(i)} ζ̂_{p(i)},
// with ^iC_p ζ̂_p = y solved from ^pC_i y = ζ̂_p by eq. (68): y_k = ⁱX_p ζ̂_{p,k} − Σ_{j<k} A_{i,k−j} y_j.
// The world's motion ζ̂_0 is zero, or (0, −a_g) at first order (gravity as a base acceleration,
// Featherstone's trick, which the N-CMTM carries to every order: C_0 of eq. 27).
#pragma once

#include <vector>

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"
#include "algorithms/ncmtm.hpp"

namespace rbdgen {

// A motion of the whole robot: q, and each joint's Ψ in the model's velocity order: psi[p] = ψ^(p)
// (so psi[0] = q̇, psi[1] = q̈, …), p = 0..N.
template <class S> struct Motion {
    VecX<S> q;
    std::vector<VecX<S>> psi;
    int order() const { return static_cast<int>(psi.size()) - 1; }
};

// What the kernels and the Jacobians need of a joint: its transform and its motion's N-CMTMs.
template <class S> struct JointCmtm {
    ScrewChain<S> X_up;     // ⁱX_p: (^{p}C_i)_0 = ⁱX_p⁻¹
    Stack<S, 6> zeta_hat;   // ζ̂_i^{p(i)} = S_i ψ̂_i^(k)   (eq. 23)
    Cmtm<S, 6> A, A_dual;   // N-CMTMs of T = 1 with [ζ̂ ×] and [ζ̂ ×̄]: ^pC_i = ^pX_i A, ^pC̄_i = ^pX̄_i Ā
};

template <class S> JointCmtm<S> joint_cmtm(const Body& body, const Motion<S>& motion) {
    JointCmtm<S> J;
    J.X_up = X_up<S>(body, motion.q.data());
    for (int p = 0; p <= motion.order(); ++p) {
        double factorial = 1;
        for (int j = 2; j <= p; ++j) factorial *= j;
        J.zeta_hat.push_back(rbdgen::motion<S>(body.joint, motion.psi[p].data() + body.v_index) * S(1.0 / factorial));
    }
    const Block<S, 6> one = Block<S, 6>::Identity();
    J.A = construct<S, 6>(one, J.zeta_hat, Cross::Motion6);
    J.A_dual = construct<S, 6>(one, J.zeta_hat, Cross::Force6);
    return J;
}

// ^iC_p ζ̂_p (eq. 68 on a vector, see above).
template <class S> Stack<S, 6> to_child(const JointCmtm<S>& J, const Stack<S, 6>& zeta_hat_p) {
    Stack<S, 6> y;
    for (size_t k = 0; k < zeta_hat_p.size(); ++k) {
        Vec6<S> yk = J.X_up.apply(zeta_hat_p[k]);
        for (size_t j = 0; j < k; ++j) yk -= J.A.C[k - j] * y[j];
        y.push_back(yk);
    }
    return y;
}

// ^pC̄_i f̂ = ^pX̄_i (Ā f̂): a stack of force derivatives from child i to its parent (eq. 30).
template <class S> Stack<S, 6> to_parent(const JointCmtm<S>& J, const Stack<S, 6>& f_hat) {
    Stack<S, 6> z = J.A_dual * f_hat;
    for (Vec6<S>& zk : z) zk = J.X_up.transpose_apply(zk);
    return z;
}

// The world's motion ζ̂_0 to order N: at rest, or accelerating by −a_g.
template <class S> Stack<S, 6> world_motion(int N, const Vec3<S>* gravity) {
    Stack<S, 6> zeta_hat(N + 1, Vec6<S>::Zero());
    if (gravity && N >= 1) zeta_hat[1].template tail<3>() = -*gravity;
    return zeta_hat;
}

// Eq. (37): ζ̂_i of every link (hats), joint N-CMTMs to `joints` if given.
template <class S>
std::vector<Stack<S, 6>> ncmtm_motions(const Model& model, const Motion<S>& motion, const Vec3<S>* gravity,
                                       std::vector<JointCmtm<S>>* joints = nullptr) {
    const int N = motion.order();
    std::vector<Stack<S, 6>> zeta_hat(model.N());
    const Stack<S, 6> world = world_motion<S>(N, gravity);
    std::vector<JointCmtm<S>> J;
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        J.push_back(joint_cmtm<S>(b, motion));
        zeta_hat[i] = to_child<S>(J[i], b.lambda < 0 ? world : zeta_hat[b.lambda]);
        for (int k = 0; k <= N; ++k) zeta_hat[i][k] += J[i].zeta_hat[k];
    }
    if (joints) *joints = std::move(J);
    return zeta_hat;
}

// Forward kinematics of order N: ζ_i = [ν_i; …; ν_i^(N)] of every link, the world at rest.
template <class S> std::vector<Stack<S, 6>> ncmtm_fk(const Model& model, const Motion<S>& motion) {
    std::vector<Stack<S, 6>> zeta = ncmtm_motions<S>(model, motion, nullptr);
    for (Stack<S, 6>& z : zeta) z = unhat<S, 6>(z);
    return zeta;
}

// Eq. (26–27): the link N-CMTMs C_i = C_{p(i)} ^{p(i)}C_i from C_0 (the world: T = 1 and ζ̂_0), of
// order N + 1 so that their deconstruction (eq. 17) gives ζ̂_i to order N. T = ⁰X_i (k = 6).
template <class S>
std::vector<Cmtm<S, 6>> ncmtm_link_cmtms(const Model& model, const Motion<S>& motion, const Vec3<S>* gravity) {
    const int N = motion.order();
    Motion<S> m = motion;  // one order more, its last derivative zero: C of order N + 1 needs ζ̂ to N only
    m.psi.push_back(VecX<S>::Zero(model.nv));
    Stack<S, 6> world = world_motion<S>(N + 1, gravity);
    const Cmtm<S, 6> C_0 = construct<S, 6>(Block<S, 6>::Identity(), world, Cross::Motion6);
    std::vector<Cmtm<S, 6>> C(model.N());
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const JointCmtm<S> J = joint_cmtm<S>(b, m);
        Cmtm<S, 6> pC_i = J.A;  // ^pX_i A
        const Block<S, 6> pX_i = transform_inverse<S, 6>(J.X_up.composed().matrix());
        for (Block<S, 6>& block : pC_i.C) block = pX_i * block;
        C[i] = (b.lambda < 0 ? C_0 : C[b.lambda]) * pC_i;
    }
    return C;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_NCMTM_FK(S) std::vector<Stack<S, 6>> ncmtm_fk(const Model&, const Motion<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_NCMTM_FK)

}  // namespace rbdgen
