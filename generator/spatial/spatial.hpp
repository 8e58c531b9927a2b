// Spatial vector algebra (Featherstone, "Rigid Body Dynamics Algorithms", ch. 2), templated on the
// scalar so that the same code is the reference implementation (double) and the tracer (symbolic).
//
// Conventions (DESIGN.md): spatial vectors are [angular; linear]; a Plücker transform ᴮX_A is stored
// as (E, r) with ᴮX_A = rot(E) xlt(r): E rotates A coordinates into B coordinates and r is the
// position of B's origin expressed in A coordinates.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace rbdgen {

template <class S> using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S> using Mat3 = Eigen::Matrix<S, 3, 3>;
template <class S> using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S> using Mat6 = Eigen::Matrix<S, 6, 6>;
template <class S> using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S> using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

template <class S> Vec3<S> ang(const Vec6<S>& m) { return m.template head<3>(); }
template <class S> Vec3<S> lin(const Vec6<S>& m) { return m.template tail<3>(); }
template <class S> Vec6<S> spatial(const Vec3<S>& a, const Vec3<S>& l) {
    Vec6<S> m;
    m << a, l;
    return m;
}

// r× : the skew-symmetric matrix of a 3-vector.
template <class S> Mat3<S> skew(const Vec3<S>& r) {
    Mat3<S> m;
    m << S(0), -r.z(), r.y(), r.z(), S(0), -r.x(), -r.y(), r.x(), S(0);
    return m;
}

// v × m  (motion cross product, Nori §II).
template <class S> Vec6<S> crm(const Vec6<S>& v, const Vec6<S>& m) {
    const Vec3<S> w = ang(v), vo = lin(v);
    return spatial<S>(w.cross(ang(m)), vo.cross(ang(m)) + w.cross(lin(m)));
}

// v ×* f  (force cross product, Nori §II).
template <class S> Vec6<S> crf(const Vec6<S>& v, const Vec6<S>& f) {
    const Vec3<S> w = ang(v), vo = lin(v);
    return spatial<S>(w.cross(ang(f)) + vo.cross(lin(f)), w.cross(lin(f)));
}

// A Plücker transform ᴮX_A = rot(E) xlt(r).
template <class S> struct Transform {
    Mat3<S> E = Mat3<S>::Identity();
    Vec3<S> r = Vec3<S>::Zero();

    static Transform identity() { return {}; }

    // ᴮX_A m : a motion vector from A to B coordinates.
    Vec6<S> apply(const Vec6<S>& m) const {
        return spatial<S>(E * ang(m), E * (lin(m) - r.cross(ang(m))));
    }
    // ᴮX_A* f : a force vector from A to B coordinates.
    Vec6<S> apply_force(const Vec6<S>& f) const {
        return spatial<S>(E * (ang(f) - r.cross(lin(f))), E * lin(f));
    }
    // ᴬX_B m = (ᴮX_A)⁻¹ m : a motion vector from B back to A coordinates.
    Vec6<S> inverse_apply(const Vec6<S>& m) const {
        const Vec3<S> w = E.transpose() * ang(m);
        return spatial<S>(w, E.transpose() * lin(m) + r.cross(w));
    }
    // (ᴮX_A)ᵀ f = ᴬX_B* f : a force vector from B back to A coordinates.
    Vec6<S> transpose_apply(const Vec6<S>& f) const {
        const Vec3<S> n = E.transpose() * lin(f);
        return spatial<S>(E.transpose() * ang(f) + r.cross(n), n);
    }
    // ᶜX_A = ᶜX_B ᴮX_A  (this = ᶜX_B).
    Transform operator*(const Transform& BXA) const {
        return {E * BXA.E, BXA.r + BXA.E.transpose() * r};
    }
    Transform inverse() const { return {E.transpose(), -(E * r)}; }

    template <class T> Transform<T> cast() const {
        return {E.template cast<T>(), r.template cast<T>()};
    }
    Mat6<S> matrix() const {
        Mat6<S> X = Mat6<S>::Zero();
        X.template topLeftCorner<3, 3>() = E;
        X.template bottomRightCorner<3, 3>() = E;
        X.template bottomLeftCorner<3, 3>() = -E * skew<S>(r);
        return X;
    }
};

template <class S> Mat3<S> mirror_upper(Mat3<S> M) {
    M(1, 0) = M(0, 1), M(2, 0) = M(0, 2), M(2, 1) = M(1, 2);
    return M;
}

// Eᵀ A E for symmetric A.
template <class S> Mat3<S> congruence(const Mat3<S>& E, const Mat3<S>& A) {
    const Mat3<S> AE = A * E;
    Mat3<S> R;
    for (int r = 0; r < 3; ++r)
        for (int c = r; c < 3; ++c) R(r, c) = E.col(r).dot(AE.col(c));
    return mirror_upper<S>(R);
}

// Rigid-body inertia (m, h = m c, Ī = rotational inertia about the frame origin), RBDA §2.13.
template <class S> struct RigidBodyInertia {
    S m = S(0);
    Vec3<S> h = Vec3<S>::Zero();
    Mat3<S> Ibar = Mat3<S>::Zero();

    // I v
    Vec6<S> operator*(const Vec6<S>& v) const {
        return spatial<S>(Ibar * ang(v) + h.cross(lin(v)), m * lin(v) - h.cross(ang(v)));
    }
    RigidBodyInertia operator+(const RigidBodyInertia& o) const {
        return {m + o.m, h + o.h, Ibar + o.Ibar};
    }
    // ᴬXᴮ* I ᴮX_A : this inertia (in B coordinates) expressed in A coordinates, given ᴮX_A.
    // Rotate (h₁ = Eᵀh, Ī₁ = EᵀĪE), then translate.
    RigidBodyInertia expressed_in_parent(const Transform<S>& BXA) const;
    // xlt(r)ᵀ I xlt(r): the origin moved by r (h' = h + m r): with a×b× + b×a× = b aᵀ + a bᵀ − 2 (a·b) 1
    // and r×r× = r rᵀ − |r|² 1, Ī' = Ī − r×h× − h'×r× = Ī − (h rᵀ + r hᵀ + m r rᵀ) + (2 r·h + m |r|²) 1.
    RigidBodyInertia translated(const Vec3<S>& r) const;
    Mat6<S> matrix() const {
        Mat6<S> I;
        I << Ibar, skew<S>(h), skew<S>(h).transpose(), m * Mat3<S>::Identity();
        return I;
    }
    template <class T> RigidBodyInertia<T> cast() const {
        return {T(m), h.template cast<T>(), Ibar.template cast<T>()};
    }
};

template <class S> RigidBodyInertia<S> RigidBodyInertia<S>::expressed_in_parent(const Transform<S>& BXA) const {
    return RigidBodyInertia<S>{m, BXA.E.transpose() * h, congruence<S>(BXA.E, Ibar)}.translated(BXA.r);
}

template <class S> RigidBodyInertia<S> RigidBodyInertia<S>::translated(const Vec3<S>& r) const {
    const Vec3<S> mr = m * r;
    const S diagonal = S(2) * r.dot(h) + r.dot(mr);
    Mat3<S> I;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) I(i, j) = Ibar(i, j) - (h[i] * r[j] + r[i] * h[j] + mr[i] * r[j]);
    for (int i = 0; i < 3; ++i) I(i, i) += diagonal;
    return {m, h + mr, mirror_upper<S>(I)};
}

// Articulated-body inertias are symmetric 6×6 matrices [A B; Bᵀ C], A and C symmetric (ABA).
// Symmetric results are computed on and above the diagonal only, and mirrored.
// xlt(r)ᵀ I₁ xlt(r) with xlt(r) = [1 0; −r× 1]: C' = C₁, B' = B₁ + r× C₁, A' = A₁ + P + Pᵀ − r× C₁ r×,
// P = r× B₁ᵀ.
template <class S> Mat6<S> articulated_translated(const Vec3<S>& r, const Mat6<S>& I1) {
    const Mat3<S> A1 = I1.template topLeftCorner<3, 3>(), B1 = I1.template topRightCorner<3, 3>();
    const Mat3<S> C1 = I1.template bottomRightCorner<3, 3>();
    const Mat3<S> rx = skew<S>(r);
    const Mat3<S> rxC = rx * C1;
    const Mat3<S> P = rx * B1.transpose();
    Mat3<S> A;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) A(i, j) = A1(i, j) + P(i, j) + P(j, i) - rxC.row(i).dot(rx.col(j));
    Mat6<S> out;
    out << mirror_upper<S>(A), B1 + rxC, (B1 + rxC).transpose(), C1;
    return out;
}

// ᴬXᴮ* I ᴮX_A = Xᵀ I X for an articulated inertia I in B coordinates, X = ᴮX_A = rot(E) xlt(r):
// rotate, I₁ = diag(E, E)ᵀ I diag(E, E), then translate.
template <class S> Mat6<S> articulated_inertia_in_parent(const Transform<S>& X, const Mat6<S>& I) {
    Mat6<S> I1;
    I1.template topLeftCorner<3, 3>() = congruence<S>(X.E, I.template topLeftCorner<3, 3>());
    I1.template topRightCorner<3, 3>() = X.E.transpose() * (I.template topRightCorner<3, 3>() * X.E);
    I1.template bottomRightCorner<3, 3>() = congruence<S>(X.E, I.template bottomRightCorner<3, 3>());
    I1.template bottomLeftCorner<3, 3>() = I1.template topRightCorner<3, 3>().transpose();
    return articulated_translated<S>(X.r, I1);
}

}  // namespace rbdgen
