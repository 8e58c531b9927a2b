// The batched kernels' benchmark (bench_batch.cpp): each robot's kernels as two calls on 32 random
// states, cycled: one state a call (the single-state kernel) and BATCH states a call (batch::).
#pragma once

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rbdgen::bench {

constexpr int kBatchStates = 32;

struct BatchKernel {
    std::string name;
    std::function<void(int)> single;   // the kernel at state s
    std::function<void(int)> batched;  // batch:: at states W g .. W g + W − 1
};

struct BatchRobot {
    std::string label, flags;
    int width = 1;
    std::vector<BatchKernel> kernels;
};

template <class T, class... P, size_t... I> void call_on(void (*f)(P...) noexcept, std::vector<std::vector<T>>& a, std::index_sequence<I...>) {
    f(static_cast<P>(a[I].data())...);
}

// Random inputs (the kernels have no branch but sin/cos's range: any numbers time the same work).
template <class Scalar, class Batch, int W, class... A, class... B>
BatchKernel batch_kernel(const char* name, void (*single)(A...) noexcept, void (*batched)(B...) noexcept, const int* sizes) {
    struct Buffers {
        std::vector<std::vector<std::vector<Scalar>>> states;  // [state][argument]
        std::vector<std::vector<std::vector<Batch>>> groups;   // [group][argument]
    };
    auto b = std::make_shared<Buffers>();
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-3, 3);
    constexpr size_t n = sizeof...(A);
    b->states.assign(kBatchStates, std::vector<std::vector<Scalar>>(n));
    b->groups.assign(kBatchStates / W, std::vector<std::vector<Batch>>(n));
    for (int s = 0; s < kBatchStates; ++s)
        for (size_t i = 0; i < n; ++i) {
            b->states[s][i].resize(sizes[i]);
            if (s % W == 0) b->groups[s / W][i].assign(sizes[i], Batch{});
            for (int e = 0; e < sizes[i]; ++e) b->groups[s / W][i][e][s % W] = b->states[s][i][e] = static_cast<Scalar>(u(rng));
        }
    return {name, [b, single](int s) { call_on(single, b->states[s], std::index_sequence_for<A...>{}); },
            [b, batched](int g) { call_on(batched, b->groups[g], std::index_sequence_for<B...>{}); }};
}

std::vector<BatchRobot> batch_robots();

}  // namespace rbdgen::bench
