// Nori's sparse Newton–Euler system D d + b = 0 (eq. 3–5), written once on the scalar like every
// other algorithm. Problems add their measurement equations to it (sparse/problem.hpp).
// Variables d = {a_i, f_i, τ_i, f_i^x, q̈_i} a body, constraints {(3a_i), (3f_i), (3τ_i)} a body:
//   (3a_i)  a_i = ⁱX_λ a_λ + S_i q̈_i + c_i,            c_i = v_i × S_i q̇_i (a_0 = −a_g)
//   (3f_i)  f_i = I_i a_i + ν_i − f_i^x + Σ_{j∈μ_i} ⁱX_j* f_j,   ν_i = v_i ×* I_i v_i
//   (3τ_i)  τ_i = S_iᵀ f_i (+ armature q̈_i, a joint that has one)
// with the blocks of eq. (4). D depends on q only, b on q and q̇. Dense: the measurement equations
// of a problem are appended in sparse/problem.hpp, the pattern is read from a trace (sparse/analysis).
#pragma once

#include <string>
#include <vector>

#include "algorithms/aba.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"

namespace rbdgen {

// Where body i's variables and constraints sit in d and in the rows of D.
struct NewtonEulerLayout {
    struct BodyBlocks {
        int a, f, tau, f_x, qdd;  // first column of each variable
        int row_a, row_f, row_tau;  // first row of each constraint
        int n;                      // the joint's degrees of freedom n_i
    };
    std::vector<BodyBlocks> bodies;
    int variables = 0, constraints = 0;
};

inline NewtonEulerLayout newton_euler_layout(const Model& model) {
    NewtonEulerLayout l;
    for (const Body& b : model.bodies) {
        NewtonEulerLayout::BodyBlocks k;
        k.n = b.joint.nv();
        k.a = l.variables, k.f = k.a + 6, k.tau = k.f + 6, k.f_x = k.tau + k.n, k.qdd = k.f_x + 6;
        l.variables = k.qdd + k.n;
        k.row_a = l.constraints, k.row_f = k.row_a + 6, k.row_tau = k.row_f + 6;
        l.constraints = k.row_tau + k.n;
        l.bodies.push_back(k);
    }
    return l;
}

template <class S> struct NewtonEulerSystem {
    MatX<S> D;  // constraints × variables
    VecX<S> b;
};

// D(q) and b(q, q̇) of eq. (5) for the constraints (3), in the layout above (p and q the identity).
template <class S>
NewtonEulerSystem<S> newton_euler_system(const Model& model, const VecX<S>& q, const VecX<S>& qd, const Vec3<S>& gravity) {
    const NewtonEulerLayout l = newton_euler_layout(model);
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    NewtonEulerSystem<S> sys{MatX<S>::Zero(l.constraints, l.variables), VecX<S>::Zero(l.constraints)};
    MatX<S>& D = sys.D;
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Body& body = model.bodies[i];
        const auto& k = l.bodies[i];
        const Mat6<S> X = kin.X_up[i].composed().matrix();  // ⁱX_λ
        const Subspace<S> S_i = motion_subspace<S>(body.joint);
        const Vec6<S> vJ = motion<S>(body.joint, qd.data() + body.v_index);
        const RigidBodyInertia<S> I = body.I.template cast<S>();
        // (3a_i), eq. (4a, 4b)
        D.block(k.row_a, k.a, 6, 6) = -Mat6<S>::Identity();
        D.block(k.row_a, k.qdd, 6, k.n) = S_i;
        sys.b.segment(k.row_a, 6) = crm<S>(kin.v[i], vJ);
        if (body.lambda >= 0) {
            D.block(k.row_a, l.bodies[body.lambda].a, 6, 6) = X;
        } else {  // a_0 = −a_g: the world's acceleration, gravity reversed, in the root's coordinates
            Vec6<S> a_0 = Vec6<S>::Zero();
            a_0.template tail<3>() = -gravity;
            sys.b.segment(k.row_a, 6) += X * a_0;
        }
        // (3f_i), eq. (4c, 4d): the children's forces enter their parent's row below
        D.block(k.row_f, k.f, 6, 6) = -Mat6<S>::Identity();
        D.block(k.row_f, k.a, 6, 6) = I.matrix();
        D.block(k.row_f, k.f_x, 6, 6) = -Mat6<S>::Identity();
        sys.b.segment(k.row_f, 6) = crf<S>(kin.v[i], I * kin.v[i]);
        if (body.lambda >= 0) D.block(l.bodies[body.lambda].row_f, k.f, 6, 6) = X.transpose();  // ᵖX_i* = (ⁱX_p)ᵀ
        // (3τ_i), eq. (4e)
        D.block(k.row_tau, k.tau, k.n, k.n) = -MatX<S>::Identity(k.n, k.n);
        D.block(k.row_tau, k.f, k.n, 6) = S_i.transpose();
        if (body.joint.armature != 0)  // τ_i = S_iᵀ f_i + armature q̈_i
            D.block(k.row_tau, k.qdd, k.n, k.n) = MatX<S>::Identity(k.n, k.n) * S(body.joint.armature);
    }
    return sys;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_NEWTON_EULER_SYSTEM(S) NewtonEulerSystem<S> newton_euler_system(const Model&, const VecX<S>&, const VecX<S>&, \
    const Vec3<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_NEWTON_EULER_SYSTEM)

}  // namespace rbdgen
