// The robot model as plain data (Featherstone's parent array, joint types, X_tree, I), after fixed
// joints have been merged away. Bodies are numbered regularly, 0-based here: body i has parent
// lambda[i] < i, and lambda[i] == -1 means the parent is the fixed base (Featherstone's body 0).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spatial/spatial.hpp"

namespace rbdgen {

// A ball joint turns its body about the joint's origin: q a unit quaternion (x, y, z, w), q̇ the angular
// velocity in the body's coordinates (a floating base's without the translation).
enum class JointType { Revolute, Prismatic, Floating, Ball };

struct Joint {
    JointType type = JointType::Revolute;
    Vec3<double> axis = Vec3<double>::UnitZ();  // unit axis in the body frame (1-DoF joints)
    double offset = 0;  // revolute: the joint turns by q + offset (a DH θ folded in by the generator; MJCF's −ref)
    // The rotor's inertia reflected through the gear (MJCF armature): τ += armature q̈ on each of the
    // joint's velocities, H's diagonal entries grow by it.
    double armature = 0;
    int nq() const { return type == JointType::Floating ? 7 : type == JointType::Ball ? 4 : 1; }
    int nv() const { return type == JointType::Floating ? 6 : type == JointType::Ball ? 3 : 1; }
    // Where the joint's unit quaternion (x, y, z, w) starts in its q: after a floating joint's position,
    // first for a ball joint; -1 for a 1-DoF joint.
    int quaternion_at() const { return type == JointType::Floating ? 3 : type == JointType::Ball ? 0 : -1; }
    bool one_dof() const { return nv() == 1; }
};

// X_tree as Featherstone's axial screws xlt(d ẑ) rx(α) xlt(a x̂) rz(θ₀) xlt(d₀ ẑ) (§5; a DH transform
// when θ₀ = d₀ = 0), as the generator chose it (model/frames.hpp); the joint's θ is its offset.
struct TreeScrews {
    double d = 0, c_alpha = 1, s_alpha = 0, a = 0, c0 = 1, s0 = 0, d0 = 0;
};

struct Body {
    std::string name;        // URDF link name of the body's frame
    std::string joint_name;  // URDF joint that connects it to its parent ("floating_base" if added)
    int lambda = -1;         // parent body, -1 = fixed base
    Joint joint;
    Transform<double> X_tree;  // ʲX_λ at q = 0: parent frame to the joint (= body) frame
    RigidBodyInertia<double> I;
    int q_index = 0;  // first position coordinate of the joint in q
    int v_index = 0;  // first velocity coordinate of the joint in v (= row of H)
    std::vector<std::string> merged_links;  // links welded to this body by fixed joints
    Transform<double> X_urdf;  // ᵁX_i: from this body's frame to its URDF link frame (identity unless
                               // the generator chose the frame, model/frames.hpp)
    // Set by the frame choice for a 1-DoF joint along z: X_up applies X_tree as these screws. Absent,
    // X_tree is applied as a general transform, and for a 1-DoF joint `general_transform` says why.
    std::optional<TreeScrews> screws;
    std::string general_transform;
    // A URDF planar joint is three bodies, its coordinates x, y and theta (0, 1, 2 here), the first two
    // massless and named after their joint; -1 for every other joint.
    int planar = -1;
    std::string armature_from;  // where its joint's armature came from: "the file" or "--armature" ("" none)
    // An MJCF body of several joints is a body a joint: all but the last massless, named after their joint.
    bool joint_only = false;
    bool is_link() const { return (planar < 0 || planar == 2) && !joint_only; }  // the body is a link's (a URDF link, an MJCF body)
};

// A frame attached to a body by fixed joints (a merged link, kept for kinematics outputs).
struct Frame {
    std::string name;
    int body = -1;              // -1 = fixed base
    Transform<double> X_body;   // ᶠX_U, from the link frame U of the body (X_urdf's) to the frame
    RigidBodyInertia<double> I;  // the link's own inertia, in its frame (the body's I includes it)
    bool named = false;          // a named frame of no link: an MJCF site, an SDFormat <frame>
};

struct Model {
    std::string name;
    std::string source;       // file the model came from
    std::vector<std::string> files;  // every file read for it: source, then the files it includes (MJCF)
    std::string root_link;
    bool floating_base = false;
    std::vector<Body> bodies;
    std::vector<Frame> frames;
    int nq = 0, nv = 0;
    std::vector<std::string> warnings;
    // What the file has that does not change the rigid-body model, read and left out (MJCF's
    // actuators, sensors, closed loops), for `rbdgen info`.
    std::vector<std::string> ignored;
    // The file's gravity (MJCF <option gravity>), where it says one.
    std::optional<Vec3<double>> gravity;

    int N() const { return static_cast<int>(bodies.size()); }
    // Joint names in model order, one per body.
    std::vector<std::string> joint_names() const;
    // Body names (each its URDF link's; a planar joint's inner bodies, its coordinates') in model order.
    std::vector<std::string> body_names() const;
    // Names of the velocity coordinates (rows of H), in order; a floating joint gives six.
    std::vector<std::string> dof_names() const;
    // q's coordinates: a 1-DoF joint's name; "<joint>.x" ... ".z" and ".qx" ... ".qw" for a floating
    // joint, ".qx" ... ".qw" for a ball joint.
    std::vector<std::string> position_names() const;
    // The first body whose subtree has neither mass nor rotational inertia: its joint's column of H
    // is zero, so H is singular. Returns -1 when H is positive definite for every q.
    int first_massless_subtree() const;
};

// A URDF link (a body's own or one merged into it by fixed joints) on the body that carries it: the
// body (−1: the fixed base) and ᶠX_body, from the body's frame (the generator's internal one,
// model/frames.hpp) to the link's URDF frame.
struct LinkFrame {
    std::string link;
    int body = -1;
    Transform<double> X;
    RigidBodyInertia<double> I;  // the link's own inertia, in its URDF frame
};
// Link `name`, if the model has it.
std::optional<LinkFrame> link_frame(const Model& model, const std::string& name);
// For a message about a link that is not in the model: its closest link names (edit distance), up to three.
std::string closest_link_names(const Model& model, const std::string& name);

// Why forward dynamics is refused for this model (a joint that moves only massless links makes H
// singular), naming the joint and what to change; "" when it is defined.
std::string forward_dynamics_refusal(const Model& model);

// Build the coordinate indices (q_index, v_index, nq, nv) from the bodies' joints.
void assign_indices(Model& model);

// Each joint's quaternion in q (NQ entries) scaled to unit length: a random q made a configuration.
void normalize_quaternions(const Model& model, double* q);

}  // namespace rbdgen
