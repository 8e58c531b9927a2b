// The derivatives of the dynamics (Carpentier and Mansard) and the regressor: kernels emitted only
// when named, wired to their algorithms as every kernel is (emit/kernel_specs.cpp).
#include "algorithms/aba.hpp"
#include "algorithms/aba_derivatives.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/minv_aba.hpp"
#include "algorithms/rnea_derivatives.hpp"
#include "emit/kernel_spec_parts.hpp"

namespace rbdgen {
namespace spec_parts {

namespace {
// Y, printed by eval with its rows the dofs and its columns "<link>.<parameter>", body by body.
ArraySpec regressor_out() {
    ArraySpec Y{"Y", "NV x 10 NB, row-major; zero where a joint does not support the body", nv,
                [](const Model& m) { return kInertialParameters * m.N(); }, ArrayLayout::RowMajor};
    Y.json = EvalForm::Matrix;
    Y.column_names = [](const Model& m) {
        std::vector<std::string> names;
        for (const Body& b : m.bodies)
            for (const char* p : kInertialParameterNames) names.push_back(b.name + "." + p);
        return names;
    };
    return Y;
}
}  // namespace

std::vector<KernelSpec> derivative_specs(const RunTime& run_time) {
    const auto with_wrenches = [&run_time](std::vector<ArraySpec> inputs) { return run_time.inputs(std::move(inputs), true); };
    std::vector<KernelSpec> k;
// The derivatives of the dynamics, on request: NV x NV each, several times rnea's size.
const auto derivative = [](const std::string& name, const std::string& doc) {
    ArraySpec a = nv_matrix(name, doc + ", row-major (row i, column j: with respect to dof j; a floating base's "
                                  "columns along q + delta, delta = [omega; v] in base coordinates)", ArrayLayout::RowMajor);
    a.json = EvalForm::JointMatrix;
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
                              "and H^-1 by the same solves on the identity";
aba_derivatives_spec.ltdl_loops = KernelSpec::LtdlLoops::Derivatives;
aba_derivatives_spec.head = std::make_shared<const KernelSpec>(ltdl_head(run_time, aba_derivatives_spec.inputs));
aba_derivatives_spec.tail = tail;
// Carpentier and Mansard's own route (Pinocchio's computeABADerivatives): q̈ by the ABA, H⁻¹ by the
// articulated-body recursion, and −H⁻¹ times ∂τ/∂q and ∂τ/∂q̇ as dense products; emitted_kernel keeps
// the route of lower cost for the robot (emit/ltdl_loops.hpp ltdl_loop_ops).
KernelSpec articulated = spec("aba_derivatives", aba_derivatives_spec.doc, aba_derivatives_spec.inputs, aba_derivatives_spec.outputs,
    [run_time](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        const auto f_ext = run_time.body_wrenches(m, x);
        const auto I = run_time.body_inertias(m, x);
        const AbaDerivatives<S> d = aba_derivatives_articulated<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), pointer(I));
        return std::vector{row_major(d.dqdd_dq), row_major(d.dqdd_dqd), row_major(d.Minv)};
    }, true);
articulated.on_request = true;
articulated.method = "articulated-body: qdd by the ABA, H^-1 by the articulated-body recursion (Carpentier and Mansard, Pinocchio's "
                     "computeABADerivatives), -H^-1 dtau/dq and -H^-1 dtau/dqd as dense products";
articulated.ltdl_loops = KernelSpec::LtdlLoops::DerivativesArticulated;
articulated.head = std::make_shared<const KernelSpec>(spec("aba_derivatives_articulated_head",
    "H^-1 by the articulated-body recursion, and qdd by the ABA.", aba_derivatives_spec.inputs,
    {nv_matrix("Minv", "H^-1, row-major", ArrayLayout::RowMajor), {"qdd", "joint accelerations", nv}},
    [run_time](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        const auto f_ext = run_time.body_wrenches(m, x);
        const auto I = run_time.body_inertias(m, x);
        return std::vector{row_major(minv_aba<S>(m, x[0], pointer(I))),
                           aba<S>(m, x[0], x[1], x[2], vec3(x[3]), pointer(f_ext), nullptr, pointer(I))};
    }, true));
articulated.tail = tail;
aba_derivatives_spec.alternatives.push_back(std::make_shared<const KernelSpec>(std::move(articulated)));
k.push_back(std::move(aba_derivatives_spec));
// The regressor, on request (CMake reads the default kernels from `k.push_back(spec(`)
KernelSpec regressor_spec = spec("regressor",
    "Inverse-dynamics regressor Y(q, qd, qdd): tau = Y pi, pi the 10 inertial parameters of every body in turn (m, "
    "m c, and the rotational inertia about the link's origin: Ixx, Ixy, Iyy, Ixz, Iyz, Izz), in its URDF link frame.",
    {q_in(), qd_in(), qdd_in(), gravity_in()},
    {regressor_out()},
    [](const Model& m, const auto& x) {
        using S = ScalarOf<std::decay_t<decltype(x)>>;
        return std::vector{row_major(regressor<S>(m, x[0], x[1], x[2], vec3(x[3])))};
    });
regressor_spec.on_request = true;
k.push_back(std::move(regressor_spec));
    return k;
}

}  // namespace spec_parts
}  // namespace rbdgen
