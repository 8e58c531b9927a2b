// What the kernel specifications share (emit/kernel_specs.cpp and the problem, N-CMTM and derivative
// kernels' files): the arrays every kernel takes, the names the emitted code gives body quantities,
// spec() that makes one entry from an algorithm written once for both scalars, and what a kernel takes
// at run time beyond its algorithm's inputs. Split by kernel family so that the generator's build
// compiles them in parallel (each instantiates its algorithms for double and for the tracer).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <type_traits>

#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "emit/names.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace spec_parts {

template <class A> using ScalarOf = typename A::value_type::Scalar;

inline int nq(const Model& m) { return m.nq; }
inline int nv(const Model& m) { return m.nv; }
inline int three(const Model&) { return 3; }
inline int ltdl_nonzeros(const Model& m) { return static_cast<int>(ltdl_rows(expanded_parent(m)).col.size()); }

inline ArraySpec q_in() {
    return {"q", "joint positions (a floating base: position, then quaternion x, y, z, w; a ball joint: quaternion x, y, z, w)", nq, {}, ArrayLayout::Vector,
            StateField::Q, true};
}
inline ArraySpec qd_in() {
    return {"qd", "joint velocities (a floating base: [angular; linear] in base coordinates)", nv, {}, ArrayLayout::Vector, StateField::V};
}
inline ArraySpec qdd_in() { return {"qdd", "joint accelerations", nv, {}, ArrayLayout::Vector, StateField::A}; }
inline ArraySpec tau_in() { return {"tau", "joint forces", nv, {}, ArrayLayout::Vector, StateField::Tau}; }
inline ArraySpec gravity_in() { return {"gravity", "gravity in the world frame", three, {}, ArrayLayout::Vector, StateField::Gravity}; }
inline ArraySpec joint_vector_out(const std::string& name, const std::string& doc) {
    ArraySpec a{name, doc, nv};
    a.json = EvalForm::JointVector;
    return a;
}
inline ArraySpec nv_matrix(const std::string& name, const std::string& doc, ArrayLayout layout) {
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
inline void label(const Model& m, int i, const V& x, const std::string& what, const std::vector<const char*>& parts) {
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
inline std::string link_list(const std::vector<LinkFrame>& links) {
    std::string list;
    for (const LinkFrame& l : links) list += (list.empty() ? "" : ", ") + comment_text(l.link);
    return list;
}
// The links' names, in order: the rows eval names frame_pose, J and frame_motion by.
inline std::vector<std::string> link_names(const std::vector<LinkFrame>& links) {
    std::vector<std::string> names;
    for (const LinkFrame& l : links) names.push_back(l.link);
    return names;
}
inline ArraySpec f_ext_in(const std::vector<LinkFrame>& sites) {
    const std::string links = link_list(sites);
    ArraySpec a{"f_ext", "external wrenches, a row a link (" + links + "): [torque; force] applied to the link, in its URDF "
                         "frame, about its origin",
                [n = static_cast<int>(sites.size())](const Model&) { return n; }, [](const Model&) { return 6; },
                ArrayLayout::RowMajor, StateField::ExternalWrenches};
    for (const LinkFrame& s : sites) a.element_names.push_back(s.link);
    return a;
}
inline ArraySpec pi_in(const std::vector<LinkFrame>& links) {
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

// fd_crba_ltdl's head, and aba_derivatives': H's nonzeros (ltdl_rows order) and the bias forces C
// (emit/kernel_specs.cpp).
KernelSpec ltdl_head(const RunTime& run_time, const std::vector<ArraySpec>& inputs);
// rnea_derivatives, aba_derivatives and the regressor, the kernels emitted only when named
// (emit/derivative_kernel_specs.cpp).
std::vector<KernelSpec> derivative_specs(const RunTime& run_time);
// The centre of mass, centroidal momentum, energy and Jacobian rates, and on request H^-1 and the
// Coriolis matrix (emit/whole_body_kernel_specs.cpp).
std::vector<KernelSpec> whole_body_specs(const RunTime& run_time);

}  // namespace spec_parts
}  // namespace rbdgen
