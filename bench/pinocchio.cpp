// The Pinocchio side of bench_pinocchio.cpp (pinocchio.hpp), compiled at -O3 -march=native.
#include "pinocchio.hpp"

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/center-of-mass.hpp>
#include <pinocchio/algorithm/centroidal-derivatives.hpp>
#include <pinocchio/algorithm/centroidal.hpp>
#include <pinocchio/algorithm/cholesky.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/energy.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/kinematics.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <cmath>

namespace rbdgen::bench {
namespace {

namespace pin = pinocchio;

class Model final : public PinocchioRobot {
public:
    pin::Model model;
    pin::Data data;
    int nv = 0;
    // rbdgen's tangent index i is Pinocchio's perm[i] (a free-flyer's [ω; v] is Pinocchio's [v; ω]).
    std::vector<int> perm;
    struct Coordinate {
        int from, to, nq;  // rbdgen's q index, Pinocchio's, and how many (7 a free-flyer; 2 a continuous joint's cos, sin)
    };
    std::vector<Coordinate> coordinates;
    std::vector<pin::JointIndex> bodies;  // Pinocchio's joint of each of rbdgen's moving bodies, in rbdgen's order
    std::vector<Eigen::VectorXd> q, v, x;  // per state, in Pinocchio's convention
    Eigen::Matrix<double, 6, 1> Adot_qd;    // centroidal: dAg q̇
    Eigen::MatrixXd J0, J1;                 // the configuration Jacobians (ARG0, ARG1)
    pin::Data::Matrix6x dh_dq, dhdot_dq, dhdot_dv, dhdot_da;  // computeCentroidalDynamicsDerivatives

    void set_states(const std::vector<Inputs>& states) override {
        q.clear(), v.clear(), x.clear();
        model.gravity.linear(Eigen::Vector3d(states.at(0).g.data()));
        for (const Inputs& s : states) {
            Eigen::VectorXd qp = pin::neutral(model), vp(nv), xp(nv);
            for (const Coordinate& c : coordinates) {
                if (c.nq == 2) qp[c.to] = std::cos(s.q[c.from]), qp[c.to + 1] = std::sin(s.q[c.from]);
                else
                    for (int k = 0; k < c.nq; ++k) qp[c.to + k] = s.q[c.from + k];
            }
            for (int i = 0; i < nv; ++i) vp[perm[i]] = s.qd[i], xp[perm[i]] = s.x[i];
            q.push_back(qp), v.push_back(vp), x.push_back(xp);
        }
    }

    void run(Family f, int k) override {
        switch (f) {
        case Family::fk: pin::forwardKinematics(model, data, q[k]); break;
        case Family::rnea: pin::rnea(model, data, q[k], v[k], x[k]); break;
        case Family::crba: pin::crba(model, data, q[k]); break;
        case Family::aba: pin::aba(model, data, q[k], v[k], x[k]); break;
        case Family::fd:
            pin::nonLinearEffects(model, data, q[k], v[k]);
            pin::crba(model, data, q[k]);
            pin::cholesky::decompose(model, data);
            data.ddq = x[k] - data.nle;
            pin::cholesky::solve(model, data, data.ddq);
            break;
        case Family::minv: pin::computeMinverse(model, data, q[k]); break;
        case Family::com: pin::centerOfMass(model, data, q[k]); break;
        case Family::com_jacobian: pin::jacobianCenterOfMass(model, data, q[k]); break;
        case Family::centroidal:
            pin::dccrba(model, data, q[k], v[k]);
            Adot_qd.noalias() = data.dAg * v[k];
            break;
        case Family::coriolis: pin::computeCoriolisMatrix(model, data, q[k], v[k]); break;
        case Family::energy:
            pin::computeKineticEnergy(model, data, q[k], v[k]);
            pin::computePotentialEnergy(model, data, q[k]);
            break;
        case Family::rnea_derivatives: pin::computeRNEADerivatives(model, data, q[k], v[k], x[k]); break;
        case Family::aba_derivatives: pin::computeABADerivatives(model, data, q[k], v[k], x[k]); break;
        case Family::centroidal_derivatives:
            pin::computeCentroidalDynamicsDerivatives(model, data, q[k], v[k], x[k], dh_dq, dhdot_dq, dhdot_dv, dhdot_da);
            break;
        case Family::integrate_jacobians:
            pin::dIntegrate(model, q[k], v[k], J0, pin::ARG0);
            pin::dIntegrate(model, q[k], v[k], J1, pin::ARG1);
            break;
        case Family::difference_jacobians: {
            const int next = k + 1 == static_cast<int>(q.size()) ? 0 : k + 1;
            pin::dDifference(model, q[k], q[next], J0, pin::ARG0);
            pin::dDifference(model, q[k], q[next], J1, pin::ARG1);
            break;
        }
        }
    }

    // Pinocchio's tangent vector y and matrix M in rbdgen's order.
    void vector(const Eigen::VectorXd& y, std::vector<double>& out) const {
        for (int i = 0; i < nv; ++i) out.push_back(y[perm[i]]);
    }
    void matrix(const Eigen::MatrixXd& M, std::vector<double>& out) const {  // nv × nv, row-major
        for (int i = 0; i < nv; ++i)
            for (int j = 0; j < nv; ++j) out.push_back(M(perm[i], perm[j]));
    }
    static Eigen::MatrixXd symmetric(const Eigen::MatrixXd& upper) {  // Pinocchio fills the upper triangle
        Eigen::MatrixXd M = upper.triangularView<Eigen::Upper>();
        M.triangularView<Eigen::StrictlyLower>() = upper.transpose().triangularView<Eigen::StrictlyLower>();
        return M;
    }
    // A 6-vector's or 6-row block's row r in rbdgen's [angular; linear] from Pinocchio's [linear; angular].
    static int row6(int r) { return r < 3 ? r + 3 : r - 3; }
    void rows6(const pin::Data::Matrix6x& M, std::vector<double>& out) const {  // 6 × nv, row-major
        for (int r = 0; r < 6; ++r)
            for (int j = 0; j < nv; ++j) out.push_back(M(row6(r), perm[j]));
    }

    std::vector<double> outputs(Family f, int k) override {
        std::vector<double> out;
        switch (f) {
        case Family::fk:  // a body's pose: R row by row, then p (its joint's frame is its link's)
            for (pin::JointIndex j : bodies) {
                const pin::SE3& M = data.oMi[j];
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) out.push_back(M.rotation()(r, c));
                for (int r = 0; r < 3; ++r) out.push_back(M.translation()[r]);
            }
            break;
        case Family::rnea: vector(data.tau, out); break;
        case Family::crba: matrix(symmetric(data.M), out); break;
        case Family::aba: vector(data.ddq, out); break;
        case Family::fd: vector(data.ddq, out); break;
        case Family::minv: matrix(symmetric(data.Minv), out); break;
        case Family::com: out.assign(data.com[0].data(), data.com[0].data() + 3); break;
        case Family::com_jacobian:
            for (int r = 0; r < 3; ++r)
                for (int j = 0; j < nv; ++j) out.push_back(data.Jcom(r, perm[j]));
            break;
        case Family::centroidal: {
            rows6(data.Ag, out);
            const Eigen::Matrix<double, 6, 1> h = data.hg.toVector();
            for (int r = 0; r < 6; ++r) out.push_back(h[row6(r)]);
            for (int r = 0; r < 6; ++r) out.push_back(Adot_qd[row6(r)]);
            break;
        }
        case Family::coriolis: matrix(data.C, out); break;
        case Family::energy: out = {data.kinetic_energy, data.potential_energy}; break;
        case Family::rnea_derivatives: matrix(data.dtau_dq, out), matrix(data.dtau_dv, out); break;
        case Family::aba_derivatives: matrix(data.ddq_dq, out), matrix(data.ddq_dv, out), matrix(symmetric(data.Minv), out); break;
        case Family::centroidal_derivatives: rows6(dh_dq, out), rows6(dhdot_dq, out), rows6(dhdot_dv, out), rows6(dhdot_da, out); break;
        case Family::integrate_jacobians:
        case Family::difference_jacobians: matrix(J0, out), matrix(J1, out); break;
        }
        (void)k;
        return out;
    }
};

}  // namespace

std::unique_ptr<PinocchioRobot> pinocchio_robot(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints,
                                                std::string& why) {
    auto r = std::make_unique<Model>();
    try {
        if (floating_base) pin::urdf::buildModel(urdf, pin::JointModelFreeFlyer(), r->model);
        else pin::urdf::buildModel(urdf, r->model);
    } catch (const std::exception& e) {
        why = std::string("Pinocchio's URDF parser refuses it: ") + e.what();
        return nullptr;
    }
    r->nv = r->model.nv;
    r->perm.assign(r->nv, -1);
    for (const JointSlot& j : joints) {
        const pin::JointIndex id = j.floating ? 1 : r->model.getJointId(j.name);
        if (id >= r->model.joints.size()) {
            why = "joint " + j.name + " is not among Pinocchio's joints";
            return nullptr;
        }
        r->bodies.push_back(id);
        const int nq = r->model.nqs[id], nv = r->model.nvs[id], iq = r->model.idx_qs[id], iv = r->model.idx_vs[id];
        if (j.v_index + nv > r->nv) {
            why = "rbdgen's joints have more coordinates than Pinocchio's model";
            return nullptr;
        }
        if (j.floating && nv == 6) {
            r->coordinates.push_back({j.q_index, iq, 7});  // [position; quaternion x, y, z, w] in both
            for (int k = 0; k < 3; ++k) r->perm[j.v_index + k] = iv + 3 + k, r->perm[j.v_index + 3 + k] = iv + k;
        } else if (nv == 1 && (nq == 1 || nq == 2)) {
            r->coordinates.push_back({j.q_index, iq, nq});
            r->perm[j.v_index] = iv;
        } else {
            why = "joint " + j.name + " is of a kind this comparison does not map (Pinocchio: nq " + std::to_string(nq) + ", nv " +
                  std::to_string(nv) + ")";
            return nullptr;
        }
    }
    for (int i = 0; i < r->nv; ++i)
        if (r->perm[i] < 0) {
            why = "rbdgen's tangent coordinate " + std::to_string(i) + " has no joint of Pinocchio's model";
            return nullptr;
        }
    r->data = pin::Data(r->model);
    r->J0 = r->J1 = Eigen::MatrixXd::Zero(r->nv, r->nv);
    r->dh_dq = r->dhdot_dq = r->dhdot_dv = r->dhdot_da = pin::Data::Matrix6x::Zero(6, r->nv);
    return r;
}

}  // namespace rbdgen::bench
