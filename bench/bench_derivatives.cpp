// The derivatives of the dynamics as generated (rnea_derivatives, aba_derivatives) against what a user
// without them does, in one process, on the same states: differences of the emitted rnea and aba on
// the tangent space (one-sided: 2 NV + 1 calls of rnea, 3 NV + 1 of aba; central: 4 NV and 6 NV), and
// ADOL-C's forward mode on the reference algorithms (a tape made once; at each state fov_forward in
// 2 NV or 3 NV directions), and MuJoCo's one-sided differences through mj_forwardSkip and
// mj_inverseSkip (mujoco_differences.cpp: 3 NV + 1 and 2 NV + 1 calls, stages skipped where a
// perturbation leaves them unchanged, as mjd_transitionFD does). Hot (32 random states cycled) and
// cold (64 MiB written before each call).
// Markdown tables for bench/derivatives.md (--out=FILE). Run by bench/derivatives.sh.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "algorithms/aba.hpp"
#include "algorithms/rnea.hpp"
#include "collect.hpp"
#include "tangent.hpp"
#include "report_ops.hpp"
#include "derivatives_robots.hpp"
#include "emit/prepare.hpp"
#include "model/urdf_loader.hpp"
#include "mujoco_differences.hpp"

namespace rbdgen::bench {
namespace {

using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;
constexpr int kStates = 32;

struct State {
    std::vector<double> q, qd, qdd, tau, g{0.1, -0.2, -9.81};
};

// One robot: its states, the work arrays of every peer, and ADOL-C's tapes of the reference RNEA
// (q, q̇, q̈ → τ) and ABA (q, q̇, τ → q̈), in the generator's frames (the reference's cheapest).
struct Case {
    const DerivativesRobot* r = nullptr;
    Model model;
    std::vector<State> states;
    int next = 0;
    std::vector<double> out[3], y, yp, ym, qp;
    short rnea_tag = 0, aba_tag = 0;
    MujocoDifferences mujoco;
    double** X = nullptr;  // n × p directions: q's by the tangent basis, then unit ones
    double** Y = nullptr;
    ~Case() {
        myfree2(X);
        myfree2(Y);
    }
    State& state() {
        State& s = states[next];
        next = (next + 1) % kStates;
        return s;
    }
};

void tape(Case& c, short tag, bool forward) {
    const Model& m = c.model;
    const State& s = c.states[0];
    trace_on(tag);
    AVec q(m.nq), qd(m.nv), x(m.nv);
    for (int i = 0; i < m.nq; ++i) q[i] <<= s.q[i];
    for (int i = 0; i < m.nv; ++i) qd[i] <<= s.qd[i];
    for (int i = 0; i < m.nv; ++i) x[i] <<= forward ? s.tau[i] : s.qdd[i];
    const Vec3<adouble> g(s.g[0], s.g[1], s.g[2]);
    AVec y = forward ? aba<adouble>(m, q, qd, x, g) : rnea<adouble>(m, q, qd, x, g);
    for (int i = 0; i < m.nv; ++i) {
        double v;
        y[i] >>= v;
    }
    trace_off();
}

std::unique_ptr<Case> make_case(const DerivativesRobot& r, short tag) {
    auto c = std::make_unique<Case>();
    c->r = &r;
    c->model = prepare_model(load_urdf(r.urdf, {r.floating_base})).model;
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < kStates; ++k) {
        State s;
        for (int i = 0; i < r.nq; ++i) s.q.push_back(u(rng));
        const double n = std::sqrt(s.q[3] * s.q[3] + s.q[4] * s.q[4] + s.q[5] * s.q[5] + s.q[6] * s.q[6]);
        for (int i = 3; i < 7; ++i) s.q[i] /= n;
        for (int i = 0; i < r.nv; ++i) s.qd.push_back(u(rng)), s.qdd.push_back(5 * u(rng)), s.tau.push_back(10 * u(rng));
        c->states.push_back(s);
    }
    for (auto& o : c->out) o.assign(r.nv * r.nv, 0.0);
    c->y.assign(r.nv, 0), c->yp.assign(r.nv, 0), c->ym.assign(r.nv, 0);
    c->rnea_tag = tag, c->aba_tag = static_cast<short>(tag + 1);
    tape(*c, c->rnea_tag, false);
    tape(*c, c->aba_tag, true);
    c->mujoco = mujoco_differences(r.urdf, c->model);
    c->X = myalloc2(r.nq + 2 * r.nv, 3 * r.nv);
    c->Y = myalloc2(r.nv, 3 * r.nv);
    return c;
}

// The peers, each computing the derivatives at one state into c.out.
void generated(Case& c, State& s, bool forward) {
    if (forward) c.r->aba_derivatives(s.q.data(), s.qd.data(), s.tau.data(), s.g.data(), c.out[0].data(), c.out[1].data(), c.out[2].data());
    else c.r->rnea_derivatives(s.q.data(), s.qd.data(), s.qdd.data(), s.g.data(), c.out[0].data(), c.out[1].data());
}

void generated_native(Case& c, State& s, bool forward) {
    if (forward)
        c.r->aba_derivatives_native(s.q.data(), s.qd.data(), s.tau.data(), s.g.data(), c.out[0].data(), c.out[1].data(), c.out[2].data());
    else c.r->rnea_derivatives_native(s.q.data(), s.qd.data(), s.qdd.data(), s.g.data(), c.out[0].data(), c.out[1].data());
}

// Differences of the emitted kernel along q's tangent directions, q̇'s and (aba) τ's, row-major into
// out[0], out[1], out[2]: one-sided (one call at the state and one a direction) or central.
void differences(Case& c, State& s, bool forward, bool central) {
    const DerivativesRobot& r = *c.r;
    const int n = r.nv;
    const double h = central ? 1e-5 : 1e-7;
    Kernel4 f = forward ? r.aba : r.rnea;
    std::vector<double>& x = forward ? s.tau : s.qdd;
    if (!central) f(s.q.data(), s.qd.data(), x.data(), s.g.data(), c.y.data());
    const auto column = [&](std::vector<double>& out, int k) {
        for (int i = 0; i < n; ++i) out[i * n + k] = (c.yp[i] - (central ? c.ym[i] : c.y[i])) / (central ? 2 * h : h);
    };
    for (int k = 0; k < n; ++k) {  // q
        plus(s.q, k, h, c.qp);
        f(c.qp.data(), s.qd.data(), x.data(), s.g.data(), c.yp.data());
        if (central) plus(s.q, k, -h, c.qp), f(c.qp.data(), s.qd.data(), x.data(), s.g.data(), c.ym.data());
        column(c.out[0], k);
    }
    for (std::vector<double>* v : {&s.qd, forward ? &s.tau : nullptr}) {  // q̇, and τ for aba
        if (!v) continue;
        std::vector<double>& out = v == &s.qd ? c.out[1] : c.out[2];
        for (int k = 0; k < n; ++k) {
            const double x0 = (*v)[k];
            (*v)[k] = x0 + h;
            f(s.q.data(), s.qd.data(), x.data(), s.g.data(), c.yp.data());
            if (central) (*v)[k] = x0 - h, f(s.q.data(), s.qd.data(), x.data(), s.g.data(), c.ym.data());
            (*v)[k] = x0;
            column(out, k);
        }
    }
}

// ADOL-C's forward mode on the tape, in every direction at once (fov_forward).
void adolc(Case& c, State& s, bool forward) {
    const int nq = c.r->nq, n = c.r->nv, p = (forward ? 3 : 2) * n;
    std::vector<double> x(nq + 2 * n);
    std::copy(s.q.begin(), s.q.end(), x.begin());
    std::copy(s.qd.begin(), s.qd.end(), x.begin() + nq);
    const std::vector<double>& third = forward ? s.tau : s.qdd;
    std::copy(third.begin(), third.end(), x.begin() + nq + n);
    tangent_directions(s.q, nq, n, p, c.X);
    fov_forward(forward ? c.aba_tag : c.rnea_tag, n, nq + 2 * n, p, x.data(), c.X, c.y.data(), c.Y);
    for (int o = 0; o < p / n; ++o)
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) c.out[o][i * n + k] = c.Y[i][o * n + k];
}

void mujoco(Case& c, State& s, bool forward) {
    double* const out[3] = {c.out[0].data(), c.out[1].data(), c.out[2].data()};
    c.mujoco.run(s.q.data(), s.qd.data(), (forward ? s.tau : s.qdd).data(), s.g.data(), forward, out);
}

using Peer = void (*)(Case&, State&, bool);
struct Named {
    const char* name;
    Peer run;
};
const Named kPeers[] = {{"rbdgen", generated},
                        {"rbdgen-native", generated_native},
                        {"differences", [](Case& c, State& s, bool f) { differences(c, s, f, false); }},
                        {"central", [](Case& c, State& s, bool f) { differences(c, s, f, true); }},
                        {"adolc", adolc},
                        {"mujoco-differences", mujoco}};

// max |a − b| / max(1, max |b|) over the outputs of two peers at one state.
double disagreement(Case& c, Peer a, Peer b, bool forward) {
    State s = c.states[3];
    a(c, s, forward);
    std::vector<double> first[3] = {c.out[0], c.out[1], c.out[2]};
    b(c, s, forward);
    double d = 0, scale = 1;
    for (int o = 0; o < (forward ? 3 : 2); ++o)
        for (size_t i = 0; i < first[o].size(); ++i)
            d = std::max(d, std::abs(first[o][i] - c.out[o][i])), scale = std::max(scale, std::abs(c.out[o][i]));
    return d / scale;
}

// The same over the 1-DoF joints' rows and columns only (MuJoCo's base coordinates are its own).
double joint_disagreement(Case& c, Peer a, Peer b, bool forward) {
    State s = c.states[3];
    a(c, s, forward);
    std::vector<double> first[3] = {c.out[0], c.out[1], c.out[2]};
    b(c, s, forward);
    const int n = c.r->nv;
    double d = 0, scale = 1;
    for (int o = 0; o < (forward ? 3 : 2); ++o)
        for (const auto& [vi, di] : c.mujoco.joint_dofs)
            for (const auto& [vk, dk] : c.mujoco.joint_dofs) {
                const double x = first[o][vi * n + vk], y = c.out[o][di * n + dk];
                d = std::max(d, std::abs(x - y)), scale = std::max(scale, std::abs(y));
            }
    return d / scale;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);
    std::vector<DerivativesRobot> robots = derivatives_robots();
    std::vector<std::unique_ptr<Case>> cases;
    short tag = 10;
    for (const DerivativesRobot& r : robots) cases.push_back(make_case(r, tag)), tag += 2;
    const char* const kernels[] = {"rnea_derivatives", "aba_derivatives"};
    for (auto& c : cases)
        for (int forward = 0; forward < 2; ++forward)
            for (const Named& p : kPeers) {
                const std::string name = c->r->label + "/" + kernels[forward] + "/" + p.name;
                Case* x = c.get();
                register_hot_and_cold(name, [x]() -> State& { return x->state(); },
                                      [x, p, forward](State& s) { p.run(*x, s, forward); });
            }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);

    std::string md;
    md += "| robot | kernel | operations | rbdgen hot ns | -march=native | one-sided differences | central differences | ADOL-C forward | "
          "MuJoCo differences | rbdgen cold ns | -march=native cold | one-sided cold | central cold | ADOL-C cold | MuJoCo differences cold | "
          "agreement: central, ADOL-C, MuJoCo (joints) | operations per cycle, hot: rbdgen, -march=native |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    const double clock = ghz();
    for (auto& c : cases) {
        const nlohmann::json report = nlohmann::json::parse(std::ifstream(c->r->report));
        for (int forward = 0; forward < 2; ++forward) {
            const std::string base = c->r->label + "/" + kernels[forward] + "/";
            const auto ns = [&](const std::string& peer, const char* suffix) {
                const auto it = collect.ns.find(base + peer + suffix);
                return it == collect.ns.end() ? -1.0 : it->second;
            };
            const double ops = static_cast<double>(total_ops(report["kernels"][kernels[forward]]));
            md += "| " + c->r->label + " | " + kernels[forward] + " | " + num(ops, "%.0f");
            for (const char* suffix : {"", "-cold"}) {
                const double own = ns("rbdgen", suffix);
                md += " | " + num(own, "%.0f");
                for (const char* peer : {"rbdgen-native", "differences", "central", "adolc", "mujoco-differences"})
                    md += " | " + num(ns(peer, suffix), "%.0f") + " (" + num(ns(peer, suffix) / own, "%.1f") + "x)";
            }
            md += " | " + num(disagreement(*c, kPeers[0].run, kPeers[3].run, forward), "%.1e") + ", " +
                  num(disagreement(*c, kPeers[0].run, kPeers[4].run, forward), "%.1e") + ", " +
                  num(joint_disagreement(*c, kPeers[0].run, kPeers[5].run, forward), "%.1e") + " | " +
                  (clock > 0 ? num(ops / (ns("rbdgen", "") * clock), "%.2f") + ", " + num(ops / (ns("rbdgen-native", "") * clock), "%.2f")
                             : std::string("—")) +
                  " |\n";
        }
    }
    if (!out_file.empty()) std::ofstream(out_file) << md;
    return 0;
}
