// Centroidal dynamics (Orin, Goswami and Lee, "Centroidal dynamics of a humanoid robot", Auton.
// Robots 2013): the momentum h_G = [k_G; l] about the centre of mass c, in world axes, rows
// [angular; linear] as every spatial quantity here, is h_G = A_G q̇ (eq. 23), and
// ḣ_G = A_G q̈ + Ȧ_G q̇ (eq. 24).
//
// A_G by the composite-rigid-body recursion (Orin et al. §3, Pinocchio's ccrba): column k of joint
// j's axis sₖ is the momentum of j's subtree moving along sₖ at unit rate, I_jᶜ sₖ in j's
// coordinates (CRBA's composite inertia), taken to world coordinates about the world origin by
// ⁰X_j* and then about c:
//   shift_c [n; f] = [n − c × f; f]                                 (the moment of f about c)
// Ȧ_G q̇ and ḣ_G are the rate of the bodies' momenta, Σ ⁰Xᵢ* (Iᵢ aᵢ + vᵢ ×* Iᵢ vᵢ) about the (fixed)
// world origin, gathered by RNEA's backward pass (fᵢ into the parent by ⁱX_λᵀ), with aᵢ at q̈ = 0
// (Ȧ_G q̇) or at q̈ (ḣ_G), without gravity, then about c: d/dt (n_O − c × l) = ṅ_O − c × l̇, since
// ċ × l = ċ × m ċ = 0.
#pragma once

#include <vector>

#include "algorithms/com.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"

namespace rbdgen {

// [n − c × f; f]: a world force (moment about the origin) taken about c.
template <class S> Vec6<S> about_point(const Vec3<S>& c, const Vec6<S>& f) { return spatial<S>(ang(f) - c.cross(lin(f)), lin(f)); }

// Σ ⁰Xᵢ* fᵢ, the bodies' forces fᵢ (body coordinates) in world coordinates about the origin:
// gathered up the tree (RNEA's backward pass), each root's then taken to the world.
template <class S> Vec6<S> world_sum(const Model& model, const Kinematics<S>& kin, std::vector<Vec6<S>> f) {
    Vec6<S> sum = Vec6<S>::Zero();
    for (int i = model.N() - 1; i >= 0; --i) {
        const Step<S> step;
        const int p = model.bodies[i].lambda;
        if (p >= 0) f[p] += kin.X_up[i].transpose_apply(f[i]);
        else sum += kin.X_0[i].transpose_apply(f[i]);
    }
    return sum;
}

template <class S> struct Centroidal {
    MatX<S> A;           // A_G, 6 x NV
    Vec6<S> h, Adot_qd;  // h_G = A_G q̇, Ȧ_G q̇
    Vec3<S> c;           // the centre of mass
};

template <class S>
Centroidal<S> centroidal(const Model& model, const VecX<S>& q, const VecX<S>& qd, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const FirstMoment<S> fm = first_moment<S>(model, kin, inertias);
    Centroidal<S> out{MatX<S>::Zero(6, model.nv), Vec6<S>::Zero(), Vec6<S>::Zero(), fm.mc * (S(1) / fm.m)};
    // Ȧ_G q̇: the bodies' momentum rates at q̈ = 0
    const std::vector<Vec6<S>> a = accelerations<S>(model, kin, qd, VecX<S>::Zero(model.nv));
    std::vector<RigidBodyInertia<S>> I_c(N);
    std::vector<Vec6<S>> f(N);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        I_c[i] = body_inertia<S>(model, i, inertias);
        f[i] = I_c[i] * a[i] + crf<S>(kin.v[i], I_c[i] * kin.v[i]);
    }
    out.Adot_qd = about_point<S>(out.c, world_sum<S>(model, kin, f));
    // A_G, column by column: ⁰X_j* I_jᶜ sₖ about c
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        for (int k = 0; k < b.joint.nv(); ++k)
            out.A.col(b.v_index + k) =
                about_point<S>(out.c, kin.X_0[i].transpose_apply(I_c[i] * motion_axis(b.joint, k).cast<S>()));
        if (b.lambda >= 0) I_c[b.lambda] = I_c[b.lambda] + kin.X_up[i].inertia_in_parent(I_c[i]);
    }
    out.h = out.A * qd;
    return out;
}

// h_G and ḣ_G = A_G q̈ + Ȧ_G q̇, from the bodies' momenta and their rates (no A_G).
template <class S> struct CentroidalRate {
    Vec6<S> h, hdot;
};
template <class S>
CentroidalRate<S> centroidal_momentum_rate(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                           const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const FirstMoment<S> fm = first_moment<S>(model, kin, inertias);
    const Vec3<S> c = fm.mc * (S(1) / fm.m);
    const std::vector<Vec6<S>> a = accelerations<S>(model, kin, qd, qdd);
    std::vector<Vec6<S>> h(N), f(N);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        h[i] = I * kin.v[i];
        f[i] = I * a[i] + crf<S>(kin.v[i], h[i]);
    }
    return {about_point<S>(c, world_sum<S>(model, kin, h)), about_point<S>(c, world_sum<S>(model, kin, f))};
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CENTROIDAL(S) Centroidal<S> centroidal(const Model&, const VecX<S>&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CENTROIDAL)
#define RBDGEN_CENTROIDAL_MOMENTUM_RATE(S) CentroidalRate<S> centroidal_momentum_rate(const Model&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CENTROIDAL_MOMENTUM_RATE)

}  // namespace rbdgen
