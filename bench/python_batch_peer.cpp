// The C++ side of bench/python_bench.py's comparison: a robot's batched kernel (batch::, BATCH states
// a call) called from C++ over N states already laid out as the kernel takes them (structure of
// arrays, one block of Batch a call), as a C++ user with their data in that layout would call it.
// python_bench.py compiles this file with the sources of the module it times (the same generated
// code, the same flags; -DROBOT=<robot> -DROBOT_HEADER='"<robot>.hpp"') and calls it through ctypes,
// in its own process, interleaved with the Python calls.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <random>
#include <utility>
#include <vector>

#include ROBOT_HEADER

namespace {

namespace r = ROBOT;
using Batch = r::Batch;

template <class... P, size_t... I>
void call(void (*f)(P...) noexcept, const std::vector<Batch*>& arrays, const int* sizes, long b, std::index_sequence<I...>) {
    f(static_cast<P>(arrays[I] + b * sizes[I])...);
}

// One kernel's arguments for n states: argument i is n / BATCH blocks of sizes[i] Batch.
template <class... P> double seconds(void (*f)(P...) noexcept, const int* sizes, long n, int reps) {
    constexpr size_t count = sizeof...(P);
    const long blocks = n / r::BATCH;
    std::vector<Batch*> arrays(count);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    for (size_t i = 0; i < count; ++i) {
        const size_t bytes = static_cast<size_t>(blocks) * sizes[i] * sizeof(Batch);
        arrays[i] = static_cast<Batch*>(::operator new(bytes, std::align_val_t(64)));
        r::Scalar* x = reinterpret_cast<r::Scalar*>(arrays[i]);
        for (size_t k = 0; k < bytes / sizeof(r::Scalar); ++k) x[k] = static_cast<r::Scalar>(u(rng));
    }
    double best = 1e30;
    for (int rep = 0; rep < reps; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long b = 0; b < blocks; ++b) call(f, arrays, sizes, b, std::index_sequence_for<P...>{});
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    for (Batch* a : arrays) ::operator delete(a, std::align_val_t(64));
    return best;
}

}  // namespace

// The least time, in seconds, over reps passes of batch::<kernel> over n states (rnea, crba or aba);
// a negative number for another kernel.
extern "C" double rbdgen_batch_seconds(const char* kernel, long n, int reps) {
    if (!std::strcmp(kernel, "rnea")) return seconds(&r::batch::rnea, r::batch::rnea_sizes, n, reps);
    if (!std::strcmp(kernel, "crba")) return seconds(&r::batch::crba, r::batch::crba_sizes, n, reps);
    if (!std::strcmp(kernel, "aba")) return seconds(&r::batch::aba, r::batch::aba_sizes, n, reps);
    return -1;
}
