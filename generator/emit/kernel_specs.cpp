// The kernels: each a reference algorithm with named, shaped arrays in and out. Nothing here computes
// dynamics; an entry only wires an algorithm of generator/algorithms/ to arrays, once for both
// scalars (the same generic lambda is the reference and the tracer).
#include <algorithm>
#include <type_traits>

#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "model/error.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace {

template <class A> using ScalarOf = typename A::value_type::Scalar;

int nq(const Model& m) { return m.nq; }
int nv(const Model& m) { return m.nv; }
int three(const Model&) { return 3; }

ArraySpec q_in() {
    return {"q", "joint positions (a floating base: position, then quaternion x, y, z, w)", nq, {}, ArrayLayout::Vector,
            StateField::Q, true};
}
ArraySpec qd_in() {
    return {"qd", "joint velocities (a floating base: [angular; linear] in base coordinates)", nv, {}, ArrayLayout::Vector, StateField::V};
}
ArraySpec qdd_in() { return {"qdd", "joint accelerations", nv, {}, ArrayLayout::Vector, StateField::A}; }
ArraySpec tau_in() { return {"tau", "joint forces", nv, {}, ArrayLayout::Vector, StateField::Tau}; }
ArraySpec gravity_in() { return {"gravity", "gravity in the world frame", three, {}, ArrayLayout::Vector, StateField::Gravity}; }
ArraySpec joint_vector_out(const std::string& name, const std::string& doc) {
    ArraySpec a{name, doc, nv};
    a.json = JsonForm::JointVector;
    return a;
}
ArraySpec nv_matrix(const std::string& name, const std::string& doc, ArrayLayout layout) {
    return {name, doc, nv, nv, layout};
}

template <class S> VecX<S> row_major(const MatX<S>& m) {
    VecX<S> v(m.size());
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) v[r * m.cols() + c] = m(r, c);
    return v;
}
template <class S> MatX<S> from_row_major(const VecX<S>& v, int n, bool lower_only) {
    MatX<S> m(n, n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) m(r, c) = !lower_only || c <= r ? v[r * n + c] : S(0.0);
    return m;
}
template <class S> Vec3<S> vec3(const VecX<S>& v) { return Vec3<S>(v[0], v[1], v[2]); }

// Names for the emitted code: body i's quantity `what`, component k, becomes what_<body>_<parts[k]>
// (made an identifier by the emitter). Numbers need no names.
const std::vector<const char*> kXyz = {"x", "y", "z"}, kMotion = {"wx", "wy", "wz", "vx", "vy", "vz"},
                               kForce = {"nx", "ny", "nz", "fx", "fy", "fz"};
template <class V>
void label(const Model& m, int i, const V& x, const std::string& what, const std::vector<const char*>& parts) {
    if constexpr (std::is_same_v<typename V::Scalar, sym::Expr>)
        for (size_t k = 0; k < parts.size(); ++k) sym::current().name(x[k].id(), what + "_" + m.bodies[i].name + "_" + parts[k]);
}
template <class S> void label(const Model& m, const RneaBodies<S>& b) {
    for (int i = 0; i < m.N(); ++i) label(m, i, b.omega[i], "omega", kXyz), label(m, i, b.accel[i], "accel", kXyz);
    for (int i = m.N() - 1; i >= 0; --i) label(m, i, b.f[i], "f", kForce);
}
template <class S> void label(const Model& m, const AbaBodies<S>& b) {
    for (int i = 0; i < m.N(); ++i) label(m, i, b.v[i], "v", kMotion);
    for (int i = m.N() - 1; i >= 0; --i)
        if (m.bodies[i].lambda >= 0) label(m, i, b.p_a[i], "pa", kForce);
    for (int i = 0; i < m.N(); ++i) label(m, i, b.a[i], "a", kMotion);
}
// Runs `algorithm(bodies)` and names its per-body quantities.
template <class Bodies, class F> auto labelled(const Model& m, F algorithm) {
    Bodies bodies;
    auto result = algorithm(&bodies);
    label(m, bodies);
    return std::vector{result};
}

// One entry from an algorithm written once for both scalars.
template <class F>
KernelSpec spec(std::string name, std::string doc, std::vector<ArraySpec> inputs, std::vector<ArraySpec> outputs, F f,
                bool forward_dynamics = false) {
    KernelSpec k{std::move(name), std::move(doc), std::move(inputs), std::move(outputs), forward_dynamics};
    k.reference = [f](const Model& m, const Arrays<double>& x) { return f(m, x); };
    k.trace = [f](const Model& m, const Arrays<sym::Expr>& x) { return f(m, x); };
    return k;
}

std::vector<KernelSpec> make_specs() {
    std::vector<KernelSpec> k;
    k.push_back(spec("fk",
        "Poses of every body's URDF link frame in the world frame: rotation R (row-major 3x3, body to world) then position p.",
        {q_in()}, {{"pose", "12 per body: R row-major, then p", [](const Model& m) { return 12 * m.N(); }}},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            const Kinematics<S> kin = forward_kinematics<S>(m, x[0], zero);
            VecX<S> pose(12 * m.N());
            for (int i = 0; i < m.N(); ++i) {
                const Transform<S> X_0 = m.bodies[i].X_urdf.template cast<S>() * kin.X_0[i];  // the URDF frame's
                const Mat3<S> R = X_0.E.transpose();
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) pose[12 * i + 3 * r + c] = R(r, c);
                for (int r = 0; r < 3; ++r) pose[12 * i + 9 + r] = X_0.r[r];
            }
            return std::vector{pose};
        }));
    k.push_back(spec("rnea", "Inverse dynamics by the recursive Newton-Euler algorithm: tau = ID(q, qd, qdd).",
        {q_in(), qd_in(), qdd_in(), gravity_in()}, {joint_vector_out("tau", "joint forces")},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], x[1], x[2], vec3(x[3]), nullptr, b); });
        }));
    k.push_back(spec("gravity", "Gravity vector g(q) = ID(q, 0, 0).", {q_in(), gravity_in()},
        {joint_vector_out("g", "generalized gravity forces")},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], zero, zero, vec3(x[1]), nullptr, b); });
        }));
    k.push_back(spec("nle", "Nonlinear effects C(q, qd) qd + g(q) = ID(q, qd, 0), as Pinocchio's nonLinearEffects.",
        {q_in(), qd_in(), gravity_in()}, {joint_vector_out("nle", "Coriolis, centrifugal and gravity forces")},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], x[1], zero, vec3(x[2]), nullptr, b); });
        }));
    ArraySpec H_out = nv_matrix("H", "joint-space inertia matrix, row-major", ArrayLayout::RowMajor);
    H_out.json = JsonForm::JointMatrix;
    k.push_back(spec("crba", "Joint-space inertia matrix H(q) by the composite-rigid-body algorithm (row-major NV x NV).",
        {q_in()}, {H_out}, [](const Model& m, const auto& x) { return std::vector{row_major(crba(m, x[0]))}; }));
    ArraySpec H_in = nv_matrix("H", "joint-space inertia matrix, row-major (lower triangle read)", ArrayLayout::LowerRowMajor);
    H_in.produced_by = "crba";
    k.push_back(spec("ltdl",
        "Sparse LTDL factorization H = L^T D L (Featherstone App. A): LD holds L below the diagonal and D on it "
        "(row-major NV x NV, zero above). Reads only H's lower triangle.",
        {H_in}, {nv_matrix("LD", "L (unit diagonal implied) and D, row-major", ArrayLayout::LowerRowMajor)},
        [](const Model& m, const auto& x) {
            auto H = from_row_major(x[0], m.nv, true);
            ltdl(H, expanded_parent(m));
            return std::vector{row_major(decltype(H)(H.template triangularView<Eigen::Lower>()))};
        }, true));
    ArraySpec LD_in = nv_matrix("LD", "output of ltdl", ArrayLayout::LowerRowMajor);
    LD_in.produced_by = "ltdl";
    k.push_back(spec("ltdl_solve", "One back-substitution with the LTDL factors: x = H^-1 b = L^-1 D^-1 L^-T b.",
        {LD_in, {"b", "right-hand side", nv}}, {{"x", "solution", nv}},
        [](const Model& m, const auto& x) {
            return std::vector{ltdl_solve(from_row_major(x[0], m.nv, false), expanded_parent(m), x[1])};
        }, true));
    k.push_back(spec("fd_crba_ltdl", "Forward dynamics by CRBA + sparse LTDL + solve: qdd = H^-1 (tau - C).",
        {q_in(), qd_in(), tau_in(), gravity_in()}, {joint_vector_out("qdd", "joint accelerations")},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return fd_crba_ltdl<S>(m, x[0], x[1], x[2], vec3(x[3]), nullptr, b); });
        }, true));
    k.push_back(spec("aba", "Forward dynamics by the articulated-body algorithm: qdd = FD(q, qd, tau).",
        {q_in(), qd_in(), tau_in(), gravity_in()}, {joint_vector_out("qdd", "joint accelerations")},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return labelled<AbaBodies<S>>(m, [&](auto* b) { return aba<S>(m, x[0], x[1], x[2], vec3(x[3]), nullptr, b); });
        }, true));
    k.push_back(spec("jacobians",
        "Spatial Jacobian J (6 x NV, row-major) in world coordinates: column k is the motion axis of joint variable k in "
        "the world frame; body i's velocity in world coordinates is J qd over the joints that support i.",
        {q_in()}, {{"J", "6 x NV, row-major, [angular; linear] about the world origin", [](const Model&) { return 6; }, nv,
                    ArrayLayout::RowMajor}},
        [](const Model& m, const auto& x) { return std::vector{row_major(spatial_jacobian(m, x[0]))}; }));
    return k;
}

}  // namespace

bool KernelSpec::evaluated() const {
    const bool inputs_from_state =
        std::all_of(inputs.begin(), inputs.end(), [](const ArraySpec& a) { return a.state != StateField::None; });
    return inputs_from_state &&
           std::any_of(outputs.begin(), outputs.end(), [](const ArraySpec& a) { return a.json != JsonForm::None; });
}

std::string KernelSpec::result_name(size_t o) const {
    const long printed =
        std::count_if(outputs.begin(), outputs.end(), [](const ArraySpec& a) { return a.json != JsonForm::None; });
    return printed == 1 ? name : name + "." + outputs[o].name;
}

const std::vector<KernelSpec>& kernel_specs() {
    static const std::vector<KernelSpec> specs = make_specs();
    return specs;
}

std::vector<std::string> kernel_names() {
    std::vector<std::string> names;
    for (const KernelSpec& s : kernel_specs()) names.push_back(s.name);
    return names;
}

const KernelSpec& kernel_spec(const std::string& name) {
    for (const KernelSpec& s : kernel_specs())
        if (s.name == name) return s;
    std::string list;
    for (const std::string& n : kernel_names()) list += (list.empty() ? "" : ", ") + n;
    throw Error("unknown kernel '" + name + "'; the kernels are " + list);
}

std::vector<int> Kernel::all_output_nodes() const {
    std::vector<int> all;
    for (const std::vector<int>& o : output_nodes) all.insert(all.end(), o.begin(), o.end());
    return all;
}

Kernel trace_kernel(const Model& model, const KernelSpec& spec, int max_nodes) {
    Kernel k;
    k.spec = &spec;
    k.name = spec.name;
    k.doc = spec.doc;
    k.graph->max_nodes = max_nodes;
    sym::Tracing tracing(*k.graph);
    Arrays<sym::Expr> in;
    for (size_t a = 0; a < spec.inputs.size(); ++a) {
        const ArraySpec& s = spec.inputs[a];
        k.inputs.push_back({s.name, s.doc, s.n_rows(model), s.n_cols(model), s.layout});
        VecX<sym::Expr> x(s.size(model));
        for (int i = 0; i < x.size(); ++i) x[i] = sym::Expr::input(static_cast<int>(a), i);
        in.push_back(x);
    }
    const Arrays<sym::Expr> out = spec.trace(model, in);
    for (size_t o = 0; o < spec.outputs.size(); ++o) {
        const ArraySpec& s = spec.outputs[o];
        k.outputs.push_back({s.name, s.doc, s.n_rows(model), s.n_cols(model), s.layout});
        if (out[o].size() != s.size(model))
            throw std::logic_error("kernel " + spec.name + ": output " + s.name + " has " + std::to_string(out[o].size()) +
                                   " elements, its spec " + std::to_string(s.size(model)));
        std::vector<int> ids;
        for (int i = 0; i < out[o].size(); ++i) ids.push_back(out[o][i].id());
        k.output_nodes.push_back(ids);
    }
    return k;
}

}  // namespace rbdgen
