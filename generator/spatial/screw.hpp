// A body's transform ⁱX_λ(i) kept as a product of axial screws (Featherstone §5: "the successive
// application of two axial screw transforms: one aligned with the x axis, and one aligned with the z
// axis"). Applied one factor at a time, a DH transform moves a motion or force vector for 20m + 12a
// where the composed 6×6 transform needs 24m + 18a plus the cost of composing it; a body whose frame
// cannot have DH parameters keeps one general factor.
#pragma once

#include "spatial/spatial.hpp"
#include "sym/step.hpp"

namespace rbdgen {

// ᴮX_A = rot_k(θ) xlt(d e_k), a rotation by θ about coordinate axis k and a translation d along it
// (c = cos θ, s = sin θ), or, with k = −1, the general transform X.
template <class S> struct Screw {
    int k = -1;
    S c = S(1), s = S(0), d = S(0);
    Transform<S> X;
    // A floating base (k = −1, X = X_J) also keeps its unit quaternion (u, w) = (x, y, z, w): it turns
    // one vector by E v = Rᵀ v = v + 2 (u × t − w t), t = u × v, for 15m where E from the quaternion
    // costs 18m before its own 9m.
    bool has_quaternion = false;
    Vec3<S> u = Vec3<S>::Zero();
    S w = S(1);

    // The axes i, j that follow k cyclically: rot_k maps (x_i, x_j) to (c x_i + s x_j, −s x_i + c x_j).
    int i() const { return (k + 1) % 3; }
    int j() const { return (k + 2) % 3; }
    Vec3<S> rotate(const Vec3<S>& x) const {  // E x
        Vec3<S> y = x;
        y[i()] = c * x[i()] + s * x[j()];
        y[j()] = c * x[j()] - s * x[i()];
        return y;
    }
    Vec3<S> rotate_back(const Vec3<S>& y) const {  // Eᵀ y
        Vec3<S> x = y;
        x[i()] = c * y[i()] - s * y[j()];
        x[j()] = c * y[j()] + s * y[i()];
        return x;
    }
    Vec3<S> minus_d_cross(const Vec3<S>& x, const Vec3<S>& w) const {  // x − d e_k × w
        Vec3<S> y = x;
        y[i()] = x[i()] + d * w[j()];
        y[j()] = x[j()] - d * w[i()];
        return y;
    }
    Vec3<S> plus_d_cross(const Vec3<S>& x, const Vec3<S>& w) const {  // x + d e_k × w
        Vec3<S> y = x;
        y[i()] = x[i()] - d * w[j()];
        y[j()] = x[j()] + d * w[i()];
        return y;
    }

    Vec3<S> rotate_only(const Vec3<S>& x) const {
        if (k >= 0) return rotate(x);
        if (!has_quaternion) return X.E * x;
        const Vec3<S> t = u.cross(x), v = u.cross(t) - w * t;
        return x + v + v;
    }

    // Eᵀ M E by the double angle: the block of axes i, j costs 4m, with e = M_ii − M_jj,
    // σ = M_ij + M_ji, u = e s² + σ cs and v = e cs − σ s²: M'_ii = M_ii − u, M'_jj = M_jj + u,
    // M'_ij = M_ij + v, M'_ji = M_ji + v. A symmetric M has σ = 2 M_ij, so u = e s² + M_ij sin 2θ and
    // M'_ij = M_ij cos 2θ + e cs (one addition fewer a block; sin 2θ and cos 2θ once a joint). Column
    // and row k turn as vectors; M_kk stays. A symmetric M stays symmetric, its row k being its column k.
    Mat3<S> rotate_matrix(const Mat3<S>& M, bool symmetric) const {
        const int a = i(), b = j();
        const S cs = c * s, ss = s * s;
        const S e = M(a, a) - M(b, b);
        Mat3<S> R = M;
        S u;
        if (symmetric) {
            u = e * ss + M(a, b) * (cs + cs);                                  // sin 2θ = 2cs
            R(a, b) = R(b, a) = M(a, b) * (S(1) - (ss + ss)) + e * cs;         // cos 2θ = 1 − 2s²
        } else {
            const S sigma = M(a, b) + M(b, a), v = e * cs - sigma * ss;
            u = e * ss + sigma * cs;
            R(a, b) = M(a, b) + v;
            R(b, a) = M(b, a) + v;
        }
        R(a, a) = M(a, a) - u;
        R(b, b) = M(b, b) + u;
        const Vec3<S> col_k = rotate_back(M.col(k));
        const Vec3<S> row_k = symmetric ? col_k : rotate_back(M.row(k).transpose());
        R(a, k) = col_k[a], R(b, k) = col_k[b];
        R(k, a) = row_k[a], R(k, b) = row_k[b];
        return R;
    }
    Vec3<S> axis_d() const {
        Vec3<S> r = Vec3<S>::Zero();
        r[k] = d;
        return r;
    }
    // ᴬXᴮ* I ᴮX_A for a rigid-body inertia, and for an articulated-body inertia [A B; Bᵀ C].
    RigidBodyInertia<S> inertia_in_parent(const RigidBodyInertia<S>& I) const {
        if (k < 0) return I.expressed_in_parent(X);
        // Rotated, then translated along the axis (RigidBodyInertia::translated with r = d e_k):
        // h'_k = h_k + m d, Ī'_ii and Ī'_jj gain 2d h_k + m d², Ī'_ik = Ī_ik − d h_i, Ī'_jk = Ī_jk − d h_j.
        const Vec3<S> h = rotate_back(I.h);
        Mat3<S> Ibar = rotate_matrix(I.Ibar, true);
        const S md = I.m * d, grow = (d + d) * h[k] + md * d;
        Ibar(i(), i()) += grow, Ibar(j(), j()) += grow;
        Ibar(i(), k) = Ibar(k, i()) = Ibar(i(), k) - d * h[i()];
        Ibar(j(), k) = Ibar(k, j()) = Ibar(j(), k) - d * h[j()];
        Vec3<S> h_moved = h;
        h_moved[k] += md;
        return {I.m, h_moved, Ibar};
    }
    Mat6<S> articulated_in_parent(const Mat6<S>& I) const {
        if (k < 0) return articulated_inertia_in_parent<S>(X, I);
        Mat6<S> I1;
        I1.template topLeftCorner<3, 3>() = rotate_matrix(I.template topLeftCorner<3, 3>(), true);
        I1.template topRightCorner<3, 3>() = rotate_matrix(I.template topRightCorner<3, 3>(), false);
        I1.template bottomRightCorner<3, 3>() = rotate_matrix(I.template bottomRightCorner<3, 3>(), true);
        // Translated along the axis (articulated_translated with r = d e_k, in closed form): the rows
        // i, j of B gain T = d e_k × C (T_i = −d C_j, T_j = d C_i), and five entries of A move,
        // A_ii −= d (B_ij + B'_ij), A_jj += d (B_ji + B'_ji), A_ij += d (B'_ii − B_jj),
        // A_ik −= d B_kj, A_jk += d B_ki (5m where the general formula costs 9m).
        const int a = i(), b = j();
        const Mat3<S> B = I1.template topRightCorner<3, 3>(), C = I1.template bottomRightCorner<3, 3>();
        Mat3<S> B2 = B;
        B2.row(a) = B.row(a) - d * C.row(b);
        B2.row(b) = B.row(b) + d * C.row(a);
        Mat3<S> A = I1.template topLeftCorner<3, 3>();
        A(a, a) -= d * (B(a, b) + B2(a, b));
        A(b, b) += d * (B(b, a) + B2(b, a));
        A(a, b) = A(b, a) = A(a, b) + d * (B2(a, a) - B(b, b));
        A(a, k) = A(k, a) = A(a, k) - d * B(k, b);
        A(b, k) = A(k, b) = A(b, k) + d * B(k, a);
        Mat6<S> out;
        out << A, B2, B2.transpose(), C;
        return out;
    }

    Vec6<S> apply(const Vec6<S>& m) const {
        if (k < 0) return X.apply(m);
        return spatial<S>(rotate(ang(m)), rotate(minus_d_cross(lin(m), ang(m))));
    }
    Vec6<S> apply_force(const Vec6<S>& f) const {
        if (k < 0) return X.apply_force(f);
        return spatial<S>(rotate(minus_d_cross(ang(f), lin(f))), rotate(lin(f)));
    }
    Vec6<S> inverse_apply(const Vec6<S>& m) const {
        if (k < 0) return X.inverse_apply(m);
        const Vec3<S> w = rotate_back(ang(m));
        return spatial<S>(w, plus_d_cross(rotate_back(lin(m)), w));
    }
    Vec6<S> transpose_apply(const Vec6<S>& f) const {
        if (k < 0) return X.transpose_apply(f);
        const Vec3<S> n = rotate_back(lin(f));
        return spatial<S>(plus_d_cross(rotate_back(ang(f)), n), n);
    }
    Transform<S> transform() const {
        if (k < 0) return X;
        Transform<S> T;
        for (int col = 0; col < 3; ++col) T.E.col(col) = rotate(Vec3<S>::Unit(col));
        T.r = axis_d();
        return T;
    }
};

// ᴮX_A = f[0] f[1] … f[n−1]: a motion vector meets f[n−1] first, a force going back meets f[0] first.
// In the uniform emission's trace each factor's application is a step of its own (sym/step.hpp
// UniformStep): a body's step then calls one function a factor kind (axis x or z, or general), shared
// by every body whatever its chain, and the bodies' own functions shrink to what differs between joint
// types (talos's ten kernels 205 → 137 KB at -Os, with the call tables of emit/compact.hpp).
template <class S> struct ScrewChain {
    Screw<S> f[3];
    int n = 0;

    void push(const Screw<S>& s) { f[n++] = s; }
    Vec6<S> apply(Vec6<S> m) const {
        for (int t = n - 1; t >= 0; --t) {
            const UniformStep<S> factor;
            m = f[t].apply(m);
        }
        return m;
    }
    Vec6<S> apply_force(Vec6<S> x) const {
        for (int t = n - 1; t >= 0; --t) x = f[t].apply_force(x);
        return x;
    }
    Vec6<S> inverse_apply(Vec6<S> m) const {
        for (int t = 0; t < n; ++t) m = f[t].inverse_apply(m);
        return m;
    }
    Vec6<S> transpose_apply(Vec6<S> x) const {
        for (int t = 0; t < n; ++t) {
            const UniformStep<S> factor;
            x = f[t].transpose_apply(x);
        }
        return x;
    }
    // E x: a 3-vector rotated from A to B coordinates.
    Vec3<S> rotate(Vec3<S> x) const {
        for (int t = n - 1; t >= 0; --t) x = f[t].rotate_only(x);
        return x;
    }
    // r: the position of B's origin in A coordinates (each factor maps a point p of its B side to
    // Eᵀ p + r on its A side), without composing the rotations.
    Vec3<S> origin() const {
        Vec3<S> r = Vec3<S>::Zero();
        for (int t = 0; t < n; ++t) r = f[t].k < 0 ? Vec3<S>(f[t].X.E.transpose() * r + f[t].X.r) : Vec3<S>(f[t].rotate_back(r) + f[t].axis_d());
        return r;
    }
    // ᴮX_A ᴬX_C
    Transform<S> operator*(const Transform<S>& AXC) const {
        Transform<S> X = AXC;
        for (int t = n - 1; t >= 0; --t) X = f[t].transform() * X;
        return X;
    }
    Transform<S> composed() const { return *this * Transform<S>::identity(); }
    // ᴬXᴮ* I ᴮX_A for a rigid-body inertia in B coordinates.
    RigidBodyInertia<S> inertia_in_parent(RigidBodyInertia<S> I) const {
        for (int t = 0; t < n; ++t) {
            const UniformStep<S> factor;
            I = f[t].inertia_in_parent(I);
        }
        return I;
    }
    // The same for an articulated-body inertia.
    Mat6<S> articulated_in_parent(Mat6<S> I) const {
        for (int t = 0; t < n; ++t) {
            const UniformStep<S> factor;
            I = f[t].articulated_in_parent(I);
        }
        return I;
    }
};

}  // namespace rbdgen
