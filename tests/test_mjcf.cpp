// The MJCF reader (model/mjcf_loader.cpp) against MuJoCo reading the same file (Debian's
// libmujoco-dev): H with the armature, H⁻¹, the bias forces, the centre of mass and its Jacobian, the
// energies and every body's and site's world pose (tests/mujoco_compare.hpp), at random states, on
// DeepMind's sample models (Debian's libmujoco-samples), the MuJoCo Menagerie robots of
// ../shared/models/mjcf and the project's own files (models/mjcf: every orientation form, degrees and
// radians, intrinsic and extrinsic Euler sequences, defaults and childclass, includes, bodies of
// several joints, joint anchors and ref, armature, fullinertia, inertia from primitive geoms).
#include <filesystem>

#include <fmt/format.h>

#include "model/load_model.hpp"
#include "mujoco_compare.hpp"
#include "mujoco_model.hpp"

namespace rbdgen {
namespace {

// The issue's agreement. MuJoCo keeps each body's inertia in its principal axes, found by its
// eigensolver: the largest relative difference measured is 1.3e-11 (H of unitree_a1, whose bodies
// have fullinertia); below 1e-11 on the others.
constexpr double kMujoco = 1e-10;

struct MjcfCase {
    std::string path;
    int states;
    std::string label() const { return std::filesystem::path(path).stem().string(); }
};
void PrintTo(const MjcfCase& c, std::ostream* os) { *os << c.label(); }

std::vector<MjcfCase> mjcf_models() {
    std::vector<MjcfCase> cases = {{test::project_model("mjcf/forms_degree.xml"), 20}, {test::project_model("mjcf/forms_radian.xml"), 20}};
    cases.push_back({"/usr/share/mujoco/model/humanoid/humanoid.xml", 20});
    cases.push_back({"/usr/share/mujoco/model/humanoid100/humanoid100.xml", 2});  // 627 dofs: 101 free bodies
    for (const char* m : {"robotis_op3_nomesh.xml", "unitree_a1_nomesh.xml", "universal_robots_ur5e_nomesh.xml"})
        cases.push_back({test::shared_model(std::string("mjcf/") + m), 20});
    return cases;
}

class MjcfAgrees : public ::testing::TestWithParam<MjcfCase> {};

TEST_P(MjcfAgrees, WithMujocoReadingTheSameFile) {
    const std::string& path = GetParam().path;
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is absent (DeepMind's samples come with Debian's libmujoco-samples; ../shared/models with the project)";
    const Model model = load_model(path);
    char error[1000] = "";
    test::Mujoco mj;
    mj.m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    ASSERT_TRUE(mj.m) << error;
    mj.m->opt.enableflags |= mjENBL_ENERGY;
    mj.d = mj_makeData(mj.m);
    test::expect_mujoco_agrees(model, mj.m, mj.d, GetParam().states, kMujoco, true);
}

INSTANTIATE_TEST_SUITE_P(Files, MjcfAgrees, ::testing::ValuesIn(mjcf_models()),
                         [](const ::testing::TestParamInfo<MjcfCase>& info) {
                             std::string name = info.param.label();
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

// The Menagerie files as their makers publish them name meshes that are not here, so MuJoCo cannot
// load them; their bodies' inertias are <inertial>s, so rbdgen reads them without the meshes, and
// they are the same robots as the mesh-free variants MuJoCo checks above: the same joints, H and τ.
TEST(Mjcf, MakersFilesWithMeshesAreTheirMeshFreeVariants) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    for (const char* robot : {"robotis_op3", "unitree_a1", "universal_robots_ur5e"}) {
        SCOPED_TRACE(robot);
        const Model with_meshes = load_model(test::shared_model(std::string("mjcf/") + robot + ".xml"));
        const Model without = load_model(test::shared_model(std::string("mjcf/") + robot + "_nomesh.xml"));
        ASSERT_EQ(with_meshes.joint_names(), without.joint_names());
        std::mt19937_64 rng(3);
        for (int n = 0; n < 5; ++n) {
            const test::RandomState s = test::random_state(without, rng);
            EXPECT_LT(test::rel_err(crba<double>(with_meshes, s.q), crba<double>(without, s.q)), 1e-14);
            EXPECT_LT(test::rel_err(rnea<double>(with_meshes, s.q, s.qd, s.qdd, s.gravity), rnea<double>(without, s.q, s.qd, s.qdd, s.gravity)), 1e-14);
        }
    }
}

// MuJoCo 3's <frame> (Debian's MuJoCo 2.2 does not read it) places what it holds as a body would,
// without being one: a file with frames is the same model as the one written without them.
TEST(Mjcf, FramesPlaceTheirBodiesGeomsAndSites) {
    const auto model = [](const std::string& body) {
        return "<mujoco><compiler angle=\"radian\"/><worldbody>" + body + "</worldbody></mujoco>";
    };
    const test::TempFile framed("framed.xml", model(R"(
      <body name="a"><joint name="j1" axis="0 1 0"/><geom size="0.1"/>
        <frame pos="0.1 0.2 0.3" euler="0.3 0.2 0.1">
          <geom type="box" size="0.05 0.1 0.2" pos="0 0 0.1"/>
          <site name="s" pos="0.05 0 0"/>
          <frame quat="0.9 0.1 0 0.2"><body name="b" pos="0 0 0.2"><joint name="j2"/><geom size="0.05"/></body></frame>
        </frame>
      </body>)"));
    // the same by hand: the frames composed into the placements (quat 0.9 0.1 0 0.2 after euler 0.3 0.2 0.1)
    const Mat3<double> R1 = (Eigen::AngleAxisd(0.3, Vec3<double>::UnitX()) * Eigen::AngleAxisd(0.2, Vec3<double>::UnitY()) *
                             Eigen::AngleAxisd(0.1, Vec3<double>::UnitZ())).toRotationMatrix();
    const Mat3<double> R2 = R1 * Eigen::Quaterniond(0.9, 0.1, 0, 0.2).normalized().toRotationMatrix();
    const Vec3<double> t1(0.1, 0.2, 0.3);
    const auto placement = [](const Vec3<double>& p, const Mat3<double>& R) {
        const Eigen::Quaterniond q(R);
        return fmt::format("pos=\"{:.17g} {:.17g} {:.17g}\" quat=\"{:.17g} {:.17g} {:.17g} {:.17g}\"", p[0], p[1], p[2], q.w(), q.x(), q.y(), q.z());
    };
    const test::TempFile flat("flat.xml", model(R"(
      <body name="a"><joint name="j1" axis="0 1 0"/><geom size="0.1"/>
        <geom type="box" size="0.05 0.1 0.2" )" + placement(t1 + R1 * Vec3<double>(0, 0, 0.1), R1) + R"(/>
        <site name="s" )" + placement(t1 + R1 * Vec3<double>(0.05, 0, 0), R1) + R"(/>
        <body name="b" )" + placement(t1 + R2 * Vec3<double>(0, 0, 0.2), R2) + R"(><joint name="j2"/><geom size="0.05"/></body>
      </body>)"));
    const Model a = load_model(framed.str()), b = load_model(flat.str());
    std::mt19937_64 rng(4);
    for (int n = 0; n < 5; ++n) {
        const test::RandomState s = test::random_state(a, rng);
        EXPECT_LT(test::rel_err(crba<double>(a, s.q), crba<double>(b, s.q)), 1e-12);
        EXPECT_LT(test::rel_err(rnea<double>(a, s.q, s.qd, s.qdd, s.gravity), rnea<double>(b, s.q, s.qd, s.qdd, s.gravity)), 1e-12);
        const LinkFrame fa = *link_frame(a, "s"), fb = *link_frame(b, "s");
        EXPECT_LT(test::rel_err(fa.X.matrix(), fb.X.matrix()), 1e-12);
    }
}

}  // namespace
}  // namespace rbdgen
