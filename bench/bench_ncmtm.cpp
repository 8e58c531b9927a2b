// The N-CMTM kernels as generated (ncmtm_fk, cornea) against Taylor-mode automatic differentiation
// of the reference FK and RNEA (ADOL-C's forward mode of degree N on a tape made once), in one
// process, on the same motion: Samy et al.'s Fig. 6 (time against the order and against the number
// of joints). Markdown tables for bench/RESULTS.md (--out=FILE). Run by bench/run.sh.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "algorithms/forward_kinematics.hpp"
#include "algorithms/rnea.hpp"
#include "collect.hpp"
#include "report_ops.hpp"
#include "emit/prepare.hpp"
#include "model/urdf_loader.hpp"
#include "ncmtm_robots.hpp"

namespace rbdgen::bench {
namespace {

using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;
using test::TaylorTape;

std::string num(double v, const char* f = "%.0f") {
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}
double factorial(int k) { return k <= 1 ? 1.0 : k * factorial(k - 1); }

// Taylor coefficients in ADOL-C's layout, allocated once.
struct Coefficients {
    int n = 0, d = 0;
    double** x = nullptr;
    Coefficients(int n_, int d_) : n(n_), d(d_), x(myalloc2(n_, d_ + 1)) {}
    ~Coefficients() { myfree2(x); }
    Coefficients(const Coefficients&) = delete;
};

// One robot at one order, set up for both peers: a motion (q, ψ … ψ^(N)), the generated kernels'
// arrays, ADOL-C's tapes of the reference FK (q, q̇ → every v_i, degree N) and RNEA (q, q̇, q̈ → τ,
// degree N − 1) with the motion's coefficients.
struct Case {
    const NcmtmRobot* robot = nullptr;
    Model model;
    std::vector<double> q, Psi, g{0, 0, -9.81}, zeta, tau;
    std::unique_ptr<TaylorTape> fk_tape, rnea_tape;
    std::unique_ptr<Coefficients> fk_in, fk_out, rnea_in, rnea_out;
    long fk_ops = 0, cornea_ops = 0;
    double fk_agreement = 0, tau_agreement = 0;
};

std::unique_ptr<Case> make_case(const NcmtmRobot& r, short tag) {
    auto c = std::make_unique<Case>();
    c->robot = &r;
    c->model = prepare_model(load_urdf(r.urdf, {})).model;  // the reference in the generator's frames: its cheapest
    const Model& m = c->model;
    const int N = r.order, nq = r.nq, nv = r.nv;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    c->q.resize(nq), c->Psi.resize((N + 1) * nv);
    for (double& x : c->q) x = 3 * u(rng);
    for (double& x : c->Psi) x = u(rng);
    c->zeta.resize(r.bodies * 6 * (N + 1)), c->tau.resize(N * nv);
    // q(t) = q + Σ ψ^(k−1) t^k / k!   (a fixed base: q̇ = ψ)
    c->fk_in = std::make_unique<Coefficients>(nq + nv, N);
    c->rnea_in = std::make_unique<Coefficients>(nq + 2 * nv, N - 1);
    for (int j = 0; j < nv; ++j)
        for (int k = 0; k <= N; ++k) {
            const double q_k = k == 0 ? c->q[j] : c->Psi[(k - 1) * nv + j] / factorial(k);
            const double qd_k = c->Psi[k * nv + j] / factorial(k);
            c->fk_in->x[j][k] = q_k, c->fk_in->x[nq + j][k] = qd_k;
            if (k < N) {
                c->rnea_in->x[j][k] = q_k, c->rnea_in->x[nq + j][k] = qd_k;
                c->rnea_in->x[nq + nv + j][k] = c->Psi[(k + 1) * nv + j] / factorial(k);
            }
        }
    Eigen::VectorXd x0(nq + 2 * nv);
    for (int i = 0; i < nq + 2 * nv; ++i) x0[i] = c->rnea_in->x[i][0];
    c->fk_tape = std::make_unique<TaylorTape>(tag, x0.head(nq + nv), [&m, nq, nv](const AVec& x) {
        const Kinematics<adouble> kin = forward_kinematics<adouble>(m, AVec(x.head(nq)), AVec(x.segment(nq, nv)));
        AVec v(6 * m.N());
        for (int i = 0; i < m.N(); ++i) v.segment(6 * i, 6) = m.bodies[i].X_urdf.cast<adouble>().apply(kin.v[i]);
        return v;
    });
    const Vec3<double> g(c->g[0], c->g[1], c->g[2]);
    c->rnea_tape = std::make_unique<TaylorTape>(tag + 1, x0, [&m, nq, nv, g](const AVec& x) {
        return AVec(rnea<adouble>(m, AVec(x.head(nq)), AVec(x.segment(nq, nv)), AVec(x.tail(nv)), g.cast<adouble>()));
    });
    c->fk_out = std::make_unique<Coefficients>(6 * m.N(), N);
    c->rnea_out = std::make_unique<Coefficients>(nv, N - 1);
    // the two peers agree (max |Δ| / max(1, |x|) over every derivative)
    r.fk(c->q.data(), c->Psi.data(), c->zeta.data());
    r.cornea(c->q.data(), c->Psi.data(), c->g.data(), c->tau.data());
    forward(tag, 6 * m.N(), nq + nv, N, 0, c->fk_in->x, c->fk_out->x);
    forward(tag + 1, nv, nq + 2 * nv, N - 1, 0, c->rnea_in->x, c->rnea_out->x);
    double e = 0, s = 1;
    for (int i = 0; i < m.N(); ++i)
        for (int k = 0; k <= N; ++k)
            for (int a = 0; a < 6; ++a) {
                const double ad = c->fk_out->x[6 * i + a][k] * factorial(k), ours = c->zeta[i * 6 * (N + 1) + 6 * k + a];
                e = std::max(e, std::abs(ad - ours)), s = std::max(s, std::abs(ad));
            }
    c->fk_agreement = e / s;
    e = 0, s = 1;
    for (int k = 0; k < N; ++k)
        for (int j = 0; j < nv; ++j) {
            const double ad = c->rnea_out->x[j][k] * factorial(k), ours = c->tau[k * nv + j];
            e = std::max(e, std::abs(ad - ours)), s = std::max(s, std::abs(ad));
        }
    c->tau_agreement = e / s;
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(r.report));
    c->fk_ops = total_ops(report["kernels"]["ncmtm_fk"]), c->cornea_ops = total_ops(report["kernels"]["cornea"]);
    return c;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen;
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);
    const std::vector<NcmtmRobot> robots = ncmtm_robots();
    std::vector<std::unique_ptr<Case>> cases;
    for (size_t i = 0; i < robots.size(); ++i) cases.push_back(make_case(robots[i], static_cast<short>(10 + 2 * i)));
    for (const auto& owned : cases) {
        Case* c = owned.get();
        const NcmtmRobot& r = *c->robot;
        const std::string name = r.label + "/N" + std::to_string(r.order);
        const int N = r.order, nq = r.nq, nv = r.nv, nb = r.bodies;
        benchmark::RegisterBenchmark((name + "/fk/rbdgen").c_str(), [c](benchmark::State& state) {
            for (auto _ : state) {
                c->robot->fk(c->q.data(), c->Psi.data(), c->zeta.data());
                benchmark::DoNotOptimize(c->zeta.data());
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
        benchmark::RegisterBenchmark((name + "/fk/adolc").c_str(), [c, N, nq, nv, nb](benchmark::State& state) {
            for (auto _ : state) {
                forward(c->fk_tape->tag(), 6 * nb, nq + nv, N, 0, c->fk_in->x, c->fk_out->x);
                benchmark::DoNotOptimize(c->fk_out->x[0]);
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
        benchmark::RegisterBenchmark((name + "/cornea/rbdgen").c_str(), [c](benchmark::State& state) {
            for (auto _ : state) {
                c->robot->cornea(c->q.data(), c->Psi.data(), c->g.data(), c->tau.data());
                benchmark::DoNotOptimize(c->tau.data());
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
        benchmark::RegisterBenchmark((name + "/cornea/adolc").c_str(), [c, N, nq, nv](benchmark::State& state) {
            for (auto _ : state) {
                forward(c->rnea_tape->tag(), nv, nq + 2 * nv, N - 1, 0, c->rnea_in->x, c->rnea_out->x);
                benchmark::DoNotOptimize(c->rnea_out->x[0]);
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
    }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);
    auto ns = [&](const std::string& k) { return collect.ns.count(k) ? collect.ns[k] : -1.0; };
    std::string md = "\n## The N-CMTM kernels against Taylor-mode AD (`bench/bench_ncmtm.cpp`)\n\n";
    md += "Samy et al.'s Fig. 6: the generated `ncmtm_fk` (link velocities and N derivatives) and `cornea` (joint forces "
          "and N - 1 derivatives) against ADOL-C's Taylor mode (`forward` of degree N, resp. N - 1, on a tape of the "
          "reference FK, resp. RNEA, made once: the same outputs), on the same random motion; ns per call, minimum of "
          "the repetitions; generated kernels at `-O2` in the default emission (compact: see the emissions and compile "
          "times below), ADOL-C as Debian builds it. "
          "Synthetic chains from `rbdgen synth chain N --seed 1`.\n\n";
    md += "| robot | joints | N | fk ops | fk ns | ADOL-C fk ns | ratio | cornea ops | cornea ns | ADOL-C ns | ratio | agreement fk / tau |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& c : cases) {
        const NcmtmRobot& r = *c->robot;
        const std::string name = r.label + "/N" + std::to_string(r.order);
        const double f = ns(name + "/fk/rbdgen"), fa = ns(name + "/fk/adolc"), t = ns(name + "/cornea/rbdgen"),
                     ta = ns(name + "/cornea/adolc");
        md += "| " + r.label + " | " + std::to_string(r.nv) + " | " + std::to_string(r.order) + " | " + std::to_string(c->fk_ops) +
              " | " + num(f) + " | " + num(fa) + " | " + num(fa / f, "%.1f") + "× | " + std::to_string(c->cornea_ops) + " | " +
              num(t) + " | " + num(ta) + " | " + num(ta / t, "%.1f") + "× | " + num(c->fk_agreement, "%.0e") + " / " +
              num(c->tau_agreement, "%.0e") + " |\n";
    }
    if (!out_file.empty()) std::ofstream(out_file) << md;
    else std::printf("%s", md.c_str());
    return 0;
}
