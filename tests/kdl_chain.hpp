// A KDL chain built straight from urdfdom, as kdl_parser does: our Model plays no part in it, so
// KDL is an independent oracle (tests) and peer (bench).
#pragma once

#include <kdl/chain.hpp>
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rbdgen::test {

inline KDL::Frame frame(const urdf::Pose& p) {
    return KDL::Frame(KDL::Rotation::Quaternion(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w),
                      KDL::Vector(p.position.x, p.position.y, p.position.z));
}

inline int moving_joints_below(const urdf::ModelInterface& urdf, const urdf::Link& link) {
    int n = 0;
    for (const auto& j : link.child_joints)
        n += (j->type != urdf::Joint::FIXED) + moving_joints_below(urdf, *urdf.getLink(j->child_link_name));
    return n;
}

// The chain from the root link to the leaf of the only branch with moving joints (fixed side links,
// such as frames for tools or sensors, are left out); fixed joints become KDL::Joint::None segments.
inline KDL::Chain kdl_chain(const std::string& path) {
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
            if (next) throw std::runtime_error(path + ": not a serial chain at link " + link->name);
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

}  // namespace rbdgen::test
