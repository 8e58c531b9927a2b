// RNEA and H against KDL (Debian's orocos-kdl), an implementation that shares nothing with ours, on
// every serial chain. The KDL chain is built here straight from urdfdom, as kdl_parser does.
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <sstream>

#include "algorithms/crba.hpp"
#include "algorithms/rnea.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

KDL::Frame frame(const urdf::Pose& p) {
    return KDL::Frame(KDL::Rotation::Quaternion(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w),
                      KDL::Vector(p.position.x, p.position.y, p.position.z));
}

int moving_joints_below(const urdf::ModelInterface& urdf, const urdf::Link& link) {
    int n = 0;
    for (const auto& j : link.child_joints)
        n += (j->type != urdf::Joint::FIXED) + moving_joints_below(urdf, *urdf.getLink(j->child_link_name));
    return n;
}

// The chain from the root link to the leaf of the only branch with moving joints (fixed side links,
// such as frames for tools or sensors, are left out); fixed joints become KDL::Joint::None segments.
KDL::Chain kdl_chain(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDF(text.str());
    KDL::Chain chain;
    for (urdf::LinkConstSharedPtr link = urdf->getRoot(); !link->child_joints.empty();) {
        const urdf::Joint* next = nullptr;
        for (const auto& j : link->child_joints) {
            if (j->type == urdf::Joint::FIXED && moving_joints_below(*urdf, *urdf->getLink(j->child_link_name)) == 0)
                continue;
            EXPECT_EQ(next, nullptr) << "not a serial chain at " << link->name;
            next = j.get();
        }
        if (!next) break;
        const urdf::Joint& j = *next;
        const urdf::LinkConstSharedPtr child = urdf->getLink(j.child_link_name);
        const KDL::Frame origin = frame(j.parent_to_joint_origin_transform);
        const KDL::Vector axis = origin.M * KDL::Vector(j.axis.x, j.axis.y, j.axis.z);
        KDL::Joint joint(j.name, KDL::Joint::None);
        if (j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS)
            joint = KDL::Joint(j.name, origin.p, axis, KDL::Joint::RotAxis);
        else if (j.type == urdf::Joint::PRISMATIC)
            joint = KDL::Joint(j.name, origin.p, axis, KDL::Joint::TransAxis);
        KDL::RigidBodyInertia I = KDL::RigidBodyInertia::Zero();
        if (child->inertial) {
            const urdf::Inertial& in = *child->inertial;
            const KDL::Frame com = frame(in.origin);
            // KDL takes the rotational inertia about the centre of mass, in the segment frame.
            I = com.M * KDL::RigidBodyInertia(in.mass, KDL::Vector::Zero(),
                                             KDL::RotationalInertia(in.ixx, in.iyy, in.izz, in.ixy, in.ixz, in.iyz));
            I = KDL::RigidBodyInertia(in.mass, com.p, I.getRotationalInertia());
        }
        chain.addSegment(KDL::Segment(child->name, joint, origin, I));
        link = child;
    }
    return chain;
}

void compare_with_kdl(const std::string& path) {
    const Model model = load_urdf(path);
    const KDL::Chain chain = kdl_chain(path);
    ASSERT_EQ(static_cast<int>(chain.getNrOfJoints()), model.nv);
    std::mt19937_64 rng(777);
    const int n = model.nv;
    double worst_tau = 0, worst_H = 0;
    for (int s = 0; s < 300; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const KDL::Vector g(x.gravity.x(), x.gravity.y(), x.gravity.z());
        KDL::JntArray q(n), qd(n), qdd(n), tau(n);
        for (int i = 0; i < n; ++i) q(i) = x.q[i], qd(i) = x.qd[i], qdd(i) = x.qdd[i];
        KDL::ChainIdSolver_RNE id(chain, g);
        KDL::Wrenches f(chain.getNrOfSegments(), KDL::Wrench::Zero());
        ASSERT_GE(id.CartToJnt(q, qd, qdd, f, tau), 0);
        KDL::ChainDynParam dyn(chain, g);
        KDL::JntSpaceInertiaMatrix H(n);
        ASSERT_GE(dyn.JntToMass(q, H), 0);
        worst_tau = std::max(worst_tau, test::rel_err(rnea<double>(model, x.q, x.qd, x.qdd, x.gravity), tau.data));
        worst_H = std::max(worst_H, test::rel_err(crba<double>(model, x.q), H.data));
    }
    EXPECT_LT(worst_tau, 1e-9);
    EXPECT_LT(worst_H, 1e-9);
    std::cout << path << ": worst relative error vs KDL: tau " << worst_tau << ", H " << worst_H << "\n";
}

TEST(Kdl, ArmRneaAndJsim) { compare_with_kdl(test::project_model("arm7.urdf")); }

TEST(Kdl, Ur5RneaAndJsim) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    compare_with_kdl(test::shared_model("ur5.urdf"));
}

}  // namespace
}  // namespace rbdgen
