// bench/ab.sh's program: one kernel (-DKERNEL: rnea, crba, aba, rnea_derivatives or aba_derivatives) of one robot from two
// generators (namespaces <robot>_old and <robot>_new, -DROBOT_OLD / -DROBOT_NEW their headers), called
// in one process, interleaved, at the same 32 random states; the minimum over 60 rounds of 200 calls
// each, in ns a call.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include ROBOT_OLD_HEADER
#include ROBOT_NEW_HEADER

namespace {
// The kernel's arguments from a state (q, qd, and tau or qdd) and room for its outputs.
#define CALL_rnea(R) R::rnea(q, qd, u, g, a)
#define CALL_crba(R) R::crba(q, a)
#define CALL_aba(R) R::aba(q, qd, u, g, a)
#define CALL_aba_derivatives(R) R::aba_derivatives(q, qd, u, g, a, b, c)
#define CALL_rnea_derivatives(R) R::rnea_derivatives(q, qd, u, g, a, b)
#define CALL(K, R) CALL_##K(R)
#define CALL_OF(K, R) CALL(K, R)

template <class F> double ns_a_call(F f, int nq, int nv, bool floating) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    const int states = 32, calls = 200;
    std::vector<std::vector<double>> q(states), qd(states), tau(states);
    for (int s = 0; s < states; ++s) {
        for (int k = 0; k < nq; ++k) q[s].push_back(u(rng));
        if (floating) {  // the base's quaternion, a unit one
            double n = 0;
            for (int k = 3; k < 7; ++k) n += q[s][k] * q[s][k];
            for (int k = 3; k < 7; ++k) q[s][k] /= std::sqrt(n);
        }
        for (int k = 0; k < nv; ++k) qd[s].push_back(u(rng)), tau[s].push_back(u(rng));
    }
    std::vector<double> a(nv * nv), b(nv * nv), c(nv * nv);
    const double g[3] = {0, 0, -9.81};
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f(q[i % states].data(), qd[i % states].data(), tau[i % states].data(), g, a.data(), b.data(), c.data());
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / calls;
}
}  // namespace

int main() {
    const bool floating = ROBOT_OLD::NQ == ROBOT_OLD::NV + 1;
    double old_ns = 1e30, new_ns = 1e30;
    for (int round = 0; round < 60; ++round) {
        old_ns = std::min(old_ns, ns_a_call([](const double* q, const double* qd, const double* u, const double* g, double* a, double* b, double* c) {
            (void)qd, (void)u, (void)g, (void)b, (void)c;
            CALL_OF(KERNEL, ROBOT_OLD);
        }, ROBOT_OLD::NQ, ROBOT_OLD::NV, floating));
        new_ns = std::min(new_ns, ns_a_call([](const double* q, const double* qd, const double* u, const double* g, double* a, double* b, double* c) {
            (void)qd, (void)u, (void)g, (void)b, (void)c;
            CALL_OF(KERNEL, ROBOT_NEW);
        }, ROBOT_NEW::NQ, ROBOT_NEW::NV, floating));
    }
    std::printf("%.0f %.0f\n", old_ns, new_ns);
}
