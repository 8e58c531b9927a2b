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

// Every body's velocity and acceleration (no gravity) and every column of S, in world coordinates,
// by accelerations' recursion (forward_kinematics.hpp) in world coordinates, where it needs no
// transform a body: s = ⁰X_i S's column, v_i = v_λ + S q̇, a_i = a_λ + S q̈ + v_i × S q̇.
template <class S> struct WorldMotion {
    Kinematics<S> kin;
    std::vector<Vec6<S>> v, a, s;
};
template <class S> WorldMotion<S> world_motion(const Model& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int N = model.N();
    WorldMotion<S> w{forward_kinematics<S>(model, q, qd), std::vector<Vec6<S>>(N), std::vector<Vec6<S>>(N), std::vector<Vec6<S>>(model.nv)};
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        Vec6<S> vJ = Vec6<S>::Zero(), aJ = Vec6<S>::Zero();
        for (int k = 0; k < b.joint.nv(); ++k) {
            const Vec6<S>& s = w.s[b.v_index + k] = w.kin.X_0[i].inverse_apply(motion_axis(b.joint, k).cast<S>());
            vJ += s * qd[b.v_index + k], aJ += s * qdd[b.v_index + k];
        }
        w.v[i] = b.lambda < 0 ? vJ : Vec6<S>(w.v[b.lambda] + vJ);
        w.a[i] = (b.lambda < 0 ? aJ : Vec6<S>(w.a[b.lambda] + aJ)) + crm<S>(w.v[i], vJ);
    }
    return w;
}

template <class S>
std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int n = model.nv;
    const WorldMotion<S> world = world_motion<S>(model, q, qd, qdd);
    const Kinematics<S>& kin = world.kin;
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
                const Vec6<S> u = crm<S>(v_lambda, s[c]);
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

// The world-aligned derivatives of a frame's (ω, ṗ) and (ω̇, p̈) (frame_motion's outputs), straight from
// the world-coordinate ones above, p the frame's origin: ṗ = v_O + ω × p and p̈ = a_O + ω̇ × p + ω × ṗ
// for body k's (ω, v_O) and (ω̇, a_O), and p moves along q_j by J's linear part, s_v + s_ω × p:
//   ∂ṗ = ∂v_O + ∂ω × p + ω × ∂p,   ∂p̈ = ∂a_O + ∂ω̇ × p + ω̇ × ∂p + ∂ω × ṗ + ω × ∂ṗ,
// along q_j with ∂⁰v_k and ∂⁰a_k above; along q̇_j with ∂ω = s_ω, ∂ṗ = J's linear part and ∂p = 0.
template <class S> struct WorldAlignedMotionDerivatives {
    MatX<S> dv_dq, dv_dqd, da_dq, da_dqd, da_dqdd;  // 6 x NV each
};
template <class S>
std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                               const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int n = model.nv;
    const WorldMotion<S> world = world_motion<S>(model, q, qd, qdd);
    const std::vector<Vec6<S>>&v = world.v, &a = world.a, &s = world.s;
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
        const Vec3<S> p = (f.X.cast<S>() * world.kin.X_0[k]).r;
        const Vec3<S> omega = ang(v[k]), p_dot = lin(v[k]) + omega.cross(p), omega_dot = ang(a[k]);
        for (int j = k; j >= 0; j = model.bodies[j].lambda) {
            const Step<S> step;
            const Body& b = model.bodies[j];
            const Vec6<S> v_lambda = b.lambda < 0 ? zero : v[b.lambda], a_lambda = b.lambda < 0 ? zero : a[b.lambda];
            const Vec6<S> v_rel = v[k] - v_lambda;
            for (int c = b.v_index; c < b.v_index + b.joint.nv(); ++c) {
                const Vec3<S> s_omega = ang(s[c]), dp = lin(s[c]) + s_omega.cross(p);  // J's column: (s_ω, ∂p)
                const Vec6<S> J = spatial<S>(s_omega, dp);
                const Vec6<S> u = crm<S>(v_lambda, s[c]);
                const Vec6<S> dv = crm<S>(s[c], v_rel), da = crm<S>(s[c], Vec6<S>(a[k] - a_lambda)) + crm<S>(u, v_rel);
                const Vec3<S> d_omega = ang(dv), dp_dot = lin(dv) + d_omega.cross(p) + omega.cross(dp);
                w.dv_dq.col(c) = spatial<S>(d_omega, dp_dot);
                w.da_dq.col(c) = spatial<S>(ang(da), lin(da) + Vec3<S>(ang(da)).cross(p) + omega_dot.cross(dp) + d_omega.cross(p_dot) +
                                                         omega.cross(dp_dot));
                // s × (v_rel − v_j); a joint of one dof has s × v_j = s × v_λ = −u
                const Vec6<S> da_qd = b.joint.nv() == 1 ? Vec6<S>(dv + u) : crm<S>(s[c], Vec6<S>(v_rel - v[j]));
                w.da_dqd.col(c) = spatial<S>(ang(da_qd), lin(da_qd) + Vec3<S>(ang(da_qd)).cross(p) + s_omega.cross(p_dot) + omega.cross(dp));
                w.dv_dqd.col(c) = J;
                w.da_dqdd.col(c) = J;
            }
        }
        out.push_back(w);
    }
    return out;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_WORLD_MOTION(S) WorldMotion<S> world_motion(const Model&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_WORLD_MOTION)
#define RBDGEN_FRAME_MOTION_DERIVATIVES(S) std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model&, \
    const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_MOTION_DERIVATIVES)
#define RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES(S) std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives( \
    const Model&, const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES)

}  // namespace rbdgen
