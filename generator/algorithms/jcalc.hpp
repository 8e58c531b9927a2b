// Joint kinematics (Featherstone's jcalc): the joint transform X_J(q) and the motion subspace S.
#pragma once

#include <cmath>

#include "model/model.hpp"
#include "spatial/screw.hpp"
#include "sym/step.hpp"

namespace rbdgen {

// Inertias given at run time (--parameters: a payload), one a body, for the model's constants.
template <class S> using BodyInertias = std::vector<RigidBodyInertia<S>>;
template <class S> RigidBodyInertia<S> body_inertia(const Model& model, int i, const BodyInertias<S>* inertias) {
    if (inertias) return (*inertias)[i];
    const ModelConstants<S> constants;
    return model.bodies[i].I.template cast<S>();
}

// A constant of the model's geometry, and X_tree, as ModelConstants (sym/step.hpp).
template <class S> S model_constant(double v) {
    const ModelConstants<S> constants;
    return S(v);
}
template <class S> Transform<S> tree_transform(const Body& body) {
    const ModelConstants<S> constants;
    return body.X_tree.cast<S>();
}

// R of the unit quaternion (x, y, z, w) at q: the body's orientation in its parent's frame.
template <class S> Mat3<S> rotation(const S* q) {
    const S x = q[0], y = q[1], z = q[2], w = q[3];
    Mat3<S> R;
    R << S(1) - S(2) * (y * y + z * z), S(2) * (x * y - z * w), S(2) * (x * z + y * w),  //
        S(2) * (x * y + z * w), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - x * w),  //
        S(2) * (x * z - y * w), S(2) * (y * z + x * w), S(1) - S(2) * (x * x + y * y);
    return R;
}

// ʲX_λ(q) = X_J(q) X_tree: the transform from the parent's frame to body i's frame.
template <class S> Transform<S> joint_transform(const Joint& joint, const S* q) {
    using std::cos;
    using std::sin;
    Transform<S> X_J;
    switch (joint.type) {
        case JointType::Revolute: {
            const S angle = joint.offset == 0 ? q[0] : S(q[0] + S(joint.offset));
            const S s = sin(angle), c = cos(angle);
            const Vec3<double>& a = joint.axis;
            if (a == Vec3<double>::UnitZ()) {  // rz(q), the common case in the generator's frames
                X_J.E << c, s, S(0), -s, c, S(0), S(0), S(0), S(1);
            } else {  // E = Rot(axis, q)ᵀ = 1 − sin q â + (1 − cos q) â²  (Rodrigues)
                const Mat3<S> A = skew<S>(a.cast<S>());
                X_J.E = Mat3<S>::Identity() - s * A + (S(1) - c) * (A * A);
            }
            break;
        }
        case JointType::Prismatic: X_J.r = joint.axis.cast<S>() * q[0]; break;
        case JointType::Floating:  // q = (position in the parent frame, the body's orientation)
            X_J.E = rotation<S>(q + 3).transpose();
            X_J.r << q[0], q[1], q[2];
            break;
        case JointType::Ball: X_J.E = rotation<S>(q).transpose(); break;
    }
    return X_J;
}

// ʲX_λ(q) as screws: rz(q + θ) xlt(d ẑ) · rx(α) xlt(a x̂) · rz(θ₀) xlt(d₀ ẑ) for a revolute (or
// prismatic, d + q) joint along z whose X_tree the frame choice stored as screws (Body::screws),
// rz(q) and X_tree when it has none; otherwise (a joint not along z, a floating or ball joint) X_J X_tree
// as one general transform.
template <class S> ScrewChain<S> X_up(const Body& body, const S* q) {
    const Joint& joint = body.joint;
    const S* qi = q + body.q_index;
    const bool found = body.screws.has_value();
    const TreeScrews t = found ? *body.screws : TreeScrews{};
    ScrewChain<S> X;
    Screw<S> z;
    z.k = 2;
    if (joint.type == JointType::Revolute && joint.axis == Vec3<double>::UnitZ()) {
        using std::cos;
        using std::sin;
        const S angle = joint.offset == 0 ? qi[0] : S(qi[0] + S(joint.offset));
        z.c = cos(angle), z.s = sin(angle);
        if (found) z.d = model_constant<S>(t.d);
    } else if (joint.type == JointType::Prismatic && joint.axis == Vec3<double>::UnitZ()) {
        z.d = found && t.d != 0 ? S(qi[0] + S(t.d)) : qi[0];
    } else {
        z.k = -1;  // a general joint: one general transform, X_J X_tree composed
        z.X = joint_transform<S>(joint, qi) * tree_transform<S>(body);
        const int at = joint.quaternion_at();
        if (at >= 0 && body.X_tree.E == Mat3<double>::Identity() && body.X_tree.r.isZero()) {
            z.has_quaternion = true;
            z.u = Vec3<S>(qi[at], qi[at + 1], qi[at + 2]), z.w = qi[at + 3];
        }
        X.push(z);
        return X;
    }
    X.push(z);
    if (!found) {
        Screw<S> tree;
        tree.X = tree_transform<S>(body);
        X.push(tree);
        return X;
    }
    if (t.s_alpha != 0 || t.c_alpha != 1 || t.a != 0) {
        Screw<S> x;
        x.k = 0, x.c = model_constant<S>(t.c_alpha), x.s = model_constant<S>(t.s_alpha), x.d = model_constant<S>(t.a);
        X.push(x);
    }
    if (t.s0 != 0 || t.c0 != 1 || t.d0 != 0) {
        Screw<S> z0;
        z0.k = 2, z0.c = model_constant<S>(t.c0), z0.s = model_constant<S>(t.s0), z0.d = model_constant<S>(t.d0);
        X.push(z0);
    }
    return X;
}

// S q̇ : the joint velocity (or S q̈ : the joint acceleration) as a spatial motion vector.
template <class S> Vec6<S> motion(const Joint& joint, const S* x) {
    switch (joint.type) {
        case JointType::Revolute: return spatial<S>(joint.axis.cast<S>() * x[0], Vec3<S>::Zero());
        case JointType::Prismatic: return spatial<S>(Vec3<S>::Zero(), joint.axis.cast<S>() * x[0]);
        case JointType::Ball: return spatial<S>(Vec3<S>(x[0], x[1], x[2]), Vec3<S>::Zero());
        case JointType::Floating: break;
    }
    Vec6<S> m;
    m << x[0], x[1], x[2], x[3], x[4], x[5];
    return m;
}

// Sᵀ f, written to out[0 .. nv).
template <class S> void project(const Joint& joint, const Vec6<S>& f, S* out) {
    switch (joint.type) {
        case JointType::Revolute: out[0] = joint.axis.cast<S>().dot(ang(f)); return;
        case JointType::Prismatic: out[0] = joint.axis.cast<S>().dot(lin(f)); return;
        case JointType::Floating:
            for (int k = 0; k < 6; ++k) out[k] = f[k];
            return;
        case JointType::Ball:
            for (int k = 0; k < 3; ++k) out[k] = f[k];
            return;
    }
}

// The joint's armature (the rotor's inertia through the gear, MJCF's): x[k] += armature y[k] on each of
// its velocities, as τ += armature q̈ (and H's diagonal, y = 1, grows by it). Nothing without one.
template <class S> void add_armature(const Joint& joint, const S* y, S* x) {
    if (joint.armature == 0) return;
    for (int k = 0; k < joint.nv(); ++k) x[k] = x[k] + S(joint.armature) * y[k];
}

// Column k of S.
inline Vec6<double> motion_axis(const Joint& joint, int k) {
    double e[6] = {0, 0, 0, 0, 0, 0};
    e[k] = 1;
    return motion<double>(joint, e);
}

}  // namespace rbdgen
