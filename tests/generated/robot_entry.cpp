// One generated robot's entry in the table of robot_entry.hpp: compiled once a robot, with ROBOT_NS
// (the robot's namespace), ROBOT_HEADER, ROBOT_URDF, ROBOT_REPORT, ROBOT_FLOATING and, in the builds
// with the derivative kernels, ROBOT_DERIVATIVES, and in those with contact problems, ROBOT_CONTACTS
// and, the quadruped's, ROBOT_BAUMGARTE (its problem file quadruped_baumgarte.yaml; tests/generated/CMakeLists.txt).
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "generated/robot_entry.hpp"
#include ROBOT_HEADER

namespace rbdgen::generated {
namespace {

namespace robot = ROBOT_NS;
using Scalar = robot::Scalar;
using Batch = robot::Batch;
constexpr int W = robot::BATCH;

// Arrays of Batch aligned to 64 bytes: this file is built without the kernels' vector flags (as the
// test program is), where alignof(Batch) may be only 16.
template <class T> struct Aligned {
    using value_type = T;
    Aligned() = default;
    template <class U> Aligned(const Aligned<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <class U> bool operator==(const Aligned<U>&) const { return true; }
};

// Calls f on the double arrays a: each converted to E (Scalar, or Batch with lane s of element e at
// a[i][e × W + s]), and f's outputs converted back.
template <class E, class... P, std::size_t... I>
void call_converted(void (*f)(P...) noexcept, const int* sizes, double* const* a, std::index_sequence<I...>) {
    constexpr bool input[] = {std::is_const_v<std::remove_pointer_t<P>>...};
    constexpr int lanes = std::is_same_v<E, Scalar> ? 1 : W;
    std::vector<E, Aligned<E>> x[sizeof...(P)];
    const auto element = [](E& e, int s) -> Scalar& {
        if constexpr (std::is_same_v<E, Scalar>) return e;
        else return reinterpret_cast<Scalar*>(&e)[s];
    };
    for (std::size_t i = 0; i < sizeof...(P); ++i) {
        x[i].assign(sizes[i], E{});
        for (int e = 0; e < sizes[i]; ++e)
            for (int s = 0; s < lanes; ++s) element(x[i][e], s) = static_cast<Scalar>(a[i][e * lanes + s]);
    }
    f(x[I].data()...);
    for (std::size_t i = 0; i < sizeof...(P); ++i)
        if (!input[i])
            for (int e = 0; e < sizes[i]; ++e)
                for (int s = 0; s < lanes; ++s) a[i][e * lanes + s] = element(x[i][e], s);
}

template <auto f, auto cold, auto batched, const int* sizes, robot::Kernel k> struct Erased;
template <class... P, void (*f)(P...) noexcept, void (*cold)(P...) noexcept, class... B, void (*batched)(B...) noexcept,
          const int* sizes, robot::Kernel k>
struct Erased<f, cold, batched, sizes, k> {
    static_assert(sizeof...(P) == sizeof...(B) && sizeof...(P) <= 16);
    static void call(double* const* a) { call_converted<Scalar>(f, sizes, a, std::index_sequence_for<P...>{}); }
    static void call_cold(double* const* a) { call_converted<Scalar>(cold, sizes, a, std::index_sequence_for<P...>{}); }
    static void call_batch(double* const* a) { call_converted<Batch>(batched, sizes, a, std::index_sequence_for<P...>{}); }
    static void warm() { robot::warm(k); }
    static bool in_code_range(bool is_cold) {
        const rbdgen_extent x = robot::extent(k);
        const char* address = is_cold ? reinterpret_cast<const char*>(cold) : reinterpret_cast<const char*>(f);
        return x.range[0][0] <= address && address < x.range[0][1];
    }
    static Kernel entry(const char* name) {
        Kernel e{name, sizeof...(P), sizes, {std::is_const_v<std::remove_pointer_t<P>>...}, call, call_cold, call_batch, warm,
                 in_code_range};
        return e;
    }
};
#define KERNEL(k) Erased<&robot::k, &robot::k##_cold, &robot::batch::k, robot::batch::k##_sizes, robot::Kernel::k>::entry(#k)

const Robot entry{
    .name = ROBOT_STR,
    .urdf = ROBOT_URDF,
    .report = ROBOT_REPORT,
    .scalar = sizeof(Scalar) == sizeof(float) ? "float" : "double",
    .floating = ROBOT_FLOATING,
    .NQ = robot::NQ,
    .NV = robot::NV,
    .NB = robot::NB,
    .W = W,
    .fd_refusal = robot::fd_refusal,
#ifdef ROBOT_CONTACTS
    .contacts = ROBOT_CONTACTS,
#else
    .contacts = "",
#endif
#ifdef ROBOT_BAUMGARTE
    .baumgarte = ROBOT_BAUMGARTE,
#else
    .baumgarte = "",
#endif
    .tolerance = sizeof(Scalar) == sizeof(float) ? 1e-4 : 1e-12,
    .lu_tolerance = sizeof(Scalar) == sizeof(float) ? 1e-4 : 1e-10,
    .round = [](double x) { return static_cast<double>(static_cast<Scalar>(x)); },
    .warm_all = [] { robot::warm_all(); },
    .kernels = {KERNEL(fk), KERNEL(rnea), KERNEL(gravity), KERNEL(nle), KERNEL(crba), KERNEL(ltdl), KERNEL(ltdl_solve),
                KERNEL(fd_crba_ltdl), KERNEL(aba), KERNEL(jacobians), KERNEL(com), KERNEL(com_motion), KERNEL(com_jacobian),
                KERNEL(centroidal), KERNEL(centroidal_momentum_rate), KERNEL(energy), KERNEL(jacobians_dot), KERNEL(integrate), KERNEL(difference),
                KERNEL(integrate_jacobians), KERNEL(difference_jacobians), KERNEL(id_lu), KERNEL(id_assemble), KERNEL(id_factor),
                KERNEL(id_solve), KERNEL(fd_lu), KERNEL(fd_assemble), KERNEL(fd_factor), KERNEL(fd_solve),
#ifdef ROBOT_DERIVATIVES
                KERNEL(rnea_derivatives), KERNEL(aba_derivatives), KERNEL(minv), KERNEL(coriolis), KERNEL(centroidal_derivatives),
#endif
#ifdef ROBOT_CONTACTS
                KERNEL(contact_aba), KERNEL(contact_derivatives), KERNEL(impulse_aba), KERNEL(impulse_derivatives),
#endif
#ifdef ROBOT_BAUMGARTE
                KERNEL(quadruped_baumgarte_aba), KERNEL(quadruped_baumgarte_derivatives),
#endif
    },
};
const bool added = (robots().push_back(&entry), true);

}  // namespace
}  // namespace rbdgen::generated
