// Operational frames (--frames): on every model (loaded with a fixed base), every link's frame (merged fixed links
// such as tool flanges, soles and grippers included) has the pose urdfdom's own joint transforms
// compose to, its Jacobian times q̇ is the central difference of its pose, and frame_states'
// classical acceleration is the central difference of its velocity along q(t) = q + t q̇ + t²/2 q̈.
// Then a generated robot's fk, frame_jacobians and frame_motion against the reference (the tracer).
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <urdf_parser/urdf_parser.h>

#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/frames.hpp"
#include "frames_humanoid.hpp"
#include "test_support.hpp"
#ifdef RBDGEN_HAVE_UR5
#include "frames_ur5.hpp"
#endif

namespace {

using namespace rbdgen;

struct Pose {
    Eigen::Matrix3d R;  // link to world
    Eigen::Vector3d p;
};

// The link's pose by urdfdom: the joints from the root, each its origin then its motion by q.
Pose urdfdom_pose(const urdf::ModelInterface& urdf, const Model& model, const std::string& link, const VecX<double>& q) {
    Pose pose{Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero()};
    for (urdf::LinkConstSharedPtr l = urdf.getLink(link); l->parent_joint; l = urdf.getLink(l->parent_joint->parent_link_name)) {
        const urdf::Joint& j = *l->parent_joint;
        const urdf::Pose& o = j.parent_to_joint_origin_transform;
        Eigen::Matrix3d R = Eigen::Quaterniond(o.rotation.w, o.rotation.x, o.rotation.y, o.rotation.z).toRotationMatrix();
        Eigen::Vector3d p(o.position.x, o.position.y, o.position.z);
        const Eigen::Vector3d axis = Eigen::Vector3d(j.axis.x, j.axis.y, j.axis.z).normalized();
        const auto coordinate = [&](const std::string& name) {
            for (const Body& b : model.bodies)
                if (b.joint_name == name) return q[b.q_index];
            ADD_FAILURE() << "no coordinate " << name;
            return 0.0;
        };
        if (j.type == urdf::Joint::PLANAR) {
            // x along u, the joint frame's axis least aligned with the normal made orthogonal to it,
            // y along normal × u, theta about the normal (docs/kernels.md)
            Eigen::Index k;
            axis.cwiseAbs().minCoeff(&k);
            const Eigen::Vector3d u = (Eigen::Vector3d::Unit(k) - axis[k] * axis).normalized();
            p += R * (coordinate(j.name + ".x") * u + coordinate(j.name + ".y") * axis.cross(u));
            R = R * Eigen::AngleAxisd(coordinate(j.name + ".theta"), axis).toRotationMatrix();
        } else if (j.type == urdf::Joint::PRISMATIC) {
            p += R * axis * coordinate(j.name);
        } else if (j.type != urdf::Joint::FIXED) {
            R = R * Eigen::AngleAxisd(coordinate(j.name), axis).toRotationMatrix();
        }
        pose = {R * pose.R, R * pose.p + p};  // parent_from_link = joint ∘ (what is below)
    }
    return pose;
}

// Every link of the model but those welded to a fixed base.
std::vector<LinkFrame> frames_of(const Model& model, std::vector<std::string>* names) {
    std::vector<LinkFrame> frames;
    for (const Frame& f : model.frames) {
        if (f.body < 0) continue;
        frames.push_back(*link_frame(model, f.name));
        names->push_back(f.name);
    }
    return frames;
}

Eigen::Vector3d vee(const Eigen::Matrix3d& W) { return {W(2, 1), W(0, 2), W(1, 0)}; }

class OperationalFrames : public test::ModelTest {};

// A floating model is tested on its fixed-base load: the links' kinematics relative to the base are the
// same, and the differences below step q by q̇, which a quaternion does not allow (talos's soles and
// grippers are tested so).
TEST_P(OperationalFrames, PoseJacobianAndAccelerationAgainstUrdfdomAndDifferences) {
    if (!test::is_urdf(GetParam())) GTEST_SKIP() << "not a URDF, which urdfdom alone reads: MJCF frames' poses are MuJoCo's in test_mjcf, SDFormat's by hand in test_sdf";
    if (model.floating_base) model = load_urdf(GetParam().path, {false});
    std::ifstream in(GetParam().path);
    std::stringstream text;
    text << in.rdbuf();
    const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDF(text.str());
    std::vector<std::string> names;
    const std::vector<LinkFrame> frames = frames_of(model, &names);
    std::mt19937_64 rng(8);
    const double h = 1e-6;
    for (int s = 0; s < 10; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const std::vector<FrameState<double>> at = frame_states<double>(model, frames, x.q, x.qd, x.qdd);
        const auto along = [&](double t) {  // the frames at q(t), q̇(t)
            return frame_states<double>(model, frames, VecX<double>(x.q + t * x.qd + t * t / 2 * x.qdd), VecX<double>(x.qd + t * x.qdd), x.qdd);
        };
        const std::vector<FrameState<double>> plus = along(h), minus = along(-h);
        for (size_t f = 0; f < frames.size(); ++f) {
            SCOPED_TRACE(names[f] + ", state " + std::to_string(s));
            const Pose expected = urdfdom_pose(*urdf, model, names[f], x.q);
            const Eigen::Matrix3d R = at[f].X_0.E.transpose();
            EXPECT_LT((R - expected.R).norm(), 1e-10);
            EXPECT_LT((at[f].X_0.r - expected.p).norm(), 1e-10 * std::max(1.0, expected.p.norm()));
            // J q̇ = the pose's rate, (ω, ṗ) = (vee(Ṙ Rᵀ), ṗ)
            const Vec6<double> v = frame_jacobian<double>(model, frames[f], x.q) * x.qd;
            EXPECT_LT((v - at[f].v).norm(), 1e-10 * std::max(1.0, v.norm()));
            const Eigen::Matrix3d Rdot = (plus[f].X_0.E.transpose() - minus[f].X_0.E.transpose()) / (2 * h);
            const Vec6<double> rate = spatial<double>(vee(Rdot * R.transpose()), (plus[f].X_0.r - minus[f].X_0.r) / (2 * h));
            EXPECT_LT((v - rate).norm(), 1e-6 * std::max(1.0, v.norm()));
            // the classical acceleration is the velocity's rate
            const Vec6<double> accel = (plus[f].v - minus[f].v) / (2 * h);
            EXPECT_LT((at[f].a - accel).norm(), 1e-6 * std::max(1.0, accel.norm()));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllModels, OperationalFrames, ::testing::ValuesIn(test::all_models()), test::case_name);

// The generated kernels of ur5 with frames tool0 (merged by a fixed joint), ee_link and forearm_link:
// fk's frame poses, frame_jacobians and frame_motion against the reference (1e-10: the generator snaps
// ur5's rpy="-1.57079632679" to an exact right angle, which moves the tool's pose by about 1e-11).
TEST(GeneratedFrames, Ur5ToolFlangeAndALinkAgreeWithTheReference) {
#ifdef RBDGEN_HAVE_UR5
    const Model model = load_urdf(test::shared_model("ur5.urdf"), {false});
    const std::vector<std::string> names = {"tool0", "ee_link", "forearm_link"};
    std::vector<LinkFrame> frames;
    for (const std::string& n : names) frames.push_back(*link_frame(model, n));
    std::mt19937_64 rng(9);
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::vector<double> pose(frames_ur5::fk_pose_size), frame_pose(frames_ur5::fk_frame_pose_size),
            J(frames_ur5::frame_jacobians_J_size), v(frames_ur5::frame_motion_v_size), a(frames_ur5::frame_motion_a_size);
        frames_ur5::fk(x.q.data(), pose.data(), frame_pose.data());
        frames_ur5::frame_jacobians(x.q.data(), J.data());
        frames_ur5::frame_motion(x.q.data(), x.qd.data(), x.qdd.data(), v.data(), a.data());
        const std::vector<FrameState<double>> ref = frame_states<double>(model, frames, x.q, x.qd, x.qdd);
        for (size_t f = 0; f < frames.size(); ++f) {
            const Eigen::Matrix3d R = ref[f].X_0.E.transpose();
            for (int r = 0; r < 3; ++r) {
                for (int c = 0; c < 3; ++c) EXPECT_NEAR(frame_pose[12 * f + 3 * r + c], R(r, c), 1e-10) << names[f];
                EXPECT_NEAR(frame_pose[12 * f + 9 + r], ref[f].X_0.r[r], 1e-10) << names[f];
            }
            const MatX<double> Jf = frame_jacobian<double>(model, frames[f], x.q);
            for (int r = 0; r < 6; ++r) {
                for (int c = 0; c < model.nv; ++c) EXPECT_NEAR(J[(6 * f + r) * model.nv + c], Jf(r, c), 1e-10) << names[f];
                EXPECT_NEAR(v[6 * f + r], ref[f].v[r], 1e-10 * std::max(1.0, ref[f].v.norm())) << names[f];
                EXPECT_NEAR(a[6 * f + r], ref[f].a[r], 1e-10 * std::max(1.0, ref[f].a.norm())) << names[f];
            }
        }
    }
#else
    GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): ur5 not built";
#endif
}

// The floating humanoid's frame_motion in the compact emission (its output is named v, as the compact
// form's value array once was: it did not compile) against the reference, at four links down its limbs.
TEST(GeneratedFrames, CompactFrameMotionOfAFloatingHumanoidAgreesWithTheReference) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    const std::vector<std::string> names = {"link006", "link012", "link018", "link024"};
    std::vector<LinkFrame> frames;
    for (const std::string& n : names) frames.push_back(*link_frame(model, n));
    std::mt19937_64 rng(11);
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::vector<double> v(frames_humanoid::frame_motion_v_size), a(frames_humanoid::frame_motion_a_size);
        frames_humanoid::frame_motion(x.q.data(), x.qd.data(), x.qdd.data(), v.data(), a.data());
        const std::vector<FrameState<double>> ref = frame_states<double>(model, frames, x.q, x.qd, x.qdd);
        for (size_t f = 0; f < frames.size(); ++f)
            for (int r = 0; r < 6; ++r) {
                EXPECT_NEAR(v[6 * f + r], ref[f].v[r], 1e-12 * std::max(1.0, ref[f].v.norm())) << names[f];
                EXPECT_NEAR(a[6 * f + r], ref[f].a[r], 1e-12 * std::max(1.0, ref[f].a.norm())) << names[f];
            }
    }
}

// And its frame_motion_derivatives (compact) against the algorithm's reference, each output's largest
// magnitude (at least 1) the scale.
TEST(GeneratedFrames, CompactFrameMotionDerivativesOfAFloatingHumanoidAgreeWithTheReference) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    std::vector<LinkFrame> frames;
    for (const char* n : {"link006", "link012", "link018", "link024"}) frames.push_back(*link_frame(model, n));
    std::mt19937_64 rng(12);
    const int rows = 6 * static_cast<int>(frames.size()), n = model.nv;
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::vector<std::vector<double>> out(5, std::vector<double>(rows * n));
        frames_humanoid::frame_motion_derivatives(x.q.data(), x.qd.data(), x.qdd.data(), out[0].data(), out[1].data(), out[2].data(),
                                                  out[3].data(), out[4].data());
        const std::vector<WorldAlignedMotionDerivatives<double>> ref = world_aligned_motion_derivatives<double>(model, frames, x.q, x.qd, x.qdd);
        for (int o = 0; o < 5; ++o) {
            MatX<double> expected(rows, n);
            for (size_t f = 0; f < frames.size(); ++f) {
                const WorldAlignedMotionDerivatives<double>& d = ref[f];
                expected.middleRows<6>(6 * f) = o == 0 ? d.dv_dq : o == 1 ? d.dv_dqd : o == 2 ? d.da_dq : o == 3 ? d.da_dqd : d.da_dqdd;
            }
            const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> generated(out[o].data(), rows, n);
            EXPECT_LT(test::rel_err(generated, expected), 1e-12) << "output " << o << ", state " << s;
        }
    }
}

}  // namespace
