// Derivatives of an operational frame's velocity and classical acceleration (frames.hpp) with respect
// to q (on the tangent space), q̇ and q̈: what a legged MPC's foot costs and contact constraints
// differentiate (Pinocchio's getFrameVelocityDerivatives and getFrameAccelerationDerivatives).
// In world coordinates, s the column of joint j's S (jacobians.hpp), v_λ, a_λ the velocity and
// acceleration (no gravity) of j's parent and v_j of j's body: moving q_j turns j's subtree about s
// (as rnea_derivatives.hpp's header shows), so for a body k in that subtree
//   ∂⁰v_k/∂q_j = s × (v_k − v_λ),   ∂⁰a_k/∂q_j = s × (a_k − a_λ) + u × (v_k − v_λ),  u = v_λ × s,
//   ∂⁰a_k/∂q̇_j = s × (v_k − v_λ − v_j),   ∂⁰v_k/∂q̇_j = ∂⁰a_k/∂q̈_j = s.
// A frame F on body k turns with it: ᶠX_0 m changes by ᶠX_0 (∂m − s × m), so in F's coordinates
//   ∂v_F/∂q_j = ᶠX_0 u,   ∂a_F/∂q_j = ᶠX_0 (a_λ × s + u × (v_k − v_λ)),   ∂a_F/∂q̇_j = ᶠX_0 (s × (v_k − v_λ − v_j)),
// a_F spatial; the classical acceleration adds ω_F × ν_F to its linear part (ν_F the origin's velocity),
// whose derivative is ∂ω_F × ν_F + ω_F × ∂ν_F. Columns of joints that do not support k are zero.
// World-aligned (frame_motion's convention: ω and the origin's ṗ, p̈ in world axes) the same follow from
// the world-coordinate ∂⁰v_k, ∂⁰a_k directly (world_aligned_motion_derivatives), without F's axes.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/frames.hpp"

namespace rbdgen {

template <class S> struct FrameMotionDerivatives {
    Transform<S> X_0;                 // ᶠX_0
    Vec6<S> v, a;                     // F's velocity and its origin's classical acceleration, F coordinates
    MatX<S> J, dv_dq, da_dq, da_dqd;  // 6 x NV, F coordinates; ∂v/∂q̇ = ∂a/∂q̈ = J
};

// Bodies' velocity and acceleration (no gravity) and the columns of S, in world axes about a point p
// (ⁱX_0 with its origin moved to p; p = 0 is world coordinates), by accelerations' recursion
// (forward_kinematics.hpp), which in these coordinates needs no transform a body: s = ⁱX_0⁻¹ S's column,
// v_i = v_λ + S q̇, a_i = a_λ + S q̈ + v_i × S q̇, and u = v_λ × s, so that for a joint of one dof
// v_i × S q̇ = u q̇ (s × s = 0). `bodies` lists the bodies to visit, each after its parent (every body,
// or one body's supports); the others stay zero.
template <class S> struct WorldMotion {
    std::vector<Vec6<S>> v, a, s, u;
};
template <class S>
WorldMotion<S> world_motion(const Model& model, const Kinematics<S>& kin, const std::vector<int>& bodies, const Vec3<S>& p,
                            const VecX<S>& qd, const VecX<S>& qdd) {
    const Vec6<S> zero = Vec6<S>::Zero();
    WorldMotion<S> w{std::vector<Vec6<S>>(model.N(), zero), std::vector<Vec6<S>>(model.N(), zero), std::vector<Vec6<S>>(model.nv, zero),
                     std::vector<Vec6<S>>(model.nv, zero)};
    for (int i : bodies) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        const Transform<S> X{kin.X_0[i].E, kin.X_0[i].r - p};
        const Vec6<S> v_lambda = b.lambda < 0 ? zero : w.v[b.lambda], a_lambda = b.lambda < 0 ? zero : w.a[b.lambda];
        Vec6<S> vJ = zero, aJ = zero;
        for (int c = b.v_index; c < b.v_index + b.joint.nv(); ++c) {
            w.s[c] = X.inverse_apply(motion_axis(b.joint, c - b.v_index).cast<S>());
            w.u[c] = crm<S>(v_lambda, w.s[c]);
            vJ += w.s[c] * qd[c], aJ += w.s[c] * qdd[c];
        }
        w.v[i] = v_lambda + vJ;
        w.a[i] = a_lambda + aJ + (b.joint.nv() == 1 ? Vec6<S>(w.u[b.v_index] * qd[b.v_index]) : crm<S>(w.v[i], vJ));
    }
    return w;
}

template <class S>
std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int n = model.nv;
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    std::vector<int> every(model.N());
    for (int i = 0; i < model.N(); ++i) every[i] = i;
    const WorldMotion<S> world = world_motion<S>(model, kin, every, Vec3<S>::Zero(), qd, qdd);
    const std::vector<Vec6<S>>&v = world.v, &a = world.a, &s = world.s;
    const Vec6<S> zero = Vec6<S>::Zero();
    std::vector<FrameMotionDerivatives<S>> out;
    for (const LinkFrame& f : frames) {
        FrameMotionDerivatives<S> d{f.X.cast<S>(), zero, zero, MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n),
                                    MatX<S>::Zero(6, n)};
        if (f.body < 0) {  // welded to the fixed base: still
            out.push_back(d);
            continue;
        }
        const int k = f.body;
        d.X_0 = d.X_0 * kin.X_0[k];
        d.v = d.X_0.apply(v[k]);
        const Vec3<S> omega = ang(d.v), nu = lin(d.v);
        d.a = d.X_0.apply(a[k]);
        d.a.template tail<3>() += omega.cross(nu);
        const auto classical = [&](const Vec6<S>& da, const Vec6<S>& dv) {  // + ∂(ω_F × ν_F)
            return spatial<S>(ang(da), lin(da) + Vec3<S>(ang(dv)).cross(nu) + omega.cross(Vec3<S>(lin(dv))));
        };
        for (int j = k; j >= 0; j = model.bodies[j].lambda) {
            const Step<S> step;
            const Body& b = model.bodies[j];
            const Vec6<S> v_lambda = b.lambda < 0 ? zero : v[b.lambda], a_lambda = b.lambda < 0 ? zero : a[b.lambda];
            const Vec6<S> v_rel = v[k] - v_lambda;
            for (int c = b.v_index; c < b.v_index + b.joint.nv(); ++c) {
                const Vec6<S>& u = world.u[c];
                const Vec6<S> J = d.X_0.apply(s[c]), dv = d.X_0.apply(u);
                d.J.col(c) = J;
                d.dv_dq.col(c) = dv;
                d.da_dq.col(c) = classical(d.X_0.apply(Vec6<S>(crm<S>(a_lambda, s[c]) + crm<S>(u, v_rel))), dv);
                d.da_dqd.col(c) = classical(d.X_0.apply(crm<S>(s[c], Vec6<S>(v_rel - v[j]))), J);
            }
        }
        out.push_back(d);
    }
    return out;
}

// The world-aligned derivatives of a frame's (ω, ṗ) and (ω̇, p̈) (frame_motion's outputs), p the frame's
// origin. The bodies' motion is taken about p in world axes (world_motion about p, a constant change of
// coordinates for which the recursion and the formulas above hold as they are): s = (s_ω, ∂p) is then
// J's column itself, v_k = (ω, ṗ) and a_k = (ω̇, a_p) with p̈ = a_p + ω × ṗ. Along q_j
// (p moves by ∂p, so ∂ṗ = ∂v_p + ω × ∂p, ∂p̈ = ∂a_p + ω̇ × ∂p + ∂ω × ṗ + ω × ∂ṗ, ∂v_p, ∂a_p the
// derivatives above at the fixed point), with v_r = v_k − v_λ, a_r = a_k − a_λ and u = v_λ × s, the
// terms in ∂p collapse (∂p × ω_r + ω × ∂p = ω_λ × ∂p, and likewise with ω̇):
//   ∂ω = s_ω × ω_r,                     ∂ṗ = s_ω × v_r,p + ω_λ × ∂p,
//   ∂ω̇ = s_ω × ω̇_r + u_ω × ω_r,         ∂p̈ = s_ω × a_r,p + ω̇_λ × ∂p + u_ω × v_r,p + u_p × ω_r + ∂ω × ṗ + ω × ∂ṗ;
// along q̇_j, with w = v_r − v_j: ∂ω̇ = s_ω × w_ω and ∂p̈ = s_ω × w_p + ∂p × w_ω + s_ω × ṗ + ω × ∂p, which
// for a joint of one dof (s × v_j = −u) are ∂ω̇ = ∂ω/∂q_j + u_ω and ∂p̈ = 2 ∂ṗ/∂q_j (p's Hessian is
// symmetric); ∂ω/∂q̇ = ∂ω̇/∂q̈ = s_ω, ∂ṗ/∂q̇ = ∂p̈/∂q̈ = ∂p.
template <class S> struct WorldAlignedMotionDerivatives {
    MatX<S> dv_dq, dv_dqd, da_dq, da_dqd, da_dqdd;  // 6 x NV each
};
template <class S>
std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                               const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int n = model.nv;
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const Vec6<S> zero = Vec6<S>::Zero();
    std::vector<WorldAlignedMotionDerivatives<S>> out;
    for (const LinkFrame& f : frames) {
        WorldAlignedMotionDerivatives<S> w{MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n),
                                           MatX<S>::Zero(6, n)};
        if (f.body < 0) {  // welded to the fixed base: still
            out.push_back(w);
            continue;
        }
        const int k = f.body;
        const Vec3<S> p = (f.X.cast<S>() * kin.X_0[k]).r;
        std::vector<int> path;  // k's supports, the root first
        for (int j = k; j >= 0; j = model.bodies[j].lambda) path.insert(path.begin(), j);
        const WorldMotion<S> about_p = world_motion<S>(model, kin, path, p, qd, qdd);
        const std::vector<Vec6<S>>&v = about_p.v, &a = about_p.a, &s = about_p.s, &u = about_p.u;
        const Vec3<S> omega = ang(v[k]), p_dot = lin(v[k]);
        for (int j : path) {
            const Step<S> step;
            const Body& b = model.bodies[j];
            const Vec6<S> v_lambda = b.lambda < 0 ? zero : v[b.lambda], a_lambda = b.lambda < 0 ? zero : a[b.lambda];
            // a joint of one dof: s × s = 0 and s × u q̇ + u × s q̇ = 0 take j's own motion out, so v_j, a_j
            // stand for v_λ, a_λ here (not in u), and at the frame's own body v_r = a_r = 0
            const bool one_dof = b.joint.nv() == 1;
            const Vec6<S>& v_o = one_dof ? v[j] : v_lambda;
            const Vec6<S>& a_o = one_dof ? a[j] : a_lambda;
            const Vec3<S> omega_l = ang(v_o), omega_dot_l = ang(a_o);
            const Vec6<S> v_r = one_dof && j == k ? zero : Vec6<S>(v[k] - v_o), a_r = one_dof && j == k ? zero : Vec6<S>(a[k] - a_o);
            for (int c = b.v_index; c < b.v_index + b.joint.nv(); ++c) {
                const Vec3<S> s_omega = ang(s[c]), dp = lin(s[c]), u_omega = ang(u[c]);
                const Vec3<S> d_omega = s_omega.cross(ang(v_r)), dp_dot = s_omega.cross(lin(v_r)) + omega_l.cross(dp);
                w.dv_dq.col(c) = spatial<S>(d_omega, dp_dot);
                w.da_dq.col(c) = spatial<S>(s_omega.cross(ang(a_r)) + u_omega.cross(ang(v_r)),
                                            s_omega.cross(lin(a_r)) + omega_dot_l.cross(dp) + u_omega.cross(lin(v_r)) +
                                                Vec3<S>(lin(u[c])).cross(ang(v_r)) + d_omega.cross(p_dot) + omega.cross(dp_dot));
                if (one_dof) {
                    w.da_dqd.col(c) = spatial<S>(d_omega + u_omega, dp_dot * S(2));
                } else {
                    const Vec6<S> w_j = v_r - v[j];
                    w.da_dqd.col(c) = spatial<S>(s_omega.cross(ang(w_j)), s_omega.cross(lin(w_j)) + dp.cross(ang(w_j)) +
                                                                              s_omega.cross(p_dot) + omega.cross(dp));
                }
                w.dv_dqd.col(c) = s[c];
                w.da_dqdd.col(c) = s[c];
            }
        }
        out.push_back(w);
    }
    return out;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_WORLD_MOTION(S) WorldMotion<S> world_motion(const Model&, const Kinematics<S>&, const std::vector<int>&, const Vec3<S>&, \
    const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_WORLD_MOTION)
#define RBDGEN_FRAME_MOTION_DERIVATIVES(S) std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model&, \
    const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_MOTION_DERIVATIVES)
#define RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES(S) std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives( \
    const Model&, const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES)

}  // namespace rbdgen
