// The mechanical energy: kinetic T = ½ q̇ᵀ H q̇ = ½ Σ vᵢᵀ Iᵢ vᵢ (+ ½ armature q̇ᵢ² a joint), body by body without forming H (RBDA
// §2.13, eq. 2.71), and potential V = −Σ mᵢ gᵀ cᵢ = −gᵀ (m c), cᵢ each body's centre of mass in
// world coordinates (algorithms/com.hpp first_moment), zero where the centre of mass is at the world
// origin.
#pragma once

#include "algorithms/com.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"

namespace rbdgen {

template <class S> struct Energy {
    S T, V;
};

template <class S>
Energy<S> energy(const Model& model, const VecX<S>& q, const VecX<S>& qd, const Vec3<S>& gravity,
                 const BodyInertias<S>* inertias = nullptr) {
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    S twice_T = S(0);
    for (int i = 0; i < model.N(); ++i) {
        const Step<S> step;
        twice_T = twice_T + kin.v[i].dot(body_inertia<S>(model, i, inertias) * kin.v[i]);
        const Body& b = model.bodies[i];
        VecX<S> rotor = VecX<S>::Zero(b.joint.nv());  // the rotors': armature q̇², H's diagonal part
        add_armature<S>(b.joint, &qd[b.v_index], rotor.data());
        for (int k = 0; k < rotor.size(); ++k) twice_T = twice_T + rotor[k] * qd[b.v_index + k];
    }
    return {S(0.5) * twice_T, -gravity.dot(first_moment<S>(model, kin, inertias).mc)};
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_ENERGY(S) Energy<S> energy(const Model&, const VecX<S>&, const VecX<S>&, const Vec3<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_ENERGY)

}  // namespace rbdgen
