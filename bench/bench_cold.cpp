// Cold calls (issue 30): each kernel's single call after every cache and TLB is evicted, three ways,
// against the strongest libraries of this machine (MuJoCo and DART; KDL takes serial chains only) in
// the same process:
//   plain   the kernel as it is;
//   _cold   the kernel's cold entry (warm(), then the kernel);
//   ahead   warm() issued, then other work (a wait, as a controller waits for its sensors), then the
//           kernel: the call's time alone, and warm()'s own time beside it;
//   called  the same with a call of the kernel (at another state) in warm()'s place: the best any
//           warming can do, since everything the kernel reads is then in the caches.
// Every call at one of 32 random states; the variants of all robots and kernels in a new random order
// each round; median and minimum over the rounds. Hot: the minimum of 200 loops of 100 calls.
// Prints a Markdown table (bench/cold.md, bench/cold.sh).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include "cold_robots.hpp"
#include "collect.hpp"

namespace rbdgen::bench {
namespace {

using Clock = std::chrono::steady_clock;
double ns(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::nano>(b - a).count(); }

// The instruction TLBs: a call into each of 2048 pages (8 MiB) of code, one `ret` a page, after
// flush_caches has filled the data TLBs and the caches with its own pages. x86-64 only.
class CodePages {
public:
    CodePages() {
#if defined(__x86_64__)
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        bytes_ = kPages * page;
        void* m = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return;
        base_ = static_cast<unsigned char*>(m);
        for (size_t p = 0; p < kPages; ++p) {
            base_[p * page] = 0xC3;  // ret
            entries_.push_back(base_ + p * page);
        }
        if (mprotect(base_, bytes_, PROT_READ | PROT_EXEC) != 0) entries_.clear();
#endif
    }
    bool evicts() const { return !entries_.empty(); }
    void run() const {
        for (unsigned char* e : entries_) reinterpret_cast<void (*)()>(e)();
    }

private:
    static constexpr size_t kPages = 2048;
    unsigned char* base_ = nullptr;
    size_t bytes_ = 0;
    std::vector<unsigned char*> entries_;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    std::string out_file;
    int rounds = 201;
    double gap_ns = 5000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--out=", 0) == 0) out_file = a.substr(6);
        else if (a.rfind("--rounds=", 0) == 0) rounds = std::stoi(a.substr(9));
        else if (a.rfind("--gap-ns=", 0) == 0) gap_ns = std::stod(a.substr(9));
    }
    const CodePages code_pages;
    std::vector<ColdRobot> robots = cold_robots();
    std::mt19937_64 rng(30);
    std::map<std::string, std::vector<Inputs>> states;
    std::map<std::string, std::map<std::string, Peer>> peers;  // by library, by robot
    for (const ColdRobot& r : robots) {
        for (int k = 0; k < 32; ++k) states[r.label].push_back(random_inputs(r.nq, r.nv, r.floating_base, 100 + k));
        peers["dart"][r.label] = dart_peer(r.urdf, r.floating_base, r.joints);
        peers["mujoco"][r.label] = mujoco_peer(r.urdf, r.floating_base, r.joints);
    }
    // One task: a robot's kernel in one variant.
    struct Task {
        const ColdRobot* robot;
        const ColdKernel* kernel;
        std::string variant;  // plain, cold, ahead, called, or a library: dart, mujoco
        std::vector<double> call, warm;
        int next = 0;
    };
    std::vector<Task> tasks;
    for (const ColdRobot& r : robots)
        for (const ColdKernel& k : r.kernels)
            for (const char* v : {"plain", "cold", "ahead", "called", "dart", "mujoco"}) tasks.push_back({&r, &k, v, {}, {}});
    const auto peer_call = [&](const std::string& library, const ColdRobot& r, const ColdKernel& k) -> const Call& {
        const Peer& p = peers.at(library).at(r.label);
        return k.name == "rnea" ? p.rnea : k.name == "crba" ? p.crba : p.aba;  // one forward dynamics
    };
    const auto is_peer = [](const std::string& variant) { return variant == "dart" || variant == "mujoco"; };
    const auto evict = [&] {
        flush_caches(64 << 20);
        code_pages.run();
    };
    std::vector<size_t> order(tasks.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (int round = 0; round < rounds; ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        for (size_t i : order) {
            Task& t = tasks[i];
            Inputs& s = states[t.robot->label][t.next];
            t.next = (t.next + 1) % 32;
            evict();
            const Call& f = is_peer(t.variant) ? peer_call(t.variant, *t.robot, *t.kernel) : t.variant == "cold" ? t.kernel->cold : t.kernel->plain;
            Clock::time_point t0;
            if (t.variant == "ahead" || t.variant == "called") {
                const Clock::time_point w0 = Clock::now();
                if (t.variant == "ahead") t.kernel->warm();
                else {  // the kernel itself, at another state: everything it reads is then in the caches
                    Inputs& o = states[t.robot->label][(t.next + 16) % 32];
                    t.kernel->plain(o.q.data(), o.qd.data(), o.x.data(), o.g.data(), o.out.data());
                }
                const Clock::time_point w1 = Clock::now();
                t.warm.push_back(ns(w0, w1));
                while (ns(w1, Clock::now()) < gap_ns) {
                }
            }
            t0 = Clock::now();
            f(s.q.data(), s.qd.data(), s.x.data(), s.g.data(), s.out.data());
            benchmark::DoNotOptimize(s.out.data());
            t.call.push_back(ns(t0, Clock::now()));
        }
    }
    // Hot: the minimum over 200 loops of 100 calls, the plain entry and the libraries.
    std::map<std::pair<const ColdKernel*, std::string>, double> hot;
    for (const ColdRobot& r : robots)
        for (const ColdKernel& k : r.kernels)
            for (const std::string way : {"plain", "dart", "mujoco"}) {
                const Call& f = way == "plain" ? k.plain : peer_call(way, r, k);
                double best = 1e300;
                for (int rep = 0; rep < 200; ++rep) {
                    const Clock::time_point t0 = Clock::now();
                    for (int c = 0; c < 100; ++c) {
                        Inputs& s = states[r.label][c % 32];
                        f(s.q.data(), s.qd.data(), s.x.data(), s.g.data(), s.out.data());
                        benchmark::DoNotOptimize(s.out.data());
                    }
                    best = std::min(best, ns(t0, Clock::now()) / 100);
                }
                hot[{&k, way}] = best;
            }

    const auto find = [&](const ColdKernel* k, const char* v) -> const Task& {
        return *std::find_if(tasks.begin(), tasks.end(), [&](const Task& t) { return t.kernel == k && t.variant == v; });
    };
    std::string md = "Cold single calls, ns: every cache evicted (64 MiB written) and the TLBs (" +
                     std::string(code_pages.evicts() ? "a call into each of 2048 pages of code" : "the instruction TLB NOT evicted: no x86-64") +
                     ") before each call; median (minimum) of " + std::to_string(rounds) +
                     " rounds, all variants in a new random order each round. *ahead*: warm() issued, then " + fmt_ns(gap_ns / 1000) +
                     " µs of other work (a wait), then the call, timed alone; *warm()*: warm()'s own time; *called ahead*: the same "
                     "with a call of the kernel at another state in warm()'s place (the best a warming can do). Libraries: MuJoCo "
                     "(bench/mujoco.cpp's calls) and DART, each one forward dynamics, the peer of aba and fd_crba_ltdl. Hot: minimum "
                     "over 200 loops of 100 calls.\n\n"
                     "| robot | kernel | plain | _cold | ahead | warm() | called ahead | MuJoCo | MuJoCo / _cold | DART | DART / _cold | DART / ahead | hot | MuJoCo hot | DART hot |\n"
                     "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const ColdRobot& r : robots)
        for (const ColdKernel& k : r.kernels) {
            const Task &plain = find(&k, "plain"), &cold = find(&k, "cold"), &ahead = find(&k, "ahead"), &called = find(&k, "called"),
                       &d = find(&k, "dart"), &mj = find(&k, "mujoco");
            const auto cell = [](const std::vector<double>& v) { return fmt_ns(median(v)) + " (" + fmt_ns(*std::min_element(v.begin(), v.end())) + ")"; };
            md += "| " + r.label + " | " + k.name + " | " + cell(plain.call) + " | " + cell(cold.call) + " | " + cell(ahead.call) + " | " +
                  cell(ahead.warm) + " | " + cell(called.call) + " | " + cell(mj.call) + " | " + fmt_ns(median(mj.call) / median(cold.call)) + "× | " +
                  cell(d.call) + " | " + fmt_ns(median(d.call) / median(cold.call)) + "× | " + fmt_ns(median(d.call) / median(ahead.call)) + "× | " +
                  fmt_ns(hot[{&k, "plain"}]) + " | " + fmt_ns(hot[{&k, "mujoco"}]) + " | " + fmt_ns(hot[{&k, "dart"}]) + " |\n";
        }
    std::printf("%s", md.c_str());
    if (!out_file.empty()) std::ofstream(out_file) << md;
    return 0;
}
