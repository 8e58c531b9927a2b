// The kernels: each a reference algorithm with named, shaped arrays in and out. Nothing here computes
// dynamics; an entry only wires an algorithm of generator/algorithms/ to arrays, once for both
// scalars (the same generic lambda is the reference and the tracer).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <type_traits>

#include "algorithms/aba.hpp"
#include "algorithms/configuration.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "emit/kernel_spec_parts.hpp"
#include "emit/names.hpp"
#include "model/error.hpp"
#include "model/topology.hpp"
#include "sparse/analysis.hpp"
#include "sym/merge_values.hpp"

namespace rbdgen {
namespace spec_parts {

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

}  // namespace spec_parts

namespace {
using namespace spec_parts;

std::vector<KernelSpec> make_specs(const RunTime& run_time, const std::vector<LinkFrame>& frames) {
    // rnea, aba and fd_crba_ltdl take the wrenches, the kernels of the dynamics the payload
    const auto with_wrenches = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), true); };
    const auto with_payload = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), false); };
    std::vector<KernelSpec> k;
    const int n_frames = static_cast<int>(frames.size());
    // eval prints the poses by link: every body's (Model::body_names), then the frames'
    std::vector<ArraySpec> fk_out{{"pose", "12 per body: R row-major, then p", [](const Model& m) { return 12 * m.N(); }}};
    fk_out[0].json = EvalForm::LinkPoses;
    fk_out[0].row_names = [](const Model& m) { return m.body_names(); };
    if (n_frames > 0) {
        fk_out.push_back({"frame_pose", "12 per frame (" + link_list(frames) + "): R row-major, then p",
                          [n_frames](const Model&) { return 12 * n_frames; }});
        fk_out[1].json = EvalForm::LinkPoses;
        fk_out[1].row_names = [frames](const Model&) { return link_names(frames); };
    }
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
    H_out.json = EvalForm::JointMatrix;
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
    // The configuration manifold, q + v and q1 - q0 with their Jacobians (algorithms/configuration.hpp)
    const auto configuration = [](std::string name, std::string doc) {  // q's coordinates, not angles for `_sc`
        ArraySpec q = q_in();
        q.name = std::move(name), q.doc = std::move(doc) + ": " + q.doc, q.angles = false;
        return q;
    };
    const auto step_in = [] {
        return ArraySpec{"v", "the step on the tangent space, as qd (eval: the state's qd, a unit time's motion)", nv, {},
                         ArrayLayout::Vector, StateField::V};
    };
    ArraySpec q_next{"q_next", "q + v, as q", nq, [](const Model&) { return 1; }, ArrayLayout::RowMajor};
    q_next.json = EvalForm::Matrix;
    q_next.row_names = [](const Model& m) { return m.position_names(); };
    q_next.column_names = [](const Model&) { return std::vector<std::string>{"q"}; };
    ArraySpec q1 = configuration("q1", "the configuration reached (eval: the state's q + qd, integrate's q_next)");
    q1.state = StateField::QNext, q1.produced_by = "integrate";
    const auto manifold_jacobian = [](const std::string& name, const std::string& doc) {
        ArraySpec a = nv_matrix(name, doc + ", row-major, block-diagonal a joint (tangent directions as the derivative kernels')",
                                ArrayLayout::RowMajor);
        a.json = EvalForm::JointMatrix;
        return a;
    };
    k.push_back(spec("integrate",
        "q + v on the configuration manifold: a floating base moved by the SE(3) exponential of v (Pinocchio's free-flyer "
        "integrate), a ball joint by SO(3)'s, other joints by addition; quaternions normalised first.",
        {configuration("q", "the configuration"), step_in()}, {q_next},
        [](const Model& m, const auto& x) { return std::vector{integrate(m, x[0], x[1])}; }));
    k.push_back(spec("difference",
        "v = q1 - q0, the tangent step with q0 + v = q1 (SE(3)'s and SO(3)'s logarithm: rotations by at most pi); "
        "quaternions normalised first.",
        {configuration("q0", "the configuration left"), q1}, {joint_vector_out("v", "the tangent step, as qd")},
        [](const Model& m, const auto& x) { return std::vector{difference(m, x[0], x[1])}; }));
    k.push_back(spec("integrate_jacobians",
        "Jacobians of q + v in the tangent convention: (q + delta) + v = (q + v) + dq_dq delta, q + (v + delta) = (q + v) + dq_dv delta.",
        {configuration("q", "the configuration"), step_in()},
        {manifold_jacobian("dq_dq", "d(q + v)/dq, Ad(Exp(v))^-1"), manifold_jacobian("dq_dv", "d(q + v)/dv, the right Jacobian Jr(v)")},
        [](const Model& m, const auto& x) {
            const auto J = integrate_jacobians(m, x[1]);
            return std::vector{row_major(J.d0), row_major(J.d1)};
        }));
    k.push_back(spec("difference_jacobians",
        "Jacobians of v = q1 - q0 in the tangent convention: d v / d q0 = -Jl(v)^-1, d v / d q1 = Jr(v)^-1.",
        {configuration("q0", "the configuration left"), q1},
        {manifold_jacobian("dv_dq0", "d(q1 - q0)/dq0"), manifold_jacobian("dv_dq1", "d(q1 - q0)/dq1")},
        [](const Model& m, const auto& x) {
            const auto J = difference_jacobians(m, x[0], x[1]);
            return std::vector{row_major(J.d0), row_major(J.d1)};
        }));
    // The centre of mass, centroidal momentum, energy, Jacobian rates, H^-1 and C (emit/whole_body_kernel_specs.cpp)
    for (KernelSpec& s : whole_body_specs(run_time)) k.push_back(std::move(s));
    // The derivatives of the dynamics and the regressor, on request (emit/derivative_kernel_specs.cpp)
    for (KernelSpec& s : derivative_specs(run_time)) k.push_back(std::move(s));
    if (frames.empty()) return k;
    // --frames: their Jacobians and motion (CMake reads the fixed kernels' names from `k.push_back(spec(`; these
    // are not always there)
    const std::string which = link_list(frames);
    std::vector<KernelSpec> added;
    // eval prints J with its rows "<link>.wx" ... "<link>.vz", v and a a row a frame
    ArraySpec J{"J", "6 rows a frame (in order), NV columns, row-major: [angular; linear]",
                [n_frames](const Model&) { return 6 * n_frames; }, nv, ArrayLayout::RowMajor};
    J.json = EvalForm::Matrix;
    J.row_names = [frames](const Model&) {
        std::vector<std::string> names;
        for (const std::string& link : link_names(frames))
            for (const char* c : kMotion) names.push_back(link + "." + c);
        return names;
    };
    const auto per_frame = [&frames, n_frames](std::string name, std::string doc) {
        ArraySpec a{std::move(name), std::move(doc), [n_frames](const Model&) { return n_frames; }, [](const Model&) { return 6; },
                    ArrayLayout::RowMajor};
        a.json = EvalForm::Matrix;
        a.row_names = [frames](const Model&) { return link_names(frames); };
        a.column_names = [](const Model&) { return std::vector<std::string>(kMotion.begin(), kMotion.end()); };
        return a;
    };
    added.push_back(spec("frame_jacobians",
        "Jacobians of the frames " + which + ", world-aligned: (omega, velocity of the frame's origin) = J qd, both in world coordinates.",
        {q_in()}, {J},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            MatX<S> J(6 * frames.size(), m.nv);
            for (size_t j = 0; j < frames.size(); ++j) J.middleRows(6 * j, 6) = frame_jacobian<S>(m, frames[j], x[0]);
            return std::vector{row_major(J)};
        }));
    added.push_back(spec("frame_jacobians_dot",
        "Time derivative of frame_jacobians (frames " + which + "), world-aligned: Jdot qd is frame_motion's acceleration at qdd = 0.",
        {q_in(), qd_in()}, {[&J] {
            ArraySpec Jdot = J;
            Jdot.name = "Jdot";
            return Jdot;
        }()},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            MatX<S> Jdot(6 * frames.size(), m.nv);
            for (size_t j = 0; j < frames.size(); ++j) Jdot.middleRows(6 * j, 6) = frame_jacobian_rate<S>(m, frames[j], x[0], x[1]);
            return std::vector{row_major(Jdot)};
        }));
    added.push_back(spec("frame_motion",
        "Velocity and classical acceleration of the frames " + which + ", world-aligned: (omega, velocity of the origin) and "
        "(angular acceleration, acceleration of the origin), in world coordinates; no gravity.",
        {q_in(), qd_in(), qdd_in()},
        {per_frame("v", "6 a frame: [omega; velocity of the origin]"),
         per_frame("a", "6 a frame: [angular acceleration; acceleration of the origin]")},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const std::vector<FrameState<S>> f = frame_states<S>(m, frames, x[0], x[1], x[2]);
            VecX<S> v(6 * f.size()), a(6 * f.size());
            for (size_t j = 0; j < f.size(); ++j) v.template segment<6>(6 * j) = f[j].v, a.template segment<6>(6 * j) = f[j].a;
            return std::vector{v, a};
        }));
    // their derivatives, each 6 rows a frame as J (algorithms/frame_motion_derivatives.hpp)
    const auto derivative = [&J](std::string name, std::string doc) {
        ArraySpec d = J;
        d.name = std::move(name), d.doc = std::move(doc) + ", 6 rows a frame (in order), NV columns, row-major (column j: with respect "
                                                          "to dof j; a floating base's along q + delta, delta = [omega; v] in base coordinates)";
        return d;
    };
    added.push_back(spec("frame_motion_derivatives",
        "Derivatives of frame_motion (frames " + which + "): of the world-aligned velocity v with respect to q (tangent space) and qd, "
        "and of the classical acceleration a with respect to q, qd and qdd (dv_dqd = da_dqdd = frame_jacobians' J).",
        {q_in(), qd_in(), qdd_in()},
        {derivative("dv_dq", "dv/dq"), derivative("dv_dqd", "dv/dqd"), derivative("da_dq", "da/dq"), derivative("da_dqd", "da/dqd"),
         derivative("da_dqdd", "da/dqdd")},
        [frames](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const std::vector<WorldAlignedMotionDerivatives<S>> d = world_aligned_motion_derivatives<S>(m, frames, x[0], x[1], x[2]);
            std::array<MatX<S>, 5> out;
            for (MatX<S>& o : out) o = MatX<S>(6 * frames.size(), m.nv);
            for (size_t j = 0; j < frames.size(); ++j) {
                out[0].middleRows(6 * j, 6) = d[j].dv_dq, out[1].middleRows(6 * j, 6) = d[j].dv_dqd;
                out[2].middleRows(6 * j, 6) = d[j].da_dq, out[3].middleRows(6 * j, 6) = d[j].da_dqd, out[4].middleRows(6 * j, 6) = d[j].da_dqdd;
            }
            return std::vector{row_major(out[0]), row_major(out[1]), row_major(out[2]), row_major(out[3]), row_major(out[4])};
        }));
    for (KernelSpec& s : added) k.push_back(std::move(s));
    return k;
}

}  // namespace

bool KernelSpec::evaluated() const {
    const bool inputs_from_state =
        std::all_of(inputs.begin(), inputs.end(), [](const ArraySpec& a) { return a.state != StateField::None; });
    return inputs_from_state &&
           std::any_of(outputs.begin(), outputs.end(), [](const ArraySpec& a) { return a.json.has_value(); });
}

std::string KernelSpec::result_name(size_t o) const {
    const long printed =
        std::count_if(outputs.begin(), outputs.end(), [](const ArraySpec& a) { return a.json.has_value(); });
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
    static const std::vector<std::string> names = {"frame_jacobians", "frame_jacobians_dot", "frame_motion", "frame_motion_derivatives"};
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

std::string method_name(const std::string& method) { return method.substr(0, method.find(':')); }

Kernel trace_kernel(const Model& model, const KernelSpec& spec, int max_nodes, bool keep_divisions, Folding folding,
                    const std::string& method) {
    Kernel k;
    k.spec = &spec;
    k.name = spec.name;
    k.doc = spec.doc;
    k.graph->max_nodes = max_nodes;
    k.graph->sign_neutral = folding != Folding::Full;
    k.graph->opaque_model = folding == Folding::Opaque;
    trace_into(k, model, spec);
    // the graph rebuilt by a pass: `pass(in, outputs, out)` returns the outputs' ids in out
    const auto rebuild = [&k, max_nodes](const auto& pass) {
        auto out = std::make_unique<sym::Graph>();
        out->max_nodes = max_nodes;
        const std::vector<int> mapped = pass(*k.graph, k.all_output_nodes(), *out);
        k.graph = std::move(out);
        for (size_t o = 0, n = 0; o < k.output_nodes.size(); ++o)
            for (int& id : k.output_nodes[o]) id = mapped[n++];
    };
    if (!keep_divisions) {  // one reciprocal a shared divisor
        const sym::OpCounts as_written = k.ops();
        rebuild(sym::share_reciprocals);
        if (k.ops().div != as_written.div) k.ops_with_divisions = as_written;
    }
    if (spec.merge_values)  // value numbering by value
        rebuild([](const sym::Graph& in, const std::vector<int>& outputs, sym::Graph& out) {
            return sym::merge_equal_values(in, outputs, out, sym::kMergeTolerance);
        });
    k.method = spec.method;
    if (spec.alternatives.empty() || (spec.ltdl_loops != KernelSpec::LtdlLoops::None && method.empty())) return k;
    // the method named, or the one of fewest operations for this robot, and what each took
    std::string counts = method_name(spec.method) + " " + std::to_string(k.ops().total());
    for (const auto& alternative : spec.alternatives) {
        Kernel a = trace_kernel(model, *alternative, max_nodes, keep_divisions, folding);
        counts += ", " + method_name(alternative->method) + " " + std::to_string(a.ops().total());
        if (method.empty() ? a.ops().total() < k.ops().total() : method_name(alternative->method) == method) {
            a.spec = &spec;
            a.name = spec.name;
            a.doc = spec.doc;
            k = std::move(a);
        }
    }
    k.method += " (operations for this robot: " + counts + (method.empty() ? "" : "; chosen by --method") + ")";
    return k;
}

}  // namespace rbdgen
