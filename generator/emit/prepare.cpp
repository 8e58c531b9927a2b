#include "emit/prepare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>

#include "algorithms/com.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "model/error.hpp"

namespace rbdgen {

std::map<std::string, Arrays<double>> reference_outputs(const Model& model, uint64_t seed, const std::vector<KernelSpec>& specs) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    const auto random = [&](int n, double scale) { return VecX<double>(VecX<double>::NullaryExpr(n, [&] { return scale * u(rng); })); };
    VecX<double> q = random(model.nq, 3);
    normalize_quaternions(model, q.data());
    const VecX<double> qd = random(model.nv, 2), qdd = random(model.nv, 5), tau = random(model.nv, 20);
    const bool fd = forward_dynamics_refusal(model).empty(), mass = total_mass(model) > 0;
    const std::vector<std::string>& massive = mass_kernel_names();
    std::map<std::string, Arrays<double>> outputs;  // by kernel
    std::map<std::string, VecX<double>> others;     // the other inputs, by name and size
    // an input another kernel produces: that kernel of `specs`, else of kernel_specs()
    const auto producer = [&](const std::string& name) -> const KernelSpec& {
        for (const KernelSpec& k : specs)
            if (k.name == name) return k;
        return kernel_spec(name);
    };
    std::function<const Arrays<double>&(const KernelSpec&)> run = [&](const KernelSpec& k) -> const Arrays<double>& {
        if (auto it = outputs.find(k.name); it != outputs.end()) return it->second;
        Arrays<double> in;
        for (const ArraySpec& a : k.inputs) {
            const int n = a.size(model);
            switch (a.state) {
                case StateField::Q: in.push_back(q); continue;
                case StateField::V: in.push_back(qd); continue;
                case StateField::A: in.push_back(qdd); continue;
                case StateField::Tau: in.push_back(tau); continue;
                case StateField::Gravity: in.push_back(Vec3<double>(0, 0, -9.81)); continue;
                case StateField::Parameters: in.push_back(Eigen::Map<const VecX<double>>(a.defaults.data(), a.defaults.size())); continue;
                default: break;
            }
            if (a.produced_by.empty()) {  // one draw an input name, which every kernel taking it gets
                const auto [it, drawn] = others.try_emplace(a.name + "/" + std::to_string(n));
                if (drawn) it->second = random(n, 10);
                in.push_back(it->second);
                continue;
            }
            const KernelSpec& p = producer(a.produced_by);
            size_t o = 0;
            while (o + 1 < p.outputs.size() && p.outputs[o].name != a.name) ++o;
            in.push_back(run(p)[o]);
        }
        return outputs[k.name] = k.reference(model, in);
    };
    for (const KernelSpec& k : specs)
        if (!(k.forward_dynamics && !fd) && !(!mass && std::count(massive.begin(), massive.end(), k.name))) run(k);
    return outputs;
}

std::vector<VecX<double>> kernel_outputs(const Model& model, uint64_t seed) {
    std::vector<VecX<double>> all;
    for (const auto& [name, y] : reference_outputs(model, seed, kernel_specs()))
        for (const VecX<double>& x : y) all.push_back(x);
    return all;
}

namespace {

constexpr int kEffectStates = 30;  // the decision's
constexpr int kScreenStates = 4;   // a group alone, to order the groups when together they move too much
constexpr double kInf = std::numeric_limits<double>::infinity();

// The largest change of any kernel's output from `exact` to `model`, each entry relative to max(1, |x|),
// over the first `states` of exact's states.
double effect(const std::vector<std::vector<VecX<double>>>& exact, const Model& model, int states) {
    double worst = 0;
    for (int s = 0; s < states; ++s) {
        const std::vector<VecX<double>> y = kernel_outputs(model, 1000 + s);
        for (size_t o = 0; o < y.size(); ++o)
            for (int e = 0; e < y[o].size(); ++e) {
                const double x = exact[s][o][e], d = std::abs(y[o][e] - x) / std::max(1.0, std::abs(x));
                if (std::isfinite(x) || std::isfinite(y[o][e])) worst = std::max(worst, std::isnan(d) ? kInf : d);
            }
    }
    return worst;
}

Model snapped(const Model& model, const std::vector<SnapGroup>& groups, double tolerance) {
    Model m = model;
    for (const SnapGroup& g : groups)
        if (g.snapped) snap_group(m, g, tolerance);
    return m;
}

// Snaps the near-exact groups whose effect together stays below max_effect: all of them when they
// pass together (the common case: roundoff-sized changes); else each is measured alone (at a few
// states), those above the bound are kept, and of the rest the group of largest effect is dropped
// until the set passes.
SnapReport snap_what_changes_nothing(Model& model, double tolerance, double max_effect) {
    SnapReport r;
    r.groups = near_exact_groups(model, tolerance);
    if (r.groups.empty() || !(max_effect > 0)) return r;
    std::vector<std::vector<VecX<double>>> exact;
    for (int s = 0; s < kEffectStates; ++s) exact.push_back(kernel_outputs(model, 1000 + s));
    for (SnapGroup& g : r.groups) g.snapped = true;
    r.max_effect = effect(exact, snapped(model, r.groups, tolerance), kEffectStates);
    if (r.max_effect > max_effect) {
        for (SnapGroup& g : r.groups) {
            g.effect = effect(exact, snapped(model, {g}, tolerance), kScreenStates);
            g.alone = true;
            g.snapped = g.effect <= max_effect;
        }
        for (;;) {
            r.max_effect = effect(exact, snapped(model, r.groups, tolerance), kEffectStates);
            if (r.max_effect <= max_effect) break;
            SnapGroup* largest = nullptr;
            for (SnapGroup& g : r.groups)
                if (g.snapped && (!largest || g.effect > largest->effect)) largest = &g;
            largest->snapped = false;
        }
    }
    for (SnapGroup& g : r.groups)
        if (!g.alone) g.effect = r.max_effect;
    model = snapped(model, r.groups, tolerance);
    return r;
}

}  // namespace

void refuse_overflow(const Model& model, const std::string& scalar) {
    const double largest = scalar == "float" ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int s = 0; s < 4; ++s) {
        VecX<double> q = VecX<double>::NullaryExpr(model.nq, [&] { return 3 * u(rng); });
        normalize_quaternions(model, q.data());
        const VecX<double> qd = VecX<double>::NullaryExpr(model.nv, [&] { return u(rng); });
        const VecX<double> tau = rnea<double>(model, q, qd, qd, Vec3<double>(0, 0, -9.81));
        const MatX<double> H = crba<double>(model, q);
        for (const Body& b : model.bodies)
            for (int k = b.v_index; k < b.v_index + b.joint.nv(); ++k)
                if (!(std::abs(tau[k]) <= largest) || !(H.row(k).cwiseAbs().maxCoeff() <= largest))
                    throw Error(model.source + ": at joint '" + b.joint_name + "' the dynamics overflow " + scalar +
                                " arithmetic (inverse dynamics or the inertia matrix is " +
                                (std::isnan(tau[k]) ? "not a number" : "beyond " + fmt::format("{:g}", largest)) +
                                " at a sample state); check the masses, inertias and lengths of the links it moves");
    }
}

PreparedModel prepare_model(const Model& model, double snap_tolerance, double snap_max_effect) {
    PreparedModel p;
    Model m = model;
    p.snap = snap_what_changes_nothing(m, snap_tolerance, snap_max_effect);
    FrameChoice frames = choose_internal_frames(m);
    p.model = std::move(frames.model);
    p.dh_transforms = frames.dh_transforms;
    return p;
}

}  // namespace rbdgen
