// The configuration manifold (Sola, Deray and Atchuthan, "A micro Lie theory for state estimation in
// robotics", 2018): q ⊕ v and q₁ ⊖ q₀ joint by joint, and their Jacobians, in the tangent convention
// of the derivative kernels (a floating base's or ball joint's tangent [ω; ν] in its body's
// coordinates, the right perturbation q ⊕ δ = X exp(δ); a 1-DoF joint's its coordinate):
//   a floating base, SE(3):  q ⊕ v = M Exp(v) (Pinocchio's free-flyer), q₁ ⊖ q₀ = Log(M₀⁻¹ M₁),
//   a ball joint, SO(3):     R Exp(ω) and Log(R₀ᵀ R₁),
//   a 1-DoF joint:           q + v and q₁ − q₀.
// With x = θ² = ω·ω and the coefficient functions of sym/special.hpp (A = sin θ/θ, B = (1 − cos θ)/θ²,
// C = (θ − sin θ)/θ³, D = (1 − (θ/2) cot(θ/2))/θ², B' and C' their derivatives in x), exact at θ = 0:
//   Exp(ω) = 1 + A ω× + B ω×²                        (the quaternion (½ A(x/4) ω, cos(θ/2)))
//   Jr(ω) = 1 − B ω× + C ω×²,  Jr⁻¹(ω) = 1 + ½ ω× + D ω×²,  Jl(ω) = Jr(−ω) = V
//   Exp([ω; ν]) = (Exp(ω), V ν),  Log(R, t) = [ω; V⁻¹ t], ω = Log(R)
// and SE(3)'s right Jacobian in [ω; ν] order, from Exp(v)⁻¹ Exp(v + δ) to first order:
//   Jr([ω; ν]) = [Jr(ω) 0; Q Jr(ω)],  Q = Exp(ω)ᵀ ∂(V ν)/∂ω
//   ∂(V ν)/∂ω = −B ν× + 2B' (ω × ν) ωᵀ + C ((ω·ν) 1 + ω νᵀ − 2 ν ωᵀ) + 2C' (ω × (ω × ν)) ωᵀ,
//   Jr⁻¹ = [Jr(ω)⁻¹ 0; −Jr(ω)⁻¹ Q Jr(ω)⁻¹ Jr(ω)⁻¹].
// Then (M Exp(δ)) Exp(v) = M Exp(v) Exp(Ad(Exp(v)⁻¹) δ) and Log(Exp(−δ) M₀⁻¹ M₁) = v − Jl⁻¹(v) δ give
//   ∂(q ⊕ v)/∂q = Ad(Exp(v)⁻¹) = [Rᵀ 0; −Rᵀ t× Rᵀ],  ∂(q ⊕ v)/∂v = Jr(v),
//   ∂(q₁ ⊖ q₀)/∂q₁ = Jr⁻¹(v),  ∂(q₁ ⊖ q₀)/∂q₀ = −Jl⁻¹(v) = −Jr⁻¹(−v),  v = q₁ ⊖ q₀.
// A quaternion (x, y, z, w) is normalised first, as eval normalises a state's: a drifted q is read as
// the rotation nearest it.
#pragma once

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"
#include "sym/special.hpp"

namespace rbdgen {

template <class S> struct Quaternion {
    Vec3<S> v;  // x, y, z
    S w;
    Quaternion operator*(const Quaternion& o) const { return {Vec3<S>(o.v * w + v * o.w + v.cross(o.v)), w * o.w - v.dot(o.v)}; }
    Quaternion conjugate() const { return {Vec3<S>(-v), w}; }
    Mat3<S> rotation() const {
        const S q[4] = {v[0], v[1], v[2], w};
        return rbdgen::rotation<S>(q);
    }
};
// The unit quaternion of (x, y, z, w) at q
template <class S> Quaternion<S> unit_quaternion(const S* q) {
    using std::sqrt;
    const S scale = S(1) / sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return {Vec3<S>(q[0] * scale, q[1] * scale, q[2] * scale), q[3] * scale};
}
// Exp(ω) as a quaternion: (sin(θ/2)/θ ω, cos(θ/2)), sin(θ/2)/θ = A(x/4)/2
template <class S> Quaternion<S> exp_quaternion(const Vec3<S>& w) {
    using std::cos;
    using std::sqrt;
    const S x = w.dot(w);
    return {Vec3<S>(w * (S(0.5) * sinc(S(x * S(0.25))))), cos(S(S(0.5) * sqrt(x)))};
}
// Log of a unit quaternion, the angle in [0, π]
template <class S> Vec3<S> log_quaternion(const Quaternion<S>& q) { return q.v * log_ratio(S(q.v.dot(q.v)), q.w); }

// 1 + a ω× + b ω×²
template <class S> Mat3<S> so3_series(const Vec3<S>& w, const S& a, const S& b) {
    const Mat3<S> W = skew<S>(w);
    return Mat3<S>::Identity() + a * W + b * (W * W);
}
template <class S> Mat3<S> so3_exp(const Vec3<S>& w) {
    const S x = w.dot(w);
    return so3_series<S>(w, sinc(x), cosc(x));
}
template <class S> Mat3<S> so3_right_jacobian(const Vec3<S>& w) {
    const S x = w.dot(w);
    return so3_series<S>(w, S(-cosc(x)), sinc3(x));
}
template <class S> Mat3<S> so3_right_jacobian_inverse(const Vec3<S>& w) {
    return so3_series<S>(w, S(0.5), dexp_inv(S(w.dot(w))));
}
// V ν = Jl(ω) ν and V⁻¹ t = Jl(ω)⁻¹ t
template <class S> Vec3<S> se3_translation(const Vec3<S>& w, const Vec3<S>& nu) { return so3_right_jacobian<S>(Vec3<S>(-w)) * nu; }
template <class S> Vec3<S> se3_translation_inverse(const Vec3<S>& w, const Vec3<S>& t) {
    return so3_right_jacobian_inverse<S>(Vec3<S>(-w)) * t;
}
// Q = Exp(ω)ᵀ ∂(V ν)/∂ω, Jr's lower left block
template <class S> Mat3<S> se3_jacobian_block(const Vec3<S>& w, const Vec3<S>& nu) {
    const S x = w.dot(w), B = cosc(x), C = sinc3(x), dB = cosc_dx(x), dC = sinc3_dx(x);
    const Vec3<S> wn = w.cross(nu), wwn = w.cross(wn);
    const Mat3<S> dVnu = -B * skew<S>(nu) + (S(2) * dB) * (wn * w.transpose()) +
                         C * (w.dot(nu) * Mat3<S>::Identity() + w * nu.transpose() - S(2) * (nu * w.transpose())) +
                         (S(2) * dC) * (wwn * w.transpose());
    return so3_exp<S>(w).transpose() * dVnu;
}
template <class S> Mat6<S> se3_right_jacobian(const Vec6<S>& v) {
    const Vec3<S> w = ang(v), nu = lin(v);
    const Mat3<S> J = so3_right_jacobian<S>(w);
    Mat6<S> Jr = Mat6<S>::Zero();
    Jr.template topLeftCorner<3, 3>() = J, Jr.template bottomRightCorner<3, 3>() = J;
    Jr.template bottomLeftCorner<3, 3>() = se3_jacobian_block<S>(w, nu);
    return Jr;
}
template <class S> Mat6<S> se3_right_jacobian_inverse(const Vec6<S>& v) {
    const Vec3<S> w = ang(v), nu = lin(v);
    const Mat3<S> Ji = so3_right_jacobian_inverse<S>(w);
    Mat6<S> Jr = Mat6<S>::Zero();
    Jr.template topLeftCorner<3, 3>() = Ji, Jr.template bottomRightCorner<3, 3>() = Ji;
    Jr.template bottomLeftCorner<3, 3>() = -(Ji * se3_jacobian_block<S>(w, nu) * Ji);
    return Jr;
}

// q ⊕ v
template <class S> VecX<S> integrate(const Model& model, const VecX<S>& q, const VecX<S>& v) {
    VecX<S> out = q;
    for (const Body& b : model.bodies) {
        const Step<S> step;
        const int iq = b.q_index, iv = b.v_index;
        if (b.joint.one_dof()) {
            out[iq] = q[iq] + v[iv];
            continue;
        }
        const int iu = iq + b.joint.quaternion_at();
        const Quaternion<S> Q = unit_quaternion<S>(q.data() + iu);
        const Vec3<S> w = v.template segment<3>(iv);
        if (b.joint.type == JointType::Floating)
            out.template segment<3>(iq) = q.template segment<3>(iq) + Q.rotation() * se3_translation<S>(w, v.template segment<3>(iv + 3));
        const Quaternion<S> R = Q * exp_quaternion<S>(w);
        out.template segment<3>(iu) = R.v;
        out[iu + 3] = R.w;
    }
    return out;
}

// q₁ ⊖ q₀
template <class S> VecX<S> difference(const Model& model, const VecX<S>& q0, const VecX<S>& q1) {
    VecX<S> v(model.nv);
    for (const Body& b : model.bodies) {
        const Step<S> step;
        const int iq = b.q_index, iv = b.v_index;
        if (b.joint.one_dof()) {
            v[iv] = q1[iq] - q0[iq];
            continue;
        }
        const int iu = iq + b.joint.quaternion_at();
        const Quaternion<S> Q0 = unit_quaternion<S>(q0.data() + iu), Q1 = unit_quaternion<S>(q1.data() + iu);
        const Vec3<S> w = log_quaternion<S>(Q0.conjugate() * Q1);
        v.template segment<3>(iv) = w;
        if (b.joint.type == JointType::Floating)
            v.template segment<3>(iv + 3) =
                se3_translation_inverse<S>(w, Vec3<S>(Q0.rotation().transpose() * Vec3<S>(q1.template segment<3>(iq) - q0.template segment<3>(iq))));
    }
    return v;
}

template <class S> struct ConfigurationJacobians {
    MatX<S> d0, d1;  // NV x NV, block-diagonal a joint: ∂/∂q and ∂/∂v (integrate), ∂/∂q₀ and ∂/∂q₁ (difference)
};

template <class S> ConfigurationJacobians<S> integrate_jacobians(const Model& model, const VecX<S>& v) {
    ConfigurationJacobians<S> J{MatX<S>::Zero(model.nv, model.nv), MatX<S>::Zero(model.nv, model.nv)};
    for (const Body& b : model.bodies) {
        const Step<S> step;
        const int i = b.v_index;
        if (b.joint.one_dof()) {
            J.d0(i, i) = J.d1(i, i) = S(1);
            continue;
        }
        const Vec3<S> w = v.template segment<3>(i);
        const Mat3<S> Rt = so3_exp<S>(w).transpose();
        if (b.joint.type == JointType::Ball) {
            J.d0.template block<3, 3>(i, i) = Rt;
            J.d1.template block<3, 3>(i, i) = so3_right_jacobian<S>(w);
            continue;
        }
        const Vec3<S> t = se3_translation<S>(w, v.template segment<3>(i + 3));
        J.d0.template block<3, 3>(i, i) = Rt, J.d0.template block<3, 3>(i + 3, i + 3) = Rt;
        J.d0.template block<3, 3>(i + 3, i) = -(Rt * skew<S>(t));
        J.d1.template block<6, 6>(i, i) = se3_right_jacobian<S>(v.template segment<6>(i));
    }
    return J;
}

template <class S> ConfigurationJacobians<S> difference_jacobians(const Model& model, const VecX<S>& q0, const VecX<S>& q1) {
    const VecX<S> v = difference<S>(model, q0, q1);
    ConfigurationJacobians<S> J{MatX<S>::Zero(model.nv, model.nv), MatX<S>::Zero(model.nv, model.nv)};
    for (const Body& b : model.bodies) {
        const Step<S> step;
        const int i = b.v_index;
        if (b.joint.one_dof()) {
            J.d0(i, i) = S(-1), J.d1(i, i) = S(1);
        } else if (b.joint.type == JointType::Ball) {
            const Vec3<S> w = v.template segment<3>(i);
            J.d0.template block<3, 3>(i, i) = -so3_right_jacobian_inverse<S>(Vec3<S>(-w));
            J.d1.template block<3, 3>(i, i) = so3_right_jacobian_inverse<S>(w);
        } else {
            const Vec6<S> xi = v.template segment<6>(i);
            J.d0.template block<6, 6>(i, i) = -se3_right_jacobian_inverse<S>(Vec6<S>(-xi));
            J.d1.template block<6, 6>(i, i) = se3_right_jacobian_inverse<S>(xi);
        }
    }
    return J;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_INTEGRATE(S) VecX<S> integrate(const Model&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_INTEGRATE)
#define RBDGEN_DIFFERENCE(S) VecX<S> difference(const Model&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_DIFFERENCE)
#define RBDGEN_INTEGRATE_JACOBIANS(S) ConfigurationJacobians<S> integrate_jacobians(const Model&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_INTEGRATE_JACOBIANS)
#define RBDGEN_DIFFERENCE_JACOBIANS(S) ConfigurationJacobians<S> difference_jacobians(const Model&, const VecX<S>&, const VecX<S>&)
RBDGEN_COMPILED_ONCE(RBDGEN_DIFFERENCE_JACOBIANS)

}  // namespace rbdgen
