// Recursive Newton–Euler inverse dynamics, τ = ID(q, q̇, q̈, f^x) (Nori eq. 2–3, Featherstone's ID.m).
// External forces f^x act on each body, in body coordinates. Gravity enters as a_0 = −a_g.
#pragma once

#include <vector>

#include "algorithms/jcalc.hpp"

namespace rbdgen {

template <class S>
VecX<S> rnea(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd, const Vec3<S>& gravity,
             const std::vector<Vec6<S>>* f_ext = nullptr) {
    const int N = model.N();
    std::vector<Transform<S>> X(N);
    std::vector<Vec6<S>> v(N), a(N), f(N);
    const Vec6<S> a_0 = spatial<S>(Vec3<S>::Zero(), -gravity);
    for (int i = 0; i < N; ++i) {
        const Body& b = model.bodies[i];
        X[i] = X_up<S>(b, q.data());
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index);
        const Vec6<S> aJ = motion<S>(b.joint, qdd.data() + b.v_index);
        if (b.lambda < 0) {
            v[i] = vJ;
            a[i] = X[i].apply(a_0) + aJ;
        } else {
            v[i] = X[i].apply(v[b.lambda]) + vJ;                          // eq. (2)
            a[i] = X[i].apply(a[b.lambda]) + aJ + crm<S>(v[i], vJ);       // eq. (3a)
        }
        name_spatial(v[i], "v", b.name);
        name_spatial(a[i], "a", b.name);
        const RigidBodyInertia<S> I = b.I.cast<S>();
        f[i] = I * a[i] + crf<S>(v[i], I * v[i]);                        // eq. (3f): I a + v ×* I v
        if (f_ext) f[i] -= (*f_ext)[i];                                   //           − f^x
    }
    VecX<S> tau(model.nv);
    for (int i = N - 1; i >= 0; --i) {
        const Body& b = model.bodies[i];
        name_spatial(f[i], "f", b.name);
        project<S>(b.joint, f[i], tau.data() + b.v_index);              // eq. (3τ)
        if (b.lambda >= 0) f[b.lambda] += X[i].transpose_apply(f[i]);     // Σ ⁱX_j* f_j
    }
    return tau;
}

// The gravity vector g(q) = ID(q, 0, 0).
template <class S> VecX<S> gravity_vector(const Model& model, const VecX<S>& q, const Vec3<S>& gravity) {
    const VecX<S> zero = VecX<S>::Zero(model.nv);
    return rnea<S>(model, q, zero, zero, gravity);
}

}  // namespace rbdgen
