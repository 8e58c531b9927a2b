// The derivatives of constrained dynamics as generated (<problem>_derivatives of contact:...) against
// what a user without them does, in one process, on the same states: central differences of the
// emitted forward kernel contact_aba on the tangent space (6 NV calls: along q, q̇ and τ), and ADOL-C's
// forward mode on the reference contact_aba (a tape made once; at each state fov_forward in 3 NV
// directions). Hot (32 random states cycled) and cold (64 MiB written before each call). The impact on
// the same contacts: impulse_derivatives against central differences of the emitted impulse_aba and
// ADOL-C's forward mode on the reference impulse_aba (its own tape; 2 NV directions).
// Markdown table for bench/contact_derivatives.md (--out=FILE). Run by bench/contact_derivatives.sh.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "algorithms/contact_aba.hpp"
#include "collect.hpp"
#include "tangent.hpp"
#include "contact_derivatives_robots.hpp"
#include "emit/prepare.hpp"
#include "model/load_model.hpp"
#include "sparse/problem.hpp"

namespace rbdgen::bench {
namespace {

using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;
constexpr int kStates = 32;

struct State {
    std::vector<double> q, qd, tau, g{0.1, -0.2, -9.81};
};

struct Case {
    const ContactDerivativesRobot* r = nullptr;
    Model model;
    Problem problem;
    std::vector<State> states;
    int next = 0;
    std::vector<double> out[6], yp, ym, qp;
    short tag = 0, impulse_tag = 0;
    double** X = nullptr;  // directions: q's by the tangent basis, then unit ones
    double** Y = nullptr;
    std::vector<double> y;
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

// ADOL-C's tape of the reference contact_aba at the first state: (q, q̇, τ) → (q̈, λ), τ on every dof; an
// impact's (q, q̇⁻) → (q̇⁺, Λ).
void tape(const Case& c, const std::vector<HeldFrame>& held, short tag, bool impulse) {
    const int n = c.r->nv, m = c.r->m;
    const State& s = c.states[0];
    trace_on(tag);
    AVec q(c.r->nq), qd(n), tau(n);
    for (int i = 0; i < c.r->nq; ++i) q[i] <<= s.q[i];
    for (int i = 0; i < n; ++i) qd[i] <<= s.qd[i];
    for (int i = 0; i < n; ++i) {
        if (impulse) tau[i] = 0;
        else tau[i] <<= s.tau[i];
    }
    ConstrainedMotion<adouble> cm = contact_aba<adouble>(c.model, held, q, qd, tau, Vec3<adouble>(s.g[0], s.g[1], s.g[2]), AVec(), impulse);
    for (int i = 0; i < n; ++i) {
        double v;
        cm.qdd[i] >>= v;
    }
    for (int i = 0; i < m; ++i) {
        double v;
        cm.lambda[i] >>= v;
    }
    trace_off();
}

std::unique_ptr<Case> make_case(const ContactDerivativesRobot& r, short tag) {
    auto c = std::make_unique<Case>();
    c->r = &r;
    c->model = prepare_model(load_model(r.urdf, {.floating_base = true})).model;
    c->problem = load_problem(c->model, "contact:" + r.contacts);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < kStates; ++k) {
        State s;
        for (int i = 0; i < r.nq; ++i) s.q.push_back(u(rng));
        const double n = std::sqrt(s.q[3] * s.q[3] + s.q[4] * s.q[4] + s.q[5] * s.q[5] + s.q[6] * s.q[6]);
        for (int i = 3; i < 7; ++i) s.q[i] /= n;
        for (int i = 0; i < r.nv; ++i) s.qd.push_back(u(rng)), s.tau.push_back(i < 6 ? 0 : 10 * u(rng));
        c->states.push_back(s);
    }
    const int n = r.nv, m = r.m;
    for (int o = 0; o < 6; ++o) c->out[o].assign((o < 3 ? n : m) * n, 0.0);
    c->yp.assign(n + m, 0), c->ym.assign(n + m, 0), c->y.assign(n + m, 0);
    c->tag = tag, c->impulse_tag = static_cast<short>(tag + 100);
    tape(*c, c->problem.held, c->tag, false);
    tape(*c, load_problem(c->model, "impulse:" + r.contacts).held, c->impulse_tag, true);
    c->X = myalloc2(r.nq + 2 * n, 3 * n);
    c->Y = myalloc2(n + m, 3 * n);
    return c;
}

double** out_pointers(Case& c, double* p[6]) {
    for (int o = 0; o < 6; ++o) p[o] = c.out[o].data();
    return p;
}
void generated(Case& c, State& s, ContactDerivativesRobot::Derivatives f) {
    double* p[6];
    out_pointers(c, p);
    f(s.q.data(), s.qd.data(), s.tau.data(), s.g.data(), p[0], p[1], p[2], p[3], p[4], p[5]);
}

// Central differences of an emitted forward kernel y (q, q̇, τ) → (q̈, λ) along q's tangent directions,
// then the first `along` − 1 of q̇'s and τ's (the contact: both; the impact: q̇'s).
template <class Forward> void differences(Case& c, State& s, int along, Forward y) {
    const int n = c.r->nv, m = c.r->m;
    const double h = 1e-5;
    const auto column = [&](int x, int k) {
        for (int i = 0; i < n + m; ++i) {
            const double d = (c.yp[i] - c.ym[i]) / (2 * h);
            (i < n ? c.out[x][i * n + k] : c.out[3 + x][(i - n) * n + k]) = d;
        }
    };
    for (int k = 0; k < n; ++k) {
        plus(s.q, k, h, c.qp);
        y(c.qp.data(), s.qd.data(), s.tau.data(), c.yp.data());
        plus(s.q, k, -h, c.qp);
        y(c.qp.data(), s.qd.data(), s.tau.data(), c.ym.data());
        column(0, k);
    }
    for (int x = 1; x < along; ++x) {
        std::vector<double>& v = x == 1 ? s.qd : s.tau;
        for (int k = 0; k < n; ++k) {
            const double x0 = v[k];
            v[k] = x0 + h;
            y(s.q.data(), s.qd.data(), s.tau.data(), c.yp.data());
            v[k] = x0 - h;
            y(s.q.data(), s.qd.data(), s.tau.data(), c.ym.data());
            v[k] = x0;
            column(x, k);
        }
    }
}
void central(Case& c, State& s) {
    differences(c, s, 3, [&](const double* q, const double* qd, const double* tau, double* y) { c.r->contact_aba(q, qd, tau, s.g.data(), y); });
}

// The impact on the same contacts: impulse_derivatives (∂q̇⁺ and ∂Λ along q and q̇⁻, into out[0], out[1],
// out[3], out[4]) and central differences of the emitted impulse_aba (4 NV calls).
void impact(Case& c, State& s, ContactDerivativesRobot::ImpulseDerivatives f) {
    f(s.q.data(), s.qd.data(), s.g.data(), c.out[0].data(), c.out[1].data(), c.out[3].data(), c.out[4].data());
}
void impact_central(Case& c, State& s) {
    differences(c, s, 2, [&](const double* q, const double* qd, const double*, double* y) { c.r->impulse_aba(q, qd, s.g.data(), y); });
}

// ADOL-C's forward mode on the tape, in every direction at once (fov_forward): the contact's along q, q̇
// and τ, the impact's (impulse) along q and q̇⁻.
void adolc(Case& c, State& s, bool impulse = false) {
    const int nq = c.r->nq, n = c.r->nv, m = c.r->m, arguments = impulse ? 2 : 3, p = arguments * n;
    std::vector<double> x(nq + (arguments - 1) * n);
    std::copy(s.q.begin(), s.q.end(), x.begin());
    std::copy(s.qd.begin(), s.qd.end(), x.begin() + nq);
    if (!impulse) std::copy(s.tau.begin(), s.tau.end(), x.begin() + nq + n);
    tangent_directions(s.q, nq, n, p, c.X);
    fov_forward(impulse ? c.impulse_tag : c.tag, n + m, static_cast<int>(x.size()), p, x.data(), c.X, c.y.data(), c.Y);
    for (int along = 0; along < arguments; ++along)
        for (int i = 0; i < n + m; ++i)
            for (int k = 0; k < n; ++k) (i < n ? c.out[along][i * n + k] : c.out[3 + along][(i - n) * n + k]) = c.Y[i][along * n + k];
}

using Peer = void (*)(Case&, State&);
struct Named {
    const char* name;
    Peer run;
};
const Named kPeers[] = {{"rbdgen", [](Case& c, State& s) { generated(c, s, c.r->derivatives); }},
                        {"rbdgen-native", [](Case& c, State& s) { generated(c, s, c.r->derivatives_native); }},
                        {"rbdgen-native-lanes", [](Case& c, State& s) { generated(c, s, c.r->derivatives_lanes); }},
                        {"central", central},
                        {"adolc", [](Case& c, State& s) { adolc(c, s); }},
                        {"impulse-rbdgen", [](Case& c, State& s) { impact(c, s, c.r->impulse_derivatives); }},
                        {"impulse-rbdgen-native", [](Case& c, State& s) { impact(c, s, c.r->impulse_derivatives_native); }},
                        {"impulse-rbdgen-native-lanes", [](Case& c, State& s) { impact(c, s, c.r->impulse_derivatives_lanes); }},
                        {"impulse-central", impact_central},
                        {"impulse-adolc", [](Case& c, State& s) { adolc(c, s, true); }}};

Peer peer(const std::string& name) {
    for (const Named& p : kPeers)
        if (name == p.name) return p.run;
    return nullptr;
}

// max |a − b| / max(1, max |b|) over the outputs, along q, q̇ and the τ the problem reads, at one state.
double disagreement(Case& c, Peer a, Peer b) {
    State s = c.states[3];
    a(c, s);
    std::vector<double> first[6];
    for (int o = 0; o < 6; ++o) first[o] = c.out[o];
    b(c, s);
    const int n = c.r->nv;
    double d = 0, scale = 1;
    for (int o = 0; o < 6; ++o)
        for (size_t i = 0; i < first[o].size(); ++i) {
            if (o % 3 == 2 && !c.problem.tau_known[i % n]) continue;  // a force the problem holds at zero
            d = std::max(d, std::abs(first[o][i] - c.out[o][i])), scale = std::max(scale, std::abs(c.out[o][i]));
        }
    return d / scale;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);
    std::vector<ContactDerivativesRobot> robots = contact_derivatives_robots();
    std::vector<std::unique_ptr<Case>> cases;
    short tag = 40;
    for (const ContactDerivativesRobot& r : robots) cases.push_back(make_case(r, tag++));
    for (auto& c : cases)
        for (const Named& p : kPeers) {
            Case* x = c.get();
            const Peer run = p.run;
            register_hot_and_cold(c->r->label + "/" + p.name, [x]() -> State& { return x->state(); }, [x, run](State& s) { run(*x, s); });
        }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);
    if (out_file.empty()) return 0;
    std::ofstream out(out_file);
    const double clock = ghz();
    out << "\n| robot (NV, contact rows) | rbdgen hot | `-march=native` | with `--lanes` | central differences of `contact_aba` | ADOL-C forward mode | rbdgen cold | operations, operations per cycle (portable) | agreement with central differences, with ADOL-C |\n"
           "|---|---|---|---|---|---|---|---|---|\n";
    for (auto& c : cases) {
        const std::string l = c->r->label;
        const auto t = [&](const std::string& peer) { return collect.ns[l + "/" + peer]; };
        const double ours = t("rbdgen");
        const auto ratio = [&](const std::string& peer) { return fmt_ns(t(peer) / 1000) + " µs (" + num(t(peer) / ours, "%.0f") + "×)"; };
        long ops = 0;
        std::ifstream report(c->r->report);
        const nlohmann::json j = nlohmann::json::parse(report);
        for (const char* k : {"add", "mul", "div"}) ops += j["problems"]["contact"]["kernels"]["contact_derivatives"]["ops"][k].get<long>();
        out << "| " << l << " (" << c->r->nv << ", " << c->r->m << ") | " << fmt_ns(ours / 1000) << " µs | " << fmt_ns(t("rbdgen-native") / 1000)
            << " µs | " << fmt_ns(t("rbdgen-native-lanes") / 1000) << " µs | " << ratio("central") << " | " << ratio("adolc") << " | "
            << fmt_ns(t("rbdgen-cold") / 1000) << " µs | " << ops << ", " << (clock > 0 ? num(ops / (ours * clock), "%.1f") : "?") << " | "
            << num(disagreement(*c, peer("rbdgen"), central), "%.1e") << ", " << num(disagreement(*c, peer("rbdgen"), peer("adolc")), "%.1e") << " |\n";
    }
    out << "\nThe impact on the same contacts (`--problem impulse:<feet>`): `impulse_derivatives` (∂q̇⁺ and the impulses' ∂Λ along q and "
           "q̇⁻) against central differences of the emitted `impulse_aba` (4 NV calls) and ADOL-C's forward mode on the reference "
           "`impulse_aba` (its own tape, `fov_forward` in 2 NV directions), the same states.\n\n"
           "| robot (NV, contact rows) | rbdgen hot | `-march=native` | with `--lanes` | central differences of `impulse_aba` | ADOL-C forward mode | "
           "rbdgen cold | operations | agreement with central differences, with ADOL-C |\n|---|---|---|---|---|---|---|---|---|\n";
    for (auto& c : cases) {
        const std::string l = c->r->label;
        const auto t = [&](const std::string& peer) { return collect.ns[l + "/" + peer]; };
        const double ours = t("impulse-rbdgen");
        const auto ratio = [&](const std::string& peer) { return fmt_ns(t(peer) / 1000) + " µs (" + num(t(peer) / ours, "%.0f") + "×)"; };
        long ops = 0;
        std::ifstream report(c->r->report);
        const nlohmann::json j = nlohmann::json::parse(report);
        for (const char* k : {"add", "mul", "div"}) ops += j["problems"]["impulse"]["kernels"]["impulse_derivatives"]["ops"][k].get<long>();
        out << "| " << l << " (" << c->r->nv << ", " << c->r->m << ") | " << fmt_ns(ours / 1000) << " µs | " << fmt_ns(t("impulse-rbdgen-native") / 1000)
            << " µs | " << fmt_ns(t("impulse-rbdgen-native-lanes") / 1000) << " µs | " << ratio("impulse-central") << " | " << ratio("impulse-adolc")
            << " | " << fmt_ns(t("impulse-rbdgen-cold") / 1000) << " µs | " << ops << " | " << num(disagreement(*c, peer("impulse-rbdgen"), impact_central), "%.1e") << ", "
            << num(disagreement(*c, peer("impulse-rbdgen"), peer("impulse-adolc")), "%.1e") << " |\n";
    }
}
