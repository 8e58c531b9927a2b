// ADOL-C (Debian libadolc-dev) as an oracle for time derivatives: Taylor-mode forward AD of a taped
// function. It shares no code with the N-CMTM: the reference FK, RNEA and ABA run on ADOL-C's adouble,
// and the Taylor coefficients of their outputs along a motion are the derivatives (k! y_k).
#pragma once

#include <adolc/adolc.h>

#include <Eigen/Core>
#include <functional>
#include <vector>

namespace Eigen {
template <> struct NumTraits<adouble> : NumTraits<double> {
    typedef adouble Real;
    typedef adouble NonInteger;
    typedef adouble Nested;
    typedef adouble Literal;
    enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 3, MulCost = 3 };
};
// Eigen's cross product takes conj of an expression, ADOL-C's non-copyable temporary adub.
namespace internal {
template <> struct conj_retval<adub> { typedef adouble type; };
template <> struct conj_impl<adub> {
    static adouble run(const adub& x) { return adouble(x); }
};
}  // namespace internal
}  // namespace Eigen

inline const adouble& conj(const adouble& x) { return x; }
inline const adouble& real(const adouble& x) { return x; }
inline adouble imag(const adouble&) { return 0.; }
inline adouble abs2(const adouble& x) { return x * x; }

namespace rbdgen::test {

// Tapes y = f(x) (f on adouble vectors) at x0 under `tag` and returns, for Taylor coefficients X
// (n inputs × (d + 1)), the outputs' coefficients (m × (d + 1)).
class TaylorTape {
public:
    using Function = std::function<Eigen::Matrix<adouble, Eigen::Dynamic, 1>(const Eigen::Matrix<adouble, Eigen::Dynamic, 1>&)>;
    TaylorTape(short tag, const Eigen::VectorXd& x0, const Function& f) : tag_(tag), n_(static_cast<int>(x0.size())) {
        trace_on(tag_);
        Eigen::Matrix<adouble, Eigen::Dynamic, 1> x(n_);
        for (int i = 0; i < n_; ++i) x[i] <<= x0[i];
        Eigen::Matrix<adouble, Eigen::Dynamic, 1> y = f(x);
        m_ = static_cast<int>(y.size());
        for (int j = 0; j < m_; ++j) {
            double out;
            y[j] >>= out;
        }
        trace_off();
    }
    // X: n × (d + 1) Taylor coefficients of the inputs (column 0 the point itself).
    Eigen::MatrixXd forward_taylor(const Eigen::MatrixXd& X) const {
        const int d = static_cast<int>(X.cols()) - 1;
        double** Xa = myalloc2(n_, d + 1);
        double** Ya = myalloc2(m_, d + 1);
        for (int i = 0; i < n_; ++i)
            for (int k = 0; k <= d; ++k) Xa[i][k] = X(i, k);
        ::forward(tag_, m_, n_, d, 0, Xa, Ya);
        Eigen::MatrixXd Y(m_, d + 1);
        for (int j = 0; j < m_; ++j)
            for (int k = 0; k <= d; ++k) Y(j, k) = Ya[j][k];
        myfree2(Xa);
        myfree2(Ya);
        return Y;
    }
    // First derivatives at x0 = [q; the rest], one forward sweep a direction: along q's tangent
    // directions first (the columns of T, nq x nv, test::tangent_basis: q ⊕ δ to first order), then
    // along the unit directions of x0's entries after q; `directions` columns in all.
    Eigen::MatrixXd tangent_jacobian(const Eigen::VectorXd& x0, const Eigen::MatrixXd& T, int directions) const {
        const int nq = static_cast<int>(T.rows()), nv = static_cast<int>(T.cols());
        Eigen::MatrixXd J(m_, directions);
        for (int k = 0; k < directions; ++k) {
            Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n_, 2);
            X.col(0) = x0;
            if (k < nv) X.col(1).head(nq) = T.col(k);
            else X(nq + k - nv, 1) = 1;
            J.col(k) = forward_taylor(X).col(1);
        }
        return J;
    }
    int outputs() const { return m_; }
    int inputs() const { return n_; }
    short tag() const { return tag_; }

private:
    short tag_;
    int n_, m_ = 0;
};

}  // namespace rbdgen::test
