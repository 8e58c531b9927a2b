// Recursive Newton–Euler inverse dynamics, τ = ID(q, q̇, q̈, f^x) (Nori eq. 2–3), in the link-coordinate
// form with Cartesian tensors whose cost Featherstone §6 quotes ((93n − 69)m + (81n − 66)a, Balafoutis,
// Patel and Misra 1988). It is eq. (3) with the spatial acceleration a = (ω̇, a_O) replaced by the
// classical acceleration of the frame origin, ä = a_O + ω × v_O, which needs no linear velocity:
//   ω_i = E ω_λ + ω_J,   ω̇_i = E ω̇_λ + ω̇_J + ω_i × ω_J,
//   ä_i = E (ä_λ + W_λ r) + a_J + (E ω_λ + ω_i) × v_J,   W = ω̇× + ω×ω×,
// where ⁱX_λ = rot(E) xlt(r), (ω_J, v_J) = S q̇ and (ω̇_J, a_J) = S q̈. The body's force about its origin,
// f = I a + v ×* I v (eq. 3f), is then F = m ä + W h and N = Ī ω̇ + ω × Ī ω + h × ä, whose first two
// terms are Σ m ρ × Wρ: N_x = (W J)_zy − (W J)_yz (and cyclically) with J = ½ tr(Ī) 1 − Ī.
// External forces f^x act on each body, in body coordinates. Gravity enters as ä_0 = −g.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"

namespace rbdgen {

// W = ω̇× + ω×ω× = ω̇× + ω ωᵀ − |ω|² 1 : W x = ω̇ × x + ω × (ω × x).
template <class S> Mat3<S> angular_acceleration_tensor(const Vec3<S>& w, const Vec3<S>& wd) {
    const S xx = w.x() * w.x(), yy = w.y() * w.y(), zz = w.z() * w.z();
    const S xy = w.x() * w.y(), xz = w.x() * w.z(), yz = w.y() * w.z();
    Mat3<S> W;
    W << -(yy + zz), xy - wd.z(), xz + wd.y(),  //
        xy + wd.z(), -(xx + zz), yz - wd.x(),   //
        xz - wd.y(), yz + wd.x(), -(xx + yy);
    return W;
}

// vect(W J), N_a = (W J)_cb − (W J)_bc for (a, b, c) cyclic, with J symmetric: the two terms in J_bc
// share one product, N_a = W_ca J_ab − W_ba J_ac + W_cb J_bb − W_bc J_cc + (W_cc − W_bb) J_bc (5m, not 6m).
template <class S> Vec3<S> vect_W_J(const Mat3<S>& W, const Mat3<S>& J) {
    Vec3<S> N;
    for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        N[a] = W(c, a) * J(a, b) - W(b, a) * J(a, c) + W(c, b) * J(b, b) - W(b, c) * J(c, c) + (W(c, c) - W(b, b)) * J(b, c);
    }
    return N;
}

// What RNEA computes for each body, for a caller that wants more than τ (the kernels name them).
template <class S> struct RneaBodies {
    std::vector<Vec3<S>> omega, accel;  // ω, and ä the classical acceleration of the origin (gravity included)
    std::vector<Vec6<S>> f;             // the force the body's joint transmits, about its origin
};

template <class S>
VecX<S> rnea(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd, const Vec3<S>& gravity,
             const std::vector<Vec6<S>>* f_ext = nullptr, RneaBodies<S>* bodies = nullptr,
             const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    std::vector<ScrewChain<S>> X(N);
    std::vector<Vec3<S>> w(N), wd(N), add(N);
    std::vector<Mat3<S>> W(N);
    std::vector<Vec6<S>> f(N);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        X[i] = X_up<S>(b, q.data());
        const Vec6<S> vJ = motion<S>(b.joint, qd.data() + b.v_index);
        const Vec6<S> aJ = motion<S>(b.joint, qdd.data() + b.v_index);
        const Vec3<S> r = X[i].origin();
        const int p = b.lambda;
        const Vec3<S> Ew = p < 0 ? Vec3<S>::Zero() : X[i].rotate(w[p]);
        const Vec3<S> Ewd = p < 0 ? Vec3<S>::Zero() : X[i].rotate(wd[p]);
        const Vec3<S> add_p = p < 0 ? Vec3<S>(-gravity) : Vec3<S>(add[p] + W[p] * r);
        w[i] = Ew + ang(vJ);
        wd[i] = Ewd + ang(aJ) + w[i].cross(ang(vJ));
        add[i] = X[i].rotate(add_p) + lin(aJ) + (Ew + w[i]).cross(lin(vJ));
        W[i] = angular_acceleration_tensor<S>(w[i], wd[i]);
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        const Mat3<S> J = inertias ? Mat3<S>(Mat3<S>::Identity() * (I.Ibar.trace() * S(0.5)) - I.Ibar)
                                   : Mat3<S>((b.I.Ibar.trace() / 2 * Mat3<double>::Identity() - b.I.Ibar).cast<S>());
        const Vec3<S> N_w = vect_W_J<S>(W[i], J);  // Ī ω̇ + ω × Ī ω
        f[i] = spatial<S>(N_w + I.h.cross(add[i]), I.m * add[i] + W[i] * I.h);            // eq. (3f)
        if (f_ext) f[i] -= (*f_ext)[i];                                                   //  − f^x
    }
    VecX<S> tau(model.nv);
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        project<S>(b.joint, f[i], tau.data() + b.v_index);              // eq. (3τ)
        add_armature<S>(b.joint, qdd.data() + b.v_index, tau.data() + b.v_index);  // + armature q̈
        if (b.lambda >= 0) f[b.lambda] += X[i].transpose_apply(f[i]);     // Σ ⁱX_j* f_j
    }
    if (bodies) *bodies = {w, add, f};
    return tau;
}

// The gravity vector g(q) = ID(q, 0, 0).
template <class S> VecX<S> gravity_vector(const Model& model, const VecX<S>& q, const Vec3<S>& gravity) {
    const VecX<S> zero = VecX<S>::Zero(model.nv);
    return rnea<S>(model, q, zero, zero, gravity);
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_RNEA(S) VecX<S> rnea(const Model&, const VecX<S>&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, \
    const std::vector<Vec6<S>>*, RneaBodies<S>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_RNEA)

}  // namespace rbdgen
