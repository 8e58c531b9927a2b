// The batched kernels (--batch W) against the single-state kernel of the same robot, in one process,
// interleaved: states per second. Each side cycles through the same 32 random states (one a call,
// or W a call); the single-state kernel of every library is the same code, timed in the W = 4 one.
// Writes the Markdown table to --out=FILE.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "batch_robots.hpp"
#include "collect.hpp"

namespace rbdgen::bench {
namespace {

void time_calls(benchmark::State& state, const std::function<void(int)>& f, int calls) {
    int k = 0;
    for (auto _ : state) {
        f(k);
        k = k + 1 == calls ? 0 : k + 1;
        benchmark::ClobberMemory();
    }
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out = initialize(argc, argv);
    const std::vector<BatchRobot> robots = batch_robots();
    std::map<std::string, std::string> flags;
    for (const BatchRobot& r : robots) {
        flags[std::to_string(r.width)] = r.flags;
        for (const BatchKernel& k : r.kernels) {
            if (r.width == 4)
                benchmark::RegisterBenchmark((r.label + "/" + k.name + "/1").c_str(),
                                             [&k](benchmark::State& s) { time_calls(s, k.single, kBatchStates); });
            benchmark::RegisterBenchmark((r.label + "/" + k.name + "/" + std::to_string(r.width)).c_str(),
                                         [&k, &r](benchmark::State& s) { time_calls(s, k.batched, kBatchStates / r.width); });
        }
    }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);
    std::string md = "| robot | kernel | one state ns | W = 2: ns/state (states/s ×) | W = 4 | W = 8 |\n|---|---|---|---|---|---|\n";
    for (const BatchRobot& r : robots) {
        if (r.width != 4) continue;
        for (const BatchKernel& k : r.kernels) {
            const std::string base = r.label + "/" + k.name + "/";
            const double one = collect.ns[base + "1"];
            md += "| " + r.label + " | " + k.name + " | " + std::to_string(static_cast<int>(one + 0.5));
            for (int w : {2, 4, 8}) {
                const auto it = collect.ns.find(base + std::to_string(w));
                char cell[64];
                if (it == collect.ns.end()) std::snprintf(cell, sizeof cell, " | —");
                else std::snprintf(cell, sizeof cell, " | %.0f (%.2f×)", it->second / w, one / (it->second / w));
                md += cell;
            }
            md += " |\n";
        }
    }
    md += "\nFlags by W:";
    for (const auto& [w, f] : flags) md += " W = " + w + ": `" + f + "`;";
    md += "\n";
    if (!out.empty()) std::ofstream(out) << md;
    std::printf("%s", md.c_str());
    return 0;
}
