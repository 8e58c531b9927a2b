// The centre of mass and its motion, and the CoM Jacobian (Orin, Goswami and Lee 2013, §2; RBDA
// §2.13 for the inertia's first moment). Body i's inertia is (mᵢ, hᵢ = mᵢ cᵢ, Īᵢ) in its own
// coordinates, ⁱX_0 = (Eᵢ, rᵢ) the world-to-body transform; in world coordinates
//   m c = Σ mᵢ rᵢ + Eᵢᵀ hᵢ                                  (the first moment)
//   m ċ = Σ Eᵢᵀ lin(Iᵢ vᵢ)                                  (the linear momentum)
//   m c̈ = Σ Eᵢᵀ lin(Iᵢ aᵢ + vᵢ ×* Iᵢ vᵢ)                    (its rate, aᵢ without gravity)
// over the moving bodies (a fixed base's links do not move and are not counted). The Jacobian's
// column k, of joint j's axis sₖ, is the linear momentum of the subtree of j moving along sₖ at unit
// rate, over m: Jc,k = E_jᵀ lin(I_jᶜ sₖ) / m with I_jᶜ the composite inertia of the subtree (CRBA),
// of which only (m, h) enter: lin(Iᶜ s) = mᶜ lin(s) + ang(s) × hᶜ.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"

namespace rbdgen {

// The moving bodies' mass as the model gives it (the header's total_mass).
inline double total_mass(const Model& model) {
    double m = 0;
    for (const Body& b : model.bodies) m += b.I.m;
    return m;
}

// The moving bodies' total mass Σ mᵢ and first moment Σ mᵢ (rᵢ + Eᵢᵀ cᵢ), world coordinates.
template <class S> struct FirstMoment {
    S m = S(0);
    Vec3<S> mc = Vec3<S>::Zero();
};
template <class S> FirstMoment<S> first_moment(const Model& model, const Kinematics<S>& kin, const BodyInertias<S>* inertias) {
    FirstMoment<S> out;
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        out.m = out.m + I.m;
        out.mc += I.m * kin.X_0[i].r + kin.X_0[i].E.transpose() * I.h;
    }
    return out;
}

template <class S> struct CenterOfMass {
    S m;               // total mass
    Vec3<S> c, cd, cdd;  // world coordinates (cd, cdd zero when not asked for)
};

// c, and with qd (and qdd) ċ (and c̈).
template <class S>
CenterOfMass<S> center_of_mass(const Model& model, const VecX<S>& q, const VecX<S>* qd = nullptr, const VecX<S>* qdd = nullptr,
                               const BodyInertias<S>* inertias = nullptr) {
    const VecX<S> zero = VecX<S>::Zero(model.nv);
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd ? *qd : zero);
    const FirstMoment<S> fm = first_moment<S>(model, kin, inertias);
    const S inv_m = S(1) / fm.m;
    CenterOfMass<S> out{fm.m, fm.mc * inv_m, Vec3<S>::Zero(), Vec3<S>::Zero()};
    if (!qd) return out;
    std::vector<Vec6<S>> a;
    if (qdd) a = accelerations<S>(model, kin, *qd, *qdd);
    Vec3<S> p = Vec3<S>::Zero(), pd = Vec3<S>::Zero();
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        const Vec6<S> Iv = I * kin.v[i];
        const Mat3<S> Et = kin.X_0[i].E.transpose();
        p += Et * lin(Iv);
        if (qdd) pd += Et * lin(Vec6<S>(I * a[i] + crf<S>(kin.v[i], Iv)));
    }
    out.cd = p * inv_m;
    out.cdd = pd * inv_m;
    return out;
}

// Jc, 3 x NV: ċ = Jc q̇.
template <class S> MatX<S> com_jacobian(const Model& model, const VecX<S>& q, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    const Kinematics<S> kin = forward_kinematics<S>(model, q, VecX<S>::Zero(model.nv));
    std::vector<S> m_c(N);
    std::vector<Vec3<S>> h_c(N);  // the subtree's (mᶜ, hᶜ), body coordinates
    S m = S(0);
    for (int i = 0; i < N; ++i) {
        const RigidBodyInertia<S> I = body_inertia<S>(model, i, inertias);
        m_c[i] = I.m, h_c[i] = I.h;
        m = m + I.m;
    }
    const S inv_m = S(1) / m;
    MatX<S> Jc = MatX<S>::Zero(3, model.nv);
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const Mat3<S> Et = kin.X_0[i].E.transpose();
        for (int k = 0; k < b.joint.nv(); ++k) {
            const Vec6<S> s = motion_axis(b.joint, k).cast<S>();
            Jc.col(b.v_index + k) = Et * Vec3<S>(m_c[i] * lin(s) + ang(s).cross(h_c[i])) * inv_m;
        }
        if (b.lambda >= 0) {  // (m, h) into the parent's coordinates: h' = Eᵀ h + m r (ⁱX_λ = (E, r))
            const Vec3<S> r = kin.X_up[i].origin();
            m_c[b.lambda] = m_c[b.lambda] + m_c[i];
            h_c[b.lambda] += kin.X_up[i].inverse_apply(spatial<S>(h_c[i], Vec3<S>::Zero())).template head<3>() + m_c[i] * r;
        }
    }
    return Jc;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CENTER_OF_MASS(S) CenterOfMass<S> center_of_mass(const Model&, const VecX<S>&, const VecX<S>*, \
    const VecX<S>*, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CENTER_OF_MASS)
#define RBDGEN_COM_JACOBIAN(S) MatX<S> com_jacobian(const Model&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_COM_JACOBIAN)

}  // namespace rbdgen
