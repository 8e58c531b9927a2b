// The runtime header's unrolled LTDL of a dense matrix, rbdgen_ltdl_dense (templates/rbdgen_runtime.hpp.in;
// the contact derivatives factor A = J H⁻¹ Jᵀ with it): its factors put back together, Lᵀ D L, against
// the matrix it was given (Featherstone's LTDL: H = Lᵀ D L, L unit lower triangular), for every size
// it is emitted for, with divisions and with one reciprocal a row.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <utility>
#include <vector>

#include "eval_arm.hpp"  // any generated robot brings the runtime header

namespace {

// A well-conditioned symmetric positive definite n x n matrix.
Eigen::MatrixXd random_spd(int n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-1, 1);
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) B(i, j) = u(rng);
    return B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
}

// Packed as the kernels pack it: row k holds columns k, k − 1, ..., 0 from k (k + 1) / 2.
std::vector<double> packed(const Eigen::MatrixXd& H) {
    std::vector<double> A;
    for (int k = 0; k < H.rows(); ++k)
        for (int c = k; c >= 0; --c) A.push_back(H(k, c));
    return A;
}

// Lᵀ D L from the factors left in A, relative to H's largest entry.
double reassembly_error(const std::vector<double>& A, const Eigen::MatrixXd& H) {
    const int n = static_cast<int>(H.rows());
    Eigen::MatrixXd L = Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd D(n);
    for (int k = 0; k < n; ++k) {
        const int row = k * (k + 1) / 2;
        D(k) = A[row];
        for (int m = 1; m <= k; ++m) L(k, k - m) = A[row + m];
    }
    return (L.transpose() * D.asDiagonal() * L - H).cwiseAbs().maxCoeff() / H.cwiseAbs().maxCoeff();
}

template <int n, bool Reciprocal> double worst_of_sizes(std::mt19937_64& rng) {
    double worst = 0;
    for (int s = 0; s < 20; ++s) {
        const Eigen::MatrixXd H = random_spd(n, rng);
        std::vector<double> A = packed(H);
        rbdgen_ltdl_dense<double, n, Reciprocal>(A.data());
        worst = std::max(worst, reassembly_error(A, H));
    }
    if constexpr (n > 1) return std::max(worst, worst_of_sizes<n - 1, Reciprocal>(rng));
    return worst;
}

TEST(RuntimeLtdlDense, FactorsReassembleTheMatrix) {
    std::mt19937_64 rng(7);
    const double divided = worst_of_sizes<16, false>(rng), reciprocal = worst_of_sizes<16, true>(rng);
    EXPECT_LT(divided, 1e-14);
    EXPECT_LT(reciprocal, 1e-14);
    std::cout << "worst |Lᵀ D L − H| / max |H|, sizes 1 to 16: " << divided << " (divisions), " << reciprocal
              << " (reciprocals)\n";
}

}  // namespace
