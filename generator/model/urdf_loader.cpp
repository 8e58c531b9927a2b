#include "model/urdf_loader.hpp"
#include "model/xml_text.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace rbdgen {
namespace {

// urdfdom reports its parse errors through console_bridge; collect them for our one message.
class CollectErrors : public console_bridge::OutputHandler {
public:
    std::string text;
    void log(const std::string& message, console_bridge::LogLevel level, const char*, int) override {
        if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN) text += (text.empty() ? "" : "; ") + message;
    }
};

Mat3<double> rotation(const urdf::Rotation& q) {
    return Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized().toRotationMatrix();
}
Vec3<double> vec(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

// ᶜX_p of a URDF origin: the child frame sits at xyz in the parent frame, rotated by R(rpy).
Transform<double> origin_transform(const urdf::Pose& pose) {
    return {rotation(pose.rotation).transpose(), vec(pose.position)};
}

bool finite(const Mat3<double>& m) { return m.allFinite(); }

// The link's inertia at the link frame, after checking that it is physically valid.
RigidBodyInertia<double> link_inertia(const std::string& file, const urdf::Link& link, const LoadOptions& options,
                                      std::vector<std::string>& warnings) {
    RigidBodyInertia<double> I;
    if (!link.inertial) return I;
    const urdf::Inertial& in = *link.inertial;
    const std::string where = file + ": link '" + link.name + "'";
    if (!std::isfinite(in.mass)) throw Error(where + " has a mass that is not a number; write a finite mass in kg");
    if (in.mass < 0)
        throw Error(where + " has negative mass " + std::to_string(in.mass) + "; write a mass >= 0 in <inertial><mass>");
    Mat3<double> Ic;
    Ic << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    if (!finite(Ic)) throw Error(where + " has an inertia entry that is not a number; fix <inertial><inertia>");
    check_rotational_inertia(Ic, where, "<inertial><inertia>", options, warnings);
    const Mat3<double> R = rotation(in.origin.rotation);
    const Vec3<double> c = vec(in.origin.position);
    I.m = in.mass;
    I.h = in.mass * c;
    I.Ibar = R * Ic * R.transpose() - in.mass * skew<double>(c) * skew<double>(c);  // parallel axes
    return I;
}

// A planar joint J's coordinates are the joints J.x, J.y (translations) and J.theta (rotation).
constexpr const char* kPlanarCoordinates[] = {"x", "y", "theta"};

struct Builder {
    const std::string& file;
    const LoadOptions& options;
    Model& model;
    const std::map<std::string, urdf::LinkSharedPtr>& model_links;
    const std::map<std::string, urdf::JointSharedPtr>& model_joints;

    // Visit `link`, rigidly attached to `body` (-1 = fixed base) with ˡⁱⁿᵏX_body = X_link_body.
    void visit(const urdf::Link& link, int body, const Transform<double>& X_link_body) {
        const RigidBodyInertia<double> I = link_inertia(file, link, options, model.warnings);  // checked even on a fixed base
        if (body >= 0) {
            Body& b = model.bodies[body];
            b.I = b.I + I.expressed_in_parent(X_link_body);
            if (b.name != link.name) b.merged_links.push_back(link.name);
        }
        model.frames.push_back({link.name, body, X_link_body, I});
        for (const auto& joint_ptr : link.child_joints) {
            const urdf::Joint& joint = *joint_ptr;
            const urdf::Link& child = *model_links.at(joint.child_link_name);
            const Transform<double> X_joint_body = origin_transform(joint.parent_to_joint_origin_transform) * X_link_body;
            if (joint.type == urdf::Joint::FIXED) {
                visit(child, body, X_joint_body);
                continue;
            }
            if (joint.type == urdf::Joint::FLOATING && body >= 0)
                throw Error(file + ": floating joint '" + joint.name + "' does not connect the root link '" +
                            model.root_link + "' to the world; rbdgen supports a floating joint only at the root");
            int parent = body;
            Transform<double> X_tree = X_joint_body;
            std::vector<Joint> joints = make_joints(joint);
            for (size_t k = 0; k < joints.size(); ++k) {
                Body b;
                const bool last = k + 1 == joints.size();
                b.joint_name = joints.size() == 1 ? joint.name : joint.name + "." + kPlanarCoordinates[k];
                if (joints.size() > 1 && (model_joints.count(b.joint_name) || model_links.count(b.joint_name)))
                    throw Error(file + ": planar joint '" + joint.name + "' names its coordinates " + joint.name + ".x, .y and .theta, and the URDF has a " +
                                (model_joints.count(b.joint_name) ? "joint" : "link") + " named '" + b.joint_name + "'; rename one of them");
                b.name = last ? child.name : b.joint_name;  // a planar joint's massless inner bodies: its coordinates
                b.lambda = parent;
                b.X_tree = X_tree;
                b.joint = joints[k];
                if (joints.size() > 1) b.planar = static_cast<int>(k);
                model.bodies.push_back(b);
                parent = model.N() - 1;
                X_tree = Transform<double>::identity();
            }
            visit(child, parent, Transform<double>::identity());
        }
    }

    // The joint's coordinates as 1-DoF joints (one, or a planar joint's three) or the floating joint.
    std::vector<Joint> make_joints(const urdf::Joint& joint) {
        const std::string where = file + ": joint '" + joint.name + "'";
        Joint j;
        switch (joint.type) {
            case urdf::Joint::REVOLUTE:
            case urdf::Joint::CONTINUOUS: j.type = JointType::Revolute; break;
            case urdf::Joint::PRISMATIC:
            case urdf::Joint::PLANAR: j.type = JointType::Prismatic; break;
            case urdf::Joint::FLOATING: j.type = JointType::Floating; return {j};
            default:
                throw Error(where + " has an unknown type; use revolute, continuous, prismatic, planar, fixed or floating");
        }
        const Vec3<double> axis = vec(joint.axis);
        if (!axis.allFinite() || axis.norm() < 1e-12)
            throw Error(where + " has a zero or invalid <axis>; give a nonzero axis xyz" +
                        (joint.type == urdf::Joint::PLANAR ? " (a planar joint's axis is the plane's normal)" : ""));
        if (joint.mimic)
            model.warnings.push_back(where + " mimics '" + joint.mimic->joint_name +
                                     "'; it is modelled as an independent joint");
        j.axis = axis.normalized();
        if (joint.type != urdf::Joint::PLANAR) return {j};
        // A planar joint moves in the plane normal to its axis n: a translation along u, one along
        // n × u, and a rotation about n, as three 1-DoF joints with two massless bodies between them
        // (docs/kernels.md: chosen by emitted operations). u is the joint frame's axis least aligned
        // with n, made orthogonal to it (x and y for n = z).
        const Vec3<double> n = j.axis;
        int k = 0;
        for (int c = 1; c < 3; ++c)
            if (std::abs(n[c]) < std::abs(n[k])) k = c;
        const Vec3<double> u = (Vec3<double>::Unit(k) - n[k] * n).normalized();
        Joint x = j, y = j, theta = j;
        x.axis = u;
        y.axis = n.cross(u);
        theta.type = JointType::Revolute;
        theta.axis = n;
        return {x, y, theta};
    }
};

}  // namespace

void check_rotational_inertia(const Mat3<double>& Ic, const std::string& where, const std::string& fix, const LoadOptions& options,
                              std::vector<std::string>& warnings) {
    const Vec3<double> moments = Eigen::SelfAdjointEigenSolver<Mat3<double>>(Ic).eigenvalues();
    const std::string listed = fmt::format("{:.6g}, {:.6g}, {:.6g}", moments[0], moments[1], moments[2]);
    const double tol = 1e-9 * std::max(1e-300, moments.cwiseAbs().maxCoeff());
    if (moments.minCoeff() < -tol)
        throw Error(where + " has an inertia tensor that is not positive semi-definite (principal moments " + listed + "); fix " +
                    (fix == "<inertial><inertia>" ? "ixx..izz in " : "") + fix);
    for (int k = 0; k < 3; ++k) {
        if (moments[k] <= moments[(k + 1) % 3] + moments[(k + 2) % 3] + tol) continue;
        const std::string message = where + " has principal moments of inertia that violate the triangle inequality (" + listed +
                                    "): no rigid body has them; fix " + fix;
        if (options.strict_inertia) throw Error(message);
        warnings.push_back(message + " (loaded as given: its spatial inertia is still positive definite)");
        return;
    }
}

Model load_urdf_string(const std::string& bytes, const std::string& file, const LoadOptions& options) {
    const std::string xml = xml_to_utf8(bytes, file);
    check_urdf_text(xml, file);
    CollectErrors errors;
    console_bridge::useOutputHandler(&errors);
    urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDF(xml);
    console_bridge::restorePreviousOutputHandler();
    if (!urdf) {
        // urdfdom's words, with what to change for the cases it leaves vague.
        std::string hint = "fix the XML, or the link or joint named, and try again";
        if (errors.text.find("No root link") != std::string::npos)
            hint = "every link is some joint's child, so the joints form a loop; a URDF must be a tree: remove a joint of the loop";
        else if (errors.text.find("Two root links") != std::string::npos)
            hint = "the tree is disconnected; connect those links with a joint, or remove one";
        throw Error(file + ": not a valid URDF (" + (errors.text.empty() ? "urdfdom could not parse it" : errors.text) +
                    "); " + hint);
    }
    const urdf::LinkConstSharedPtr root = urdf->getRoot();
    if (!root) throw Error(file + ": no root link; a URDF needs one link that is no joint's child");

    // urdfdom accepts joints whose links form a loop only by leaving some links unreachable.
    Model model;
    model.name = urdf->getName();
    model.source = file;
    model.root_link = root->name;
    model.floating_base = options.floating_base;
    Builder builder{file, options, model, urdf->links_, urdf->joints_};
    if (options.floating_base) {
        for (const auto& j : root->child_joints)
            if (j->type == urdf::Joint::FLOATING)
                throw Error(file + ": joint '" + j->name +
                            "' is already a floating joint at the root; drop --floating-base");
        Body base;
        base.name = root->name;
        base.joint_name = "floating_base";
        base.joint.type = JointType::Floating;
        model.bodies.push_back(base);
        builder.visit(*root, 0, Transform<double>::identity());
    } else {
        builder.visit(*root, -1, Transform<double>::identity());
    }
    size_t reached = model.frames.size();
    if (reached != urdf->links_.size()) {
        for (const auto& [name, link] : urdf->links_) {
            bool found = false;
            for (const Frame& f : model.frames) found = found || f.name == name;
            if (!found)
                throw Error(file + ": link '" + name + "' is not connected to the root link '" + root->name +
                            "'; connect it with a joint or remove it");
        }
    }
    if (model.bodies.empty())
        throw Error(file + ": the robot has no moving joint; add one, or use --floating-base for a free body");
    assign_indices(model);
    return model;
}

Model load_urdf(const std::string& path, const LoadOptions& options) {
    return load_urdf_string(file_bytes(path, "URDF file"), path, options);
}

}  // namespace rbdgen
