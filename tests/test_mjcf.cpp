// The MJCF reader (model/mjcf_loader.cpp) against MuJoCo reading the same file (Debian's
// libmujoco-dev): H with the armature, H⁻¹, the bias forces, the centre of mass and its Jacobian, the
// energies and every body's and site's world pose (tests/mujoco_compare.hpp), at random states, on
// DeepMind's sample models (Debian's libmujoco-samples), the MuJoCo Menagerie robots of
// ../shared/models/mjcf and the project's own files (models/mjcf: every orientation form, degrees and
// radians, intrinsic and extrinsic Euler sequences, defaults and childclass, includes, bodies of
// several joints, joint anchors and ref, armature, fullinertia, inertia from primitive geoms).
#include <filesystem>

#include "model/load_model.hpp"
#include "mujoco_compare.hpp"
#include "mujoco_model.hpp"

namespace rbdgen {
namespace {

// The agreement. MuJoCo keeps each body's inertia in its principal axes, found by its
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

}  // namespace
}  // namespace rbdgen
