// Generated kernels against the reference implementation and KDL, in one process, on the same
// states: ns per call and ratios, as a Markdown table (bench/RESULTS.md). Run by bench/run.sh.
#include <algorithm>
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "collect.hpp"
#include "peers.hpp"

namespace rbdgen::bench {
namespace {

const char* const kKernels[] = {"rnea", "crba", "fd_crba_ltdl", "aba"};
const Call& kernel(const Peer& p, const std::string& k) {
    return k == "rnea" ? p.rnea : k == "crba" ? p.crba : k == "fd_crba_ltdl" ? p.fd_crba_ltdl : p.aba;
}

// max |a − b| / max(1, |b|) over the kernel's output, for the record that peers agree.
double disagreement(const Robot& r, const Call& a, const Call& b, const std::string& k) {
    Inputs x = random_inputs(r.nq, r.nv, r.floating_base, 7), y = random_inputs(r.nq, r.nv, r.floating_base, 7);
    a(x.q.data(), x.qd.data(), x.x.data(), x.g.data(), x.out.data());
    b(y.q.data(), y.qd.data(), y.x.data(), y.g.data(), y.out.data());
    const int n = k == "crba" ? r.nv * r.nv : r.nv;
    double d = 0, s = 1;
    for (int i = 0; i < n; ++i) d = std::max(d, std::abs(x.out[i] - y.out[i])), s = std::max(s, std::abs(y.out[i]));
    return d / s;
}

// The states every timed call cycles through: random, so that neither the sine and cosine's
// argument reduction nor the data caches see one state over and over.
constexpr int kStates = 32;
struct States {
    std::vector<Inputs> s;
    int next = 0;
    explicit States(const Robot& r) {
        for (int k = 0; k < kStates; ++k) s.push_back(random_inputs(r.nq, r.nv, r.floating_base, 100 + k));
    }
    Inputs& operator()() {
        Inputs& x = s[next];
        next = next + 1 == kStates ? 0 : next + 1;
        return x;
    }
};

// The conditions each kernel is timed in: a hot loop, or single calls after evicting this much.
struct Condition {
    const char* suffix;
    std::size_t evict;
    const char* title;
};
const Condition kConditions[] = {{"", 0, "Hot loop (32 random states, cycled)"},
                                 {"-l2", 1 << 20, "One call after evicting 1 MiB (L1 and L2)"},
                                 {"-cold", 64 << 20, "One call after evicting 64 MiB (every cache)"}};

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);

    std::vector<Robot> robots = generated_robots();
    std::map<std::string, std::vector<Peer>> peers;
    std::string agreement;
    for (const Robot& r : robots) {
        peers[r.label].push_back(r.generated);
        peers[r.label].push_back(r.straight);
        peers[r.label].push_back(r.uniform);
        peers[r.label].push_back(r.native);
        peers[r.label].push_back(reference_peer(r.urdf, r.floating_base));
        if (r.serial) peers[r.label].push_back(kdl_peer(r.urdf));
        peers[r.label].push_back(dart_peer(r.urdf, r.floating_base, r.joints));
        peers[r.label].push_back(mujoco_peer(r.urdf, r.floating_base, r.joints));
        for (const Peer& p : peers[r.label])
            for (const char* k : kKernels)
                if (p.name != "rbdgen" && kernel(p, k))
                    agreement += "| " + r.label + " | " + k + " | " + p.name + " | " +
                                 sci(disagreement(r, kernel(r.generated, k), kernel(p, k), k)) + " |\n";
    }
    // Every peer's kernels in the three conditions (what a controller sees when other work runs
    // between its calls: the caches hold less of the kernel's code and data, or none).
    for (const Robot& r : robots) {
        for (const Peer& p : peers[r.label]) {
            for (const char* k : kKernels) {
                const Call& call = kernel(p, k);
                if (!call) continue;
                benchmark::RegisterBenchmark((r.label + "/" + k + "/" + p.name).c_str(), [&r, call](benchmark::State& state) {
                    States states(r);
                    for (auto _ : state) {
                        Inputs& in = states();
                        call(in.q.data(), in.qd.data(), in.x.data(), in.g.data(), in.out.data());
                        benchmark::DoNotOptimize(in.out.data());
                        benchmark::ClobberMemory();
                    }
                })->ComputeStatistics("min", minimum);
                for (const Condition& c : kConditions) {
                    if (!c.evict) continue;
                    benchmark::RegisterBenchmark((r.label + "/" + k + "/" + p.name + c.suffix).c_str(), [&r, call, c](benchmark::State& state) {
                        States states(r);
                        for (auto _ : state) {
                            Inputs& in = states();
                            flush_caches(c.evict);
                            const auto t0 = std::chrono::steady_clock::now();
                            call(in.q.data(), in.qd.data(), in.x.data(), in.g.data(), in.out.data());
                            benchmark::DoNotOptimize(in.out.data());
                            state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                        }
                    })->UseManualTime()->Iterations(64)->Repetitions(10)->ComputeStatistics("min", minimum);
                }
            }
        }
    }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);

    // KDL's, DART's and MuJoCo's one forward dynamics is the peer of both generated ones.
    auto get = [&](const Robot& r, const std::string& k, const std::string& peer) {
        const bool library = peer.rfind("kdl", 0) == 0 || peer.rfind("dart", 0) == 0 || peer.rfind("mujoco", 0) == 0;  // one forward dynamics
        const std::string key = library && k == "fd_crba_ltdl" ? "aba" : k;
        const auto it = collect.ns.find(r.label + "/" + key + "/" + peer);
        return it == collect.ns.end() ? -1.0 : it->second;
    };
    auto cell = [](double v) { return v < 0 ? std::string("—") : fmt_ns(v); };
    auto ratio = [](double a, double b) { return a < 0 || b < 0 ? std::string("—") : fmt_ns(a / b) + "×"; };
    const double clock = ghz();
    std::string md;
    for (const Robot& r : robots) {
        md += "\n### " + r.label + " (NV " + std::to_string(r.nv) + (r.floating_base ? ", floating base" : "") + ")\n";
        const nlohmann::json rep = r.report_json.empty() ? nlohmann::json() : nlohmann::json::parse(r.report_json);
        for (const Condition& c : kConditions) {
            const std::string cold = c.suffix;
            md += "\n" + std::string(c.title) + ", ns per call:\n\n";
            md += "| kernel | emission | rbdgen | rbdgen straight-line | rbdgen uniform | rbdgen -march=native | reference | KDL | DART | MuJoCo | "
                  "MuJoCo / rbdgen | best library / rbdgen | best library / rbdgen-native |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
            for (const char* k : kKernels) {
                const double g = get(r, k, "rbdgen" + cold), straight = get(r, k, "rbdgen-straight" + cold),
                             uniform = get(r, k, "rbdgen-uniform" + cold),
                             native = get(r, k, "rbdgen-native" + cold), ref = get(r, k, "reference" + cold),
                             kdl = r.serial ? get(r, k, "kdl" + cold) : -1.0, dart = get(r, k, "dart" + cold),
                             mujoco = get(r, k, "mujoco" + cold);
                if (g < 0) continue;
                double best = -1;
                for (double peer : {kdl, dart, mujoco})
                    if (peer >= 0 && (best < 0 || peer < best)) best = peer;
                const std::string emission = rep.contains("kernels") && rep["kernels"].contains(k) ? rep["kernels"][k]["emission"].get<std::string>() : "?";
                md += "| " + std::string(k) + " | " + emission + " | " + cell(g) + " | " + cell(straight) + " | " + cell(uniform) + " | " + cell(native) + " | " + cell(ref) + " | " + cell(kdl) + " | " + cell(dart) +
                      " | " + cell(mujoco) + " | " + ratio(mujoco, g) + " | " + ratio(best, g) + " | " + ratio(best, native) + " |\n";
            }
        }
        if (clock > 0 && rep.contains("kernels")) {
            md += "\nUseful operations per cycle in the hot loop (add + mul + div of report.json over ns x " + fmt_ns(clock) +
                  " GHz, the clock /proc/cpuinfo states):\n\n| kernel | operations | rbdgen | rbdgen -march=native |\n|---|---|---|---|\n";
            for (const char* k : kKernels) {
                if (!rep["kernels"].contains(k)) continue;
                const auto& o = rep["kernels"][k]["ops"];
                const long ops = o["add"].get<long>() + o["mul"].get<long>() + o["div"].get<long>();
                const double g = get(r, k, "rbdgen"), native = get(r, k, "rbdgen-native");
                char row[160];
                std::snprintf(row, sizeof row, "| %s | %ld | %.2f | %.2f |\n", k, ops, ops / (g * clock), ops / (native * clock));
                md += row;
            }
        }
    }
    md += "\nKDL's forward dynamics is ChainFdSolver_RNE, DART's its articulated-body computeForwardDynamics, MuJoCo's "
          "mj_crb + mj_factorM + mj_rne (the bias) + mj_solveM (each the peer of both aba and fd_crba_ltdl); KDL's CRBA is "
          "ChainDynParam::JntToMass, DART's getMassMatrix, MuJoCo's mj_crb + mj_fullM; MuJoCo's inverse dynamics mj_rne, each "
          "after the position and velocity stages it needs (bench/mujoco.cpp). Best library: the fastest of KDL, DART and "
          "MuJoCo (general libraries; the reference is rbdgen's own templated code).\n";
    md += "\nAgreement of each peer with the generated kernels at one random state (max |Δ| / max(1, |x|)):\n\n";
    md += "| robot | kernel | peer | disagreement |\n|---|---|---|---|\n" + agreement;
    md += "\nOperation counts of the generated kernels (divisions counted as multiplications):\n\n";
    md += "| robot | kernel | mul | add | sin+cos |\n|---|---|---|---|---|\n";
    for (const Robot& r : robots) {
        if (r.report_json.empty()) continue;
        const nlohmann::json rep = nlohmann::json::parse(r.report_json);
        for (const auto& [k, e] : rep["kernels"].items()) {
            const auto& o = e["ops"];
            md += "| " + r.label + " | " + k + " | " + std::to_string(o["mul"].get<long>() + o["div"].get<long>()) + " | " +
                  std::to_string(o["add"].get<long>()) + " | " + std::to_string(o["sin"].get<long>() + o["cos"].get<long>()) + " |\n";
        }
    }
    // Featherstone §6: the 30-DoF humanoid of Fig. 6, general geometry, best hand-optimized costs.
    for (const Robot& r : robots) {
        if (r.label != "humanoid30_fb" || r.report_json.empty()) continue;
        const nlohmann::json rep = nlohmann::json::parse(r.report_json);
        struct Row {
            const char* what;
            const char* kernel;
            long m, a;
        };
        const Row rows[] = {{"RNEA", "rnea", 2275, 1996}, {"CRBA", "crba", 2475, 2124}, {"LTDL factorization", "ltdl", 1258, 1039},
                            {"back-substitution (per vector)", "ltdl_solve", 468, 438}, {"ABA", "aba", 5544, 5054}};
        md += "\nThe 30-DoF humanoid of Featherstone Fig. 6 (general geometry and inertias; divisions counted as multiplications; "
              "sin/cos not counted, as in the paper):\n\n| kernel | rbdgen mul | rbdgen add | Featherstone §6 mul | Featherstone §6 add | "
              "mul ratio | add ratio |\n|---|---|---|---|---|---|---|\n";
        for (const Row& row : rows) {
            if (!rep["kernels"].contains(row.kernel)) continue;
            const auto& o = rep["kernels"][row.kernel]["ops"];
            const long m = o["mul"].get<long>() + o["div"].get<long>() + o["sqrt"].get<long>(), a = o["add"].get<long>();
            char ratio[64];
            std::snprintf(ratio, sizeof ratio, "%.2f | %.2f", double(m) / row.m, double(a) / row.a);
            md += "| " + std::string(row.what) + " | " + std::to_string(m) + " | " + std::to_string(a) + " | " + std::to_string(row.m) +
                  " | " + std::to_string(row.a) + " | " + ratio + " |\n";
        }
    }
    std::printf("%s", md.c_str());
    if (!out_file.empty()) std::ofstream(out_file) << md;
    return 0;
}
