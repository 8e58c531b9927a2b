#include "emit/float_budget.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace rbdgen {
namespace {

enum class Kind { Random, RightAngles, Fast };
const char* kind_name(Kind k) { return k == Kind::Random ? "random" : k == Kind::RightAngles ? "right angles" : "fast"; }

struct Draw {
    const Model& model;
    Kind kind;
    std::mt19937_64& rng;
    double u() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
    std::vector<double> vector(int n, double scale) {
        std::vector<double> v(n);
        for (double& x : v) x = scale * u();
        return v;
    }
    std::vector<double> q() {
        std::vector<double> v(model.nq);
        for (const Body& b : model.bodies) {
            double* x = v.data() + b.q_index;
            if (!b.joint.one_dof()) {
                for (int k = 0; k < b.joint.nq(); ++k) x[k] = u();
            } else if (kind == Kind::RightAngles && b.joint.type == JointType::Revolute) {
                x[0] = std::numbers::pi / 2 * std::floor(4 * (u() + 1));
            } else {
                x[0] = 3 * u();
            }
        }
        normalize_quaternions(model, v.data());
        return v;
    }
    double speed() const { return kind == Kind::Fast ? 10.0 : 1.0; }
};

// The inputs of `k` at one state, in double; producers' outputs computed from the same state.
std::vector<std::vector<double>> inputs(const Model& model, const Kernel& k, Draw& d, const std::vector<double>& q,
                                        const std::function<const Kernel*(const std::string&)>& producer) {
    std::vector<std::vector<double>> in;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const ArraySpec& s = k.spec->inputs[i];
        const KernelArray& a = k.inputs[i];
        switch (s.state) {
            case StateField::Q:
            case StateField::MotionQ: in.push_back(q); continue;
            case StateField::V: in.push_back(d.vector(a.size(), 2 * d.speed())); continue;
            case StateField::A: in.push_back(d.vector(a.size(), 5 * d.speed())); continue;
            case StateField::Tau: in.push_back(d.vector(a.size(), 20)); continue;
            case StateField::Gravity: in.push_back({0, 0, -9.81}); continue;
            case StateField::Measurements: in.push_back(d.vector(a.size(), 10)); continue;
            case StateField::Motion: in.push_back(d.vector(a.size(), d.speed())); continue;
            case StateField::ExternalWrenches: in.push_back(d.vector(a.size(), 20)); continue;
            case StateField::Parameters: in.push_back(s.defaults); continue;  // the URDF's values
            case StateField::None:
            case StateField::QNext: break;
        }
        const Kernel* p = s.produced_by.empty() ? nullptr : producer(s.produced_by);
        if (p) {
            const std::vector<double> v = p->graph->evaluate(inputs(model, *p, d, q, producer));
            size_t o = 0;
            while (o + 1 < p->outputs.size() && p->outputs[o].name != a.name) ++o;
            std::vector<double> x;
            for (int node : p->output_nodes[o]) x.push_back(v[node]);
            in.push_back(x);
        } else if (a.rows == a.cols && a.cols > 1) {  // an identity-dominated symmetric matrix
            std::vector<double> m(a.size());
            for (int r = 0; r < a.rows; ++r)
                for (int c = 0; c <= r; ++c) m[r * a.cols + c] = m[c * a.cols + r] = r == c ? 2 + d.u() : 0.1 * d.u();
            in.push_back(m);
        } else {
            in.push_back(d.vector(a.size(), 1));
        }
    }
    return in;
}

}  // namespace

FloatError float_error(const Model& model, const Kernel& k, const std::function<const Kernel*(const std::string&)>& producer,
                       int states) {
    std::mt19937_64 rng(20261123);
    struct Sample {
        double diff, scale;
        Kind kind;
    };
    std::vector<Sample> samples;
    const std::vector<int> live = k.graph->live(k.all_output_nodes());  // the nodes the outputs need, only
    std::vector<double> v;
    std::vector<float> v_f;
    for (int s = 0; s < states; ++s) {
        const Kind kind = s % 10 < 4 ? Kind::Random : s % 10 < 7 ? Kind::RightAngles : Kind::Fast;
        Draw d{model, kind, rng};
        const std::vector<double> q = d.q();
        std::vector<std::vector<double>> in = inputs(model, k, d, q, producer);
        std::vector<std::vector<float>> in_f;
        for (std::vector<double>& a : in) {
            for (double& x : a) x = static_cast<double>(static_cast<float>(x));  // both sides see the same numbers
            in_f.emplace_back(a.begin(), a.end());
        }
        k.graph->evaluate(in, live, v);
        k.graph->evaluate(in_f, live, v_f);
        double scale = 0, diff = 0;
        bool finite = true;
        for (const auto& nodes : k.output_nodes)
            for (int n : nodes) {
                finite = finite && std::isfinite(v[n]);
                scale = std::max(scale, std::abs(v[n]));
                const double dn = std::abs(static_cast<double>(v_f[n]) - v[n]);
                diff = std::max(diff, std::isfinite(dn) ? dn : INFINITY);
            }
        if (finite) samples.push_back({diff, scale, kind});
    }
    // Relative to the state's outputs, but not below 1% of their typical size (the median over the
    // states): an output that vanishes at a right angle (a gravity torque) has no relative error.
    std::vector<double> scales;
    for (const Sample& x : samples) scales.push_back(x.scale);
    std::nth_element(scales.begin(), scales.begin() + static_cast<long>(scales.size() / 2), scales.end());
    const double floor = scales.empty() ? 0 : 0.01 * scales[scales.size() / 2];
    std::vector<std::pair<double, Kind>> errors;
    for (const Sample& x : samples)
        if (std::max(x.scale, floor) > 0) errors.push_back({x.diff / std::max(x.scale, floor), x.kind});
    FloatError e;
    e.states = static_cast<int>(errors.size());
    if (errors.empty()) return e;
    std::sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    e.worst = errors.back().first, e.worst_kind = kind_name(errors.back().second);
    e.p99 = errors[static_cast<size_t>(0.99 * static_cast<double>(errors.size() - 1))].first;
    return e;
}

}  // namespace rbdgen
