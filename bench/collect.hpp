// What both benchmark programs report: the fastest repetition of each benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rbdgen::bench {

// The fastest repetition: on a shared virtual machine, other guests only ever add time, so the
// minimum is the steadiest estimate of a kernel's own cost (the medians drifted 20-50% between runs).
inline double minimum(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

class Collect : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> ns;
    std::set<std::string> aggregated;
    void ReportRuns(const std::vector<Run>& runs) override {
        // With --benchmark_repetitions, the minimum of the repetitions; else the one run.
        for (const Run& r : runs) {
            const std::string name = r.run_name.function_name;
            if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "min") ns[name] = r.GetAdjustedRealTime(), aggregated.insert(name);
            else if (r.run_type == Run::RT_Iteration && !aggregated.count(name)) ns[name] = r.GetAdjustedRealTime();
        }
        ConsoleReporter::ReportRuns(runs);
    }
};

// A kernel call's arrays: q (unit quaternion for a floating base), qd, qdd or tau (x), gravity, and
// room for the largest output (H).
struct Inputs {
    std::vector<double> q, qd, x, g{0, 0, -9.81}, out;
};
inline Inputs random_inputs(int nq, int nv, bool floating_base, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    Inputs in;
    for (int i = 0; i < nq; ++i) in.q.push_back(u(rng));
    if (floating_base) {  // unit quaternion
        double n = 0;
        for (int k = 3; k < 7; ++k) n += in.q[k] * in.q[k];
        for (int k = 3; k < 7; ++k) in.q[k] /= std::sqrt(n);
    }
    for (int i = 0; i < nv; ++i) in.qd.push_back(u(rng)), in.x.push_back(5 * u(rng));
    in.out.assign(nv * nv, 0.0);
    return in;
}

// A time in ns for a table: one decimal below 100.
// The clock of this CPU in GHz (for operations per cycle), from /proc/cpuinfo, or 0.
inline double ghz() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("cpu MHz", 0) == 0) return std::stod(line.substr(line.find(':') + 1)) / 1000;
    return 0;
}

// v printed by the printf format f
inline std::string num(double v, const char* f) {
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}
inline std::string fmt_ns(double v) { return num(v, v < 100 ? "%.1f" : "%.0f"); }
// A small relative difference, as 3.1e-15
inline std::string sci(double v) { return num(v, "%.1e"); }

// Evict the caches: write `bytes` (1 MiB: this machine's L2 of one core; 64 MiB: every cache).
inline void flush_caches(std::size_t bytes) {
    static std::vector<char> junk(64 << 20);
    for (size_t i = 0; i < bytes; i += 64) junk[i] = static_cast<char>(junk[i] + 1);
    benchmark::ClobberMemory();
}

// Google Benchmark's own flags go to it; ours, --out=FILE (where the Markdown tables go), is returned.
inline std::string initialize(int argc, char** argv) {
    std::string out_file;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::string(argv[i]).rfind("--out=", 0) == 0) out_file = argv[i] + 6;
        else args.push_back(argv[i]);
    }
    int n = static_cast<int>(args.size());
    benchmark::Initialize(&n, args.data());
    return out_file;
}

// Two benchmarks of one call: `name` hot (the next state each iteration) and `name`-cold (64 MiB
// written before each call, the call alone timed, 32 calls a repetition, 10 repetitions), each
// reporting the minimum of its repetitions. next() gives the state; run(state) makes the call.
template <class Next, class Run> void register_hot_and_cold(const std::string& name, Next next, Run run) {
    benchmark::RegisterBenchmark(name.c_str(), [next, run](benchmark::State& st) {
        for (auto _ : st) {
            run(next());
            benchmark::ClobberMemory();
        }
    })->ComputeStatistics("min", minimum);
    benchmark::RegisterBenchmark((name + "-cold").c_str(), [next, run](benchmark::State& st) {
        for (auto _ : st) {
            auto& s = next();
            flush_caches(64 << 20);
            const auto t0 = std::chrono::steady_clock::now();
            run(s);
            benchmark::ClobberMemory();
            st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
    })->UseManualTime()->Iterations(32)->Repetitions(10)->ComputeStatistics("min", minimum);
}

}  // namespace rbdgen::bench
