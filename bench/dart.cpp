// DART 6.12 (Debian's libdart-dev, built with Debian's flags): a general library that handles
// branched and floating robots, the humanoids' peer. Its Skeleton on the URDF (visual and collision
// elements dropped: no meshes are needed for dynamics), joint damping, springs and friction zeroed,
// every joint force-actuated (no mimic constraints),
// and its coordinates mapped to rbdgen's by joint name: inverse dynamics (computeInverseDynamics),
// the mass matrix (getMassMatrix) and forward dynamics (computeForwardDynamics, articulated-body);
// and the centre of mass (getCOM), its Jacobian (getCOMLinearJacobian), H⁻¹ (getInvMassMatrix) and
// the energies (computeKineticEnergy, computePotentialEnergy).
// A floating base is DART's FreeJoint: rotation vector and translation, and [angular; linear]
// body-frame velocity and acceleration as rbdgen's qd and qdd.
#include <dart/dynamics/DegreeOfFreedom.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/math/Geometry.hpp>
#include <dart/utils/urdf/DartLoader.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "peers.hpp"

namespace rbdgen::bench {

namespace {
struct Dart {
    dart::dynamics::SkeletonPtr skel;
    int nq = 0, nv = 0;
    struct Slot {
        int dof, q, v;
    };
    std::vector<Slot> dofs;  // 1-DoF joints
    int free_dof = -1, free_q = -1, free_v = -1;
    Eigen::VectorXd pos, vel, x;

    void load(const double* q, const double* qd, const double* xs, const double* g) {
        for (const Slot& s : dofs) pos[s.dof] = q[s.q], vel[s.dof] = qd ? qd[s.v] : 0.0, x[s.dof] = xs ? xs[s.v] : 0.0;
        if (free_dof >= 0) {
            const Eigen::Quaterniond r(q[free_q + 6], q[free_q + 3], q[free_q + 4], q[free_q + 5]);
            pos.segment<3>(free_dof) = dart::math::logMap(r.normalized().toRotationMatrix());
            pos.segment<3>(free_dof + 3) = Eigen::Vector3d(q[free_q], q[free_q + 1], q[free_q + 2]);
            for (int k = 0; k < 6; ++k) vel[free_dof + k] = qd ? qd[free_v + k] : 0.0, x[free_dof + k] = xs ? xs[free_v + k] : 0.0;
        }
        skel->setPositions(pos);
        skel->setVelocities(vel);
        if (g) skel->setGravity(Eigen::Vector3d(g[0], g[1], g[2]));
    }
    void store(const Eigen::VectorXd& y, double* out) const {
        for (const Slot& s : dofs) out[s.v] = y[s.dof];
        if (free_dof >= 0)
            for (int k = 0; k < 6; ++k) out[free_v + k] = y[free_dof + k];
    }
    std::vector<int> dof_of_v;  // DART's coordinate of each of rbdgen's velocity coordinates
};
}  // namespace

Peer dart_peer(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints) {
    std::ifstream in(urdf);
    std::stringstream text;
    text << in.rdbuf();
    const std::string stripped = std::regex_replace(
        std::regex_replace(text.str(), std::regex("<visual[\\s\\S]*?</visual>"), ""), std::regex("<collision[\\s\\S]*?</collision>"), "");
    using Loader = dart::utils::DartLoader;
    Loader loader(Loader::Options(nullptr, floating_base ? Loader::RootJointType::FLOATING : Loader::RootJointType::FIXED));
    auto d = std::make_shared<Dart>();
    d->skel = loader.parseSkeletonString(stripped, dart::common::Uri("file://" + urdf));
    if (!d->skel) throw std::runtime_error("DART could not load " + urdf);
    // rbdgen models a mimic joint as an independent one (and warns): so does DART here, whose loader
    // makes it follow its master in forward dynamics otherwise.
    for (std::size_t i = 0; i < d->skel->getNumJoints(); ++i) d->skel->getJoint(i)->setActuatorType(dart::dynamics::Joint::FORCE);
    for (std::size_t i = 0; i < d->skel->getNumDofs(); ++i) {
        dart::dynamics::DegreeOfFreedom* dof = d->skel->getDof(i);
        dof->setDampingCoefficient(0), dof->setSpringStiffness(0), dof->setCoulombFriction(0);
    }
    for (const JointSlot& j : joints) {
        if (j.floating) {
            d->free_dof = static_cast<int>(d->skel->getRootJoint()->getIndexInSkeleton(0)), d->free_q = j.q_index, d->free_v = j.v_index;
            continue;
        }
        dart::dynamics::Joint* joint = d->skel->getJoint(j.name);
        if (!joint || joint->getNumDofs() != 1) throw std::runtime_error("DART has no 1-DoF joint " + j.name + " in " + urdf);
        d->dofs.push_back({static_cast<int>(joint->getIndexInSkeleton(0)), j.q_index, j.v_index});
    }
    d->nv = static_cast<int>(d->skel->getNumDofs());
    d->dof_of_v.assign(d->nv, 0);
    for (const Dart::Slot& s : d->dofs) d->dof_of_v[s.v] = s.dof;
    if (d->free_dof >= 0)
        for (int k = 0; k < 6; ++k) d->dof_of_v[d->free_v + k] = d->free_dof + k;
    d->pos = d->vel = d->x = Eigen::VectorXd::Zero(d->nv);
    Peer p{"dart", {}, {}, {}, {}, {}, {}, {}, {}};
    p.rnea = [d](const double* q, const double* qd, const double* qdd, const double* g, double* out) {
        d->load(q, qd, qdd, g);
        d->skel->setAccelerations(d->x);
        d->skel->computeInverseDynamics(false, false, false);
        d->store(d->skel->getForces(), out);
    };
    p.crba = [d](const double* q, const double*, const double*, const double*, double* out) {
        d->load(q, nullptr, nullptr, nullptr);
        const Eigen::MatrixXd& M = d->skel->getMassMatrix();
        for (int r = 0; r < d->nv; ++r)
            for (int c = 0; c < d->nv; ++c) out[r * d->nv + c] = M(d->dof_of_v[r], d->dof_of_v[c]);
    };
    p.aba = [d](const double* q, const double* qd, const double* tau, const double* g, double* out) {
        d->load(q, qd, tau, g);
        d->skel->setForces(d->x);
        d->skel->computeForwardDynamics();
        d->store(d->skel->getAccelerations(), out);
    };
    p.com = [d](const double* q, const double*, const double*, const double*, double* out) {
        d->load(q, nullptr, nullptr, nullptr);
        const Eigen::Vector3d c = d->skel->getCOM();
        for (int k = 0; k < 3; ++k) out[k] = c[k];
    };
    p.com_jacobian = [d](const double* q, const double*, const double*, const double*, double* out) {
        d->load(q, nullptr, nullptr, nullptr);
        const dart::math::LinearJacobian J = d->skel->getCOMLinearJacobian();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < d->nv; ++c) out[r * d->nv + c] = J(r, d->dof_of_v[c]);
    };
    p.minv = [d](const double* q, const double*, const double*, const double*, double* out) {
        d->load(q, nullptr, nullptr, nullptr);
        const Eigen::MatrixXd& M = d->skel->getInvMassMatrix();
        for (int r = 0; r < d->nv; ++r)
            for (int c = 0; c < d->nv; ++c) out[r * d->nv + c] = M(d->dof_of_v[r], d->dof_of_v[c]);
    };
    p.energy = [d](const double* q, const double* qd, const double*, const double* g, double* out) {
        d->load(q, qd, nullptr, g);
        out[0] = d->skel->computeKineticEnergy(), out[1] = d->skel->computePotentialEnergy();
    };
    return p;
}

}  // namespace rbdgen::bench
