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
// World-aligned (frame_motion's convention, diag(R, R) x with R F's rotation to the world), a
// derivative along q_j adds s_ω × (R x) to R ∂x, the frame's axes turning with it.
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

template <class S>
std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const int N = model.N(), n = model.nv;
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const std::vector<Vec6<S>> a_body = accelerations<S>(model, kin, qd, qdd);
    // Every body's velocity and acceleration and every column of S, in world coordinates.
    std::vector<Vec6<S>> v(N), a(N), s(n);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        v[i] = kin.X_0[i].inverse_apply(kin.v[i]);
        a[i] = kin.X_0[i].inverse_apply(a_body[i]);
        for (int k = 0; k < b.joint.nv(); ++k) s[b.v_index + k] = kin.X_0[i].inverse_apply(motion_axis(b.joint, k).cast<S>());
    }
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

// The world-aligned derivatives of a frame's (ω, ṗ) and (ω̇, p̈) (frame_motion's outputs): rows of
// diag(R, R) x, and along q_j also s_ω × (R x), s_ω the angular part of column j of S in world axes.
template <class S> struct WorldAlignedMotionDerivatives {
    MatX<S> dv_dq, dv_dqd, da_dq, da_dqd, da_dqdd;  // 6 x NV each
};
template <class S>
std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives(const Model& model, const std::vector<LinkFrame>& frames,
                                                                               const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
    const std::vector<FrameMotionDerivatives<S>> local = frame_motion_derivatives<S>(model, frames, q, qd, qdd);
    std::vector<WorldAlignedMotionDerivatives<S>> out;
    for (size_t f = 0; f < frames.size(); ++f) {
        const FrameMotionDerivatives<S>& d = local[f];
        const int n = model.nv;
        WorldAlignedMotionDerivatives<S> w{MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n), MatX<S>::Zero(6, n),
                                           MatX<S>::Zero(6, n)};
        const Vec6<S> v = world_aligned<S>(d.X_0, d.v), a = world_aligned<S>(d.X_0, d.a);
        for (int j = frames[f].body; j >= 0; j = model.bodies[j].lambda) {
            const Step<S> step;
            const Body& b = model.bodies[j];
            for (int c = b.v_index; c < b.v_index + b.joint.nv(); ++c) {
                const Vec6<S> J = world_aligned<S>(d.X_0, Vec6<S>(d.J.col(c)));
                const Vec3<S> s_omega = ang(J);  // the column's rotation, world axes
                const auto turned = [&](const Vec6<S>& x, const Vec6<S>& dx) {
                    return Vec6<S>(world_aligned<S>(d.X_0, dx) + spatial<S>(s_omega.cross(ang(x)), s_omega.cross(lin(x))));
                };
                w.dv_dq.col(c) = turned(v, d.dv_dq.col(c));
                w.da_dq.col(c) = turned(a, d.da_dq.col(c));
                w.dv_dqd.col(c) = J;
                w.da_dqd.col(c) = world_aligned<S>(d.X_0, Vec6<S>(d.da_dqd.col(c)));
                w.da_dqdd.col(c) = J;
            }
        }
        out.push_back(w);
    }
    return out;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_FRAME_MOTION_DERIVATIVES(S) std::vector<FrameMotionDerivatives<S>> frame_motion_derivatives(const Model&, \
    const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_MOTION_DERIVATIVES)
#define RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES(S) std::vector<WorldAlignedMotionDerivatives<S>> world_aligned_motion_derivatives( \
    const Model&, const std::vector<LinkFrame>&, const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES)

}  // namespace rbdgen
