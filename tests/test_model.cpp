// URDF → Model: every model loads, counts match SOURCES.md, fixed-joint merging conserves mass,
// centre of mass and inertia (checked against poses computed directly from urdfdom).
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <map>
#include <sstream>

#include "algorithms/forward_kinematics.hpp"
#include "model/topology.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

struct Expected {
    const char* file;
    int dof, fixed, depth, branching, chains, mimic;
};

// From ../shared/models/SOURCES.md (computed there by an independent program).
const Expected kSources[] = {
    {"ur5.urdf", 6, 4, 6, 0, 1, 0},          {"panda.urdf", 9, 3, 8, 1, 2, 1},
    {"allegro_right_hand.urdf", 16, 4, 4, 1, 4, 0}, {"baxter.urdf", 19, 37, 8, 3, 5, 2},
    // talos_reduced: SOURCES counts 12 mimic tags, but they sit on fixed joints (its independent DoF
    // is 32 = its DoF), so no moving joint mimics another.
    {"solo12.urdf", 12, 4, 3, 1, 4, 0},       {"talos_reduced.urdf", 32, 27, 10, 2, 5, 0},
    {"talos_full_v2.urdf", 44, 15, 11, 6, 13, 12},
};

TEST(Model, SharedModelsLoadWithTheCountsOfSources) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    for (const Expected& e : kSources) {
        SCOPED_TRACE(e.file);
        const Model model = load_urdf(test::shared_model(e.file));
        const std::vector<int> lambda = parent_array(model);
        const std::vector<int> d = depths(lambda);
        EXPECT_EQ(model.nv, e.dof);
        EXPECT_EQ(static_cast<int>(model.frames.size()) - model.N() - 1, e.fixed);
        EXPECT_EQ(*std::max_element(d.begin(), d.end()), e.depth);
        EXPECT_EQ(branching_bodies(lambda), e.branching);
        EXPECT_EQ(leaf_bodies(lambda), e.chains);
        const long mimic_warnings = std::count_if(model.warnings.begin(), model.warnings.end(),
                                                  [](const std::string& w) { return w.find("mimics") != std::string::npos; });
        EXPECT_EQ(mimic_warnings, e.mimic);
        const Model floating = load_urdf(test::shared_model(e.file), {.floating_base = true});
        EXPECT_EQ(floating.nv, e.dof + 6);
        EXPECT_EQ(floating.nq, e.dof + 7);
    }
}

TEST(Model, ProjectModelsLoad) {
    const std::pair<const char*, int> dofs[] = {{"arm7.urdf", 7}, {"dualarm.urdf", 15}, {"quadruped.urdf", 12}, {"humanoid30.urdf", 24}};
    for (const auto& [file, dof] : dofs) EXPECT_EQ(load_urdf(test::project_model(file)).nv, dof) << file;
}

// World-frame rigid-body inertia of every link not welded to the fixed base, straight from urdfdom.
RigidBodyInertia<double> urdfdom_total_inertia(const std::string& path, bool floating_base) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDF(text.str());
    RigidBodyInertia<double> total;
    // Walk the tree with each link's pose in the world: p_world = R p_link + t.
    struct Item {
        urdf::LinkConstSharedPtr link;
        Eigen::Matrix3d R;
        Eigen::Vector3d t;
        bool welded_to_world;
    };
    std::vector<Item> stack = {{urdf->getRoot(), Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(), !floating_base}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        if (it.link->inertial && !it.welded_to_world) {
            const urdf::Inertial& I = *it.link->inertial;
            const urdf::Pose& o = I.origin;
            const Eigen::Matrix3d Rc = it.R * Eigen::Quaterniond(o.rotation.w, o.rotation.x, o.rotation.y, o.rotation.z).toRotationMatrix();
            const Eigen::Vector3d c = it.R * Eigen::Vector3d(o.position.x, o.position.y, o.position.z) + it.t;
            Eigen::Matrix3d Ic;
            Ic << I.ixx, I.ixy, I.ixz, I.ixy, I.iyy, I.iyz, I.ixz, I.iyz, I.izz;
            total.m += I.mass;
            total.h += I.mass * c;
            // Rotational inertia about the world origin: R Ic Rᵀ + m (|c|² 1 − c cᵀ).
            total.Ibar += Rc * Ic * Rc.transpose() + I.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
        }
        for (const auto& j : it.link->child_joints) {
            const urdf::Pose& o = j->parent_to_joint_origin_transform;
            const Eigen::Matrix3d Rj = Eigen::Quaterniond(o.rotation.w, o.rotation.x, o.rotation.y, o.rotation.z).toRotationMatrix();
            stack.push_back({urdf->getLink(j->child_link_name), it.R * Rj,
                             it.R * Eigen::Vector3d(o.position.x, o.position.y, o.position.z) + it.t,
                             it.welded_to_world && j->type == urdf::Joint::FIXED});
        }
    }
    return total;
}

TEST(Model, MergingConservesMassCentreOfMassAndInertia) {
    for (const test::ModelCase& c : test::all_models()) {
        if (!test::is_urdf(c)) continue;  // urdfdom's sums are of URDFs; MJCF's masses: tests/test_mjcf.cpp against MuJoCo, SDFormat's: test_sdf.cpp
        SCOPED_TRACE(c.label());
        const Model model = test::load(c);
        VecX<double> q = VecX<double>::Zero(model.nq);
        for (const Body& b : model.bodies)
            if (!b.joint.one_dof()) q[b.q_index + b.joint.quaternion_at() + 3] = 1.0;
        const VecX<double> zero = VecX<double>::Zero(model.nv);
        const Kinematics<double> k = forward_kinematics<double>(model, q, zero);
        RigidBodyInertia<double> ours;
        for (int i = 0; i < model.N(); ++i) ours = ours + model.bodies[i].I.expressed_in_parent(k.X_0[i]);
        const RigidBodyInertia<double> theirs = urdfdom_total_inertia(c.path, c.floating_base);
        EXPECT_NEAR(ours.m, theirs.m, 1e-12 * theirs.m);
        EXPECT_LT((ours.h / ours.m - theirs.h / theirs.m).norm(), 1e-12);  // centre of mass
        EXPECT_LT((ours.Ibar - theirs.Ibar).norm(), 1e-12 * theirs.Ibar.norm());
    }
}

TEST(Model, SensorFramesOnFixedJointsAreMergedAway) {
    std::string xml = R"(<robot name="r"><link name="base"/>
      <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <joint name="j" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>)";
    for (int s = 0; s < 50; ++s)
        xml += "<link name=\"sensor" + std::to_string(s) + "\"/><joint name=\"fs" + std::to_string(s) +
               "\" type=\"fixed\"><parent link=\"a\"/><child link=\"sensor" + std::to_string(s) +
               "\"/><origin xyz=\"0.1 0 0\"/></joint>";
    xml += "</robot>";
    const Model model = load_urdf_string(xml, "sensors.urdf");
    EXPECT_EQ(model.N(), 1);
    EXPECT_EQ(model.bodies[0].merged_links.size(), 50u);
    EXPECT_EQ(model.frames.size(), 52u);
    EXPECT_EQ(model.first_massless_subtree(), -1);
}

}  // namespace
}  // namespace rbdgen
