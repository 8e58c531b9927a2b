// The kernels: each a reference algorithm with named, shaped arrays in and out. Nothing here computes
// dynamics; an entry only wires an algorithm of generator/algorithms/ to arrays, once for both
// scalars (the same generic lambda is the reference and the tracer).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <type_traits>

#include "algorithms/aba.hpp"
#include "algorithms/aba_derivatives.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/cornea.hpp"
#include "algorithms/ncmtm_fd.hpp"
#include "algorithms/ncmtm_jacobians.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "algorithms/rnea_derivatives.hpp"
#include "emit/kernel.hpp"
#include "emit/names.hpp"
#include "model/error.hpp"
#include "model/topology.hpp"
#include "sparse/analysis.hpp"

namespace rbdgen {
namespace {

template <class A> using ScalarOf = typename A::value_type::Scalar;

int nq(const Model& m) { return m.nq; }
int nv(const Model& m) { return m.nv; }
int three(const Model&) { return 3; }
int ltdl_nonzeros(const Model& m) { return static_cast<int>(ltdl_rows(expanded_parent(m)).col.size()); }

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

// The links of a list, for a doc comment.
std::string link_list(const std::vector<LinkFrame>& links) {
    std::string list;
    for (const LinkFrame& l : links) list += (list.empty() ? "" : ", ") + comment_text(l.link);
    return list;
}
ArraySpec f_ext_in(const std::vector<LinkFrame>& sites) {
    const std::string links = link_list(sites);
    ArraySpec a{"f_ext", "external wrenches, a row a link (" + links + "): [torque; force] applied to the link, in its URDF "
                         "frame, about its origin",
                [n = static_cast<int>(sites.size())](const Model&) { return n; }, [](const Model&) { return 6; },
                ArrayLayout::RowMajor, StateField::ExternalWrenches};
    for (const LinkFrame& s : sites) a.element_names.push_back(s.link);
    return a;
}
ArraySpec pi_in(const std::vector<LinkFrame>& links) {
    ArraySpec a{"pi", "inertial parameters, a row of 10 a link (" + link_list(links) + "): m, m cx, m cy, m cz, Ixx, Ixy, Iyy, "
                      "Ixz, Iyz, Izz, in the link's URDF frame, the rotational inertia about its origin (parameters_urdf "
                      "holds the URDF's); a physically valid payload is the caller's to ensure",
                [n = static_cast<int>(links.size())](const Model&) { return n; }, [](const Model&) { return kInertialParameters; },
                ArrayLayout::RowMajor, StateField::Parameters};
    for (const LinkFrame& l : links) {
        a.element_names.push_back(l.link);
        const auto pi = parameters_of_inertia(l.I);
        a.defaults.insert(a.defaults.end(), pi.data(), pi.data() + pi.size());
    }
    return a;
}

// What a kernel takes at run time beyond its algorithm's own inputs, appended to them in this order:
// the wrenches on `wrenches` (input f_ext) and the inertial parameters of `payload` (input pi).
struct RunTime {
    std::vector<LinkFrame> wrenches, payload;
    std::vector<ArraySpec> inputs(std::vector<ArraySpec> own, bool with_wrenches) const {
        if (with_wrenches && !wrenches.empty()) own.push_back(f_ext_in(wrenches));
        if (!payload.empty()) own.push_back(pi_in(payload));
        return own;
    }
    // The wrenches f^x as each body's, in its own frame: ⁱX_f* f = (ᶠX_i)ᵀ f, summed over a body's
    // links; none without wrenches.
    template <class A> std::optional<std::vector<Vec6<ScalarOf<A>>>> body_wrenches(const Model& m, const A& x) const {
        using S = ScalarOf<A>;
        if (wrenches.empty()) return std::nullopt;
        const VecX<S>& f_ext = x[x.size() - 1 - (payload.empty() ? 0 : 1)];
        std::vector<Vec6<S>> f(m.N(), Vec6<S>::Zero());
        for (size_t s = 0; s < wrenches.size(); ++s)
            f[wrenches[s].body] += wrenches[s].X.template cast<S>().transpose_apply(Vec6<S>(f_ext.template segment<6>(6 * s)));
        return f;
    }
    // Every body's inertia with the payload links' parameters (the last input) in place of the URDF's:
    // I_i = (I_i − Σ ⁱX_f* I_f ᶠX_i) + Σ ⁱX_f* I(π_f) ᶠX_i over the links f on body i, the first part
    // a constant; none without a payload.
    template <class A> std::optional<BodyInertias<ScalarOf<A>>> body_inertias(const Model& m, const A& x) const {
        using S = ScalarOf<A>;
        if (payload.empty()) return std::nullopt;
        std::vector<RigidBodyInertia<double>> rest;
        for (const Body& b : m.bodies) rest.push_back(b.I);
        for (const LinkFrame& l : payload) {
            const RigidBodyInertia<double> I_f = l.I.expressed_in_parent(l.X);
            rest[l.body] = {rest[l.body].m - I_f.m, rest[l.body].h - I_f.h, rest[l.body].Ibar - I_f.Ibar};
        }
        BodyInertias<S> I;
        for (const RigidBodyInertia<double>& r : rest) I.push_back(r.cast<S>());
        for (size_t k = 0; k < payload.size(); ++k)
            I[payload[k].body] = I[payload[k].body] + inertia_of_parameters<S>(x.back().template segment<kInertialParameters>(
                                                                                  kInertialParameters * k))
                                                          .expressed_in_parent(payload[k].X.template cast<S>());
        return I;
    }
};
template <class T> const T* pointer(const std::optional<T>& x) { return x ? &*x : nullptr; }

template <class S> void put_pose(const Transform<S>& X_0, S* out) {  // R (link to world) row-major, then p
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out[3 * r + c] = X_0.E(c, r);
    for (int r = 0; r < 3; ++r) out[9 + r] = X_0.r[r];
}

// fd_crba_ltdl's head, and aba_derivatives': H's nonzeros (ltdl_rows order) and the bias forces C.
KernelSpec ltdl_head(const RunTime& run_time, const std::vector<ArraySpec>& inputs) {
    return spec("fd_crba_ltdl_head",
        "H's nonzeros (ltdl_rows order) and the bias forces C, for the loops of LTDL and its solve.", inputs,
        {{"H", "H's lower triangle, row by row, a row its diagonal and then its ancestors", ltdl_nonzeros},
         {"qdd", "C, the bias forces", nv}},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            RneaBodies<S> bodies;
            const JointSpaceSystem<S> s = joint_space_system<S>(m, x[0], x[1], vec3(x[3]), pointer(f_ext), &bodies, pointer(I));
            label(m, bodies);
            const LtdlRows rows = ltdl_rows(expanded_parent(m));
            VecX<S> H(rows.col.size());
            for (int k = 0; k < m.nv; ++k)
                for (int e = rows.off[k]; e < rows.off[k + 1]; ++e) H[e] = s.H(k, rows.col[e]);
            return std::vector{H, s.C};
        });
}

std::vector<KernelSpec> make_specs(const RunTime& run_time, const std::vector<LinkFrame>& frames) {
    // rnea, aba and fd_crba_ltdl take the wrenches, the kernels of the dynamics the payload
    const auto with_wrenches = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), true); };
    const auto with_payload = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), false); };
    std::vector<KernelSpec> k;
    const int n_frames = static_cast<int>(frames.size());
    std::vector<ArraySpec> fk_out{{"pose", "12 per body: R row-major, then p", [](const Model& m) { return 12 * m.N(); }}};
    if (n_frames > 0)
        fk_out.push_back({"frame_pose", "12 per frame (" + link_list(frames) + "): R row-major, then p",
                          [n_frames](const Model&) { return 12 * n_frames; }});
    k.push_back(spec("fk",
        "Poses of every body's URDF link frame in the world frame: rotation R (row-major 3x3, body to world) then position p.",
        {q_in()}, fk_out,
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            const Kinematics<S> kin = forward_kinematics<S>(m, x[0], zero);
            VecX<S> pose(12 * m.N());
            for (int i = 0; i < m.N(); ++i) {  // the URDF frame's
                const Step<S> step;
                put_pose<S>(m.bodies[i].X_urdf.template cast<S>() * kin.X_0[i], &pose[12 * i]);
            }
            std::vector out{pose};
            if (!frames.empty()) {
                const std::vector<FrameState<S>> f = frame_states<S>(m, frames, x[0], zero, zero);
                out.push_back(VecX<S>(12 * f.size()));
                for (size_t j = 0; j < f.size(); ++j) put_pose<S>(f[j].X_0, &out[1][12 * j]);
            }
            return out;
        }));
    k.push_back(spec("rnea", "Inverse dynamics by the recursive Newton-Euler algorithm: tau = ID(q, qd, qdd).",
        with_wrenches({q_in(), qd_in(), qdd_in(), gravity_in()}), {joint_vector_out("tau", "joint forces")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), b, pointer(I)); });
        }));
    k.push_back(spec("gravity", "Gravity vector g(q) = ID(q, 0, 0).", with_payload({q_in(), gravity_in()}),
        {joint_vector_out("g", "generalized gravity forces")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            const auto I = run_time.body_inertias(m, x);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], zero, zero, vec3(x[1]), nullptr, b, pointer(I)); });
        }));
    k.push_back(spec("nle", "Nonlinear effects C(q, qd) qd + g(q) = ID(q, qd, 0), as Pinocchio's nonLinearEffects.",
        with_payload({q_in(), qd_in(), gravity_in()}), {joint_vector_out("nle", "Coriolis, centrifugal and gravity forces")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> zero = VecX<S>::Zero(m.nv);
            const auto I = run_time.body_inertias(m, x);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return rnea<S>(m, x[0], x[1], zero, vec3(x[2]), nullptr, b, pointer(I)); });
        }));
    ArraySpec H_out = nv_matrix("H", "joint-space inertia matrix, row-major", ArrayLayout::RowMajor);
    H_out.json = JsonForm::JointMatrix;
    k.push_back(spec("crba", "Joint-space inertia matrix H(q) by the composite-rigid-body algorithm (row-major NV x NV).",
        with_payload({q_in()}), {H_out}, [run_time](const Model& m, const auto& x) {
            const auto I = run_time.body_inertias(m, x);
            return std::vector{row_major(crba(m, x[0], pointer(I)))};
        }));
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
    k.back().ltdl_loops = KernelSpec::LtdlLoops::Factor;
    ArraySpec LD_in = nv_matrix("LD", "output of ltdl", ArrayLayout::LowerRowMajor);
    LD_in.produced_by = "ltdl";
    k.push_back(spec("ltdl_solve", "One back-substitution with the LTDL factors: x = H^-1 b = L^-1 D^-1 L^-T b.",
        {LD_in, {"b", "right-hand side", nv}}, {{"x", "solution", nv}},
        [](const Model& m, const auto& x) {
            return std::vector{ltdl_solve(from_row_major(x[0], m.nv, false), expanded_parent(m), x[1])};
        }, true));
    k.back().ltdl_loops = KernelSpec::LtdlLoops::Solve;
    k.push_back(spec("fd_crba_ltdl", "Forward dynamics by CRBA + sparse LTDL + solve: qdd = H^-1 (tau - C).",
        with_wrenches({q_in(), qd_in(), tau_in(), gravity_in()}), {joint_vector_out("qdd", "joint accelerations")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            return labelled<RneaBodies<S>>(m, [&](auto* b) { return fd_crba_ltdl<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), b, pointer(I)); });
        }, true));
    k.back().ltdl_loops = KernelSpec::LtdlLoops::FactorAndSolve;
    k.back().head = std::make_shared<const KernelSpec>(ltdl_head(run_time, k.back().inputs));
    k.push_back(spec("aba", "Forward dynamics by the articulated-body algorithm: qdd = FD(q, qd, tau).",
        with_wrenches({q_in(), qd_in(), tau_in(), gravity_in()}), {joint_vector_out("qdd", "joint accelerations")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            return labelled<AbaBodies<S>>(m, [&](auto* b) { return aba<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), b, pointer(I)); });
        }, true));
    k.push_back(spec("jacobians",
        "Spatial Jacobian J (6 x NV, row-major) in world coordinates: column k is the motion axis of joint variable k in "
        "the world frame; body i's velocity in world coordinates is J qd over the joints that support i.",
        {q_in()}, {{"J", "6 x NV, row-major, [angular; linear] about the world origin", [](const Model&) { return 6; }, nv,
                    ArrayLayout::RowMajor}},
        [](const Model& m, const auto& x) { return std::vector{row_major(spatial_jacobian(m, x[0]))}; }));
    // The derivatives of the dynamics, on request: NV x NV each, several times rnea's size.
    const auto derivative = [](const std::string& name, const std::string& doc) {
        ArraySpec a = nv_matrix(name, doc + ", row-major (row i, column j: with respect to dof j; a floating base's "
                                      "columns along q + delta, delta = [omega; v] in base coordinates)", ArrayLayout::RowMajor);
        a.json = JsonForm::JointMatrix;
        return a;
    };
    KernelSpec rnea_derivatives_spec = spec("rnea_derivatives",
        "Derivatives of inverse dynamics, dtau/dq and dtau/dqd (Carpentier and Mansard, RSS 2018), branch-induced zeros "
        "never computed; dtau/dqdd is H (crba).",
        with_wrenches({q_in(), qd_in(), qdd_in(), gravity_in()}),
        {derivative("dtau_dq", "dtau/dq"), derivative("dtau_dqd", "dtau/dqd")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            const RneaDerivatives<S> d = rnea_derivatives<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), pointer(I));
            return std::vector{row_major(d.dtau_dq), row_major(d.dtau_dqd)};
        });
    rnea_derivatives_spec.on_request = true;
    rnea_derivatives_spec.method = "analytical recursions (Carpentier and Mansard), in the root body's frame; forward mode on the "
                                   "traced RNEA takes about twice the operations (tests/test_derivatives.cpp)";
    rnea_derivatives_spec.ltdl_loops = KernelSpec::LtdlLoops::DerivativePairs;
    rnea_derivatives_spec.head = std::make_shared<const KernelSpec>(spec("rnea_derivatives_head",
        "The vectors of rnea_derivatives' pair terms, for its loops.", rnea_derivatives_spec.inputs,
        {{"V", "8 six-vectors a DoF (algorithms/rnea_derivatives.hpp DerivativeVector)",
          [](const Model& m) { return 6 * kDerivativeVectors * m.nv; }}},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            const DerivativeVectors<S> V = rnea_derivative_vectors<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), pointer(I));
            VecX<S> out(6 * kDerivativeVectors * m.nv);
            for (int i = 0; i < m.nv; ++i)
                for (int k = 0; k < kDerivativeVectors; ++k) out.template segment<6>(6 * (kDerivativeVectors * i + k)) = V[i][k];
            return std::vector{out};
        }));
    const auto tail = std::make_shared<const KernelSpec>(rnea_derivatives_spec);
    k.push_back(std::move(rnea_derivatives_spec));
    KernelSpec aba_derivatives_spec = spec("aba_derivatives",
        "Derivatives of forward dynamics at qdd = FD(q, qd, tau): dqdd/dq = -H^-1 dtau/dq, dqdd/dqd = -H^-1 dtau/dqd "
        "and dqdd/dtau = H^-1, with the sparse LTDL factors of H.",
        with_wrenches({q_in(), qd_in(), tau_in(), gravity_in()}),
        {derivative("dqdd_dq", "dqdd/dq"), derivative("dqdd_dqd", "dqdd/dqd"), derivative("dqdd_dtau", "dqdd/dtau = H^-1, symmetric")},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto f_ext = run_time.body_wrenches(m, x);
            const auto I = run_time.body_inertias(m, x);
            const AbaDerivatives<S> d = aba_derivatives<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), pointer(I));
            return std::vector{row_major(d.dqdd_dq), row_major(d.dqdd_dqd), row_major(d.Minv)};
        }, true);
    aba_derivatives_spec.on_request = true;
    aba_derivatives_spec.method = "ltdl: -H^-1 dtau/dq and -H^-1 dtau/dqd at qdd = FD(q, qd, tau), solved with H's LTDL factors, "
                                  "H^-1 from W = L^-1 (ABA's own recursions are not built)";
    aba_derivatives_spec.ltdl_loops = KernelSpec::LtdlLoops::Derivatives;
    aba_derivatives_spec.head = std::make_shared<const KernelSpec>(ltdl_head(run_time, aba_derivatives_spec.inputs));
    aba_derivatives_spec.tail = tail;
    k.push_back(std::move(aba_derivatives_spec));
    // The regressor, on request (CMake reads the default kernels from `k.push_back(spec(`)
    KernelSpec regressor_spec = spec("regressor",
        "Inverse-dynamics regressor Y(q, qd, qdd): tau = Y pi, pi the 10 inertial parameters of every body in turn (m, "
        "m c, and the rotational inertia about the link's origin: Ixx, Ixy, Iyy, Ixz, Iyz, Izz), in its URDF link frame.",
        {q_in(), qd_in(), qdd_in(), gravity_in()},
        {{"Y", "NV x 10 NB, row-major; zero where a joint does not support the body", nv,
          [](const Model& m) { return kInertialParameters * m.N(); }, ArrayLayout::RowMajor}},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return std::vector{row_major(regressor<S>(m, x[0], x[1], x[2], vec3(x[3])))};
        });
    regressor_spec.on_request = true;
    k.push_back(std::move(regressor_spec));
    if (frames.empty()) return k;
    // --frames: their Jacobians and motion (CMake reads the fixed kernels' names from `k.push_back(spec(`; these
    // are not always there)
    const std::string which = link_list(frames);
    std::vector<KernelSpec> added;
    added.push_back(spec("frame_jacobians",
        "Jacobians of the frames " + which + ", world-aligned: (omega, velocity of the frame's origin) = J qd, both in world coordinates.",
        {q_in()}, {{"J", "6 rows a frame (in order), NV columns, row-major: [angular; linear]",
                    [n_frames](const Model&) { return 6 * n_frames; }, nv, ArrayLayout::RowMajor}},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            MatX<S> J(6 * frames.size(), m.nv);
            for (size_t j = 0; j < frames.size(); ++j) J.middleRows(6 * j, 6) = frame_jacobian<S>(m, frames[j], x[0]);
            return std::vector{row_major(J)};
        }));
    added.push_back(spec("frame_motion",
        "Velocity and classical acceleration of the frames " + which + ", world-aligned: (omega, velocity of the origin) and "
        "(angular acceleration, acceleration of the origin), in world coordinates; no gravity.",
        {q_in(), qd_in(), qdd_in()},
        {{"v", "6 a frame: [omega; velocity of the origin]", [n_frames](const Model&) { return 6 * n_frames; }},
         {"a", "6 a frame: [angular acceleration; acceleration of the origin]", [n_frames](const Model&) { return 6 * n_frames; }}},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const std::vector<FrameState<S>> f = frame_states<S>(m, frames, x[0], x[1], x[2]);
            VecX<S> v(6 * f.size()), a(6 * f.size());
            for (size_t j = 0; j < f.size(); ++j) v.template segment<6>(6 * j) = f[j].v, a.template segment<6>(6 * j) = f[j].a;
            return std::vector{v, a};
        }));
    for (KernelSpec& s : added) k.push_back(std::move(s));
    return k;
}

// A problem's arrays: q, qd, its known quantities, gravity (the analysis numbers them so).
std::vector<ArraySpec> problem_inputs(const Problem& p) {
    std::vector<ArraySpec> in{q_in(), qd_in()};
    for (const ProblemInput& i : p.inputs) {
        const int n = i.size();
        const StateField state = i.name == "qdd"            ? StateField::A
                                 : i.name == "tau"          ? StateField::Tau
                                 : i.name == "measurements" ? StateField::Measurements
                                                            : StateField::None;
        ArraySpec a{i.name, i.doc, [n](const Model&) { return n; }, {}, ArrayLayout::Vector, state};
        if (state == StateField::Measurements) a.element_names = i.element_names;
        in.push_back(a);
    }
    in.push_back(gravity_in());
    return in;
}
ArraySpec sized(std::string name, std::string doc, long n) {
    return {std::move(name), std::move(doc), [n](const Model&) { return static_cast<int>(n); }};
}
template <class S> struct ProblemArrays {
    VecX<S> q, qd;
    Vec3<S> gravity;
    std::vector<VecX<S>> known;
};
template <class S> ProblemArrays<S> problem_arrays(const Arrays<S>& x) {
    return {x[0], x[1], vec3(x.back()), std::vector<VecX<S>>(x.begin() + 2, x.end() - 1)};
}

}  // namespace

std::vector<KernelSpec> problem_kernel_specs(std::shared_ptr<const ProblemAnalysis> analysis) {
    const ProblemAnalysis& a = *analysis;
    const std::string& p = a.problem.name;
    const SparsePattern& P = a.pattern;
    // D's array: its nonzeros that vary with the state, column by column (the pattern's order), each
    // value once (ProblemAnalysis::entry_first); where each (row, column) sits there, or
    // −1 − (its index among all nonzeros) for a constant.
    auto slots = std::make_shared<std::unordered_map<long, long>>();
    const std::vector<long> slot = D_slots(a);
    long variable = 0;
    for (int c = 0, k = 0; c < P.cols; ++c)
        for (int r : P.columns[c]) {
            (*slots)[static_cast<long>(r) * P.cols + c] = slot[k] >= 0 ? slot[k] : -1 - k;
            variable = std::max(variable, slot[k] + 1);
            ++k;
        }
    const std::string shape = fmt::format("{} x {}", P.rows, P.cols);
    std::vector<KernelSpec> k;
    ArraySpec wanted = sized(a.problem.output_name, a.problem.output_doc, static_cast<long>(a.problem.wanted.size()));
    wanted.json = a.problem.joint_space_output ? JsonForm::JointVector : JsonForm::Named;
    if (!a.problem.joint_space_output) wanted.element_names = a.problem.wanted_names;
    k.push_back(spec(p + "_lu", a.problem.doc, problem_inputs(a.problem), {wanted}, [analysis](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        const ProblemArrays<S> in = problem_arrays(x);
        const VecX<S> d = solve_problem<S>(m, *analysis, in.q, in.qd, in.gravity, in.known);
        return std::vector{wanted_of(analysis->problem, d)};
    }));
    if (!a.problem.held.empty()) {
        ArraySpec same = wanted;
        KernelSpec by_aba = spec(p + "_aba", "What " + p + "_lu returns, " + (a.problem.impulse ? "the impact" : "constrained dynamics") +
                                                 " solved with the articulated-body algorithm instead: the free motion, the contacts' "
                                                 "operational-space system J H^-1 J^T through the articulated inertias, and the ABA with the "
                                                 "contact wrenches (algorithms/contact_aba.hpp).",
            problem_inputs(a.problem), {same}, [analysis](const Model& m, const auto& x) {
                using S = ScalarOf<std::decay_t<decltype(x)>>;
                const Problem& pr = analysis->problem;
                const ProblemArrays<S> in = problem_arrays(x);
                VecX<S> tau = VecX<S>::Zero(m.nv), errors;
                for (int i = 0; i < m.nv; ++i)
                    if (pr.tau_known[i]) tau[i] = in.known[pr.tau_input][i];
                if (pr.error_input >= 0) errors = in.known[pr.error_input];
                const ConstrainedMotion<S> c = contact_aba<S>(m, pr.held, in.q, in.qd, tau, in.gravity, errors, pr.impulse);
                VecX<S> out(m.nv + c.lambda.size());  // p.wanted's order: q̈ body by body, then the wrenches
                int o = 0;
                for (const Body& b : m.bodies)
                    for (int e = 0; e < b.joint.nv(); ++e) out[o++] = c.qdd[b.v_index + e];
                out.tail(c.lambda.size()) = c.lambda;
                return std::vector{out};
            });
        by_aba.method = "articulated-body algorithm with the contacts' operational-space system";
        k.push_back(std::move(by_aba));
    }
    ArraySpec D_out = sized("D", "the nonzeros of D (" + shape + ") that vary with the state, each value once (report.json D_slots)", variable);
    ArraySpec b_out = sized("b", "b of D d + b = 0", P.rows);
    k.push_back(spec(p + "_assemble", "Nori's system D d + b = 0 of problem " + p + " (eq. 3-5 and its measurement rows).",
        problem_inputs(a.problem), {D_out, b_out}, [analysis, P, variable](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const ProblemArrays<S> in = problem_arrays(x);
            const NewtonEulerSystem<S> sys = problem_system<S>(m, analysis->problem, in.q, in.qd, in.gravity, in.known);
            VecX<S> D(variable);
            for (int c = 0, k = 0, n = 0; c < P.cols; ++c)
                for (int r : P.columns[c]) {
                    if (!analysis->entry_constant[k] && analysis->entry_first[k] == k) D[n++] = sys.D(r, c);
                    ++k;
                }
            return std::vector{D, sys.b};
        }));
    ArraySpec D_in = D_out;
    D_in.produced_by = p + "_assemble";
    // The factors of lu_factor on D's array. Those that come out constants of the model (a ±1 pivot's
    // reciprocal, L's entries under it) are folded into the solve; those that are an entry of D the
    // elimination leaves as it is (U's rows that no earlier pivot updates: all of them for inverse
    // dynamics, whose LU has no fill) the solve reads from D; the factor's array holds the rest.
    const auto factors = [analysis, slots](const auto& D_values) {
        using S = typename std::decay_t<decltype(D_values)>::Scalar;
        const auto entry = [&](int r, int c) {
            const auto it = slots->find(static_cast<long>(r) * analysis->pattern.cols + c);
            if (it == slots->end()) return S(0.0);
            return it->second >= 0 ? D_values[it->second] : S(analysis->entry_value[-1 - it->second]);
        };
        return lu_values(analysis->lu, lu_factor<S>(analysis->lu, entry));
    };
    struct FactorEntry {
        enum class From { Constant, D, LU } from;
        double value = 0;  // Constant: its value
        long index = -1;   // D: its index in D's array
    };
    auto source = std::make_shared<std::vector<FactorEntry>>();
    {
        sym::Graph g;
        sym::Tracing tracing(g);
        VecX<sym::Expr> D(variable);
        for (int i = 0; i < D.size(); ++i) D[i] = sym::Expr::input(0, i);
        for (const sym::Expr& e : factors(D)) {
            const sym::Node& n = g.node(e.id());
            source->push_back(n.op == sym::Op::Const ? FactorEntry{FactorEntry::From::Constant, n.value}
                              : n.op == sym::Op::Input ? FactorEntry{FactorEntry::From::D, 0, n.index}
                                                       : FactorEntry{FactorEntry::From::LU});
        }
    }
    const long lu_variable = std::count_if(source->begin(), source->end(), [](const FactorEntry& e) { return e.from == FactorEntry::From::LU; });
    ArraySpec LU = sized("LU", "the factors that vary with the state and are not entries of D (sparse/static_lu.hpp lu_values: row "
                                 "by row of P D Q, L's entries, 1 / u_ii, U's entries)", lu_variable);
    k.push_back(spec(p + "_factor", "Static-pivot sparse LU P D Q = L U of problem " + p + " (ordering " + a.ordering + ").",
        {D_in}, {LU}, [factors, source, lu_variable](const Model&, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const VecX<S> all = factors(x[0]);
            VecX<S> out(lu_variable);
            for (long i = 0, n = 0; i < all.size(); ++i)
                if ((*source)[i].from == FactorEntry::From::LU) out[n++] = all[i];
            return std::vector{out};
        }));
    ArraySpec LU_in = LU, b_in = b_out;
    LU_in.produced_by = p + "_factor", b_in.produced_by = p + "_assemble";
    k.push_back(spec(p + "_solve", "Forward and backward substitution with the LU factors of problem " + p + ": d = -D^-1 b.",
        {D_in, LU_in, b_in}, {sized("d", "every variable of d (report.json names them)", P.cols)}, [analysis, source](const Model&, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            VecX<S> all(source->size());
            for (long i = 0, n = 0; i < all.size(); ++i) {
                const FactorEntry& e = (*source)[i];
                all[i] = e.from == FactorEntry::From::Constant ? S(e.value)
                         : e.from == FactorEntry::From::D      ? x[0][e.index]
                                                               : x[1][n++];
            }
            return std::vector{lu_solve(analysis->lu, lu_from_values(analysis->lu, all), VecX<S>(x[2]))};
        }));
    return k;
}

std::vector<KernelSpec> ncmtm_kernel_specs(const Model& model, int N) {
    if (N < 1 || N > kMaxNcmtmOrder)
        throw Error(fmt::format("--ncmtm-order {} is out of range; use an order from 1 (velocities and accelerations, "
                                "torques) to {}", N, kMaxNcmtmOrder));
    const auto rows = [](int n) { return [n](const Model&) { return n; }; };
    ArraySpec q = q_in();
    q.state = StateField::MotionQ;
    const ArraySpec Psi{"Psi", fmt::format("the joint motion psi, psi', ..., psi^({}): row k the k-th derivative of the joint "
                                           "velocities (a floating base: body coordinates, [angular; linear])", N),
                        rows(N + 1), nv, ArrayLayout::RowMajor, StateField::Motion};
    ArraySpec zeta{"zeta", fmt::format("row i: body i's velocity and its derivatives to order {}, 6 each, in its URDF link's "
                                       "coordinates [angular; linear], component-wise", N),
                   [](const Model& m) { return m.N(); }, [N](const Model&) { return 6 * (N + 1); }, ArrayLayout::RowMajor};
    zeta.json = JsonForm::LinkMotions;
    for (const Body& b : model.bodies) zeta.element_names.push_back(b.name);
    ArraySpec tau{"tau", fmt::format("row k: the k-th derivative of the joint forces, k = 0..{}", N - 1), rows(N), nv, ArrayLayout::RowMajor};
    tau.json = JsonForm::JointDerivatives;
    ArraySpec tau_in = tau;
    tau_in.json = JsonForm::None, tau_in.produced_by = "cornea";
    const ArraySpec Psi_dot{"Psi_dot", fmt::format("row k - 1: the k-th derivative of the joint velocities, k = 1..{}", N), rows(N), nv,
                            ArrayLayout::RowMajor};
    const auto motion = [N](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        Motion<S> a{x[0], {}};
        for (int k = 0; k <= N; ++k) a.psi.push_back(x[1].segment(k * m.nv, m.nv));
        return a;
    };
    const auto rows_of = [](const auto& stacked) {  // rows of equal length, one after the other
        using V = std::decay_t<decltype(stacked.front())>;
        V out(static_cast<long>(stacked.size() * stacked.front().size()));
        for (size_t r = 0; r < stacked.size(); ++r) out.segment(r * stacked.front().size(), stacked.front().size()) = stacked[r];
        return out;
    };
    std::vector<KernelSpec> out;  // (not `k`: CMake reads the fixed kernels' names from `k.push_back(spec(`)
    out.push_back(spec("ncmtm_fk", fmt::format("Forward kinematics of order {} by the N-CMTM (Samy et al. eq. 37): every link's "
                                                "velocity and its derivatives, the world at rest.", N),
        {q, Psi}, {zeta}, [motion, rows_of](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            std::vector<VecX<S>> links;  // in the URDF link frames (ᵁX_i is constant: it commutes with d/dt)
            const std::vector<Stack<S, 6>> zeta = ncmtm_fk<S>(m, motion(m, x));
            for (int i = 0; i < m.N(); ++i) {
                std::vector<VecX<S>> orders;
                for (const Vec6<S>& z : zeta[i]) orders.push_back(m.bodies[i].X_urdf.template cast<S>().apply(z));
                links.push_back(rows_of(orders));
            }
            return std::vector{rows_of(links)};
        }));
    out.push_back(spec("cornea", fmt::format("Inverse dynamics of order {} (CoRNEA, Samy et al. Alg. 1): the joint forces and their "
                                           "derivatives to order {}.", N, N - 1),
        {q, Psi, gravity_in()}, {tau}, [motion, rows_of](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return std::vector{rows_of(cornea<S>(m, motion(m, x), vec3(x[2])))};
        }));
    out.push_back(spec("ncmtm_fd", fmt::format("Forward dynamics of order {} (Samy et al. Alg. 2): the joint motion's derivatives "
                                             "psi', ..., psi^({}) from q, qd and the joint forces' derivatives.", N, N),
        {q_in(), qd_in(), tau_in, gravity_in()}, {Psi_dot}, [N, rows_of](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            std::vector<VecX<S>> tau_k;
            for (int j = 0; j < N; ++j) tau_k.push_back(x[2].segment(j * m.nv, m.nv));
            return std::vector{rows_of(ncmtm_fd<S>(m, x[0], x[1], tau_k, vec3(x[3])))};
        }, true));
    // The comprehensive Jacobians (§VI-B), in the hat form of eq. (67): x̂_k = x^(k) / k!.
    const ArraySpec J{"J", fmt::format("block p = 0..{} (rows 6p to 6p + 5): the world-frame Jacobian's p-th block J_p (eq. 49); "
                                       "link b's spatial velocity in world coordinates about the world origin and its derivatives are "
                                       "zeta_k / k! = sum_(p <= k) J_(k-p) psi^(p) / p! over the columns of the joints that support b", N),
                      [N](const Model&) { return 6 * (N + 1); }, nv, ArrayLayout::RowMajor};
    KernelSpec jacobian = spec("ncmtm_jacobian", fmt::format("The world-frame comprehensive Jacobian of order {} (Samy et al. "
                                                             "eq. 46, 49): the derivatives of the spatial Jacobian.", N),
        {q, Psi}, {J}, [motion, N](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const Motion<S> a = motion(m, x);
            std::vector<bool> leaf(m.N(), true);
            for (const Body& b : m.bodies)
                if (b.lambda >= 0) leaf[b.lambda] = false;
            MatX<S> out = MatX<S>::Zero(6 * (N + 1), m.nv);  // a joint's columns are the same in every link's Jacobian
            for (int b = 0; b < m.N(); ++b) {
                if (!leaf[b]) continue;
                const ComprehensiveJacobian<S> Jb = ncmtm_jacobian<S>(m, a, b, JacobianFrame::World);
                for (int j = b; j >= 0; j = m.bodies[j].lambda)
                    for (int p = 0; p <= N; ++p)
                        out.block(6 * p, m.bodies[j].v_index, 6, m.bodies[j].joint.nv()) =
                            Jb.J[p].middleCols(m.bodies[j].v_index, m.bodies[j].joint.nv());
            }
            return std::vector{row_major(out)};
        });
    jacobian.on_request = true;
    out.push_back(jacobian);
    const ArraySpec R{"R", fmt::format("block (k, q), k = 0..{}, q = 0..{} (rows k NV.., columns q NV..): the torque Jacobian "
                                       "(eq. 57), tau^(k) / k! = sum_q R_kq psi^(q) / q! with the world at rest (no gravity, no "
                                       "external force); R depends on q and the motion", N - 1, N),
                      [N](const Model& m) { return N * m.nv; }, [N](const Model& m) { return (N + 1) * m.nv; }, ArrayLayout::RowMajor};
    KernelSpec torque = spec("ncmtm_torque_jacobian", fmt::format("The torque Jacobian of order {} (Samy et al. eq. 52, 53, 57): "
                                                                  "joint momenta, forces and torques as linear maps of the motion.", N),
        {q, Psi}, {R}, [motion, N](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const std::vector<BlockJacobian<S>> Ri = ncmtm_torque_jacobians<S>(m, motion(m, x));
            MatX<S> out = MatX<S>::Zero(N * m.nv, (N + 1) * m.nv);
            for (int i = 0; i < m.N(); ++i)
                for (int k = 0; k < N; ++k)
                    for (int p = 0; p <= N; ++p)
                        out.block(k * m.nv + m.bodies[i].v_index, p * m.nv, m.bodies[i].joint.nv(), m.nv) = Ri[i].Q[k][p];
            return std::vector{row_major(out)};
        });
    torque.on_request = true;
    out.push_back(torque);
    return out;
}

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
    static const std::vector<KernelSpec> specs = make_specs({}, {});
    return specs;
}

std::vector<KernelSpec> kernel_specs(const std::vector<LinkFrame>& wrenches, const std::vector<LinkFrame>& frames,
                                     const std::vector<LinkFrame>& payload) {
    return make_specs(RunTime{wrenches, payload}, frames);
}

const std::vector<std::string>& frame_kernel_names() {
    static const std::vector<std::string> names = {"frame_jacobians", "frame_motion"};
    return names;
}

std::vector<LinkFrame> link_frames(const Model& model, const std::vector<std::string>& links, const std::string& where, bool moving) {
    std::vector<LinkFrame> out;
    for (const std::string& name : links) {
        const std::optional<LinkFrame> f = link_frame(model, name);
        if (!f)
            throw Error(where + ": no link '" + comment_text(name) + "' in " + model.source + "; the closest are " +
                        closest_link_names(model, name));
        if (moving && f->body < 0)
            throw Error(where + ": link '" + comment_text(name) + "' is welded to the fixed base of " + model.source +
                        ": nothing moves it, so it does not enter the dynamics; name a moving link (or load the robot with a "
                        "floating base)");
        if (std::any_of(out.begin(), out.end(), [&](const LinkFrame& s) { return s.link == name; }))
            throw Error(where + ": link '" + comment_text(name) + "' is named twice; name it once");
        out.push_back(*f);
    }
    return out;
}

std::vector<std::string> kernel_names(bool on_request) {
    std::vector<std::string> names;
    for (const KernelSpec& s : kernel_specs())
        if (s.on_request == on_request) names.push_back(s.name);
    return names;
}

const KernelSpec& kernel_spec(const std::string& name) {
    for (const KernelSpec& s : kernel_specs())
        if (s.name == name) return s;
    std::string list;
    for (const std::string& n : kernel_names()) list += (list.empty() ? "" : ", ") + n;
    for (const std::string& n : kernel_names(true)) list += ", " + n;
    throw Error("unknown kernel '" + name + "'; the kernels are " + list);
}

std::vector<int> Kernel::all_output_nodes() const {
    std::vector<int> all;
    for (const std::vector<int>& o : output_nodes) all.insert(all.end(), o.begin(), o.end());
    return all;
}

namespace {
// The spec's algorithm on symbolic inputs, traced into k's graph (the guard ends with this call,
// before trace_kernel may replace the graph).
void trace_into(Kernel& k, const Model& model, const KernelSpec& spec) {
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
}
}  // namespace

Kernel trace_kernel(const Model& model, const KernelSpec& spec, int max_nodes, bool keep_divisions, Folding folding) {
    Kernel k;
    k.spec = &spec;
    k.name = spec.name;
    k.doc = spec.doc;
    k.graph->max_nodes = max_nodes;
    k.graph->sign_neutral = folding != Folding::Full;
    k.graph->opaque_model = folding == Folding::Opaque;
    trace_into(k, model, spec);
    if (keep_divisions) return k;
    // one reciprocal a shared divisor
    const sym::OpCounts as_written = k.ops();
    auto shared = std::make_unique<sym::Graph>();
    shared->max_nodes = max_nodes;
    const std::vector<int> mapped = sym::share_reciprocals(*k.graph, k.all_output_nodes(), *shared);
    k.graph = std::move(shared);
    for (size_t o = 0, n = 0; o < k.output_nodes.size(); ++o)
        for (int& id : k.output_nodes[o]) id = mapped[n++];
    if (k.ops().div != as_written.div) k.ops_with_divisions = as_written;
    return k;
}

}  // namespace rbdgen
