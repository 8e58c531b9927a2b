// Forward kinematics: link transforms and velocities (Nori eq. 2), all in body coordinates.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"

namespace rbdgen {

template <class S> struct Kinematics {
    std::vector<ScrewChain<S>> X_up;  // ⁱX_λ(i)
    std::vector<Transform<S>> X_0;   // ⁱX_0 : world (fixed base) to body i
    std::vector<Vec6<S>> v;
};

template <class S>
Kinematics<S> forward_kinematics(const Model& model, const VecX<S>& q, const VecX<S>& qd) {
    const int N = model.N();
    Kinematics<S> k;
    k.X_up.resize(N);
    k.X_0.resize(N);
    k.v.resize(N);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const int p = b.lambda;
        k.X_up[i] = X_up<S>(b, q.data());
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index);
        if (p < 0) {
            k.X_0[i] = k.X_up[i].composed();
            k.v[i] = vJ;
        } else {
            k.X_0[i] = k.X_up[i] * k.X_0[p];
            k.v[i] = k.X_up[i].apply(k.v[p]) + vJ;  // eq. (2)
        }
    }
    return k;
}

// The bodies' spatial accelerations in body coordinates, without gravity (a_0 = 0):
// a_i = ⁱX_λ(i) a_λ(i) + S_i q̈_i + v_i × S_i q̇_i.
template <class S>
std::vector<Vec6<S>> accelerations(const Model& model, const Kinematics<S>& kin, const VecX<S>& qd, const VecX<S>& qdd) {
    std::vector<Vec6<S>> a(model.N());
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index), aJ = motion<S>(b.joint, qdd.data() + b.v_index);
        a[i] = (b.lambda < 0 ? aJ : Vec6<S>(kin.X_up[i].apply(a[b.lambda]) + aJ)) + crm<S>(kin.v[i], vJ);
    }
    return a;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_FORWARD_KINEMATICS(S) Kinematics<S> forward_kinematics(const Model&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FORWARD_KINEMATICS)

}  // namespace rbdgen
