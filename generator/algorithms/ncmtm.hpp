// The N-order Comprehensive Motion Transformation Matrix (Samy, Ayusawa and Yoshida, §IV and
// Appendix A). For a transform T(t) (k = 6: a Plücker transform X; k = 4: a homogeneous H) whose
// derivative is Ṫ = T [ν ×] (eq. 9), the N-CMTM is the lower block-triangular matrix (eq. 66) of the
// blocks C_{p} = T^(p) / p!, p = 0..N: the truncated Taylor series of T. It is stored as its N + 1
// blocks, never as a dense kM × kM matrix, and every product uses that layout (eq. 67).
// Hats are the paper's (eq. 13): ĝ^(p) = g^(p) / p!. A motion ζ = [ν; ν̇; …; ν^(N)] (eq. 11) is
// kept as ζ̂, its N + 1 hat-derivatives.
#pragma once

#include <vector>

#include "spatial/spatial.hpp"

namespace rbdgen {

template <class S, int k> using Block = Eigen::Matrix<S, k, k>;
template <class S, int k> using BlockVec = Eigen::Matrix<S, k, 1>;

// The N-CMTM C, blocks C[0] = T .. C[N] (eq. 66). The same layout holds the differential operator
// [ζ̂ ×] (blocks [ζ̂_p ×]) and any product of such matrices.
template <class S, int k> struct Cmtm {
    std::vector<Block<S, k>> C;
    int order() const { return static_cast<int>(C.size()) - 1; }
};

// A stack of hat-derivatives x̂_0 .. x̂_N of a k-vector (a motion ζ̂, a force f̂, ...).
template <class S, int k> using Stack = std::vector<BlockVec<S, k>>;

// Which differential operator a CMTM is built with: [·×₆] (X), [·×̄₆] (the dual X̄ = X⁻ᵀ, eq. 15)
// or [·×₄] (H).
enum class Cross { Motion6, Force6, Homogeneous4 };

// [ν ×₆] (eq. 6), its dual [ν ×̄₆] = −[ν ×₆]ᵀ (eq. 7), and [ν ×₄] (eq. 6).
template <class S> Block<S, 6> cross6(const Vec6<S>& nu) {
    Block<S, 6> M = Block<S, 6>::Zero();
    const Mat3<S> w = skew<S>(ang(nu));
    M.template topLeftCorner<3, 3>() = w;
    M.template bottomRightCorner<3, 3>() = w;
    M.template bottomLeftCorner<3, 3>() = skew<S>(lin(nu));
    return M;
}
template <class S> Block<S, 6> cross6_dual(const Vec6<S>& nu) { return -cross6<S>(nu).transpose(); }
template <class S> Block<S, 4> cross4(const Vec6<S>& nu) {
    Block<S, 4> M = Block<S, 4>::Zero();
    M.template topLeftCorner<3, 3>() = skew<S>(ang(nu));
    M.template topRightCorner<3, 1>() = lin(nu);
    return M;
}
// ·^∨ (the inverse of [· ×]) of the 6- and 4-forms: ν from [ν ×].
template <class S> Vec6<S> vee(const Block<S, 6>& M, Cross c) {
    const int r = c == Cross::Force6 ? 0 : 3, k = c == Cross::Force6 ? 3 : 0;  // v× sits lower left, or upper right (dual)
    return spatial<S>(Vec3<S>(M(2, 1), M(0, 2), M(1, 0)), Vec3<S>(M(r + 2, k + 1), M(r + 0, k + 2), M(r + 1, k + 0)));
}
template <class S> Vec6<S> vee(const Block<S, 4>& M, Cross) {
    return spatial<S>(Vec3<S>(M(2, 1), M(0, 2), M(1, 0)), Vec3<S>(M(0, 3), M(1, 3), M(2, 3)));
}

template <class S, int k> Block<S, k> cross(Cross c, const Vec6<S>& nu) {
    if constexpr (k == 4) {
        return cross4<S>(nu);
    } else {
        return c == Cross::Force6 ? cross6_dual<S>(nu) : cross6<S>(nu);
    }
}

// T⁻¹ of a transform block without pivoting (the tracer cannot pivot): for X = [E 0; B E] or
// X̄ = [E B; 0 E] with E a rotation, [Eᵀ −EᵀBEᵀ ...]; for H = [R r; 0 1], [Rᵀ −Rᵀr; 0 1].
template <class S, int k> Block<S, k> transform_inverse(const Block<S, k>& T) {
    Block<S, k> B = Block<S, k>::Zero();
    const Mat3<S> Et = T.template topLeftCorner<3, 3>().transpose();
    B.template topLeftCorner<3, 3>() = Et;
    if constexpr (k == 4) {
        B.template topRightCorner<3, 1>() = -(Et * Vec3<S>(T.template topRightCorner<3, 1>()));
        B(3, 3) = S(1.0);
    } else {
        B.template bottomRightCorner<3, 3>() = Et;
        B.template topRightCorner<3, 3>() = -(Et * Mat3<S>(T.template topRightCorner<3, 3>()) * Et);
        B.template bottomLeftCorner<3, 3>() = -(Et * Mat3<S>(T.template bottomLeftCorner<3, 3>()) * Et);
    }
    return B;
}

// Construction (eq. 16): C_{p+1} = 1/(p+1) Σ_{j=0}^{p} C_{p−j} [ζ̂_j ×], C_0 = T, p = 0..N−1.
template <class S, int k> Cmtm<S, k> construct(const Block<S, k>& T, const Stack<S, 6>& zeta_hat, Cross c) {
    const int N = static_cast<int>(zeta_hat.size()) - 1;
    Cmtm<S, k> M;
    M.C.push_back(T);
    std::vector<Block<S, k>> X;  // [ζ̂_j ×]
    for (int j = 0; j < N; ++j) X.push_back(cross<S, k>(c, zeta_hat[j]));
    for (int p = 0; p < N; ++p) {
        Block<S, k> sum = M.C[p] * X[0];
        for (int j = 1; j <= p; ++j) sum += M.C[p - j] * X[j];
        M.C.push_back(sum * S(1.0 / (p + 1)));
    }
    return M;
}

// Deconstruction (eq. 17), the reverse of eq. (16): (p+1) C_{p+1} − Σ_{j<p} C_{p−j} [ζ̂_j ×] = C_0 [ζ̂_p ×],
// so ζ̂_p = (C_0⁻¹ (…))^∨ for p = 0..N−1. Returns ζ̂_0 .. ζ̂_{N−1} (the order N block gives ν^(N−1)).
template <class S, int k> Stack<S, 6> deconstruct(const Cmtm<S, k>& M, Cross c) {
    const int N = M.order();
    const Block<S, k> C0_inverse = transform_inverse<S, k>(M.C[0]);
    Stack<S, 6> zeta_hat;
    for (int p = 0; p < N; ++p) {
        Block<S, k> r = M.C[p + 1] * S(p + 1.0);
        for (int j = 0; j < p; ++j) r -= M.C[p - j] * cross<S, k>(c, zeta_hat[j]);
        zeta_hat.push_back(vee<S>(Block<S, k>(C0_inverse * r), c));
    }
    return zeta_hat;
}

// Products in the lower block-triangular layout (eq. 67): P_{p} = Σ_{j=0}^{p} A_{p−j} B_{j}.
template <class S, int k> Cmtm<S, k> operator*(const Cmtm<S, k>& A, const Cmtm<S, k>& B) {
    Cmtm<S, k> P;
    for (int p = 0; p <= A.order(); ++p) {
        Block<S, k> sum = A.C[p] * B.C[0];
        for (int j = 1; j <= p; ++j) sum += A.C[p - j] * B.C[j];
        P.C.push_back(sum);
    }
    return P;
}
template <class S, int k> Stack<S, k> operator*(const Cmtm<S, k>& A, const Stack<S, k>& x) {
    Stack<S, k> y;
    for (size_t p = 0; p < x.size(); ++p) {
        BlockVec<S, k> sum = A.C[p] * x[0];
        for (size_t j = 1; j <= p; ++j) sum += A.C[p - j] * x[j];
        y.push_back(sum);
    }
    return y;
}

// The inverse (eq. 68): B_0 = C_0⁻¹, B_p = −C_0⁻¹ Σ_{j=0}^{p−1} C_{p−j} B_j; it is the N-CMTM of T⁻¹.
template <class S, int k> Cmtm<S, k> inverse(const Cmtm<S, k>& M) {
    Cmtm<S, k> B;
    const Block<S, k> C0_inverse = transform_inverse<S, k>(M.C[0]);
    B.C.push_back(C0_inverse);
    for (int p = 1; p <= M.order(); ++p) {
        Block<S, k> sum = M.C[p] * B.C[0];
        for (int j = 1; j < p; ++j) sum += M.C[p - j] * B.C[j];
        B.C.push_back(-(C0_inverse * sum));
    }
    return B;
}

// ζ̂ from ζ and back (eq. 13).
template <class S, int k> Stack<S, k> hat(Stack<S, k> x) {
    double factorial = 1;
    for (size_t p = 0; p < x.size(); ++p) factorial *= p > 0 ? static_cast<double>(p) : 1.0, x[p] *= S(1.0 / factorial);
    return x;
}
template <class S, int k> Stack<S, k> unhat(Stack<S, k> x) {
    double factorial = 1;
    for (size_t p = 0; p < x.size(); ++p) factorial *= p > 0 ? static_cast<double>(p) : 1.0, x[p] *= S(factorial);
    return x;
}

}  // namespace rbdgen
