// rbdgen runtime: the one header that generated kernels include besides <cmath>. Every robot's
// output folder has a copy; the guard lets several robots be used in one translation unit. Its
// functions are static (internal linkage): each kernel keeps the copy compiled with its own flags.
// Were they merely inline, the linker would keep one copy for a whole program, so a robot built
// with -march=native could call another's SSE2 sincos or, worse, a portable one call AVX code.
#ifndef RBDGEN_RUNTIME_HPP
#define RBDGEN_RUNTIME_HPP

#include <cmath>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
#define RBDGEN_RESTRICT __restrict__
#else
#define RBDGEN_RESTRICT
#endif
// The compact emission's step functions stay functions: inlined, they would be the straight-line code again.
#if defined(__GNUC__) || defined(__clang__)
#define RBDGEN_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define RBDGEN_NOINLINE __declspec(noinline)
#else
#define RBDGEN_NOINLINE
#endif

// Where a kernel's code and tables go. A kernel's source file defines RBDGEN_CODE, RBDGEN_TABLE and
// RBDGEN_CALLS before it includes its robot's header, as sections of its own (rbdgen_<robot>_<kernel>_code,
// _tables and _calls: every function, the runtime's below included, and every table of that file), whose
// first and last bytes the linker names __start_<section> and __stop_<section> (GNU ld, gold, lld, the
// arm-none-eabi toolchain's ld: an output section named as a C identifier). warm() below reads them.
// Elsewhere (no ELF, or RBDGEN_NO_SECTIONS defined for a linker script that refuses sections it does
// not name) the kernels go where the compiler puts them, and warm() does nothing.
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && !defined(RBDGEN_NO_SECTIONS)
#define RBDGEN_SECTION(name) __attribute__((section(#name)))
#define RBDGEN_BOUNDS(name) extern "C" __attribute__((weak)) const char __start_##name[], __stop_##name[];
#define RBDGEN_RANGE(name) __start_##name, __stop_##name
#else
#define RBDGEN_SECTION(name)
#define RBDGEN_BOUNDS(name)
#define RBDGEN_RANGE(name) nullptr, nullptr
#endif
#ifndef RBDGEN_CODE
#define RBDGEN_CODE
#define RBDGEN_TABLE
#define RBDGEN_CALLS
#endif
// GCC (12) puts a function template's instantiations in .text whatever section attribute it has, so
// the runtime's templates are always inlined, into the kernel's functions that are in its section.
#if defined(__GNUC__) || defined(__clang__)
#define RBDGEN_INLINE __attribute__((always_inline))
#else
#define RBDGEN_INLINE
#endif

// r = x − k π/2 (Cody–Waite: π/2 in three parts of 33 significant bits, so k·part is exact for
// |k| < 2^20), then the Taylor series of sin r and cos r on [−π/4, π/4], whose first omitted terms
// (r^17/17!, r^18/18!) are below 5e-17 there, by Estrin's scheme (independent products that overlap
// in the pipeline: arm7's RNEA at -O2 about 4% faster than by Horner's rule). T is double, or two
// doubles in a SIMD register.
template <class T> static inline RBDGEN_INLINE void rbdgen_sincos_reduced(const T& x, const T& k, T* sin_r, T* cos_r) noexcept {
    const T r = ((x - k * 1.5707963267341256) - k * 6.077100506303966e-11) - k * 2.0222662487959506e-21;
    const T r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const T ps = (-0.16666666666666666 + r2 * 0.008333333333333333) + r4 * (-0.0001984126984126984 + r2 * 2.7557319223985893e-06) +
                 r8 * ((-2.505210838544172e-08 + r2 * 1.6059043836821613e-10) + r4 * -7.647163731819816e-13);
    const T pc = (0.041666666666666664 + r2 * -0.001388888888888889) + r4 * (2.48015873015873e-05 + r2 * -2.755731922398589e-07) +
                 r8 * ((2.08767569878681e-09 + r2 * -1.1470745597729725e-11) + r4 * 4.779477332387385e-14);
    *sin_r = r + (r * r2) * ps;
    *cos_r = 1.0 + r2 * (-0.5 + r2 * pc);
}

// sin and cos of one angle together: every revolute joint needs both, once per call. k = x / (π/2)
// rounded, rbdgen_sincos_reduced, and the quadrant k mod 4 picks and signs the results. Tested
// against std::sin/std::cos (tests/test_sincos.cpp). |x| ≥ 1e5 rad, infinities and NaN go to
// std::sin/std::cos. Define RBDGEN_STD_TRIG to always use them.
static inline RBDGEN_CODE void rbdgen_sincos(double x, double* s, double* c) noexcept {
#ifndef RBDGEN_STD_TRIG
    if (x > -1e5 && x < 1e5) {
        const double k = static_cast<double>(static_cast<long>(x * 0.63661977236758138 + (x < 0 ? -0.5 : 0.5)));
        double sr, cr;
        rbdgen_sincos_reduced(x, k, &sr, &cr);
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
static inline RBDGEN_CODE void rbdgen_sincos(float x, float* s, float* c) noexcept {
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

// The batched kernels (rbdgen generate --batch W): every value is a vector of W lanes of the
// compiler's vector extensions (GCC, Clang), one state a lane. sin and cos of W angles at once: in
// double, the steps of rbdgen_sincos on all lanes, the quadrant's swap and signs as bit masks, so
// that every lane is the single-state kernel's number; float lanes, and angles beyond ±1e5 rad, one
// rbdgen_sincos a lane. Tested against the single-state kernels (tests/generated/test_generated.cpp).
#if defined(__GNUC__) || defined(__clang__)
#include <type_traits>
#include <utility>
template <class V> using rbdgen_lane_t = typename std::remove_cv<typename std::remove_reference<decltype(std::declval<V>()[0])>::type>::type;
template <class V, class = rbdgen_lane_t<V>> static inline RBDGEN_INLINE V rbdgen_sqrt(V x) noexcept {
    for (unsigned i = 0; i < sizeof(V) / sizeof(rbdgen_lane_t<V>); ++i) x[i] = std::sqrt(x[i]);
    return x;
}
template <class V, class = rbdgen_lane_t<V>> static inline RBDGEN_INLINE void rbdgen_sincos(const V& x, V* s, V* c) noexcept {  // a lane at a time
    using E = rbdgen_lane_t<V>;
    for (unsigned i = 0; i < sizeof(V) / sizeof(E); ++i) {
        E si, ci;
        rbdgen_sincos(static_cast<E>(x[i]), &si, &ci);
        (*s)[i] = si, (*c)[i] = ci;
    }
}
// V: W doubles; VI, VU: W signed and unsigned 64-bit integers.
template <class V, class VI, class VU> static inline RBDGEN_INLINE void rbdgen_sincos_lanes(const V& x, V* s, V* c) noexcept {
#ifndef RBDGEN_STD_TRIG
    bool in_range = true;
    for (unsigned i = 0; i < sizeof(V) / sizeof(double); ++i) in_range = in_range && x[i] > -1e5 && x[i] < 1e5;
    if (in_range) {
        const VU sign_bit = (VU{} + 1) << 63;
        const V signed_half = (V)((VU)(V{} + 0.5) | ((VU)x & sign_bit));  // ±0.5 as x
        const VI k_int = __builtin_convertvector(x * 0.63661977236758138 + signed_half, VI);
        const V k = __builtin_convertvector(k_int, V);
        V sin_r, cos_r;
        rbdgen_sincos_reduced(x, k, &sin_r, &cos_r);
        const VU sr = (VU)sin_r, cr = (VU)cos_r, q = (VU)k_int;  // the quadrant in q's two low bits
        const VU odd = (VU)((q & 1) != 0);                       // quadrants 1, 3: sin and cos swap
        const VU sw = (odd & cr) | (~odd & sr), cw = (odd & sr) | (~odd & cr);
        *s = (V)(sw ^ ((q & 2) << 62));        // quadrants 2, 3: −sin
        *c = (V)(cw ^ (((q + 1) & 2) << 62));  // quadrants 1, 2: −cos
        return;
    }
#endif
    for (unsigned i = 0; i < sizeof(V) / sizeof(double); ++i) {
        double si, ci;
        rbdgen_sincos(static_cast<double>(x[i]), &si, &ci);
        (*s)[i] = si, (*c)[i] = ci;
    }
}
#define RBDGEN_BATCH_SINCOS(W)                                                                                       \
    typedef double rbdgen_batch##W##d __attribute__((vector_size(W * 8)));                                          \
    typedef long long rbdgen_batch##W##i __attribute__((vector_size(W * 8)));                                       \
    typedef unsigned long long rbdgen_batch##W##u __attribute__((vector_size(W * 8)));                              \
    static inline RBDGEN_CODE void rbdgen_sincos(const rbdgen_batch##W##d& x, rbdgen_batch##W##d* s, rbdgen_batch##W##d* c) noexcept { \
        rbdgen_sincos_lanes<rbdgen_batch##W##d, rbdgen_batch##W##i, rbdgen_batch##W##u>(x, s, c);                     \
    }
RBDGEN_BATCH_SINCOS(2)
RBDGEN_BATCH_SINCOS(4)
RBDGEN_BATCH_SINCOS(8)
#undef RBDGEN_BATCH_SINCOS
#endif

// sin and cos of two angles at once: the kernels call it for their angles two by two. Where the
// target has two-double SIMD (x86-64's SSE2, AArch64), the two lanes of one batched call above.
// Elsewhere, and for float, two rbdgen_sincos calls. Tested against std::sin and
// std::cos (tests/test_sincos.cpp).
#if !defined(RBDGEN_STD_TRIG) && (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__aarch64__))
static inline RBDGEN_CODE void rbdgen_sincos2(double x0, double x1, double* s0, double* c0, double* s1, double* c1) noexcept {
    const rbdgen_batch2d x = {x0, x1};
    rbdgen_batch2d s, c;
    rbdgen_sincos(x, &s, &c);
    *s0 = s[0], *s1 = s[1], *c0 = c[0], *c1 = c[1];
}
#endif
template <class T> static inline RBDGEN_INLINE void rbdgen_sincos2(T x0, T x1, T* s0, T* c0, T* s1, T* c1) noexcept {  // two calls
    rbdgen_sincos(x0, s0, c0);
    rbdgen_sincos(x1, s1, c1);
}

// The coefficients of SO(3)'s and SE(3)'s exponential, logarithm and Jacobians (Sola et al., "A
// micro Lie theory for state estimation in robotics", 2018), for integrate, difference and their
// Jacobians (generator/algorithms/configuration.hpp): functions of x = θ² (θ a rotation angle), exact
// at θ = 0, where their closed forms are 0/0. Below x = 1 the Taylor series in x (Horner's rule; the
// first omitted term below 1e-17 of the value; sinc3_dx's below x = 4), above it the closed form (no
// cancellation worse than a factor 30 there). T is double or float (the coefficients rounded to T: a
// float kernel computes no double); the generator evaluates these same definitions
// (generator/sym/special.cpp), and tests/test_configuration.cpp checks them against long double.
template <class T> using rbdgen_scalar_t = typename std::enable_if<std::is_floating_point<T>::value>::type;  // not lanes
template <class T, int N> static inline RBDGEN_INLINE T rbdgen_series(T x, const T (&c)[N]) noexcept {
    T r = c[N - 1];
    for (int k = N - 2; k >= 0; --k) r = r * x + c[k];
    return r;
}
// sin θ / θ
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_sinc(T x) noexcept {
    const T c[] = {1.0, -0.16666666666666666, 0.008333333333333333, -0.0001984126984126984, 2.7557319223985893e-06,
                               -2.505210838544172e-08, 1.6059043836821613e-10, -7.647163731819816e-13, 2.8114572543455206e-15};
    if (x < T(1)) return rbdgen_series(x, c);
    const T t = std::sqrt(x);
    return std::sin(t) / t;
}
// (1 − cos θ) / θ²
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_cosc(T x) noexcept {
    const T c[] = {0.5, -0.041666666666666664, 0.001388888888888889, -2.48015873015873e-05, 2.755731922398589e-07,
                               -2.08767569878681e-09, 1.1470745597729725e-11, -4.779477332387385e-14, 1.5619206968586225e-16};
    if (x < T(1)) return rbdgen_series(x, c);
    return (T(1) - std::cos(std::sqrt(x))) / x;
}
// (θ − sin θ) / θ³
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_sinc3(T x) noexcept {
    const T c[] = {0.16666666666666666, -0.008333333333333333, 0.0001984126984126984, -2.7557319223985893e-06,
                               2.505210838544172e-08, -1.6059043836821613e-10, 7.647163731819816e-13, -2.8114572543455206e-15,
                               8.22063524662433e-18};
    if (x < T(1)) return rbdgen_series(x, c);
    const T t = std::sqrt(x);
    return (t - std::sin(t)) / (x * t);
}
// d/dx of (1 − cos θ) / θ²: (θ sin θ / 2 − (1 − cos θ)) / θ⁴
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_cosc_dx(T x) noexcept {
    const T c[] = {-0.041666666666666664, 0.002777777777777778, -7.440476190476191e-05, 1.1022927689594355e-06,
                               -1.043837849393405e-08, 6.882447358637835e-11, -3.3456341326711696e-13, 1.249536557486898e-15,
                               -3.6992858609809485e-18};
    if (x < T(1)) return rbdgen_series(x, c);
    const T t = std::sqrt(x);
    return (T(0.5) * t * std::sin(t) - (T(1) - std::cos(t))) / (x * x);
}
// d/dx of (θ − sin θ) / θ³: (θ (1 − cos θ) − 3 (θ − sin θ)) / (2 θ⁵); its closed form cancels by a
// factor 30 near x = 1 (1.3e-14 relative error there), 7 at x = 4: the series up to x = 4
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_sinc3_dx(T x) noexcept {
    const T c[] = {-0.008333333333333333, 0.0003968253968253968, -8.267195767195768e-06, 1.0020843354176688e-07,
                               -8.029521918410807e-10, 4.58829823909189e-12, -1.9680200780418645e-14, 6.576508197299464e-17,
                               -1.7615646957052136e-19, 3.868170170630684e-22, -7.091645312822921e-25};
    if (x < T(4)) return rbdgen_series(x, c);
    const T t = std::sqrt(x);
    return (t * (T(1) - std::cos(t)) - T(3) * (t - std::sin(t))) / (T(2) * x * x * t);
}
// (1 − (θ/2) cot(θ/2)) / θ², the [ω]×² coefficient of SO(3)'s inverse Jacobians (θ < 2π); the
// series' coefficients are |B_2n| / (2n)!, B the Bernoulli numbers
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_dexp_inv(T x) noexcept {
    const T c[] = {0.08333333333333333, 0.001388888888888889, 3.306878306878307e-05, 8.267195767195768e-07,
                               2.08767569878681e-08, 5.284190138687493e-10, 1.3382536530684679e-11, 3.3896802963225827e-13,
                               8.586062056277845e-15, 2.174868698558062e-16, 5.5090028283602295e-18, 1.3954464685812522e-19,
                               3.534707039629467e-21};
    if (x < T(1)) return rbdgen_series(x, c);
    const T h = T(0.5) * std::sqrt(x);
    return (T(1) - h * std::cos(h) / std::sin(h)) / x;
}
// The logarithm of a unit quaternion (s, w): ω = rbdgen_log_ratio(|s|², w) s, the rotation by the
// angle θ = 2 atan2(|s|, |w|) in [0, π] (q and −q one rotation): sign(w) 2 atan2(√y, |w|) / √y, and
// below y = 1e-4 the series (2 / w) Σ (−u)^k / (2k + 1), u = y / w².
template <class T, rbdgen_scalar_t<T>* = nullptr> static inline RBDGEN_INLINE T rbdgen_log_ratio(T y, T w) noexcept {
    if (y < T(1e-4)) {
        const T c[] = {1.0, -1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11, 1.0 / 13};
        return T(2) / w * rbdgen_series(T(y / (w * w)), c);
    }
    const T s = std::sqrt(y);
    return (w < T(0) ? T(-2) : T(2)) * std::atan2(s, w < T(0) ? -w : w) / s;
}
#if defined(__GNUC__) || defined(__clang__)
// A lane at a time, batched
#define RBDGEN_LANES_1(f)                                                                                         \
    template <class V, class = rbdgen_lane_t<V>> static inline RBDGEN_INLINE V f(V x) noexcept {                  \
        for (unsigned i = 0; i < sizeof(V) / sizeof(rbdgen_lane_t<V>); ++i) x[i] = f(static_cast<rbdgen_lane_t<V>>(x[i])); \
        return x;                                                                                                 \
    }
RBDGEN_LANES_1(rbdgen_sinc)
RBDGEN_LANES_1(rbdgen_cosc)
RBDGEN_LANES_1(rbdgen_sinc3)
RBDGEN_LANES_1(rbdgen_cosc_dx)
RBDGEN_LANES_1(rbdgen_sinc3_dx)
RBDGEN_LANES_1(rbdgen_dexp_inv)
#undef RBDGEN_LANES_1
template <class V, class = rbdgen_lane_t<V>> static inline RBDGEN_INLINE V rbdgen_log_ratio(V y, const V& w) noexcept {
    using E = rbdgen_lane_t<V>;
    for (unsigned i = 0; i < sizeof(V) / sizeof(E); ++i) y[i] = rbdgen_log_ratio(static_cast<E>(y[i]), static_cast<E>(w[i]));
    return y;
}
#endif

// Featherstone's sparse LTDL factorization and its solve (Appendix A) as loops, for the compact
// emission: the code of one row instead of a statement an operation (generator/emit/ltdl_loops.hpp).
// Row k of the lower triangle holds column k (the diagonal) and then k's ancestors, nearest first:
// entries off[k] to off[k + 1] − 1 of the tables, col[e] the column of entry e, stored in A at at[e]
// (a dense matrix's row-major place), or at e itself where Packed (A holds just the rows). The
// rest of row k from its m-th entry on is the row of that entry's column i: entry off[k] + t of k
// and entry off[i] + t − m of i have the same column. Reciprocal: a row's pivot divides two or more
// entries as one reciprocal and multiplications (not with --keep-divisions).
template <class T, class I, bool Reciprocal, bool Packed>
static inline RBDGEN_INLINE void rbdgen_ltdl(T* RBDGEN_RESTRICT A, const I* off, const I* col, const I* at, int n) noexcept {
    for (int k = n - 1; k >= 0; --k) {
        const int row = off[k], d = off[k + 1] - row;
        const T D_kk = A[Packed ? row : at[row]];
        T r{};
        if (Reciprocal && d > 2) r = (T{} + 1) / D_kk;
        for (int m = 1; m < d; ++m) {
            const int i_row = off[col[row + m]] - m, e = Packed ? row + m : at[row + m];
            const T a = Reciprocal && d > 2 ? A[e] * r : A[e] / D_kk;
            if (Packed)
                for (int t = m; t < d; ++t) A[i_row + t] = A[i_row + t] - A[row + t] * a;
            else
                for (int t = m; t < d; ++t) A[at[i_row + t]] = A[at[i_row + t]] - A[at[row + t]] * a;
            A[e] = a;
        }
    }
}
// The same for a dense n x n matrix (a chain's tables: row k holds columns k, k − 1, ..., 0, so row k
// starts at k (k + 1) / 2), n known at compile time and every loop unrolled: one schedule of straight
// code instead of loops over the tables, whose rows are short (a contact problem's A = J H⁻¹ Jᵀ,
// n = 12: 1030 → 350 cycles on the quadruped, AVX-512). For n up to kDenseLtdlUnrolled (ltdl_loops.cpp).
template <class T, int n, bool Reciprocal>
static inline RBDGEN_INLINE void rbdgen_ltdl_dense(T* RBDGEN_RESTRICT A) noexcept {
#pragma GCC unroll 32
    for (int k = n - 1; k >= 0; --k) {
        const int row = k * (k + 1) / 2;
        const T D_kk = A[row];
        T r{};
        if (Reciprocal && k > 1) r = (T{} + 1) / D_kk;
#pragma GCC unroll 32
        for (int m = 1; m <= k; ++m) {
            const int i_row = (k - m) * (k - m + 1) / 2;
            const T a = Reciprocal && k > 1 ? A[row + m] * r : A[row + m] / D_kk;
#pragma GCC unroll 32
            for (int t = 0; t <= k - m; ++t) A[i_row + t] = A[i_row + t] - A[row + m + t] * a;
            A[row + m] = a;
        }
    }
}
// x = H⁻¹ x = L⁻¹ D⁻¹ L⁻ᵀ x with the factors rbdgen_ltdl left in A.
template <class T, class I, bool Packed>
static inline RBDGEN_INLINE void rbdgen_ltdl_solve(const T* RBDGEN_RESTRICT A, const I* off, const I* col, const I* at, int n,
                                     T* RBDGEN_RESTRICT x) noexcept {
    for (int i = n - 1; i >= 0; --i)  // x = L⁻ᵀ x
        for (int e = off[i] + 1; e < off[i + 1]; ++e) x[col[e]] = x[col[e]] - A[Packed ? e : at[e]] * x[i];
    for (int i = 0; i < n; ++i) x[i] = x[i] / A[Packed ? off[i] : at[off[i]]];  // x = D⁻¹ x
    for (int i = 0; i < n; ++i)                                              // x = L⁻¹ x
        for (int e = off[i] + 1; e < off[i + 1]; ++e) x[i] = x[i] - A[Packed ? e : at[e]] * x[col[e]];
}
// A compact kernel's lane call (emit/compact.cpp): W steps of one function at once, each value a
// vector of their W values. A vector the target's registers hold (x86-64: 16 bytes with SSE2, 32 with
// AVX, 64 with AVX-512; AArch64: 16) is one of the compiler's vector extensions; a wider one is two
// halves, down to single numbers where the target has none (Cortex-M): the same operations on the
// same numbers in every case, each lane its step's own.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__aarch64__)) && !defined(RBDGEN_SCALAR_LANES)
#if defined(__AVX512F__)
#define RBDGEN_VECTOR_BYTES 64
#elif defined(__AVX__)
#define RBDGEN_VECTOR_BYTES 32
#else
#define RBDGEN_VECTOR_BYTES 16
#endif
#else
#define RBDGEN_VECTOR_BYTES 0
#endif
namespace {
template <class T, int W, bool Vector = (W > 1 && W * sizeof(T) <= RBDGEN_VECTOR_BYTES)> struct rbdgen_lanes;
template <class T> struct rbdgen_lanes<T, 1, false> {
    typedef T type;
};
#if RBDGEN_VECTOR_BYTES > 0
template <class T, int W> struct rbdgen_lanes<T, W, true> {
    typedef T type __attribute__((vector_size(W * sizeof(T))));
};
#endif
template <class T, int W> struct rbdgen_lane_halves {
    typedef typename rbdgen_lanes<T, W / 2>::type H;
    H lo, hi;
    inline RBDGEN_INLINE rbdgen_lane_halves() noexcept {}
    inline RBDGEN_INLINE rbdgen_lane_halves(T a, T b) noexcept : lo(a), hi(b) {}                      // W = 2
    inline RBDGEN_INLINE rbdgen_lane_halves(T a, T b, T c, T d) noexcept : lo{a, b}, hi{c, d} {}  // W = 4
    static inline RBDGEN_INLINE T lane(T x, int) noexcept { return x; }
    template <class V> static inline RBDGEN_INLINE T lane(const V& x, int l) noexcept { return x[l]; }
    inline RBDGEN_INLINE T operator[](int l) const noexcept { return l < W / 2 ? lane(lo, l) : lane(hi, l - W / 2); }
#define RBDGEN_LANEWISE(OP)                                                                                             \
    friend inline RBDGEN_INLINE rbdgen_lane_halves operator OP(const rbdgen_lane_halves& a, const rbdgen_lane_halves& b) noexcept { \
        rbdgen_lane_halves r;                                                                                           \
        r.lo = a.lo OP b.lo;                                                                                            \
        r.hi = a.hi OP b.hi;                                                                                            \
        return r;                                                                                                       \
    }
    RBDGEN_LANEWISE(+)
    RBDGEN_LANEWISE(-)
    RBDGEN_LANEWISE(*)
    RBDGEN_LANEWISE(/)
#undef RBDGEN_LANEWISE
    friend inline RBDGEN_INLINE rbdgen_lane_halves operator-(const rbdgen_lane_halves& a) noexcept {
        rbdgen_lane_halves r;
        r.lo = -a.lo;
        r.hi = -a.hi;
        return r;
    }
};
template <class T, int W> struct rbdgen_lanes<T, W, false> {
    typedef rbdgen_lane_halves<T, W> type;
};
// A vector from consecutive numbers (a lane call's block of slots), and back: lane l at p[l].
template <class L, class T> static inline RBDGEN_INLINE L rbdgen_lanes_load(const T* p) noexcept {
    L r;
#if defined(__GNUC__) || defined(__clang__)
    __builtin_memcpy(static_cast<void*>(&r), p, sizeof r);
#else
    for (unsigned k = 0; k < sizeof r; ++k) reinterpret_cast<unsigned char*>(&r)[k] = reinterpret_cast<const unsigned char*>(p)[k];
#endif
    return r;
}
template <class L, class T> static inline RBDGEN_INLINE void rbdgen_lanes_store(T* p, const L& x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_memcpy(p, static_cast<const void*>(&x), sizeof x);
#else
    for (unsigned k = 0; k < sizeof x; ++k) reinterpret_cast<unsigned char*>(p)[k] = reinterpret_cast<const unsigned char*>(&x)[k];
#endif
}
}  // namespace

// A row of M numbers (M folded in) held while rows of the same block are subtracted from it: loaded
// once, updated x = x − a y and x = r x, stored once, so that the updates read only the other rows.
// Where the target has vector registers (x86-64's SSE2, AVX, AVX-512; AArch64), a double row is
// RBDGEN_ROW_LANES lanes a statement on the compiler's vector extensions, the rest by half as many
// lanes, down to one: vector code at -Os too, which leaves loops scalar. Elsewhere, and for float and
// the batched types, plain arrays. In an unnamed namespace, as every other definition here is
// static: robots generated by two versions of rbdgen link into one program.
namespace {
template <class T, int M> struct rbdgen_row_scalar {
    T x[M];
    inline RBDGEN_INLINE void clear() noexcept {
        for (int k = 0; k < M; ++k) x[k] = T{};
    }
    inline RBDGEN_INLINE void load(const T* RBDGEN_RESTRICT y) noexcept {
        for (int k = 0; k < M; ++k) x[k] = y[k];
    }
    inline RBDGEN_INLINE void axpy(T a, const T* RBDGEN_RESTRICT y) noexcept {  // x = x − a y
        for (int k = 0; k < M; ++k) x[k] = x[k] - a * y[k];
    }
    inline RBDGEN_INLINE void scale(T r) noexcept {
        for (int k = 0; k < M; ++k) x[k] = x[k] * r;
    }
    inline RBDGEN_INLINE void store(T* RBDGEN_RESTRICT y) const noexcept {
        for (int k = 0; k < M; ++k) y[k] = x[k];
    }
};
template <class T, int M> struct rbdgen_row : rbdgen_row_scalar<T, M> {};
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__aarch64__)) && !defined(RBDGEN_SCALAR_ROWS)
#if defined(__AVX512F__)
#define RBDGEN_ROW_LANES 8
#elif defined(__AVX__)
#define RBDGEN_ROW_LANES 4
#else
#define RBDGEN_ROW_LANES 2
#endif
// M numbers as M / L vectors of L lanes, and the rest by L / 2 lanes.
template <int L, int M> struct rbdgen_row_lanes {
    typedef double V __attribute__((vector_size(L * 8), aligned(8), may_alias));
    enum { K = M / L };
    V x[K > 0 ? K : 1];
    rbdgen_row_lanes<L / 2, M - K * L> rest;
    inline RBDGEN_INLINE void clear() noexcept {
#pragma GCC unroll 16
        for (int k = 0; k < K; ++k) x[k] = V{};
        rest.clear();
    }
    inline RBDGEN_INLINE void load(const double* RBDGEN_RESTRICT y) noexcept {
#pragma GCC unroll 16
        for (int k = 0; k < K; ++k) x[k] = *reinterpret_cast<const V*>(y + k * L);
        rest.load(y + K * L);
    }
    inline RBDGEN_INLINE void axpy(double a, const double* RBDGEN_RESTRICT y) noexcept {
#pragma GCC unroll 16
        for (int k = 0; k < K; ++k) x[k] = x[k] - a * *reinterpret_cast<const V*>(y + k * L);
        rest.axpy(a, y + K * L);
    }
    inline RBDGEN_INLINE void scale(double r) noexcept {
#pragma GCC unroll 16
        for (int k = 0; k < K; ++k) x[k] = x[k] * r;
        rest.scale(r);
    }
    inline RBDGEN_INLINE void store(double* RBDGEN_RESTRICT y) const noexcept {
#pragma GCC unroll 16
        for (int k = 0; k < K; ++k) *reinterpret_cast<V*>(y + k * L) = x[k];
        rest.store(y + K * L);
    }
};
template <int M> struct rbdgen_row_lanes<1, M> : rbdgen_row_scalar<double, M> {};
template <> struct rbdgen_row_lanes<1, 0> {
    inline RBDGEN_INLINE void clear() noexcept {}
    inline RBDGEN_INLINE void load(const double*) noexcept {}
    inline RBDGEN_INLINE void axpy(double, const double*) noexcept {}
    inline RBDGEN_INLINE void scale(double) noexcept {}
    inline RBDGEN_INLINE void store(double*) const noexcept {}
};
template <int M> struct rbdgen_row<double, M> : rbdgen_row_lanes<RBDGEN_ROW_LANES, M> {};
#define RBDGEN_ROW_BLOCK (8 * RBDGEN_ROW_LANES)
#else
#define RBDGEN_ROW_BLOCK 64
#endif
// Columns C0 to M − 1 of a block, RBDGEN_ROW_BLOCK columns at a time (with vector registers, eight
// registers' worth: a row's slice held in registers, not spilled): f.template slice<C0, B>() for each
// slice of B columns from C0.
template <int M, int C0 = 0, bool More = (M - C0 > RBDGEN_ROW_BLOCK)> struct rbdgen_column_slices {
    template <class F> static inline RBDGEN_INLINE void each(F& f) noexcept {
        f.template slice<C0, RBDGEN_ROW_BLOCK>();
        rbdgen_column_slices<M, C0 + RBDGEN_ROW_BLOCK>::each(f);
    }
};
template <int M, int C0> struct rbdgen_column_slices<M, C0, false> {
    template <class F> static inline RBDGEN_INLINE void each(F& f) noexcept { f.template slice<C0, M - C0>(); }
};
}  // namespace
// X = s H⁻¹ X for X of n rows and M columns, row-major, in place, s = 1 or −1 (aba_derivatives:
// −H⁻¹ ∂τ/∂q, −H⁻¹ ∂τ/∂q̇, and H⁻¹ from the identity), with the factors rbdgen_ltdl left in A (packed):
// the sweeps of rbdgen_ltdl_solve, each row of X held (rbdgen_row; a slice of RBDGEN_ROW_BLOCK columns
// at a time) while the rows it depends on are subtracted from it. Y = L⁻ᵀ X, row j from its descendants' (column j of L: the entries cent[c] of
// rows crow[c], c from coff[j] to coff[j + 1] − 1); then row i of L⁻¹ (s D⁻¹ Y) from its ancestors'.
namespace {
template <class T, class I, int M> struct rbdgen_solve_slices {
    const T* RBDGEN_RESTRICT A;
    const I *off, *col, *coff, *cent, *crow;
    int n;
    T* RBDGEN_RESTRICT X;
    int s;
    template <int C0, int B> inline RBDGEN_INLINE void slice() noexcept {
        for (int j = n - 1; j >= 0; --j) {  // Y = L⁻ᵀ X
            rbdgen_row<T, B> x;
            x.load(X + j * M + C0);
            for (int c = coff[j]; c < coff[j + 1]; ++c) x.axpy(A[cent[c]], X + crow[c] * M + C0);
            x.store(X + j * M + C0);
        }
        for (int i = 0; i < n; ++i) {  // X = L⁻¹ (s D⁻¹ Y)
            rbdgen_row<T, B> x;
            x.load(X + i * M + C0);
            x.scale((T{} + s) / A[off[i]]);
            for (int e = off[i] + 1; e < off[i + 1]; ++e) x.axpy(A[e], X + col[e] * M + C0);
            x.store(X + i * M + C0);
        }
    }
};
}  // namespace
template <class T, class I, int M>
static inline RBDGEN_INLINE void rbdgen_ltdl_solve_rows(const T* RBDGEN_RESTRICT A, const I* off, const I* col, const I* coff, const I* cent,
                                          const I* crow, int n, T* RBDGEN_RESTRICT X, int s) noexcept {
    rbdgen_solve_slices<T, I, M> f{A, off, col, coff, cent, crow, n, X, s};
    rbdgen_column_slices<M>::each(f);
}
// Y = Keep Y + Sign P X, P rows x inner and X inner x M, row-major, Keep 0, 1 or −1 and Sign 1 or −1 (Y
// is not X): rows i of Y held (rbdgen_row, a slice at a time) while P_ik times row k of X is added to
// them. Four rows at a time: each row's updates wait on its previous one (a multiply-add's latency),
// four rows' do not on each other, and they read row k of X once (the floating humanoid's contact
// derivatives, AVX-512: their two products 6.8 → 5.5 µs).
namespace {
template <class T, int rows, int inner, int M, int Keep, int Sign> struct rbdgen_product_slices {
    const T* RBDGEN_RESTRICT P;
    const T* RBDGEN_RESTRICT X;
    T* RBDGEN_RESTRICT Y;
    template <int B> static inline RBDGEN_INLINE void start(rbdgen_row<T, B>& y, const T* RBDGEN_RESTRICT at) noexcept {
        if (Keep == 0) y.clear();
        else y.load(at);
        if (Keep == -1) y.scale(T{} - 1);
    }
    static inline RBDGEN_INLINE T weight(T p) noexcept { return Sign == 1 ? T{} - p : p; }  // rbdgen_row's axpy subtracts
    template <int C0, int B> inline RBDGEN_INLINE void slice() noexcept {
        for (int i = 0; i < rows / 4 * 4; i += 4) {
            rbdgen_row<T, B> y0, y1, y2, y3;
            start(y0, Y + i * M + C0), start(y1, Y + (i + 1) * M + C0), start(y2, Y + (i + 2) * M + C0), start(y3, Y + (i + 3) * M + C0);
            for (int k = 0; k < inner; ++k) {
                const T* RBDGEN_RESTRICT x = X + k * M + C0;
                y0.axpy(weight(P[i * inner + k]), x), y1.axpy(weight(P[(i + 1) * inner + k]), x);
                y2.axpy(weight(P[(i + 2) * inner + k]), x), y3.axpy(weight(P[(i + 3) * inner + k]), x);
            }
            y0.store(Y + i * M + C0), y1.store(Y + (i + 1) * M + C0), y2.store(Y + (i + 2) * M + C0), y3.store(Y + (i + 3) * M + C0);
        }
        for (int i = rows / 4 * 4; i < rows; ++i) {  // the rest (a constant start: no warning of g++'s on an empty loop)
            rbdgen_row<T, B> y;
            start(y, Y + i * M + C0);
            for (int k = 0; k < inner; ++k) y.axpy(weight(P[i * inner + k]), X + k * M + C0);
            y.store(Y + i * M + C0);
        }
    }
};
}  // namespace
template <class T, int rows, int inner, int M, int Keep, int Sign>
static inline RBDGEN_INLINE void rbdgen_product(const T* RBDGEN_RESTRICT P, const T* RBDGEN_RESTRICT X, T* RBDGEN_RESTRICT Y) noexcept {
    rbdgen_product_slices<T, rows, inner, M, Keep, Sign> f{P, X, Y};
    rbdgen_column_slices<M>::each(f);
}
// The same for a P whose row i has its nonzeros only in the columns col[b[i]] to col[e[i] − 1]
// (inner columns in all): a contact problem's J, whose row's columns are its frame's path to the root.
// Four rows at a time where they share their columns (the rows of one frame).
namespace {
template <class T, class I, int rows, int inner, int M, int Keep, int Sign> struct rbdgen_sparse_product_slices {
    const T* RBDGEN_RESTRICT P;
    const I *b, *e, *col;
    const T* RBDGEN_RESTRICT X;
    T* RBDGEN_RESTRICT Y;
    template <int C0, int B> inline RBDGEN_INLINE void slice() noexcept {
        typedef rbdgen_product_slices<T, rows, inner, M, Keep, Sign> dense;
        int i = 0;
        while (i < rows) {
            if (i + 4 <= rows && b[i] == b[i + 3] && e[i] == e[i + 3]) {
                rbdgen_row<T, B> y0, y1, y2, y3;
                dense::start(y0, Y + i * M + C0), dense::start(y1, Y + (i + 1) * M + C0);
                dense::start(y2, Y + (i + 2) * M + C0), dense::start(y3, Y + (i + 3) * M + C0);
                for (int c = b[i]; c < e[i]; ++c) {
                    const int k = col[c];
                    const T* RBDGEN_RESTRICT x = X + k * M + C0;
                    y0.axpy(dense::weight(P[i * inner + k]), x), y1.axpy(dense::weight(P[(i + 1) * inner + k]), x);
                    y2.axpy(dense::weight(P[(i + 2) * inner + k]), x), y3.axpy(dense::weight(P[(i + 3) * inner + k]), x);
                }
                y0.store(Y + i * M + C0), y1.store(Y + (i + 1) * M + C0), y2.store(Y + (i + 2) * M + C0), y3.store(Y + (i + 3) * M + C0);
                i += 4;
                continue;
            }
            rbdgen_row<T, B> y;
            dense::start(y, Y + i * M + C0);
            for (int c = b[i]; c < e[i]; ++c) y.axpy(dense::weight(P[i * inner + col[c]]), X + col[c] * M + C0);
            y.store(Y + i * M + C0);
            ++i;
        }
    }
};
}  // namespace
template <class T, class I, int rows, int inner, int M, int Keep, int Sign>
static inline RBDGEN_INLINE void rbdgen_sparse_product(const T* RBDGEN_RESTRICT P, const I* b, const I* e, const I* col, const T* RBDGEN_RESTRICT X,
                                                       T* RBDGEN_RESTRICT Y) noexcept {
    rbdgen_sparse_product_slices<T, I, rows, inner, M, Keep, Sign> f{P, b, e, col, X, Y};
    rbdgen_column_slices<M>::each(f);
}
// Y = −H⁻¹ Y for Y n x n, row-major, in place (aba_derivatives by the articulated-body algorithm:
// −H⁻¹ ∂τ/∂q and −H⁻¹ ∂τ/∂q̇), X n x n room for Y's copy.
template <class T, int n>
static inline RBDGEN_INLINE void rbdgen_negated_product(const T* RBDGEN_RESTRICT Hinv, T* RBDGEN_RESTRICT Y, T* RBDGEN_RESTRICT X) noexcept {
    for (int e = 0; e < n * n; ++e) X[e] = Y[e];
    rbdgen_product<T, n, n, n, 0, -1>(Hinv, X, Y);
}
// Y = s Xᵀ for X rows x cols, row-major (a contact problem's derivatives: W = Jᵀ before its solve, G = Wᵀ).
template <class T, int rows, int cols>
static inline RBDGEN_INLINE void rbdgen_transpose(const T* RBDGEN_RESTRICT X, T* RBDGEN_RESTRICT Y, int s) noexcept {
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) Y[j * rows + i] = s == 1 ? X[i * cols + j] : T{} - X[i * cols + j];
}
// ∂τ/∂q and ∂τ/∂q̇ (n x n, row-major) from the vectors of rnea_derivatives' head (algorithms/
// rnea_derivatives.hpp: rnea_derivative_pairs), 8 six-vectors a DoF in V: s, u, α, β, Y S, Bᵀ S,
// ∂F/∂q, ∂F/∂q̇. Row i of LTDL's tables lists DoF i and its ancestors j; first[i] is the first DoF of
// i's joint. Every other entry is a branch-induced zero.
template <class T> static inline RBDGEN_INLINE T rbdgen_dot6(const T* RBDGEN_RESTRICT a, const T* RBDGEN_RESTRICT b) noexcept {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}
// Entries (i, j) of both: Y Sᵢ · α_j + Bᵀ Sᵢ · u_j and Y Sᵢ · β_j + Bᵀ Sᵢ · s_j.
template <class T> static inline RBDGEN_INLINE void rbdgen_pair_terms(const T* RBDGEN_RESTRICT vi, const T* RBDGEN_RESTRICT vj,
                                                                       T* RBDGEN_RESTRICT dq, T* RBDGEN_RESTRICT dqd) noexcept {
    enum { s = 0, u = 6, alpha = 12, beta = 18, YS = 24, BS = 30 };
    *dq = rbdgen_dot6(vi + YS, vj + alpha) + rbdgen_dot6(vi + BS, vj + u);
    *dqd = rbdgen_dot6(vi + YS, vj + beta) + rbdgen_dot6(vi + BS, vj + s);
}
template <class T, class I>
static inline RBDGEN_INLINE void rbdgen_rnea_derivative_pairs(const T* RBDGEN_RESTRICT V, const I* off, const I* col, const I* first, int n,
                                                T* RBDGEN_RESTRICT dq, T* RBDGEN_RESTRICT dqd) noexcept {
    enum { s = 0, dFdq = 36, dFdqd = 42, size = 48 };
    for (int e = 0; e < n * n; ++e) dq[e] = T{}, dqd[e] = T{};
    for (int i = 0; i < n; ++i)
        for (int e = off[i]; e < off[i + 1]; ++e) {
            const int j = col[e];
            const T *vi = V + size * i, *vj = V + size * j;
            rbdgen_pair_terms(vi, vj, dq + i * n + j, dqd + i * n + j);
            if (j == i) continue;
            if (first[j] == first[i]) {
                rbdgen_pair_terms(vj, vi, dq + j * n + i, dqd + j * n + i);
                continue;
            }
            dq[j * n + i] = rbdgen_dot6(vj + s, vi + dFdq);
            dqd[j * n + i] = rbdgen_dot6(vj + s, vi + dFdqd);
        }
}

// A kernel's extent: its code, its tables and its call tables, each [begin, end) as the linker placed
// them (null where the kernel has none, or where it is not linked into the program).
struct rbdgen_extent {
    const char* range[3][2];
};

// Reads one byte of every cache line of a kernel's extent, so that its code and tables are in the
// caches (and its pages in the TLBs) when it runs: the loads do not depend on each other, so the core
// has many in flight at once, and the L2 then holds the code for the instruction fetch, which would
// otherwise fetch it a line at a time as it runs into it. RBDGEN_CACHE_LINE: the target's line size
// (64 bytes; 32 on Cortex-M). On Cortex-M (no cache, or a Cortex-M7 whose flash its own accelerator
// feeds) it compiles to nothing, unless RBDGEN_WARM_MCU is defined.
#ifndef RBDGEN_CACHE_LINE
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define RBDGEN_CACHE_LINE 32
#else
#define RBDGEN_CACHE_LINE 64
#endif
#endif
// It reads whole cache lines, padding between two tables included: exempt from AddressSanitizer, whose
// red zones sit in that padding (a kernel compiled with -fsanitize=address would report them).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((no_sanitize_address))
#endif
static inline void rbdgen_warm(const rbdgen_extent& e) noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (!(defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M') || defined(RBDGEN_WARM_MCU))
    typedef __UINTPTR_TYPE__ address;
    for (const auto& r : e.range) {
        if (!r[0]) continue;
        const address first = reinterpret_cast<address>(r[0]) & ~static_cast<address>(RBDGEN_CACHE_LINE - 1);
        for (address p = first; p < reinterpret_cast<address>(r[1]); p += RBDGEN_CACHE_LINE)
            (void)*reinterpret_cast<const volatile char*>(p);
    }
#else
    (void)e;
#endif
}

#endif  // RBDGEN_RUNTIME_HPP
