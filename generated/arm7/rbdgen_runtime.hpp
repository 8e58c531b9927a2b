// rbdgen runtime: the one header that generated kernels include besides <cmath>. Every robot's
// output folder has a copy; the guard lets several robots be used in one translation unit.
#ifndef RBDGEN_RUNTIME_HPP
#define RBDGEN_RUNTIME_HPP

#include <cmath>

#if defined(__GNUC__) || defined(__clang__)
#define RBDGEN_RESTRICT __restrict__
#else
#define RBDGEN_RESTRICT
#endif

// sin and cos of one angle together: every revolute joint needs both, once per call. Range
// reduction by π/2 in three parts (Cody–Waite: each part has 33 significant bits, so k·part is exact
// for |k| < 2^20), then the Taylor series of sin and cos on [−π/4, π/4], whose first omitted terms
// (x^17/17!, x^18/18!) are below 5e-17 there, evaluated by Estrin's scheme (independent products
// that overlap in the pipeline: arm7's RNEA at -O2 about 4% faster than by Horner's rule). Tested
// against std::sin/std::cos (tests/test_sincos.cpp).
// |x| ≥ 1e5 rad, infinities and NaN go to std::sin/std::cos. Define RBDGEN_STD_TRIG to always use them.
inline void rbdgen_sincos(double x, double* s, double* c) noexcept {
#ifndef RBDGEN_STD_TRIG
    if (x > -1e5 && x < 1e5) {
        const double k = static_cast<double>(static_cast<long>(x * 0.63661977236758138 + (x < 0 ? -0.5 : 0.5)));
        const double r = ((x - k * 1.5707963267341256) - k * 6.077100506303966e-11) - k * 2.0222662487959506e-21;
        const double r2 = r * r;
        const double r4 = r2 * r2, r8 = r4 * r4;  // Estrin's scheme: three levels, not Horner's seven
        const double ps = (-0.16666666666666666 + r2 * 0.008333333333333333) + r4 * (-0.0001984126984126984 + r2 * 2.7557319223985893e-06) +
                          r8 * ((-2.505210838544172e-08 + r2 * 1.6059043836821613e-10) + r4 * -7.647163731819816e-13);
        const double pc = (0.041666666666666664 + r2 * -0.001388888888888889) + r4 * (2.48015873015873e-05 + r2 * -2.755731922398589e-07) +
                          r8 * ((2.08767569878681e-09 + r2 * -1.1470745597729725e-11) + r4 * 4.779477332387385e-14);
        const double sr = r + (r * r2) * ps;
        const double cr = 1.0 + r2 * (-0.5 + r2 * pc);
        switch (static_cast<long>(k) & 3) {
            case 0: *s = sr, *c = cr; return;
            case 1: *s = cr, *c = -sr; return;
            case 2: *s = -sr, *c = -cr; return;
            default: *s = -cr, *c = sr; return;
        }
    }
#endif
    *s = std::sin(x);
    *c = std::cos(x);
}

// The same in float arithmetic only (no double, which a single-precision FPU such as Cortex-M4F's
// would emulate in software): π/2 in three parts of few bits (k·part exact for |k| < 2^13), Taylor to
// x^9 and x^8 (first omitted terms below 2.5e-8 on [−π/4, π/4]); worst difference from the exact
// values 1.1e-7 (tests/test_sincos.cpp). |x| ≥ 8192 rad, infinities and NaN go to std::sin/std::cos.
inline void rbdgen_sincos(float x, float* s, float* c) noexcept {
#ifndef RBDGEN_STD_TRIG
    if (x > -8192.0f && x < 8192.0f) {
        const float k = static_cast<float>(static_cast<int>(x * 0.636619772f + (x < 0 ? -0.5f : 0.5f)));
        const float r = ((x - k * 1.5703125f) - k * 4.837512969970703125e-4f) - k * 7.549789954891882e-8f;
        const float r2 = r * r;
        const float sr = r + r * r2 * (-0.166666667f + r2 * (8.33333333e-3f + r2 * (-1.98412698e-4f + r2 * 2.75573192e-6f)));
        const float cr = 1.0f + r2 * (-0.5f + r2 * (4.16666667e-2f + r2 * (-1.38888889e-3f + r2 * 2.48015873e-5f)));
        switch (static_cast<int>(k) & 3) {
            case 0: *s = sr, *c = cr; return;
            case 1: *s = cr, *c = -sr; return;
            case 2: *s = -sr, *c = -cr; return;
            default: *s = -cr, *c = sr; return;
        }
    }
#endif
    *s = std::sin(x);
    *c = std::cos(x);
}

#endif  // RBDGEN_RUNTIME_HPP
