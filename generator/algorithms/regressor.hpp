// The inverse-dynamics regressor: τ = Y(q, q̇, q̈) π, linear in the inertial parameters of every body
// (as identification uses it; Atkeson, An and Hollerbach 1986). A body's force of eq. (3f),
// f = I a + v ×* I v, is linear in its spatial inertia I, whose ten parameters are
//   π = (m, h_x, h_y, h_z, Ī_xx, Ī_xy, Ī_yy, Ī_xz, Ī_yz, Ī_zz),   h = m c,
// with h and Ī (the rotational inertia about the origin) in the body's URDF link frame: f = A(v, a) π
// with A's column p the force of the inertia whose parameter p is 1 and the others 0. Eq. (3τ) then
// gives τ_j = S_jᵀ Σ_{k ∈ subtree(j)} ʲX_k* f_k: column block k of Y is S_jᵀ ʲX_k* A_k on the joints j
// that support k, and zero on the others (branch-induced zeros, never computed).
#pragma once

#include <vector>

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"

namespace rbdgen {

constexpr int kInertialParameters = 10;
inline const char* const kInertialParameterNames[kInertialParameters] = {"m",   "mcx", "mcy", "mcz", "Ixx",
                                                                          "Ixy", "Iyy", "Ixz", "Iyz", "Izz"};

// The spatial inertia of parameter vector π (the order above).
template <class S, class P> RigidBodyInertia<S> inertia_of_parameters(const P& pi) {
    RigidBodyInertia<S> I;
    I.m = S(pi[0]);
    I.h = Vec3<S>(S(pi[1]), S(pi[2]), S(pi[3]));
    I.Ibar << S(pi[4]), S(pi[5]), S(pi[7]),  //
        S(pi[5]), S(pi[6]), S(pi[8]),        //
        S(pi[7]), S(pi[8]), S(pi[9]);
    return I;
}
// π of a spatial inertia.
template <class S> Eigen::Matrix<S, kInertialParameters, 1> parameters_of_inertia(const RigidBodyInertia<S>& I) {
    Eigen::Matrix<S, kInertialParameters, 1> pi;
    pi << I.m, I.h.x(), I.h.y(), I.h.z(), I.Ibar(0, 0), I.Ibar(0, 1), I.Ibar(1, 1), I.Ibar(0, 2), I.Ibar(1, 2), I.Ibar(2, 2);
    return pi;
}

// Y, NV x 10 NB: column block i is body i's π (in its URDF link frame, ᵁX_i from the body's frame).
template <class S>
MatX<S> regressor(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd, const Vec3<S>& gravity) {
    const int N = model.N();
    std::vector<ScrewChain<S>> X(N);
    std::vector<Vec6<S>> v(N), a(N);
    std::vector<Eigen::Matrix<S, 6, kInertialParameters>> A(N);
    for (int i = 0; i < N; ++i) {  // eq. (3a), gravity as a_0 = −a_g
        const Step<S> step;
        const Body& b = model.bodies[i];
        X[i] = X_up<S>(b, q.data());
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index), aJ = motion<S>(b.joint, qdd.data() + b.v_index);
        const int p = b.lambda;
        v[i] = p < 0 ? vJ : Vec6<S>(X[i].apply(v[p]) + vJ);
        const Vec6<S> a_p = p < 0 ? spatial<S>(Vec3<S>::Zero(), -gravity) : a[p];
        a[i] = X[i].apply(a_p) + aJ + crm<S>(v[i], vJ);
        // A_i in the URDF link frame, its forces back in the body's frame: ⁱX_U* = (ᵁX_i)ᵀ
        const Transform<S> U = b.X_urdf.template cast<S>();
        const Vec6<S> vU = U.apply(v[i]), aU = U.apply(a[i]);
        for (int k = 0; k < kInertialParameters; ++k) {
            Eigen::Matrix<double, kInertialParameters, 1> unit = Eigen::Matrix<double, kInertialParameters, 1>::Zero();
            unit[k] = 1;
            const RigidBodyInertia<S> I = inertia_of_parameters<S>(unit);
            A[i].col(k) = U.transpose_apply(Vec6<S>(I * aU + crf<S>(vU, I * vU)));
        }
    }
    MatX<S> Y = MatX<S>::Zero(model.nv, kInertialParameters * N);
    for (int k = 0; k < N; ++k) {  // body k's forces, carried to each joint that supports it (eq. 3τ)
        Eigen::Matrix<S, 6, kInertialParameters> F = A[k];
        for (int j = k; j >= 0; j = model.bodies[j].lambda) {
            const Step<S> step;
            const Body& b = model.bodies[j];
            for (int c = 0; c < kInertialParameters; ++c) {
                project<S>(b.joint, Vec6<S>(F.col(c)), &Y(b.v_index, kInertialParameters * k + c));  // a column's rows are contiguous
                if (b.lambda >= 0) F.col(c) = X[j].transpose_apply(Vec6<S>(F.col(c)));
            }
        }
    }
    return Y;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_REGRESSOR(S) MatX<S> regressor(const Model&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_REGRESSOR)

}  // namespace rbdgen
