// The N-CMTM kernels of one order (Samy et al.): high-order forward kinematics, CoRNEA, forward
// dynamics and the comprehensive and torque Jacobians.
#include "algorithms/cornea.hpp"
#include "algorithms/ncmtm_fd.hpp"
#include "algorithms/ncmtm_jacobians.hpp"
#include "emit/kernel_spec_parts.hpp"
#include "model/error.hpp"

namespace rbdgen {

using namespace spec_parts;

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
    zeta.json = EvalForm::LinkMotions;
    zeta.element_names = model.body_names();
    ArraySpec tau{"tau", fmt::format("row k: the k-th derivative of the joint forces, k = 0..{}", N - 1), rows(N), nv, ArrayLayout::RowMajor};
    tau.json = EvalForm::JointDerivatives;
    ArraySpec tau_in = tau;
    tau_in.json = std::nullopt, tau_in.produced_by = "cornea";
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

}  // namespace rbdgen
