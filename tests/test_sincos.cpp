// The generated code's sincos (templates/rbdgen_runtime.hpp.in) against std::sin and std::cos.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "eval_arm.hpp"  // any generated robot brings the runtime header

namespace {

double worst_error(double x) {
    double s, c;
    rbdgen_sincos(x, &s, &c);
    return std::max(std::abs(s - std::sin(x)), std::abs(c - std::cos(x)));
}

TEST(Sincos, AgreesWithLibmOnJointAngles) {
    std::mt19937_64 rng(3);
    double worst = 0;
    for (double range : {1.0, 10.0, 100.0, 1e4}) {
        std::uniform_real_distribution<double> u(-range, range);
        for (int i = 0; i < 200000; ++i) worst = std::max(worst, worst_error(u(rng)));
    }
    // Quadrant boundaries and their neighbours, where range reduction is hardest.
    for (int k = -400; k <= 400; ++k)
        for (double d : {0.0, 1e-12, -1e-12, 1e-6, -1e-6}) worst = std::max(worst, worst_error(k * M_PI / 4 + d));
    EXPECT_LT(worst, 4.5e-16);  // two units in the last place of numbers up to 1
    std::cout << "worst |rbdgen_sincos - libm| = " << worst << "\n";
}

// Two angles a call (SIMD lanes on x86-64 and AArch64): each lane as accurate as the scalar version,
// whatever quadrant its partner is in, and an angle out of range sends both to the scalar path.
TEST(Sincos, TwoAnglesAtOnceAgreeWithLibm) {
    std::mt19937_64 rng(5);
    double worst = 0;
    auto check = [&](double x0, double x1) {
        double s0, c0, s1, c1;
        rbdgen_sincos2(x0, x1, &s0, &c0, &s1, &c1);
        worst = std::max({worst, std::abs(s0 - std::sin(x0)), std::abs(c0 - std::cos(x0)), std::abs(s1 - std::sin(x1)),
                          std::abs(c1 - std::cos(x1))});
    };
    for (double range : {1.0, 10.0, 100.0, 1e4}) {
        std::uniform_real_distribution<double> u(-range, range);
        for (int i = 0; i < 200000; ++i) check(u(rng), u(rng));
    }
    for (int k = -400; k <= 400; ++k)
        for (double d : {0.0, 1e-12, -1e-12, 1e-6, -1e-6}) check(k * M_PI / 4 + d, (k % 7) * M_PI / 4 - d);
    EXPECT_LT(worst, 4.5e-16);
    double s0, c0, s1, c1;
    rbdgen_sincos2(3e7, 0.5, &s0, &c0, &s1, &c1);
    EXPECT_EQ(s0, std::sin(3e7));
    EXPECT_EQ(c0, std::cos(3e7));
    EXPECT_LT(std::abs(s1 - std::sin(0.5)), 4.5e-16);
    rbdgen_sincos2(0.25, NAN, &s0, &c0, &s1, &c1);
    EXPECT_TRUE(std::isnan(s1) && std::isnan(c1));
    EXPECT_LT(std::abs(c0 - std::cos(0.25)), 4.5e-16);
    float fs0, fc0, fs1, fc1;
    rbdgen_sincos2(0.5f, -2.0f, &fs0, &fc0, &fs1, &fc1);
    EXPECT_LT(std::abs(fs1 - std::sin(-2.0)), 1.5e-7);
    EXPECT_LT(std::abs(fc0 - std::cos(0.5)), 1.5e-7);
    std::cout << "worst |rbdgen_sincos2 - libm| = " << worst << "\n";
}

TEST(Sincos, ExactAtZeroAndFallsBackOutsideItsRange) {
    double s, c;
    rbdgen_sincos(0.0, &s, &c);
    EXPECT_EQ(s, 0.0);
    EXPECT_EQ(c, 1.0);
    rbdgen_sincos(3e7, &s, &c);
    EXPECT_EQ(s, std::sin(3e7));
    EXPECT_EQ(c, std::cos(3e7));
    rbdgen_sincos(NAN, &s, &c);
    EXPECT_TRUE(std::isnan(s) && std::isnan(c));
    float sf, cf;
    rbdgen_sincos(0.0f, &sf, &cf);
    EXPECT_EQ(sf, 0.0f);
    EXPECT_EQ(cf, 1.0f);
    rbdgen_sincos(3e4f, &sf, &cf);
    EXPECT_EQ(sf, std::sin(3e4f));
    EXPECT_EQ(cf, std::cos(3e4f));
    rbdgen_sincos(NAN, &sf, &cf);
    EXPECT_TRUE(std::isnan(sf) && std::isnan(cf));
}

// The float version, in float arithmetic only, against the exact values (libm in double).
TEST(Sincos, FloatAgreesWithLibmToFloatPrecision) {
    std::mt19937_64 rng(4);
    double worst = 0;
    for (float range : {1.0f, 10.0f, 100.0f, 8000.0f}) {
        std::uniform_real_distribution<float> u(-range, range);
        for (int i = 0; i < 200000; ++i) {
            const float x = u(rng);
            float s, c;
            rbdgen_sincos(x, &s, &c);
            const double xd = x;
            worst = std::max(worst, std::max(std::abs(s - std::sin(xd)), std::abs(c - std::cos(xd))));
        }
    }
    EXPECT_LT(worst, 1.5e-7);  // 2.5 units in the last place of floats just below 1 (5.96e-8); sinf: 3.3e-8
    std::cout << "worst |rbdgen_sincos(float) - sin, cos| = " << worst << "\n";
}

// The _sc entry points take sin and cos of q from the caller and give the same results.
TEST(Sincos, PrecomputedTrigEntryPointsAgree) {
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> u(-3, 3);
    double q[eval_arm::NQ], qd[eval_arm::NV], x[eval_arm::NV], s[eval_arm::NQ], c[eval_arm::NQ], g[3] = {0, 0, -9.81};
    double a[eval_arm::NV * eval_arm::NV], b[eval_arm::NV * eval_arm::NV];
    for (int k = 0; k < 200; ++k) {
        for (int i = 0; i < eval_arm::NV; ++i) q[i] = u(rng), qd[i] = u(rng), x[i] = u(rng);
        eval_arm::sincos(q, s, c);
        eval_arm::rnea(q, qd, x, g, a);
        eval_arm::rnea_sc(s, c, q, qd, x, g, b);
        for (int i = 0; i < eval_arm::NV; ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * std::max(1.0, std::abs(a[i])));
        eval_arm::crba(q, a);
        eval_arm::crba_sc(s, c, q, b);
        for (int i = 0; i < eval_arm::NV * eval_arm::NV; ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * std::max(1.0, std::abs(a[i])));
        eval_arm::aba(q, qd, x, g, a);
        eval_arm::aba_sc(s, c, q, qd, x, g, b);
        for (int i = 0; i < eval_arm::NV; ++i) EXPECT_NEAR(a[i], b[i], 1e-10 * std::max(1.0, std::abs(a[i])));
    }
}

}  // namespace
