// The SDFormat reader (model/sdf_loader.cpp): every URDF of models/ and ../shared/models, turned into
// SDFormat by libsdformat's own URDF parser (sdf::Root::Load of a .urdf), read back through the SDF
// front end, gives the dynamics of the URDF front end (τ, H and every link's world pose, 1e-12, joints
// matched by name); the makers' SDF files read; the project's files with nested models, relative_to
// poses, a universal joint and Drake's rotor inertia against poses and inertias computed by hand.
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>

#include <sdf/sdf.hh>

#include "algorithms/crba.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/rnea.hpp"
#include "model/load_model.hpp"
#include "model/sdf_loader.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

namespace fs = std::filesystem;

// ᶠX_0 of every link and frame of the model, by name.
std::map<std::string, Transform<double>> world_poses(const Model& model, const VecX<double>& q) {
    const Kinematics<double> kin = forward_kinematics<double>(model, q, VecX<double>::Zero(model.nv));
    std::map<std::string, Transform<double>> poses;
    for (const Frame& f : model.frames) {
        const LinkFrame lf = *link_frame(model, f.name);
        poses[f.name] = lf.body < 0 ? lf.X : Transform<double>(lf.X * kin.X_0[lf.body]);
    }
    return poses;
}

// b's coordinates in a's order, by joint name: p[k] = index in b of a's coordinate k.
std::vector<int> matched(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<int> p;
    for (const std::string& n : a) {
        const auto it = std::find(b.begin(), b.end(), n);
        p.push_back(it == b.end() ? -1 : static_cast<int>(it - b.begin()));
    }
    return p;
}

// The link is welded to another body's link by fixed joints (or is the world's frame).
bool merged(const Model& m, const std::string& link) {
    for (const Body& b : m.bodies)
        if (b.name == link) return false;
    return true;
}

// The same robot read twice: τ, H and the world poses of a's links agree at random states.
void expect_same_dynamics(const Model& a, const Model& b, double tolerance) {
    ASSERT_EQ(a.nq, b.nq);
    ASSERT_EQ(a.nv, b.nv);
    const std::vector<int> pv = matched(a.dof_names(), b.dof_names());
    std::vector<int> pq;  // q coordinates, by body: a floating base's 7 or a joint's 1
    for (const Body& body : a.bodies) {
        const auto it = std::find_if(b.bodies.begin(), b.bodies.end(), [&](const Body& x) { return x.joint_name == body.joint_name; });
        ASSERT_NE(it, b.bodies.end()) << "joint " << body.joint_name;
        for (int k = 0; k < body.joint.nq(); ++k) pq.push_back(it->q_index + k);
    }
    for (int k : pv) ASSERT_GE(k, 0);
    std::mt19937_64 rng(44);
    for (int s = 0; s < 20; ++s) {
        const test::RandomState x = test::random_state(a, rng);
        VecX<double> q(b.nq), qd(b.nv), qdd(b.nv);
        for (int k = 0; k < a.nq; ++k) q[pq[k]] = x.q[k];
        for (int k = 0; k < a.nv; ++k) qd[pv[k]] = x.qd[k], qdd[pv[k]] = x.qdd[k];
        const VecX<double> tau_a = rnea<double>(a, x.q, x.qd, x.qdd, x.gravity), tau_b = rnea<double>(b, q, qd, qdd, x.gravity);
        const MatX<double> H_a = crba<double>(a, x.q), H_b = crba<double>(b, q);
        const double scale_tau = std::max(1.0, tau_a.cwiseAbs().maxCoeff()), scale_H = std::max(1.0, H_a.cwiseAbs().maxCoeff());
        for (int i = 0; i < a.nv; ++i) {
            ASSERT_NEAR(tau_b[pv[i]], tau_a[i], tolerance * scale_tau) << a.dof_names()[i] << ", state " << s;
            for (int j = 0; j < a.nv; ++j) ASSERT_NEAR(H_b(pv[i], pv[j]), H_a(i, j), tolerance * scale_H) << "H " << i << " " << j;
        }
        const auto poses_a = world_poses(a, x.q), poses_b = world_poses(b, q);
        for (const auto& [name, X] : poses_a) {
            const auto it = poses_b.find(name);
            if (it == poses_b.end()) {  // libsdformat's URDF parser lumps a link welded by a fixed joint into its parent, name and all
                EXPECT_TRUE(merged(a, name)) << "link " << name << " is not in the SDF model";
                continue;
            }
            EXPECT_LT((it->second.E - X.E).norm(), tolerance) << name;
            EXPECT_LT((it->second.r - X.r).norm(), tolerance * std::max(1.0, X.r.norm())) << name;
        }
    }
}

std::vector<test::ModelCase> urdfs() {
    std::vector<test::ModelCase> cases;
    std::vector<std::string> dirs{test::project_model("")};
#ifndef RBDGEN_SANITIZED_MODELS  // the sanitized build: the project's URDFs alone (test_support.hpp)
    dirs.push_back(test::shared_model(""));
#endif
    for (const std::string& dir : dirs) {
        if (!fs::is_directory(dir)) continue;
        std::vector<std::string> files;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".urdf") files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        for (const std::string& f : files) cases.push_back({f, false}), cases.push_back({f, true});
    }
    return cases;
}

// The URDFs libsdformat's URDF parser refuses (measured 2026-11-29: planar.urdf "a model must have at
// least one link", allegro_right_hand an invalid inertia, both talos an <pose> it cannot read): any
// other refusal fails, and so does reading one of these, so that a change shows as a failure, not a skip.
const std::set<std::string> kRefusedBySdformat{"planar.urdf", "allegro_right_hand.urdf", "talos_full_v2.urdf", "talos_reduced.urdf"};

class SdfFromUrdf : public ::testing::TestWithParam<test::ModelCase> {};

TEST_P(SdfFromUrdf, GivesTheUrdfsDynamics) {
    const test::ModelCase& c = GetParam();
    sdf::Root root;
    const sdf::Errors errors = root.Load(c.path);
    const bool refusal_expected = kRefusedBySdformat.count(fs::path(c.path).filename().string()) > 0;
    if (!errors.empty()) {
        if (!refusal_expected) FAIL() << "libsdformat's URDF parser refuses " << c.path << ", not among the files it refuses: " << errors.front().Message();
        GTEST_SKIP() << "libsdformat's URDF parser refuses " << c.path << ": " << errors.front().Message();
    }
    EXPECT_FALSE(refusal_expected) << "libsdformat now reads " << c.path << ": take it out of kRefusedBySdformat";
    const fs::path sdf_file = fs::temp_directory_path() / (c.label() + "_" + std::to_string(::getpid()) + ".sdf");
    std::ofstream(sdf_file) << root.Element()->ToString("");  // the SDF text a user would get from `gz sdf -p`
    const Model urdf = load_model(c.path, {.floating_base = c.floating_base});
    bool planar = false;
    for (const Body& b : urdf.bodies) planar = planar || b.planar >= 0;
    Model sdf;
    try {
        sdf = load_model(sdf_file.string(), {.floating_base = c.floating_base});
    } catch (const Error& e) {
        fs::remove(sdf_file);
        if (planar) GTEST_SKIP() << "a URDF planar joint has no SDFormat joint to become (libsdformat writes: " << e.what() << ")";
        FAIL() << e.what();
    }
    fs::remove(sdf_file);
    // libsdformat writes each pose's orientation from a quaternion as roll, pitch, yaw: at a pitch of
    // ±π/2 its Euler extraction gives exactly π/2, so the URDF's rpy="0 1.57079632679 0" (ur5, baxter)
    // becomes 1.570796326794897, 4.9e-12 rad away. Each such angle may move a result by a few times
    // that (measured: H by up to 3.9e-12 relative, a pose by 1.4e-11 with two in series).
    const std::string text = root.Element()->ToString("");
    int moved = 0;
    for (size_t at = text.find("1.570796326794897"); at != std::string::npos; at = text.find("1.570796326794897", at + 1)) ++moved;
    expect_same_dynamics(urdf, sdf, 1e-12 + moved * 4 * 4.9e-12);
}

INSTANTIATE_TEST_SUITE_P(Urdfs, SdfFromUrdf, ::testing::ValuesIn(urdfs()), test::case_name);

// The makers' SDF files (Gazebo's model database): read, every link with its <inertial>.
TEST(SdfFiles, MakersModelsRead) {
    for (const char* f : {"sdf/pioneer2dx.sdf", "sdf/robonaut.sdf"}) {
        const std::string path = test::shared_model(f);
        if (!fs::exists(path)) GTEST_SKIP() << path << " is absent (../shared/models comes with the project)";
        const Model m = load_model(path);
        EXPECT_EQ(m.nv, std::string(f) == "sdf/pioneer2dx.sdf" ? 2 : 54) << f;
        EXPECT_TRUE(m.warnings.empty()) << f << ": " << m.warnings.front();
        double mass = 0;
        for (const Frame& fr : m.frames) mass += fr.I.m;
        EXPECT_NEAR(mass, std::string(f) == "sdf/pioneer2dx.sdf" ? 8.67 : 133.366, 1e-3) << f;
    }
}

// models/sdf/nested_arm.sdf, posed by hand from its numbers: mount (0, 0, 0.5) turned 90° about z on
// base; the nested model 0.1 along mount's x; upper 0.2 above the model's origin; lower 0.3 above
// upper, pitched 0.5; tool 0.25 along lower's z; tcp 0.05 further. The universal joint's axes are
// upper's x and y; the elbow's is y of the nested model (world −x), through a point 0.05 below
// lower's origin; its armature Drake's 1e-4 × 50².
TEST(SdfFiles, NestedModelsAndRelativePosesAsComputedByHand) {
    const Model m = load_model(test::project_model("sdf/nested_arm.sdf"));
    ASSERT_EQ(m.nv, 3);
    EXPECT_EQ(m.joint_names(), (std::vector<std::string>{"shoulder.axis", "shoulder.axis2", "arm::elbow"}));
    using Eigen::AngleAxisd;
    const Mat3<double> Rz = AngleAxisd(std::numbers::pi / 2, Vec3<double>::UnitZ()).toRotationMatrix();
    const Vec3<double> p_upper(0, 0.1, 0.7);
    const Mat3<double> R_lower = Rz * AngleAxisd(0.5, Vec3<double>::UnitY()).toRotationMatrix();
    const Vec3<double> p_lower = p_upper + Rz * Vec3<double>(0, 0, 0.3);
    const double a1 = 0.4, a2 = -0.3, elbow = 0.7;
    // q turns the shoulder about upper's x (world y), then its y (world −x, turned by the first), then the elbow
    const Mat3<double> R1 = AngleAxisd(a1, Rz * Vec3<double>::UnitX()).toRotationMatrix();
    const Mat3<double> R2 = AngleAxisd(a2, R1 * Rz * Vec3<double>::UnitY()).toRotationMatrix();
    const Mat3<double> R12 = R2 * R1;
    const Vec3<double> elbow_point = p_lower + R_lower * Vec3<double>(0, 0, -0.05);
    const Vec3<double> elbow_axis = R12 * Rz * Vec3<double>::UnitY();
    const Mat3<double> R3 = AngleAxisd(elbow, elbow_axis).toRotationMatrix();
    const auto moved = [&](const Vec3<double>& p) {  // a point of lower's subtree, in world, at q
        const Vec3<double> after_shoulder = p_upper + R12 * (p - p_upper), e = p_upper + R12 * (elbow_point - p_upper);
        return Vec3<double>(e + R3 * (after_shoulder - e));
    };
    VecX<double> q(3);
    q << a1, a2, elbow;
    const auto poses = world_poses(m, q);
    const auto expect_pose = [&](const std::string& name, const Mat3<double>& R, const Vec3<double>& p) {
        ASSERT_TRUE(poses.count(name)) << name;
        const Transform<double>& X = poses.at(name);  // ᶠX_0: E rotates world into the frame, r its origin
        EXPECT_LT((X.E.transpose() - R).norm(), 1e-14) << name;
        EXPECT_LT((X.r - p).norm(), 1e-14) << name;
    };
    expect_pose("base", Mat3<double>::Identity(), Vec3<double>::Zero());
    expect_pose("mount", Rz, Vec3<double>(0, 0, 0.5));
    expect_pose("arm::upper", R12 * Rz, p_upper);
    expect_pose("arm::lower", R3 * R12 * R_lower, moved(p_lower));
    expect_pose("tool", R3 * R12 * R_lower, moved(p_lower + R_lower * Vec3<double>(0, 0, 0.25)));
    expect_pose("tcp", R3 * R12 * R_lower, moved(p_lower + R_lower * Vec3<double>(0, 0, 0.30)));
    // the elbow's armature, and the masses (base on the fixed base; tool welded to lower's body)
    EXPECT_EQ(m.bodies[2].joint.armature, 1e-4 * 50 * 50);
    EXPECT_EQ(m.bodies[2].armature_from, "the file");
    EXPECT_EQ(m.bodies[0].I.m, 0);  // the universal joint's first coordinate: a massless body
    EXPECT_DOUBLE_EQ(m.bodies[1].I.m, 1.5);
    EXPECT_DOUBLE_EQ(m.bodies[2].I.m, 0.8 + 0.3);
}

// A ball joint, posed 0.1 below its child's origin and rolled 0.3 about x from it (SDFormat poses a
// joint in its child's frame): q = (x, y, z, w) turns the child about the joint's origin, in the
// joint's axes, b's world pose T_J0 · Rot(q) · (T_J0⁻¹ T_b0), computed here by hand.
TEST(SdfFiles, BallJointTurnsItsChildAboutTheJointsOrigin) {
    const std::string sdf = R"(<sdf version="1.8"><model name="m"><link name="a"/>
      <link name="b"><pose>0.1 0.2 0.3 0 0 0.5</pose><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="ball"><pose>0 0 -0.1 0.3 0 0</pose><parent>a</parent><child>b</child></joint></model></sdf>)";
    const Model m = load_sdf_string(sdf, "ball.sdf");
    ASSERT_EQ(m.nq, 4);
    ASSERT_EQ(m.nv, 3);
    EXPECT_EQ(m.bodies[0].joint.type, JointType::Ball);
    EXPECT_EQ(m.dof_names(), (std::vector<std::string>{"j.wx", "j.wy", "j.wz"}));
    using Eigen::AngleAxisd;
    const Mat3<double> R_b0 = AngleAxisd(0.5, Vec3<double>::UnitZ()).toRotationMatrix();
    const Vec3<double> p_b0(0.1, 0.2, 0.3);
    const Mat3<double> R_J0 = R_b0 * AngleAxisd(0.3, Vec3<double>::UnitX()).toRotationMatrix();
    const Vec3<double> p_J0 = p_b0 + R_b0 * Vec3<double>(0, 0, -0.1);
    const Eigen::Quaterniond Q(AngleAxisd(0.8, Vec3<double>(1, -2, 0.5).normalized()));
    VecX<double> q(4);
    q << Q.x(), Q.y(), Q.z(), Q.w();
    const Mat3<double> R_b = R_J0 * Q.toRotationMatrix() * R_J0.transpose() * R_b0;
    const Vec3<double> p_b = p_J0 + R_J0 * Q.toRotationMatrix() * R_J0.transpose() * (p_b0 - p_J0);
    const Transform<double> X = world_poses(m, q).at("b");  // a copy: the map is a temporary
    EXPECT_LT((X.E.transpose() - R_b).norm(), 1e-14);
    EXPECT_LT((X.r - p_b).norm(), 1e-14);
}

// What does not change the rigid-body model is listed once, each tag as the file has it, under the
// world, the model, its links and joints; what the file does not have, or has only by libsdformat's
// defaults, is not.
TEST(SdfFiles, WhatIsIgnoredIsListedOnce) {
    const std::string sdf = R"(<sdf version="1.8"><world name="w"><physics type="ode"/>
      <model name="m"><plugin name="p" filename="libp.so"/>
      <link name="a"><visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual></link>
      <link name="b"><inertial><mass>1</mass></inertial><visual name="v2"><geometry><sphere><radius>1</radius></sphere></geometry></visual>
        <sensor name="imu" type="imu"/></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz><dynamics><damping>1</damping></dynamics></axis></joint>
      </model></world></sdf>)";
    const Model m = load_sdf_string(sdf, "w.sdf");
    ASSERT_EQ(m.ignored.size(), 1u);
    EXPECT_EQ(m.ignored[0], "<physics>, <plugin>, <sensor>, <visual> (they do not change the rigid-body model)");
    const std::string plain = R"(<sdf version="1.8"><model name="m"><link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint></model></sdf>)";
    EXPECT_TRUE(load_sdf_string(plain, "m.sdf").ignored.empty());
}

// An <include> of a relative URI is read from the model file's folder, not the working directory (a
// file of that name there is another model), and Model::files lists it after the model's own file
// (rbdgen generate --depfile, an edit of it regenerates).
TEST(SdfFiles, IncludesAreReadFromTheModelsFolder) {
    const test::TempFile arm("arm.sdf", R"(<sdf version="1.8"><model name="arm"><link name="a"><inertial><mass>2</mass></inertial></link>
      <link name="b"><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint></model></sdf>)");
    const std::string name = std::filesystem::path(arm.str()).filename().string();
    const test::TempFile top("top.sdf", R"(<sdf version="1.8"><model name="top"><link name="base"><inertial><mass>3</mass></inertial></link>
      <include><uri>)" + name + R"(</uri><name>left</name></include>
      <joint name="fix" type="fixed"><parent>base</parent><child>left::a</child></joint></model></sdf>)");
    const std::filesystem::path here = std::filesystem::current_path();
    const std::filesystem::path elsewhere = std::filesystem::temp_directory_path() / ("rbdgen_test_cwd_" + std::to_string(::getpid()));
    std::filesystem::create_directories(elsewhere);
    std::ofstream(elsewhere / name) << "<sdf version=\"1.8\"><model name=\"decoy\"><link name=\"x\"/></model></sdf>";
    std::filesystem::current_path(elsewhere);
    std::string error;
    Model m;
    try {
        m = load_model(top.str());
    } catch (const Error& e) {
        error = e.what();
    }
    std::filesystem::current_path(here);
    std::filesystem::remove_all(elsewhere);
    ASSERT_EQ(error, "");
    EXPECT_EQ(m.joint_names(), std::vector<std::string>{"left::j"});
    EXPECT_EQ(m.files, (std::vector<std::string>{top.str(), arm.str()}));
}

// A world with one model: its gravity is the robot's default.
TEST(SdfFiles, WorldGivesGravity) {
    const std::string sdf = R"(<sdf version="1.8"><world name="w"><gravity>0 0 -3.71</gravity>
      <model name="m"><link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="prismatic"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint></model></world></sdf>)";
    const Model m = load_sdf_string(sdf, "w.sdf");
    ASSERT_TRUE(m.gravity);
    EXPECT_EQ(*m.gravity, Vec3<double>(0, 0, -3.71));
    EXPECT_EQ(m.bodies[0].joint.type, JointType::Prismatic);
}

}  // namespace
}  // namespace rbdgen
