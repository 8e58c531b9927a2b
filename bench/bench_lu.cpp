// Nori's static-pivot LU as generated, in one process with its peers, on the same states:
//   - the generated <p>_factor + <p>_solve against KLU (klu_refactor + klu_solve, the library's way
//     to reuse a symbolic analysis, given the same row and column order) and Eigen's SparseLU
//     (factorize + solve after analyzePattern), for inverse (id) and forward (fd) dynamics;
//   - the generated fused fd_lu against the generated aba and fd_crba_ltdl, id_lu against rnea;
//   - constrained dynamics (issue 31: both feet of the floating humanoids in 6D contact), the generated
//     contact_lu against the dense KKT solve (CRBA, and Eigen's LU of [H Jᵀ; J 0]) and ABA with the
//     operational-space solve (H⁻¹ Jᵀ by CRBA and Cholesky, what Pinocchio's contactDynamics does),
//     both the project's reference in double, and against the generated aba; and the same for contact_aba,
//     the problem solved by the articulated-body algorithm (algorithms/contact_aba.hpp).
// Markdown tables for bench/RESULTS.md (--out=FILE). Run by bench/run.sh.
#include <benchmark/benchmark.h>
#include <klu.h>

#include <Eigen/SparseLU>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/rnea.hpp"
#include "collect.hpp"
#include "report_ops.hpp"
#include "lu_robots.hpp"
#include "emit/prepare.hpp"
#include "model/urdf_loader.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen::bench {
namespace {

std::string num(double v, const char* f = "%.0f") {
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// One problem of one robot at one state, set up for every peer.
struct Case {
    std::string label;  // robot/problem
    const LuProblem* generated = nullptr;
    const LuProblem* native = nullptr;  // the same kernels built with -march=native
    int n = 0;
    std::vector<double> q, qd, x, g{0, 0, -9.81};
    std::vector<double> D, b, LU, d;  // the generated kernels' arrays
    std::vector<double> LU_native, d_native;
    std::vector<int> Ap, Ai;          // D in compressed columns, every nonzero
    std::vector<double> Ax, rhs;      // and −b
    std::vector<int> P, Q;            // the analysis' order
    Eigen::SparseMatrix<double> A;
    long ops_factor_solve = 0, nnz_D = 0, nnz_LU = 0;
    std::string ordering;
};

Case make_case(const LuRobot& r, const std::string& problem_name, const Model& model, const nlohmann::json& report) {
    Case c;
    c.label = r.label + "/" + problem_name;
    c.generated = problem_name == "id" ? &r.id : problem_name == "fd" ? &r.fd : &r.contact;
    c.native = problem_name == "id" ? &r.id_native : problem_name == "fd" ? &r.fd_native : &r.contact_native;
    const Problem problem = problem_name == "id"   ? inverse_dynamics_problem(model)
                            : problem_name == "fd" ? forward_dynamics_problem(model)
                                                   : load_problem(model, "contact:" + r.contacts);
    const ProblemAnalysis a = analyze_problem(model, problem);  // the generator's own analysis: the same order
    c.ordering = a.ordering;
    if (report["problems"][problem_name]["ordering"] != a.ordering) std::fprintf(stderr, "warning: %s: the order differs from the generator's\n", c.label.c_str());
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < r.nq; ++i) c.q.push_back(3 * u(rng));
    if (r.floating_base) {
        double n = 0;
        for (int k = 3; k < 7; ++k) n += c.q[k] * c.q[k];
        for (int k = 3; k < 7; ++k) c.q[k] /= std::sqrt(n);
    }
    for (int i = 0; i < r.nv; ++i) c.qd.push_back(u(rng)), c.x.push_back(5 * u(rng));
    if (problem_name == "contact" && r.floating_base)
        for (int i = 0; i < 6; ++i) c.x[i] = 0;  // nothing drives the floating base
    const auto vec = [](const std::vector<double>& v) { return Eigen::Map<const VecX<double>>(v.data(), static_cast<long>(v.size())); };
    const NewtonEulerSystem<double> sys =
        problem_system<double>(model, problem, vec(c.q), vec(c.qd), Vec3<double>(c.g[0], c.g[1], c.g[2]), {VecX<double>(vec(c.x))});
    c.n = a.pattern.cols;
    c.Ap.push_back(0);
    std::vector<Eigen::Triplet<double>> triplets;
    for (int col = 0; col < a.pattern.cols; ++col) {
        for (int row : a.pattern.columns[col]) c.Ai.push_back(row), c.Ax.push_back(sys.D(row, col)), triplets.emplace_back(row, col, sys.D(row, col));
        c.Ap.push_back(static_cast<int>(c.Ai.size()));
    }
    for (int i = 0; i < sys.b.size(); ++i) c.rhs.push_back(-sys.b[i]);
    c.P = a.lu.order.rows, c.Q = a.lu.order.columns;
    c.A.resize(c.n, c.n);
    c.A.setFromTriplets(triplets.begin(), triplets.end());
    const LuProblem& p = *c.generated;
    c.D.resize(p.D_size), c.b.resize(p.b_size), c.LU.resize(p.LU_size), c.d.resize(p.d_size);
    c.LU_native.resize(p.LU_size), c.d_native.resize(p.d_size);
    p.assemble(c.q.data(), c.qd.data(), c.x.data(), c.g.data(), c.D.data(), c.b.data());
    const auto& k = report["problems"][problem_name]["kernels"];
    c.ops_factor_solve = total_ops(k[problem_name + "_factor"]) + total_ops(k[problem_name + "_solve"]);
    c.nnz_D = a.pattern.nnz(), c.nnz_LU = a.lu.nnz;
    return c;
}

// Constrained dynamics by the project's reference, two ways (contacts: the frames held in 6D).
struct ContactPeers {
    const Model* model;
    std::vector<LinkFrame> frames;
    // J (world-aligned, 6 rows a contact) and J̇ q̇, from one kinematics pass each.
    void jacobian(const VecX<double>& q, const VecX<double>& qd, MatX<double>& J, VecX<double>& Jdqd) const {
        const MatX<double> J0 = spatial_jacobian<double>(*model, q);
        const std::vector<FrameState<double>> s = frame_states<double>(*model, frames, q, qd, VecX<double>::Zero(model->nv));
        J.resize(6 * frames.size(), model->nv), Jdqd.resize(6 * frames.size());
        for (size_t c = 0; c < frames.size(); ++c) {
            const MatX<double> Jb = body_support<double>(*model, J0, frames[c].body);
            for (int k = 0; k < model->nv; ++k) J.block(6 * c, k, 6, 1) = world_aligned<double>(s[c].X_0, s[c].X_0.apply(Vec6<double>(Jb.col(k))));
            Jdqd.segment(6 * c, 6) = s[c].a;
        }
    }
    // (a) [H Jᵀ; J 0] [q̈; −λ] = [τ − h; −J̇ q̇], dense, Eigen's partial-pivoting LU.
    VecX<double> kkt(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g) const {
        const int nv = model->nv;
        MatX<double> J;
        VecX<double> Jdqd;
        jacobian(q, qd, J, Jdqd);
        const int m = static_cast<int>(J.rows());
        MatX<double> K = MatX<double>::Zero(nv + m, nv + m);
        K.topLeftCorner(nv, nv) = crba<double>(*model, q);
        K.topRightCorner(nv, m) = J.transpose();
        K.bottomLeftCorner(m, nv) = J;
        VecX<double> rhs(nv + m);
        rhs << tau - rnea<double>(*model, q, qd, VecX<double>::Zero(nv), g), -Jdqd;
        return K.partialPivLu().solve(rhs).head(nv);
    }
    // (b) q̈ = q̈_free + H⁻¹ Jᵀ λ, (J H⁻¹ Jᵀ) λ = −J̇ q̇ − J q̈_free: ABA, CRBA, Cholesky.
    VecX<double> aba_osim(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g) const {
        MatX<double> J;
        VecX<double> Jdqd;
        jacobian(q, qd, J, Jdqd);
        const VecX<double> free = aba<double>(*model, q, qd, tau, g);
        const Eigen::LLT<MatX<double>> H(crba<double>(*model, q));
        const MatX<double> MinvJt = H.solve(J.transpose());
        const VecX<double> lambda = (J * MinvJt).llt().solve(-Jdqd - J * free);
        return free + MinvJt * lambda;
    }
};

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0, s = 1;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i])), s = std::max(s, std::abs(b[i]));
    return d / s;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen;
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);

    const std::vector<LuRobot> robots = lu_robots();
    std::vector<Case> cases;
    std::map<std::string, nlohmann::json> reports;
    for (const LuRobot& r : robots) {
        const Model model = prepare_model(load_urdf(r.urdf, {.floating_base = r.floating_base})).model;
        reports[r.label] = nlohmann::json::parse(std::ifstream(r.report));
        for (const char* p : {"id", "fd", "contact"})
            if (std::string(p) != "contact" || !r.contacts.empty()) cases.push_back(make_case(r, p, model, reports[r.label]));
    }
    // Every peer set up once (symbolic analysis, a first numeric factorization), then timed on
    // what a controller repeats at each state: factor and solve.
    std::string agreement;
    std::vector<klu_common> commons(cases.size());
    std::vector<klu_symbolic*> symbolic(cases.size());
    std::vector<klu_numeric*> numeric(cases.size());
    std::vector<Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>>> sparse_lu(cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
        Case& c = cases[i];
        klu_defaults(&commons[i]);
        commons[i].btf = 0;  // one block: the order given is the whole order
        symbolic[i] = klu_analyze_given(c.n, c.Ap.data(), c.Ai.data(), c.P.data(), c.Q.data(), &commons[i]);
        numeric[i] = klu_factor(c.Ap.data(), c.Ai.data(), c.Ax.data(), symbolic[i], &commons[i]);
        sparse_lu[i].analyzePattern(c.A);
        sparse_lu[i].factorize(c.A);
        c.generated->factor(c.D.data(), c.LU.data());
        c.generated->solve(c.D.data(), c.LU.data(), c.b.data(), c.d.data());
        c.native->factor(c.D.data(), c.LU_native.data());
        c.native->solve(c.D.data(), c.LU_native.data(), c.b.data(), c.d_native.data());
        std::vector<double> klu_x = c.rhs;
        klu_solve(symbolic[i], numeric[i], c.n, 1, klu_x.data(), &commons[i]);
        const VecX<double> eigen_x = sparse_lu[i].solve(Eigen::Map<const VecX<double>>(c.rhs.data(), c.n));
        agreement += "| " + c.label + " | " + num(max_rel_diff(klu_x, c.d), "%.1e") + " | " +
                     num(max_rel_diff(std::vector<double>(eigen_x.data(), eigen_x.data() + c.n), c.d), "%.1e") + " | " +
                     num(max_rel_diff(c.d_native, c.d), "%.1e") + " |\n";
    }
    for (size_t i = 0; i < cases.size(); ++i) {
        Case* c = &cases[i];
        // the portable and the native build of the same kernels, on the same D and b
        const auto generated = [c](const std::string& peer, const LuProblem* p, std::vector<double>* LU, std::vector<double>* d) {
            benchmark::RegisterBenchmark((c->label + "/" + peer).c_str(), [c, p, LU, d](benchmark::State& state) {
                for (auto _ : state) {
                    p->factor(c->D.data(), LU->data());
                    p->solve(c->D.data(), LU->data(), c->b.data(), d->data());
                    benchmark::DoNotOptimize(d->data());
                    benchmark::ClobberMemory();
                }
            })->ComputeStatistics("min", minimum);
        };
        generated("rbdgen", c->generated, &c->LU, &c->d);
        generated("rbdgen-native", c->native, &c->LU_native, &c->d_native);
        benchmark::RegisterBenchmark((c->label + "/klu").c_str(), [c, i, &symbolic, &numeric, &commons](benchmark::State& state) {
            std::vector<double> x(c->n);
            for (auto _ : state) {
                klu_refactor(c->Ap.data(), c->Ai.data(), c->Ax.data(), symbolic[i], numeric[i], &commons[i]);
                x = c->rhs;
                klu_solve(symbolic[i], numeric[i], c->n, 1, x.data(), &commons[i]);
                benchmark::DoNotOptimize(x.data());
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
        benchmark::RegisterBenchmark((c->label + "/sparselu").c_str(), [c, i, &sparse_lu](benchmark::State& state) {
            VecX<double> x(c->n);
            const Eigen::Map<const VecX<double>> rhs(c->rhs.data(), c->n);
            for (auto _ : state) {
                sparse_lu[i].factorize(c->A);
                x = sparse_lu[i].solve(rhs);
                benchmark::DoNotOptimize(x.data());
                benchmark::ClobberMemory();
            }
        })->ComputeStatistics("min", minimum);
    }
    // Constrained dynamics: the fused contact_lu against the reference's two ways, at the case's state.
    std::map<std::string, ContactPeers> contact_peers;
    std::map<std::string, Model> contact_models;
    std::string contact_agreement;
    for (const LuRobot& r : robots) {
        if (r.contacts.empty()) continue;
        contact_models[r.label] = prepare_model(load_urdf(r.urdf, {.floating_base = r.floating_base})).model;
        ContactPeers& p = contact_peers[r.label];
        p.model = &contact_models[r.label];
        for (size_t from = 0; from <= r.contacts.size();) {
            const size_t comma = std::min(r.contacts.find(',', from), r.contacts.size());
            p.frames.push_back(*link_frame(*p.model, r.contacts.substr(from, comma - from)));
            from = comma + 1;
        }
        std::sort(p.frames.begin(), p.frames.end(), [](const LinkFrame& a, const LinkFrame& b) { return a.body < b.body; });
        const Case* c = nullptr;
        for (const Case& x : cases)
            if (x.label == r.label + "/contact") c = &x;
        const auto vec = [](const std::vector<double>& v) { return VecX<double>(Eigen::Map<const VecX<double>>(v.data(), static_cast<long>(v.size()))); };
        const VecX<double> q = vec(c->q), qd = vec(c->qd), tau = vec(c->x);
        const Vec3<double> g(c->g[0], c->g[1], c->g[2]);
        std::vector<double> out(r.contact.d_size > 0 ? static_cast<size_t>(r.nv + 12) : 0);
        r.contact.fused(c->q.data(), c->qd.data(), c->x.data(), c->g.data(), out.data());
        std::vector<double> out_aba(out.size());
        r.contact_aba(c->q.data(), c->qd.data(), c->x.data(), c->g.data(), out_aba.data());
        const VecX<double> kkt = p.kkt(q, qd, tau, g), osim = p.aba_osim(q, qd, tau, g);
        const auto off = [&](const std::vector<double>& o, const VecX<double>& peer) {
            return num((vec(o).head(r.nv) - peer).cwiseAbs().maxCoeff() / std::max(1.0, peer.cwiseAbs().maxCoeff()), "%.1e");
        };
        contact_agreement += "| " + r.label + " | " + off(out, kkt) + " | " + off(out, osim) + " | " + off(out_aba, kkt) + " | " + off(out_aba, osim) + " |\n";
        for (const char* way : {"kkt", "aba_osim"}) {
            const ContactPeers* peer = &p;
            const bool dense = std::string(way) == "kkt";
            benchmark::RegisterBenchmark((r.label + "/contact_" + way).c_str(), [peer, dense, q, qd, tau, g](benchmark::State& state) {
                for (auto _ : state) {
                    VecX<double> x = dense ? peer->kkt(q, qd, tau, g) : peer->aba_osim(q, qd, tau, g);
                    benchmark::DoNotOptimize(x.data());
                    benchmark::ClobberMemory();
                }
            })->ComputeStatistics("min", minimum);
        }
        for (const auto& [way, f] : {std::pair{"contact_lu", r.contact.fused}, std::pair{"contact_aba", r.contact_aba}})
            benchmark::RegisterBenchmark((r.label + "/" + way).c_str(), [&r, c, f = f](benchmark::State& state) {
                std::vector<double> out(r.nv + 12);
                for (auto _ : state) {
                    f(c->q.data(), c->qd.data(), c->x.data(), c->g.data(), out.data());
                    benchmark::DoNotOptimize(out.data());
                    benchmark::ClobberMemory();
                }
            })->ComputeStatistics("min", minimum);
    }
    // The fused kernels against the classical algorithms, generated alike.
    for (const LuRobot& r : robots) {
        const auto add = [&r](const std::string& name, Kernel4 f) {
            benchmark::RegisterBenchmark((r.label + "/" + name).c_str(), [&r, f](benchmark::State& state) {
                std::vector<double> q(r.nq, 0.3), qd(r.nv, 0.2), x(r.nv, 1.0), g{0, 0, -9.81}, out(r.nv);
                if (r.floating_base) q[3] = q[4] = q[5] = 0, q[6] = 1;
                for (auto _ : state) {
                    f(q.data(), qd.data(), x.data(), g.data(), out.data());
                    benchmark::DoNotOptimize(out.data());
                    benchmark::ClobberMemory();
                }
            })->ComputeStatistics("min", minimum);
        };
        add("id_lu", r.id.fused), add("rnea", r.rnea), add("fd_lu", r.fd.fused), add("aba", r.aba), add("fd_crba_ltdl", r.fd_crba_ltdl);
    }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);

    auto ns = [&](const std::string& k) { return collect.ns.count(k) ? collect.ns[k] : -1.0; };
    std::string md = "\n## Nori's static-pivot LU (`bench/bench_lu.cpp`)\n\n";
    md += "Generated factor + solve against KLU (`klu_refactor` + `klu_solve`, given the same row and column order, "
          "BTF off) and Eigen's SparseLU (`factorize` + `solve` after `analyzePattern`, COLAMD), on the same D and b; "
          "each the minimum of the repetitions, ns per call, everything at `-O2`; the generated kernels also built with "
          "`-O2 -march=native` (\"native\"), as a user builds for the machine at hand (KLU and SparseLU stay Debian's "
          "portable builds).\n\n";
    md += "| robot / problem | D | nnz D | nnz L+U | ordering | ops factor+solve | rbdgen ns | native ns | KLU ns | SparseLU ns | KLU / rbdgen | KLU / native | SparseLU / rbdgen |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Case& c : cases) {
        const double g = ns(c.label + "/rbdgen"), k = ns(c.label + "/klu"), s = ns(c.label + "/sparselu"), n = ns(c.label + "/rbdgen-native");
        md += "| " + c.label + " | " + std::to_string(c.n) + " | " + std::to_string(c.nnz_D) + " | " + std::to_string(c.nnz_LU) + " | " +
              c.ordering + " | " + std::to_string(c.ops_factor_solve) + " | " + num(g) + " | " + num(n) + " | " + num(k) + " | " + num(s) + " | " +
              num(k / g, "%.1f") + "× | " + num(k / n, "%.1f") + "× | " + num(s / g, "%.1f") + "× |\n";
    }
    md += "\nAgreement of d with the generated solve (max |Δ| / max(1, |d|)):\n\n| robot / problem | KLU | SparseLU | native |\n|---|---|---|---|\n" + agreement;
    md += "\nThe fused LU kernels against the classical algorithms, all generated (ns per call; operations from report.json):\n\n";
    md += "| robot | id_lu ns (ops) | rnea ns (ops) | fd_lu ns (ops) | aba ns (ops) | fd_crba_ltdl ns (ops) | fd_lu / aba time | fd_lu / aba ops |\n";
    md += "|---|---|---|---|---|---|---|---|\n";
    for (const LuRobot& r : robots) {
        const nlohmann::json& rep = reports[r.label];
        const long id_ops = total_ops(rep["problems"]["id"]["kernels"]["id_lu"]), fd_ops = total_ops(rep["problems"]["fd"]["kernels"]["fd_lu"]),
                   rnea_ops = total_ops(rep["kernels"]["rnea"]), aba_ops = total_ops(rep["kernels"]["aba"]),
                   crba_ops = total_ops(rep["kernels"]["fd_crba_ltdl"]);
        const auto cell = [&](const std::string& k, long ops) { return num(ns(r.label + "/" + k)) + " (" + std::to_string(ops) + ")"; };
        md += "| " + r.label + " | " + cell("id_lu", id_ops) + " | " + cell("rnea", rnea_ops) + " | " + cell("fd_lu", fd_ops) + " | " +
              cell("aba", aba_ops) + " | " + cell("fd_crba_ltdl", crba_ops) + " | " + num(ns(r.label + "/fd_lu") / ns(r.label + "/aba"), "%.2f") +
              " | " + num(static_cast<double>(fd_ops) / aba_ops, "%.2f") + " |\n";
    }
    md += "\nConstrained dynamics (issue 31), both feet in 6D contact: the generated fused `contact_lu` (its problem's "
          "ordering in the first table) against (a) the dense KKT solve (CRBA, then Eigen's partial-pivoting LU of [H Jᵀ; J 0]) "
          "and (b) ABA and the operational-space solve (H⁻¹ Jᵀ by CRBA and Cholesky, then J H⁻¹ Jᵀ λ = −J̇q̇ − J q̈_free), both the "
          "project's reference in double, with J and J̇q̇ from one pass of kinematics each; KLU: `klu_refactor` + `klu_solve` on "
          "the same D, against the generated factor + solve (first table); aba: the generated ABA (the unconstrained dynamics). "
          "ns per call, minimum of the repetitions:\n\n";
    md += "| robot | kernel | ns (ops) | aba ns (ops) | kernel / aba | KKT ns | ABA + OSIM ns | KKT / kernel | ABA+OSIM / kernel | KLU ns | KLU / kernel |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const LuRobot& r : robots) {
        if (r.contacts.empty()) continue;
        const nlohmann::json& rep = reports[r.label];
        const long aba_ops = total_ops(rep["kernels"]["aba"]);
        const double a = ns(r.label + "/aba"), k = ns(r.label + "/contact_kkt"), o = ns(r.label + "/contact_aba_osim");
        const double klu = ns(r.label + "/contact/klu");
        for (const char* kernel : {"contact_lu", "contact_aba"}) {
            const long ops = total_ops(rep["problems"]["contact"]["kernels"][kernel]);
            const double t = ns(r.label + "/" + kernel);
            md += "| " + r.label + " | " + kernel + " | " + num(t) + " (" + std::to_string(ops) + ") | " + num(a) + " (" + std::to_string(aba_ops) +
                  ") | " + num(t / a, "%.2f") + " | " + num(k) + " | " + num(o) + " | " + num(k / t, "%.1f") + "× | " + num(o / t, "%.1f") + "× | " +
                  num(klu) + " | " + num(klu / t, "%.1f") + "× |\n";
        }
    }
    md += "\nKLU: `klu_refactor` + `klu_solve` on the problem's D (the first table), without D's assembly, which the kernels include.\n";
    md += "\nAgreement of q̈ with the two reference ways (max |Δ| / max(1, |q̈|)):\n\n| robot | contact_lu vs KKT | contact_lu vs ABA + OSIM | "
          "contact_aba vs KKT | contact_aba vs ABA + OSIM |\n|---|---|---|---|---|\n" + contact_agreement;
    for (size_t i = 0; i < cases.size(); ++i) klu_free_numeric(&numeric[i], &commons[i]), klu_free_symbolic(&symbolic[i], &commons[i]);
    if (!out_file.empty()) std::ofstream(out_file) << md;
    else std::printf("%s", md.c_str());
    return 0;
}
