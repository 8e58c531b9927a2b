// Operational frames: links a controller works in (a tool flange, a sole, a camera or IMU frame),
// each carried by a body i at a constant ᶠX_i (a link merged by a fixed joint, or a body's own URDF
// link). Their pose, Jacobian, velocity and classical acceleration in the world-aligned convention
// of task-space control: angular parts in world coordinates, linear parts the velocity and
// acceleration of the frame's origin, in world coordinates (Pinocchio's LOCAL_WORLD_ALIGNED):
//   ᶠX_0 = ᶠX_i ⁱX_0,   v_f = ᶠX_i v_i,   a_f = ᶠX_i a_i        (spatial, frame coordinates)
//   (ω, ṗ) = (R ω_f, R v_f),   (ω̇, p̈) = (R ω̇_f, R (a_f + ω_f × v_f))   (R: frame to world; a_f the
//   linear part of the spatial acceleration, ω_f × v_f turns it into the origin's acceleration)
//   J_f = diag(R, R) ᶠX_0 J_0 over the joints supporting i, so that (ω, ṗ) = J_f q̇.
// A frame welded to a fixed base (body −1) stands still at ᶠX_0 = ᶠX_base.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"

namespace rbdgen {

template <class S> struct FrameState {
    Transform<S> X_0;  // ᶠX_0
    Vec6<S> v, a;      // world-aligned (ω, ṗ) and (ω̇, p̈)
};

// diag(R, R) x with R = Eᵀ, E the rotation of ᶠX_0: a frame-coordinate pair of 3-vectors in world axes.
template <class S> Vec6<S> world_aligned(const Transform<S>& X_0, const Vec6<S>& x) {
    return spatial<S>(X_0.E.transpose() * ang(x), X_0.E.transpose() * lin(x));
}

template <class S>
std::vector<FrameState<S>> frame_states(const Model& model, const std::vector<LinkFrame>& frames, const VecX<S>& q,
                                        const VecX<S>& qd, const VecX<S>& qdd) {
    const Kinematics<S> kin = forward_kinematics<S>(model, q, qd);
    const std::vector<Vec6<S>> a = accelerations<S>(model, kin, qd, qdd);
    std::vector<FrameState<S>> out;
    for (const LinkFrame& f : frames) {
        const Transform<S> X = f.X.cast<S>();
        FrameState<S> s;
        if (f.body < 0) {
            s.X_0 = X, s.v.setZero(), s.a.setZero();
        } else {
            s.X_0 = X * kin.X_0[f.body];
            const Vec6<S> v_f = X.apply(kin.v[f.body]), a_f = X.apply(a[f.body]);
            s.v = world_aligned<S>(s.X_0, v_f);
            s.a = world_aligned<S>(s.X_0, spatial<S>(ang(a_f), lin(a_f) + ang(v_f).cross(lin(v_f))));
        }
        out.push_back(s);
    }
    return out;
}

// J_f, 6 x NV: (ω, ṗ) = J_f q̇.
template <class S> MatX<S> frame_jacobian(const Model& model, const LinkFrame& f, const VecX<S>& q) {
    if (f.body < 0) return MatX<S>::Zero(6, model.nv);
    const MatX<S> J0 = body_support<S>(model, spatial_jacobian<S>(model, q), f.body);
    const Transform<S> X_0 = f.X.cast<S>() * forward_kinematics<S>(model, q, VecX<S>::Zero(model.nv)).X_0[f.body];
    MatX<S> J(6, model.nv);
    for (int c = 0; c < model.nv; ++c) J.col(c) = world_aligned<S>(X_0, X_0.apply(Vec6<S>(J0.col(c))));
    return J;
}

// J̇_f, 6 x NV, so that (ω̇, p̈) = J_f q̈ + J̇_f q̇. Column k of J_f is (s_ω, s_v + s_ω × p) for the
// world-coordinates axis s = (s_ω, s_v) (jacobians.hpp) and p the frame's origin; its rate is
// (ṡ_ω, ṡ_v + ṡ_ω × p + s_ω × ṗ), ṗ = ⁰v_v + ⁰v_ω × p the origin's velocity on body i.
template <class S> MatX<S> frame_jacobian_rate(const Model& model, const LinkFrame& f, const VecX<S>& q, const VecX<S>& qd) {
    MatX<S> Jdot = MatX<S>::Zero(6, model.nv);
    if (f.body < 0) return Jdot;
    const JacobianRate<S> J0 = spatial_jacobian_rate<S>(model, q, qd);
    const Transform<S> X_0 = f.X.cast<S>() * forward_kinematics<S>(model, q, VecX<S>::Zero(model.nv)).X_0[f.body];
    const Vec3<S>& p = X_0.r;
    const Vec3<S> p_dot = lin(J0.v[f.body]) + ang(J0.v[f.body]).cross(p);
    for (int j = f.body; j >= 0; j = model.bodies[j].lambda) {
        const Body& b = model.bodies[j];
        for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k) {
            const Vec6<S> s = J0.J.col(k), s_dot = J0.Jdot.col(k);
            Jdot.col(k) = spatial<S>(ang(s_dot), lin(s_dot) + ang(s_dot).cross(p) + ang(s).cross(p_dot));
        }
    }
    return Jdot;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_FRAME_STATES(S) std::vector<FrameState<S>> frame_states(const Model&, const std::vector<LinkFrame>&, \
    const VecX<S>&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_STATES)
#define RBDGEN_FRAME_JACOBIAN(S) MatX<S> frame_jacobian(const Model&, const LinkFrame&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_JACOBIAN)
#define RBDGEN_FRAME_JACOBIAN_RATE(S) MatX<S> frame_jacobian_rate(const Model&, const LinkFrame&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_FRAME_JACOBIAN_RATE)

}  // namespace rbdgen
