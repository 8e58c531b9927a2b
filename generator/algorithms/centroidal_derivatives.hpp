// Derivatives of the centroidal momentum h_G and its rate ḣ_G (centroidal.hpp) with respect to q (on
// the tangent space), q̇ and q̈: what a centroidal MPC's dynamics constraint differentiates (Pinocchio's
// computeCentroidalDynamicsDerivatives). With every quantity in world coordinates about the world
// origin, rnea_derivatives.hpp's passes without gravity give, for a DoF j of body i (column s, u = v_λ × s,
// α, β) and the sums over subtree(i): the inertia Y_i, the momentum H_i = Σ I_k v_k and the force
// F_i = Σ (I_k a_k + v_k ×* I_k v_k),
//   ∂h_O/∂q_j = s ×* H_i + Y_i u,   ∂ḣ_O/∂q_j = s ×* F_i + Y_i α + B_i u,   ∂ḣ_O/∂q̇_j = Y_i β + B_i s,
//   ∂h_O/∂q̇_j = ∂ḣ_O/∂q̈_j = Y_i s
// (the subtree turns about s; its momentum and force turn with it, and its velocities gain u), with
// h_O = Σ_roots H_r and ḣ_O = Σ_roots F_r. The first moment m c turns as Y_i s's linear part does:
//   ∂c/∂q_j = (Y_i s)_lin / m.
// About the centre of mass (centroidal.hpp's about_point), k_G = k_O − c × l, so
//   ∂h_G = shift_c ∂h_O − [∂c × l; 0],   ∂ḣ_G = shift_c ∂ḣ_O − [∂c × l̇; 0],
// and ∂ḣ_G/∂q̈ = ∂h_G/∂q̇ = A_G.
#pragma once

#include "algorithms/centroidal.hpp"
#include "algorithms/compiled_once.hpp"
#include "algorithms/rnea_derivatives.hpp"

namespace rbdgen {

template <class S> struct CentroidalDerivatives {
    MatX<S> dh_dq, dhdot_dq, dhdot_dqd, dhdot_dqdd;  // 6 x NV, rows [angular; linear] about the centre of mass
};

template <class S>
CentroidalDerivatives<S> centroidal_derivatives(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                                const BodyInertias<S>* inertias = nullptr) {
    const int n = model.nv;
    const DerivativePasses<S> P = rnea_derivative_passes<S>(model, q, qd, qdd, Vec3<S>::Zero(), nullptr, inertias, true);
    S m(0);
    Vec3<S> mc = Vec3<S>::Zero();
    Vec6<S> h_O = Vec6<S>::Zero(), hdot_O = Vec6<S>::Zero();
    for (int r = 0; r < model.N(); ++r) {
        if (model.bodies[r].lambda >= 0) continue;
        m = m + P.Y[r].m;
        mc += P.Y[r].h;
        h_O += P.B[r].H;
        hdot_O += P.F[r];
    }
    const S inv_m = S(1) / m;
    // ∂c × l = (Y_i s)_lin × l / m: the centre of mass's velocity and acceleration l / m, l̇ / m, once
    const Vec3<S> c = mc * inv_m, c_dot = lin(h_O) * inv_m, c_ddot = lin(hdot_O) * inv_m;
    CentroidalDerivatives<S> d{MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n)};
    for (const Body& b : model.bodies) {
        const Step<S> step;
        const int i = &b - model.bodies.data();
        for (int j = b.v_index; j < b.v_index + b.joint.nv(); ++j) {
            const auto& V = P.V[j];
            const Vec3<S> YS_lin = lin(V[kYS]);
            const auto moved_c = [&YS_lin](const Vec3<S>& c_rate) { return spatial<S>(YS_lin.cross(c_rate), Vec3<S>::Zero()); };
            // a joint of one dof has β = 2 u (rnea_derivatives.hpp): Y_i u = (Y_i β) / 2 exactly, and Y_i β is ∂F/∂q̇'s
            const Vec6<S> Y_u = b.joint.nv() == 1 ? Vec6<S>(Vec6<S>(P.Y[i] * V[kBeta]) * S(0.5)) : Vec6<S>(P.Y[i] * V[kU]);
            d.dh_dq.col(j) = about_point<S>(c, Vec6<S>(crf<S>(V[kS], P.B[i].H) + Y_u)) - moved_c(c_dot);
            d.dhdot_dq.col(j) = about_point<S>(c, V[kdFdq]) - moved_c(c_ddot);
            d.dhdot_dqd.col(j) = about_point<S>(c, V[kdFdqd]);
            d.dhdot_dqdd.col(j) = about_point<S>(c, V[kYS]);
        }
    }
    return d;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CENTROIDAL_DERIVATIVES(S) CentroidalDerivatives<S> centroidal_derivatives(const Model&, const VecX<S>&, \
    const VecX<S>&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CENTROIDAL_DERIVATIVES)

}  // namespace rbdgen
