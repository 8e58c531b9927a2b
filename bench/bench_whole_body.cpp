// What whole-body and legged controllers compute every cycle, as generated, against MuJoCo (Debian's
// libmujoco-dev, the strongest engine in Debian) in one process on the same states, hot (32 random
// states cycled): MuJoCo computes these quantities only inside its pipeline, so its time is that of the
// calls a user makes for each (mj_kinematics and mj_comPos, then mj_jacSubtreeCom; mj_crb, mj_factorM
// and mj_solveM on the identity for H⁻¹; mj_crb, mj_energyPos and mj_energyVel for the energies).
// MuJoCo has no centroidal momentum matrix, no Coriolis matrix and no Jacobian rate. DART (Debian's
// libdart-dev, bench/dart.cpp) where it has the quantity: getCOM, getCOMLinearJacobian,
// getInvMassMatrix, computeKineticEnergy + computePotentialEnergy. Cold: 64 MiB written before each
// call (every cache evicted), 32 calls a repetition. Beside them, the
// figures issues 43 and 46 quote for Pinocchio 3.7 (Intel Xeon, -O3 -march=native, hot, median; not
// run here) and H⁻¹'s time against the generated aba's. The centroidal derivatives against central
// differences of the generated centroidal_momentum_rate (what a user without them does); q ⊕ v and
// q₁ ⊖ q₀ against MuJoCo's mj_integratePos and mj_differentiatePos; the frames' motion derivatives
// (the arm's flange, the feet) against central differences of frame_motion. Markdown for bench/RESULTS.md
// (--out=FILE).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "collect.hpp"
#include "report_ops.hpp"
#include "model/urdf_loader.hpp"
#include "mujoco_model.hpp"
#include "peers.hpp"
#include "whole_body_robots.hpp"

namespace rbdgen::bench {
namespace {

constexpr int kStates = 32;

struct Case {
    const WholeBodyRobot* r = nullptr;
    std::vector<Inputs> states;
    int next = 0;
    std::vector<double> a, b, c, d, e, identity, step, qp, qm, vp, ap, fp, fm;
    std::vector<std::vector<double>> q1, mj_q, mj_q1;  // a state's q ⊕ q̇, and both in MuJoCo's order
    size_t index(const Inputs& s) const { return static_cast<size_t>(&s - states.data()); }
    test::Mujoco mj;
    Peer dart;
    int root = 1;  // MuJoCo's body whose subtree is the moving bodies
    Inputs& state() {
        Inputs& s = states[next];
        next = (next + 1) % kStates;
        return s;
    }
    // MuJoCo's qpos and qvel from a state (its free joint's quaternion w first)
    void set(const Inputs& s) {
        mjData* d = mj.d;
        const int nq = r->nq;
        for (int i = 0; i < nq; ++i) d->qpos[i] = s.q[i];
        if (r->floating_base) d->qpos[3] = s.q[6], d->qpos[4] = s.q[3], d->qpos[5] = s.q[4], d->qpos[6] = s.q[5];
        for (int i = 0; i < r->nv; ++i) d->qvel[i] = s.qd[i];
    }
};

// The quantities, each by rbdgen and (where it has it) by MuJoCo.
struct Quantity {
    const char* name;  // the kernel's
    const char* pinocchio;  // the Pinocchio function
    double pinocchio_arm, pinocchio_humanoid;  // µs
    void (*rbdgen)(Case&, Inputs&);
    void (*mujoco)(Case&, Inputs&);
    Call Peer::*dart;
    void (*differences)(Case&, Inputs&) = nullptr;  // what a user without the kernel does
};
// q ⊕ h e_k and q ⊕ −h e_k into c.qp and c.qm, by the generated integrate.
void tangent_steps(Case& c, const Inputs& s, int k, double h) {
    std::fill(c.step.begin(), c.step.end(), 0.0);
    c.step[k] = h;
    c.r->integrate(s.q.data(), c.step.data(), c.qp.data());
    c.step[k] = -h;
    c.r->integrate(s.q.data(), c.step.data(), c.qm.data());
}
// Central differences of the generated centroidal_momentum_rate along q's tangent directions (q ⊕ ±h e_k
// by the generated integrate), q̇ and q̈: what centroidal_derivatives replaces.
void centroidal_differences(Case& c, Inputs& s) {
    const WholeBodyRobot& r = *c.r;
    const int nv = r.nv;
    const double h = 1e-6;
    double hp[12], hm[12];
    for (int k = 0; k < nv; ++k) {
        tangent_steps(c, s, k, h);
        r.centroidal_momentum_rate(c.qp.data(), s.qd.data(), s.x.data(), hp, hp + 6);
        r.centroidal_momentum_rate(c.qm.data(), s.qd.data(), s.x.data(), hm, hm + 6);
        for (int i = 0; i < 12; ++i) c.a[i * nv + k] = (hp[i] - hm[i]) / (2 * h);
        for (int which = 0; which < 2; ++which) {  // q̇, then q̈
            std::vector<double>& x = which == 0 ? c.vp : c.ap;
            x = which == 0 ? s.qd : s.x;
            x[k] += h;
            r.centroidal_momentum_rate(s.q.data(), which == 0 ? x.data() : s.qd.data(), which == 0 ? s.x.data() : x.data(), hp, hp + 6);
            x[k] -= 2 * h;
            r.centroidal_momentum_rate(s.q.data(), which == 0 ? x.data() : s.qd.data(), which == 0 ? s.x.data() : x.data(), hm, hm + 6);
            for (int i = 6; i < 12; ++i) c.b[(which * 6 + i - 6) * nv + k] = (hp[i] - hm[i]) / (2 * h);
        }
    }
}
// Central differences of the generated frame_motion (v and a, 6 rows a frame) along q's tangent directions,
// q̇ and q̈: what frame_motion_derivatives replaces (6 NV calls).
void frame_differences(Case& c, Inputs& s) {
    const WholeBodyRobot& r = *c.r;
    const int nv = r.nv, rows = r.frame_rows;
    const double h = 1e-6;
    double *v_p = c.fp.data(), *v_m = c.fm.data(), *a_p = v_p + rows, *a_m = v_m + rows;
    const auto column = [&](int k, std::vector<double>* dv, std::vector<double>& da) {
        for (int i = 0; i < rows; ++i) {
            if (dv) (*dv)[i * nv + k] = (v_p[i] - v_m[i]) / (2 * h);
            da[i * nv + k] = (a_p[i] - a_m[i]) / (2 * h);
        }
    };
    for (int k = 0; k < nv; ++k) {
        tangent_steps(c, s, k, h);
        r.frame_motion(c.qp.data(), s.qd.data(), s.x.data(), v_p, a_p);
        r.frame_motion(c.qm.data(), s.qd.data(), s.x.data(), v_m, a_m);
        column(k, &c.a, c.c);
        for (int which = 0; which < 2; ++which) {  // q̇, then q̈
            std::vector<double>& x = which == 0 ? c.vp : c.ap;
            x = which == 0 ? s.qd : s.x;
            const double* qd = which == 0 ? x.data() : s.qd.data();
            const double* qdd = which == 0 ? s.x.data() : x.data();
            x[k] += h;
            r.frame_motion(s.q.data(), qd, qdd, v_p, a_p);
            x[k] -= 2 * h;
            r.frame_motion(s.q.data(), qd, qdd, v_m, a_m);
            column(k, which == 0 ? &c.b : nullptr, which == 0 ? c.d : c.e);
        }
    }
}
void mj_com(Case& c, Inputs& s) {
    c.set(s);
    mj_kinematics(c.mj.m, c.mj.d);
    mj_comPos(c.mj.m, c.mj.d);
}
const Quantity kQuantities[] = {
    {"com", "centerOfMass", 0.40, 2.1, [](Case& c, Inputs& s) { c.r->com(s.q.data(), c.a.data()); }, mj_com, &Peer::com},
    {"com_jacobian", "jacobianCenterOfMass", 0.40, 2.0, [](Case& c, Inputs& s) { c.r->com_jacobian(s.q.data(), c.a.data()); },
     [](Case& c, Inputs& s) {
         mj_com(c, s);
         mj_jacSubtreeCom(c.mj.m, c.mj.d, c.a.data(), c.root);
     }, &Peer::com_jacobian},
    {"centroidal", "ccrba", 0.58, 2.7,
     [](Case& c, Inputs& s) { c.r->centroidal(s.q.data(), s.qd.data(), c.a.data(), c.b.data(), c.c.data()); }, nullptr, nullptr},
    {"centroidal_momentum_rate", "computeCentroidalMomentumTimeVariation", 1.1, 5.3,
     [](Case& c, Inputs& s) { c.r->centroidal_momentum_rate(s.q.data(), s.qd.data(), s.x.data(), c.a.data(), c.b.data()); }, nullptr,
     nullptr},
    {"energy", "computeKineticEnergy + computePotentialEnergy", 1.18, 4.3,
     [](Case& c, Inputs& s) { c.r->energy(s.q.data(), s.qd.data(), s.g.data(), c.a.data(), c.b.data()); },
     [](Case& c, Inputs& s) {
         mj_com(c, s);
         mj_crb(c.mj.m, c.mj.d);
         mj_energyPos(c.mj.m, c.mj.d);
         mj_energyVel(c.mj.m, c.mj.d);
     }, &Peer::energy},
    {"jacobians_dot", "computeJointJacobiansTimeVariation", 1.1, 3.1,
     [](Case& c, Inputs& s) { c.r->jacobians_dot(s.q.data(), s.qd.data(), c.a.data()); }, nullptr, nullptr},
    {"minv", "computeMinverse", 1.8, 8.4, [](Case& c, Inputs& s) { c.r->minv(s.q.data(), c.a.data()); },
     [](Case& c, Inputs& s) {
         mj_com(c, s);
         mj_crb(c.mj.m, c.mj.d);
         mj_factorM(c.mj.m, c.mj.d);
         std::copy(c.identity.begin(), c.identity.end(), c.a.begin());
         mj_solveM(c.mj.m, c.mj.d, c.a.data(), c.a.data(), c.r->nv);
     }, &Peer::minv},
    {"coriolis", "computeCoriolisMatrix", 2.3, 12.3, [](Case& c, Inputs& s) { c.r->coriolis(s.q.data(), s.qd.data(), c.a.data()); },
     nullptr, nullptr},
    {"aba", "", 0, 0, [](Case& c, Inputs& s) { c.r->aba(s.q.data(), s.qd.data(), s.x.data(), s.g.data(), c.a.data()); }, nullptr, nullptr},
    {"centroidal_derivatives", "computeCentroidalDynamicsDerivatives", 3.4, 17.9,
     [](Case& c, Inputs& s) { c.r->centroidal_derivatives(s.q.data(), s.qd.data(), s.x.data(), c.a.data(), c.b.data(), c.c.data(), c.d.data()); },
     nullptr, nullptr, centroidal_differences},
    // q ⊕ v and q₁ ⊖ q₀: MuJoCo's mj_integratePos and mj_differentiatePos (a free joint's position moved
    // in world axes, not along SE(3)'s exponential: the same work, not the same numbers); q₁ = q ⊕ q̇
    {"integrate", "integrate", 0, 0, [](Case& c, Inputs& s) { c.r->integrate(s.q.data(), s.qd.data(), c.a.data()); },
     [](Case& c, Inputs& s) {
         c.set(s);
         mj_integratePos(c.mj.m, c.mj.d->qpos, c.mj.d->qvel, 1.0);
     }, nullptr},
    {"difference", "difference", 0, 0, [](Case& c, Inputs& s) { c.r->difference(s.q.data(), c.q1[c.index(s)].data(), c.a.data()); },
     [](Case& c, Inputs& s) { mj_differentiatePos(c.mj.m, c.a.data(), 1.0, c.mj_q[c.index(s)].data(), c.mj_q1[c.index(s)].data()); }, nullptr},
    {"integrate_jacobians", "dIntegrate (both)", 0, 0.47,
     [](Case& c, Inputs& s) { c.r->integrate_jacobians(s.q.data(), s.qd.data(), c.a.data(), c.b.data()); }, nullptr, nullptr},
    {"difference_jacobians", "dDifference (both)", 0, 0.86,
     [](Case& c, Inputs& s) { c.r->difference_jacobians(s.q.data(), c.q1[c.index(s)].data(), c.a.data(), c.b.data()); }, nullptr, nullptr},
    // the frames' velocity and acceleration derivatives; Pinocchio's computeForwardKinematicsDerivatives
    // gives every joint's, from which getFrameVelocityDerivatives and getFrameAccelerationDerivatives read a frame's
    {"frame_motion_derivatives", "computeForwardKinematicsDerivatives", 1.0, 5.2,
     [](Case& c, Inputs& s) {
         c.r->frame_motion_derivatives(s.q.data(), s.qd.data(), s.x.data(), c.a.data(), c.b.data(), c.c.data(), c.d.data(), c.e.data());
     }, nullptr, nullptr, frame_differences},
};

std::unique_ptr<Case> make_case(const WholeBodyRobot& r) {
    auto c = std::make_unique<Case>();
    c->r = &r;
    for (int k = 0; k < kStates; ++k) c->states.push_back(random_inputs(r.nq, r.nv, r.floating_base, 100 + k));
    const size_t n = static_cast<size_t>(std::max(12, r.nv)) * r.nv;
    c->a.assign(n, 0), c->b.assign(n, 0), c->c.assign(n, 0), c->d.assign(n, 0), c->e.assign(n, 0), c->identity.assign(n, 0);
    c->fp.assign(2 * r.frame_rows, 0), c->fm.assign(2 * r.frame_rows, 0);
    c->step.assign(r.nv, 0), c->qp.assign(r.nq, 0), c->qm.assign(r.nq, 0);
    for (const Inputs& s : c->states) {  // difference's q₁ = q ⊕ q̇, and both in MuJoCo's order (its quaternion w first)
        std::vector<double> q1(r.nq);
        r.integrate(s.q.data(), s.qd.data(), q1.data());
        c->q1.push_back(q1), c->mj_q.push_back(s.q), c->mj_q1.push_back(q1);
        if (r.floating_base)
            for (std::vector<double>* x : {&c->mj_q.back(), &c->mj_q1.back()}) std::rotate(x->begin() + 3, x->begin() + 6, x->begin() + 7);
    }
    for (int i = 0; i < r.nv; ++i) c->identity[i * r.nv + i] = 1;
    std::vector<JointSlot> joints;
    for (const Body& b : load_urdf(r.urdf, {r.floating_base}).bodies)
        joints.push_back({b.joint_name, b.joint.type == JointType::Floating, b.q_index, b.v_index});
    c->dart = dart_peer(r.urdf, r.floating_base, joints);
    test::load_mujoco(r.urdf, r.floating_base, c->mj);
    if (!c->mj.m) {
        std::fprintf(stderr, "MuJoCo does not read %s: %s\n", r.urdf.c_str(), c->mj.refusal.c_str());
        return c;
    }
    for (int b = 1; b < c->mj.m->nbody; ++b)  // the first moving body
        if (c->mj.m->body_weldid[b] != 0) {
            c->root = b;
            break;
        }
    return c;
}

}  // namespace
}  // namespace rbdgen::bench

int main(int argc, char** argv) {
    using namespace rbdgen::bench;
    const std::string out_file = initialize(argc, argv);
    const std::vector<WholeBodyRobot> robots = whole_body_robots();
    std::vector<std::unique_ptr<Case>> cases;
    for (const WholeBodyRobot& r : robots) cases.push_back(make_case(r));
    const char* const peers[] = {"rbdgen", "mujoco", "dart", "differences"};
    for (auto& c : cases)
        for (const Quantity& q : kQuantities)
            for (int peer = 0; peer < 4; ++peer) {
                Case* x = c.get();
                std::function<void(Case&, Inputs&)> run;
                if (peer == 0) run = q.rbdgen;
                if (peer == 1 && q.mujoco && c->mj.m) run = q.mujoco;
                if (peer == 2 && q.dart && c->dart.*q.dart) {
                    const Call call = c->dart.*q.dart;
                    run = [call](Case& y, Inputs& s) { call(s.q.data(), s.qd.data(), s.x.data(), s.g.data(), y.a.data()); };
                }
                if (peer == 3 && q.differences) run = q.differences;
                if (!run) continue;
                const std::string name = c->r->label + "/" + q.name + "/" + peers[peer];
                register_hot_and_cold(name, [x]() -> Inputs& { return x->state(); }, [x, run](Inputs& s) { run(*x, s); });
            }
    Collect collect;
    benchmark::RunSpecifiedBenchmarks(&collect);

    std::string md = "| robot | kernel | operations | rbdgen ns | MuJoCo ns (rbdgen faster by) | DART ns | central differences ns | "
                     "rbdgen cold ns | MuJoCo cold | DART cold | differences cold | Pinocchio (issues 43 and 46, Intel, µs) |\n"
                     "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (auto& c : cases) {
        const nlohmann::json report = nlohmann::json::parse(std::ifstream(c->r->report));
        const auto ns = [&](const std::string& k, const std::string& peer) {
            const auto it = collect.ns.find(c->r->label + "/" + k + "/" + peer);
            return it == collect.ns.end() ? -1.0 : it->second;
        };
        for (const Quantity& q : kQuantities) {
            md += "| " + c->r->label + " | " + q.name + " | " + std::to_string(total_ops(report["kernels"][q.name]));
            for (const std::string suffix : {"", "-cold"}) {
                const double own = ns(q.name, "rbdgen" + suffix);
                md += " | " + fmt_ns(own);
                for (const char* peer : {"mujoco", "dart", "differences"}) {
                    const double t = ns(q.name, peer + suffix);
                    md += " | " + (t > 0 ? fmt_ns(t) + " (" + fmt_ns(t / own) + "x)" : std::string("-"));
                }
            }
            const double pin = c->r->label == "arm7" ? q.pinocchio_arm : c->r->label == "humanoid30_fb" ? q.pinocchio_humanoid : 0;
            md += " | " + (pin > 0 ? std::string(q.pinocchio) + " " + fmt_ns(pin) : "-") + " |\n";
        }
        md += "| " + c->r->label + " | minv / aba | | " + fmt_ns(ns("minv", "rbdgen") / ns("aba", "rbdgen")) + "x | | | | " +
              fmt_ns(ns("minv", "rbdgen-cold") / ns("aba", "rbdgen-cold")) + "x | | | | |\n";
    }
    if (!out_file.empty()) std::ofstream(out_file) << md;
    std::fputs(md.c_str(), stdout);
    return 0;
}
