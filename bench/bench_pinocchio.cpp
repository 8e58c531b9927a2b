// Every kernel family against its Pinocchio 3.7 counterpart (pinocchio.hpp), on each robot of
// pinocchio_robots.hpp, in one process: the same 32 random states on both sides, every pair's outputs
// compared first (a pair that disagrees beyond 1e-9 is reported and not timed), then all of them
// timed hot, interleaved by Google Benchmark, the minimum of the repetitions. Prints Markdown
// (bench/pinocchio.sh writes it into bench/pinocchio.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "collect.hpp"
#include "pinocchio.hpp"
#include "pinocchio_robots.hpp"

namespace rbdgen::bench {

const char* family_name(Family f) {
    switch (f) {
    case Family::fk: return "fk";
    case Family::rnea: return "rnea";
    case Family::crba: return "crba";
    case Family::aba: return "aba";
    case Family::fd: return "fd_crba_ltdl";
    case Family::minv: return "minv";
    case Family::com: return "com";
    case Family::com_jacobian: return "com_jacobian";
    case Family::centroidal: return "centroidal";
    case Family::coriolis: return "coriolis";
    case Family::energy: return "energy";
    case Family::rnea_derivatives: return "rnea_derivatives";
    case Family::aba_derivatives: return "aba_derivatives";
    case Family::centroidal_derivatives: return "centroidal_derivatives";
    case Family::integrate_jacobians: return "integrate_jacobians";
    case Family::difference_jacobians: return "difference_jacobians";
    }
    return "?";
}

const char* pinocchio_counterpart(Family f) {
    switch (f) {
    case Family::fk: return "forwardKinematics";
    case Family::rnea: return "rnea";
    case Family::crba: return "crba";
    case Family::aba: return "aba";
    case Family::fd: return "nonLinearEffects + crba + cholesky::decompose + cholesky::solve";
    case Family::minv: return "computeMinverse";
    case Family::com: return "centerOfMass";
    case Family::com_jacobian: return "jacobianCenterOfMass";
    case Family::centroidal: return "dccrba, then dAg q̇";
    case Family::coriolis: return "computeCoriolisMatrix";
    case Family::energy: return "computeKineticEnergy + computePotentialEnergy";
    case Family::rnea_derivatives: return "computeRNEADerivatives";
    case Family::aba_derivatives: return "computeABADerivatives";
    case Family::centroidal_derivatives: return "computeCentroidalDynamicsDerivatives";
    case Family::integrate_jacobians: return "dIntegrate, ARG0 and ARG1";
    case Family::difference_jacobians: return "dDifference, ARG0 and ARG1";
    }
    return "?";
}

int output_size(Family f, int nv, int nb) {
    switch (f) {
    case Family::fk: return 12 * nb;
    case Family::rnea:
    case Family::aba:
    case Family::fd: return nv;
    case Family::crba:
    case Family::minv:
    case Family::coriolis: return nv * nv;
    case Family::com: return 3;
    case Family::com_jacobian: return 3 * nv;
    case Family::centroidal: return 6 * nv + 12;
    case Family::energy: return 2;
    case Family::rnea_derivatives: return 2 * nv * nv;
    case Family::aba_derivatives: return 3 * nv * nv;
    case Family::centroidal_derivatives: return 4 * 6 * nv;
    case Family::integrate_jacobians:
    case Family::difference_jacobians: return 2 * nv * nv;
    }
    return 0;
}

namespace {

constexpr int kStates = 32;  // cycled, so that neither sin/cos's argument reduction nor the caches see one state
constexpr double kAgreement = 1e-9;

// max |a − b| / max(1, max |b|)
double disagreement(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0, s = 1;
    for (size_t i = 0; i < b.size(); ++i) d = std::max(d, std::abs(a[i] - b[i])), s = std::max(s, std::abs(b[i]));
    return a.size() == b.size() ? d / s : INFINITY;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);
    std::vector<PinocchioBenchRobot> robots = pinocchio_robots();
    std::map<std::string, std::vector<Inputs>> states;
    std::map<std::string, std::unique_ptr<PinocchioRobot>> peers;
    std::map<std::string, std::string> skipped;
    std::map<std::string, double> worst;  // "robot/family/build": the worst disagreement with Pinocchio
    std::vector<std::vector<double>> buffers;
    for (const PinocchioBenchRobot& r : robots) {
        std::vector<Inputs>& s = states[r.label];
        for (int k = 0; k < kStates; ++k) s.push_back(random_inputs(r.nq, r.nv, r.floating_base, 100 + k));
        std::string why;
        std::unique_ptr<PinocchioRobot> peer = pinocchio_robot(r.urdf, r.floating_base, r.joints, why);
        if (!peer) {
            skipped[r.label] = why;
            std::fprintf(stderr, "%s: Pinocchio skipped: %s\n", r.label.c_str(), why.c_str());
        } else {
            peer->set_states(s);
            // Every pair's outputs at every state, before anything is timed.
            for (Family f : kFamilies)
                for (const Build& b : r.builds) {
                    double& w = worst[r.label + "/" + family_name(f) + "/" + b.name];
                    std::vector<double> out(output_size(f, r.nv, static_cast<int>(r.joints.size())));
                    for (int k = 0; k < kStates; ++k) {
                        b.kernel[static_cast<int>(f)](s[k], s[(k + 1) % kStates], out.data());
                        peer->run(f, k);
                        w = std::max(w, disagreement(out, peer->outputs(f, k)));
                    }
                }
            peers[r.label] = std::move(peer);
        }
    }
    for (const PinocchioBenchRobot& r : robots) {
        std::vector<Inputs>* s = &states[r.label];
        PinocchioRobot* peer = peers.count(r.label) ? peers[r.label].get() : nullptr;
        for (Family f : kFamilies) {
            const std::string name = r.label + "/" + family_name(f) + "/";
            bool agrees = peer != nullptr;
            for (const Build& b : r.builds) agrees = agrees && worst[name + b.name] <= kAgreement;
            for (const Build& b : r.builds) {
                buffers.emplace_back(output_size(f, r.nv, static_cast<int>(r.joints.size())));
                double* out = buffers.back().data();
                const Kernel kernel = b.kernel[static_cast<int>(f)];
                benchmark::RegisterBenchmark((name + b.name).c_str(), [s, kernel, out](benchmark::State& st) {
                    int k = 0;
                    for (auto _ : st) {
                        const int next = k + 1 == kStates ? 0 : k + 1;
                        kernel((*s)[k], (*s)[next], out);
                        benchmark::DoNotOptimize(out);
                        benchmark::ClobberMemory();
                        k = next;
                    }
                })->ComputeStatistics("min", minimum);
            }
            if (!agrees) continue;  // no bench times a wrong thing
            benchmark::RegisterBenchmark((name + "pinocchio").c_str(), [peer, f](benchmark::State& st) {
                int k = 0;
                for (auto _ : st) {
                    peer->run(f, k);
                    benchmark::ClobberMemory();
                    k = k + 1 == kStates ? 0 : k + 1;
                }
            })->ComputeStatistics("min", minimum);
        }
    }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);

    auto get = [&](const std::string& key) {
        const auto it = collect.ns.find(key);
        return it == collect.ns.end() ? -1.0 : it->second;
    };
    auto cell = [](double v) { return v < 0 ? std::string("—") : fmt_ns(v); };
    auto share = [](double a, double pin) { return a < 0 || pin < 0 ? std::string("—") : num(a / pin, "%.2f"); };
    const double clock = ghz();
    std::string md;
    for (const PinocchioBenchRobot& r : robots) {
        md += "\n### " + r.label + " (NV " + std::to_string(r.nv) + (r.floating_base ? ", floating base" : "") + ")\n\n";
        if (skipped.count(r.label)) md += "Pinocchio skipped: " + skipped[r.label] + "\n\n";
        const nlohmann::json rep = nlohmann::json::parse(r.report_json);
        md += "| kernel | Pinocchio | operations | Pinocchio ns | rbdgen default | -O2 | -O2 -march=native | --lanes native | "
              "default / Pinocchio (goal ≤ 0.5) | best native / Pinocchio (goal ≤ 0.33) | operations a cycle (best native) | "
              "agreement |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        for (Family f : kFamilies) {
            const std::string name = r.label + "/" + family_name(f) + "/";
            const double pin = get(name + "pinocchio"), def = get(name + "default"), o2 = get(name + "O2"), native = get(name + "native"),
                         lanes = get(name + "lanes");
            const double best_native = native < 0 ? lanes : lanes < 0 ? native : std::min(native, lanes);
            long ops = -1;
            if (rep["kernels"].contains(family_name(f))) {
                const auto& o = rep["kernels"][family_name(f)]["ops"];
                ops = o["add"].get<long>() + o["mul"].get<long>() + o["div"].get<long>();
            }
            double w = 0;
            for (const Build& b : r.builds) w = std::max(w, worst[name + b.name]);
            const std::string mark_default = pin < 0 ? "" : def / pin <= 0.5 ? " ✓" : " ✗";
            const std::string mark_native = pin < 0 ? "" : best_native / pin <= 1.0 / 3 ? " ✓" : " ✗";
            md += "| " + std::string(family_name(f)) + " | " + pinocchio_counterpart(f) + " | " + (ops < 0 ? "—" : std::to_string(ops)) + " | " +
                  cell(pin) + " | " + cell(def) + " | " + cell(o2) + " | " + cell(native) + " | " + cell(lanes) + " | " + share(def, pin) +
                  mark_default + " | " + share(best_native, pin) + mark_native + " | " +
                  (ops < 0 || clock <= 0 || best_native <= 0 ? "—" : num(ops / (best_native * clock), "%.2f")) + " | " +
                  (peers.count(r.label) ? sci(w) + (w <= kAgreement ? "" : " **disagrees: not timed**") : "—") + " |\n";
        }
    }
    std::printf("%s", md.c_str());
    if (!out_file.empty()) std::ofstream(out_file) << md;
    return 0;
}
