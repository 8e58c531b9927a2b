#include "generated/reference.hpp"

#include "algorithms/aba.hpp"
#include "algorithms/aba_derivatives.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "algorithms/rnea_derivatives.hpp"
#include "model/topology.hpp"

namespace rbdgen::reference {

VecX<double> rnea(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd, const Vec3<double>& g) {
    return rbdgen::rnea<double>(m, q, qd, qdd, g);
}
VecX<double> gravity(const Model& m, const VecX<double>& q, const Vec3<double>& g) { return gravity_vector<double>(m, q, g); }
MatX<double> crba(const Model& m, const VecX<double>& q) { return rbdgen::crba<double>(m, q); }
MatX<double> ltdl(const Model& m, MatX<double> H) {
    rbdgen::ltdl<double>(H, expanded_parent(m));
    return H.triangularView<Eigen::Lower>();
}
VecX<double> ltdl_solve(const Model& m, const MatX<double>& LD, const VecX<double>& b) {
    return rbdgen::ltdl_solve<double>(LD, expanded_parent(m), b);
}
VecX<double> aba(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g) {
    return rbdgen::aba<double>(m, q, qd, tau, g);
}
VecX<double> fd_crba_ltdl(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g) {
    return rbdgen::fd_crba_ltdl<double>(m, q, qd, tau, g);
}
std::vector<double> poses(const Model& m, const VecX<double>& q) {
    const VecX<double> zero = VecX<double>::Zero(m.nv);
    const Kinematics<double> k = forward_kinematics<double>(m, q, zero);
    std::vector<double> out;
    for (int i = 0; i < m.N(); ++i) {
        const Transform<double> X_0 = m.bodies[i].X_urdf * k.X_0[i];  // the URDF link frame
        const Mat3<double> R = X_0.E.transpose();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) out.push_back(R(r, c));
        for (int r = 0; r < 3; ++r) out.push_back(X_0.r[r]);
    }
    return out;
}
MatX<double> spatial_jacobian(const Model& m, const VecX<double>& q) { return rbdgen::spatial_jacobian<double>(m, q); }

namespace {
void append_row_major(const MatX<double>& M, std::vector<double>& out) {
    for (int r = 0; r < M.rows(); ++r)
        for (int c = 0; c < M.cols(); ++c) out.push_back(M(r, c));
}
}  // namespace
std::vector<double> rnea_derivatives(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd,
                                     const Vec3<double>& g) {
    const RneaDerivatives<double> d = rbdgen::rnea_derivatives<double>(m, q, qd, qdd, g);
    std::vector<double> out;
    append_row_major(d.dtau_dq, out), append_row_major(d.dtau_dqd, out);
    return out;
}
std::vector<double> aba_derivatives(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau,
                                    const Vec3<double>& g) {
    const AbaDerivatives<double> d = rbdgen::aba_derivatives<double>(m, q, qd, tau, g);
    std::vector<double> out;
    append_row_major(d.dqdd_dq, out), append_row_major(d.dqdd_dqd, out), append_row_major(d.Minv, out);
    return out;
}

}  // namespace rbdgen::reference
