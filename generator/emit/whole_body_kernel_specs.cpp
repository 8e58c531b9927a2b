// What whole-body and legged controllers compute every cycle beside the dynamics: the centre of mass
// and its Jacobian, the centroidal momentum, the energy, the Jacobians' rate, and (on request, NV x NV
// each) H⁻¹ and the Coriolis matrix. Wired to their algorithms as every kernel is (emit/kernel_specs.cpp).
#include "algorithms/centroidal.hpp"
#include "algorithms/centroidal_derivatives.hpp"
#include "algorithms/com.hpp"
#include "algorithms/coriolis.hpp"
#include "algorithms/energy.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/minv.hpp"
#include "algorithms/minv_aba.hpp"
#include "emit/kernel_spec_parts.hpp"
#include "model/error.hpp"

namespace rbdgen {
namespace spec_parts {

namespace {
const std::vector<const char*> kMomentum = {"kx", "ky", "kz", "lx", "ly", "lz"};  // [angular; linear]

// An output eval prints by the names of its elements.
ArraySpec named(const std::string& name, const std::string& doc, const std::vector<const char*>& parts) {
    ArraySpec a{name, doc, [n = static_cast<int>(parts.size())](const Model&) { return n; }};
    a.json = EvalForm::Named;
    a.element_names.assign(parts.begin(), parts.end());
    return a;
}
// A matrix of NV columns, its rows `parts`, eval printing it with their names and the dofs'.
ArraySpec rows_by_dof(const std::string& name, const std::string& doc, const std::vector<const char*>& parts) {
    ArraySpec a{name, doc, [n = static_cast<int>(parts.size())](const Model&) { return n; }, nv, ArrayLayout::RowMajor};
    a.json = EvalForm::Matrix;
    a.row_names = [parts](const Model&) { return std::vector<std::string>(parts.begin(), parts.end()); };
    return a;
}
template <class S> VecX<S> one(const S& x) {
    VecX<S> v(1);
    v[0] = x;
    return v;
}
template <class S> VecX<S> vec(const Vec3<S>& x) { return VecX<S>(x); }
template <class S> VecX<S> vec(const Vec6<S>& x) { return VecX<S>(x); }
}  // namespace

std::vector<KernelSpec> whole_body_specs(const RunTime& run_time) {
    const auto with_payload = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), false); };
    std::vector<KernelSpec> k;
    k.push_back(spec("com", "Centre of mass c of the moving bodies, in world coordinates (Orin et al. 2013).",
        with_payload({q_in()}), {named("c", "centre of mass, world coordinates", kXyz)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            return std::vector{vec<S>(center_of_mass<S>(m, x[0], nullptr, nullptr, pointer(I)).c)};
        }));
    k.push_back(spec("com_motion", "Centre of mass c and its velocity and acceleration, world coordinates (no gravity).",
        with_payload({q_in(), qd_in(), qdd_in()}),
        {named("c", "centre of mass", kXyz), named("cd", "its velocity", kXyz), named("cdd", "its acceleration", kXyz)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            const CenterOfMass<S> c = center_of_mass<S>(m, x[0], &x[1], &x[2], pointer(I));
            return std::vector{vec<S>(c.c), vec<S>(c.cd), vec<S>(c.cdd)};
        }));
    k.push_back(spec("com_jacobian", "Jacobian of the centre of mass, 3 x NV row-major, world coordinates: cd = Jc qd.",
        with_payload({q_in()}), {rows_by_dof("Jc", "3 x NV, row-major", kXyz)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            return std::vector{row_major(com_jacobian<S>(m, x[0], pointer(I)))};
        }));
    k.push_back(spec("centroidal",
        "Centroidal momentum matrix A_G (6 x NV, row-major), momentum h_G = A_G qd and the bias Adot_G qd, about the centre of "
        "mass in world axes, rows [angular; linear] (Orin et al. 2013), by the composite-rigid-body recursion.",
        with_payload({q_in(), qd_in()}),
        {rows_by_dof("A", "A_G, 6 x NV, row-major, rows [angular; linear]", kMomentum),
         named("h", "h_G = A_G qd: [angular momentum about the CoM; linear momentum]", kMomentum),
         named("Adot_qd", "Adot_G qd, the momentum's rate at qdd = 0", kMomentum)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            const Centroidal<S> c = centroidal<S>(m, x[0], x[1], pointer(I));
            return std::vector{row_major(c.A), vec<S>(c.h), vec<S>(c.Adot_qd)};
        }));
    k.push_back(spec("centroidal_momentum_rate",
        "Centroidal momentum h_G and its rate hdot_G = A_G qdd + Adot_G qd (without forming A_G), about the centre of mass in "
        "world axes, rows [angular; linear]: the net external wrench on the robot about its centre of mass, gravity's included.",
        with_payload({q_in(), qd_in(), qdd_in()}),
        {named("h", "h_G", kMomentum), named("hdot", "its rate", kMomentum)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            const CentroidalRate<S> r = centroidal_momentum_rate<S>(m, x[0], x[1], x[2], pointer(I));
            return std::vector{vec<S>(r.h), vec<S>(r.hdot)};
        }));
    KernelSpec centroidal_derivatives_spec = spec("centroidal_derivatives",
        "Derivatives of the centroidal momentum h_G and its rate hdot_G (centroidal_momentum_rate) with respect to q, qd and qdd, "
        "6 x NV each, row-major, rows [angular; linear] about the centre of mass in world axes (a floating base's columns along "
        "q + delta, delta = [omega; v] in base coordinates); dh/dqd = dhdot/dqdd = A_G.",
        with_payload({q_in(), qd_in(), qdd_in()}),
        {rows_by_dof("dh_dq", "dh_G/dq", kMomentum), rows_by_dof("dhdot_dq", "dhdot_G/dq", kMomentum),
         rows_by_dof("dhdot_dqd", "dhdot_G/dqd", kMomentum), rows_by_dof("dhdot_dqdd", "dhdot_G/dqdd = A_G", kMomentum)},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            const CentroidalDerivatives<S> d = centroidal_derivatives<S>(m, x[0], x[1], x[2], pointer(I));
            return std::vector{row_major(d.dh_dq), row_major(d.dhdot_dq), row_major(d.dhdot_dqd), row_major(d.dhdot_dqdd)};
        });
    centroidal_derivatives_spec.on_request = true;
    centroidal_derivatives_spec.method = "analytical recursions (Carpentier and Mansard's, rnea_derivatives' passes in world coordinates "
                                         "without gravity), then about the centre of mass";
    k.push_back(std::move(centroidal_derivatives_spec));
    k.push_back(spec("energy", "Kinetic energy T = qd^T H qd / 2 (without forming H) and potential energy V = -m gravity^T c.",
        with_payload({q_in(), qd_in(), gravity_in()}),
        {named("T", "kinetic energy", {"T"}), named("V", "potential energy, zero with the centre of mass at the world origin", {"V"})},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            const Energy<S> e = energy<S>(m, x[0], x[1], vec3(x[2]), pointer(I));
            return std::vector{one<S>(e.T), one<S>(e.V)};
        }));
    k.push_back(spec("jacobians_dot",
        "Time derivative of the spatial Jacobian (jacobians), 6 x NV row-major, world coordinates: Jdot qd is the bodies' "
        "acceleration bias at qdd = 0.",
        {q_in(), qd_in()}, {{"Jdot", "6 x NV, row-major, [angular; linear] about the world origin", [](const Model&) { return 6; }, nv,
                             ArrayLayout::RowMajor}},
        [](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            return std::vector{row_major(spatial_jacobian_rate<S>(m, x[0], x[1]).Jdot)};
        }));
    ArraySpec Minv = nv_matrix("Minv", "H^-1, row-major, symmetric", ArrayLayout::RowMajor);
    Minv.json = EvalForm::JointMatrix;
    KernelSpec minv_spec = spec("minv", "Inverse of the joint-space inertia matrix, H^-1 (row-major NV x NV).",
        with_payload({q_in()}), {Minv},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            return std::vector{row_major(minv<S>(m, x[0], pointer(I)))};
        }, true);
    minv_spec.on_request = true;
    minv_spec.method = "ltdl: H from the CRBA, its LTDL factors without fill and H^-1 = L^-1 D^-1 L^-T from W = L^-1, as "
                       "aba_derivatives' dqdd/dtau";
    KernelSpec by_aba = spec("minv", minv_spec.doc, with_payload({q_in()}), {Minv},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            return std::vector{row_major(minv_aba<S>(m, x[0], pointer(I)))};
        }, true);
    by_aba.method = "articulated-body: the ABA on every unit torque at once (Carpentier and Mansard 2018, Pinocchio's computeMinverse)";
    minv_spec.alternatives.push_back(std::make_shared<const KernelSpec>(std::move(by_aba)));
    k.push_back(std::move(minv_spec));
    ArraySpec C = nv_matrix("C", "C(q, qd), row-major: C qd = nle - g, Hdot = C + C^T", ArrayLayout::RowMajor);
    C.json = EvalForm::JointMatrix;
    KernelSpec coriolis_spec = spec("coriolis",
        "Coriolis matrix C(q, qd) of H's Christoffel symbols (Echeandia and Wensing 2021), as Pinocchio's computeCoriolisMatrix; "
        "branch-induced zeros never computed.",
        with_payload({q_in(), qd_in()}), {C},
        [run_time](const Model& m, const auto& x) {
            using S = ScalarOf<std::decay_t<decltype(x)>>;
            const auto I = run_time.body_inertias(m, x);
            return std::vector{row_major(coriolis<S>(m, x[0], x[1], pointer(I)))};
        });
    coriolis_spec.on_request = true;
    k.push_back(std::move(coriolis_spec));
    return k;
}

}  // namespace spec_parts

const std::vector<std::string>& mass_kernel_names() {
    static const std::vector<std::string> names = {"com", "com_motion", "com_jacobian", "centroidal", "centroidal_momentum_rate",
                                                   "centroidal_derivatives"};
    return names;
}

}  // namespace rbdgen
