// The generator's model transformations change no joint-space number: re-chosen body frames (exact up
// to rounding) and snapped near-exact constants (within what the report states).
#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/rnea.hpp"
#include "model/frames.hpp"
#include "model/snap.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

class Frames : public test::ModelTest {
protected:
    std::mt19937_64 rng{99};
};

TEST_P(Frames, InternalFramesKeepJointSpaceResultsAndUrdfPoses) {
    const FrameChoice f = choose_internal_frames(model);
    for (const Body& b : f.model.bodies)
        if (b.joint.type != JointType::Floating) ASSERT_EQ(b.joint.axis, Vec3<double>::UnitZ());
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        EXPECT_LT(test::rel_err(rnea<double>(f.model, x.q, x.qd, x.qdd, x.gravity), rnea<double>(model, x.q, x.qd, x.qdd, x.gravity)), 1e-12);
        EXPECT_LT(test::rel_err(crba<double>(f.model, x.q), crba<double>(model, x.q)), 1e-12);
        EXPECT_LT(test::rel_err(aba<double>(f.model, x.q, x.qd, x.tau, x.gravity), aba<double>(model, x.q, x.qd, x.tau, x.gravity)), 1e-10);
        const VecX<double> zero = VecX<double>::Zero(model.nv);
        const Kinematics<double> a = forward_kinematics<double>(f.model, x.q, zero), b = forward_kinematics<double>(model, x.q, zero);
        for (int i = 0; i < model.N(); ++i) {
            const Transform<double> urdf_frame = f.model.bodies[i].X_urdf * a.X_0[i];
            ASSERT_LT(test::rel_err(urdf_frame.matrix(), (model.bodies[i].X_urdf * b.X_0[i]).matrix()), 1e-12) << "body " << i;
        }
    }
}

// The screws stored in each body (Body::screws, read once by the frame choice and applied by X_up)
// rebuild its X_tree: xlt(d ẑ) rx(α) xlt(a x̂) rz(θ₀) xlt(d₀ ẑ). A 1-DoF body without them says why.
TEST_P(Frames, StoredScrewsRebuildTheTreeTransformOrSayWhyNot) {
    const FrameChoice f = choose_internal_frames(model);
    auto xlt = [](double x, double y, double z) { return Transform<double>{Mat3<double>::Identity(), Vec3<double>(x, y, z)}; };
    for (const Body& b : f.model.bodies) {
        if (b.joint.type == JointType::Floating) {
            EXPECT_FALSE(b.screws.has_value());
            continue;
        }
        if (!b.screws) {
            EXPECT_FALSE(b.general_transform.empty()) << b.joint_name;
            continue;
        }
        const TreeScrews& t = *b.screws;
        Transform<double> rx{Mat3<double>::Identity(), Vec3<double>::Zero()}, rz = rx;
        rx.E << 1, 0, 0, 0, t.c_alpha, t.s_alpha, 0, -t.s_alpha, t.c_alpha;
        rz.E << t.c0, t.s0, 0, -t.s0, t.c0, 0, 0, 0, 1;
        const Transform<double> rebuilt = xlt(0, 0, t.d) * rx * xlt(t.a, 0, 0) * rz * xlt(0, 0, t.d0);
        EXPECT_LT(test::rel_err(rebuilt.matrix(), b.X_tree.matrix()), 1e-12) << b.joint_name;
    }
}

TEST_P(Frames, SnappingChangesLittleAndOnlyNearExactConstants) {
    Model snapped = model;
    snap_near_exact_constants(snapped);
    for (int s = 0; s < 50; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        EXPECT_LT(test::rel_err(rnea<double>(snapped, x.q, x.qd, x.qdd, x.gravity), rnea<double>(model, x.q, x.qd, x.qdd, x.gravity)),
                  100 * kSnapTolerance);
    }
}

TEST(Snapping, SevenDigitRightAngleBecomesExact) {
    const std::string urdf = R"(<robot name="r"><link name="a"/>
      <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0.1 0 0" rpy="1.5707963 0 0"/>
        <axis xyz="0 0.00000001 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)";
    Model m = load_urdf_string(urdf, "r.urdf");
    const SnapReport r = snap_near_exact_constants(m);
    ASSERT_EQ(r.snapped.size(), 2u);
    EXPECT_NE(r.snapped[0].find("joint 'j'"), std::string::npos);
    for (int k = 0; k < 9; ++k) EXPECT_TRUE(m.bodies[0].X_tree.E.data()[k] == 0 || std::abs(m.bodies[0].X_tree.E.data()[k]) == 1);
    EXPECT_EQ(m.bodies[0].joint.axis, Vec3<double>::UnitZ());
    Model untouched = load_urdf_string(urdf, "r.urdf");
    EXPECT_TRUE(snap_near_exact_constants(untouched, 1e-9).snapped.empty());  // 3.3e-8 is above 1e-9
}

INSTANTIATE_TEST_SUITE_P(AllModels, Frames, ::testing::ValuesIn(test::all_models()), test::case_name);

}  // namespace
}  // namespace rbdgen
