// External wrenches as kernel inputs (--external-forces): on every model, fixed and floating, with a
// wrench on every link (merged fixed links included, each in its own URDF frame), rnea obeys the
// virtual-work identity τ(f) − τ(0) = −Σ J_fᵀ f, with J_f the link frame's Jacobian built from the
// spatial Jacobian and the link's pose (no code of the kernels' wrench mapping), and aba and
// fd_crba_ltdl invert it. Then the generated kernels of two robots built with EXTERNAL_FORCES
// (tests/CMakeLists.txt) against the same identity, and their eval drivers against `rbdgen eval`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "emit/kernel.hpp"
#include "test_support.hpp"
#include "wrench_humanoid.hpp"
#include "wrench_arm.hpp"
#ifdef RBDGEN_HAVE_UR5
#include "wrench_ur5.hpp"
#endif

namespace {

using namespace rbdgen;

// J_f: link f's velocity in its own URDF frame, ᶠX_i ⁱX_0 J_0 over the joints supporting its body i.
MatX<double> link_jacobian(const Model& model, const LinkFrame& f, const VecX<double>& q) {
    const Kinematics<double> kin = forward_kinematics<double>(model, q, VecX<double>::Zero(model.nv));
    const MatX<double> J0 = body_support<double>(model, spatial_jacobian<double>(model, q), f.body);
    return (f.X * kin.X_0[f.body]).matrix() * J0;
}

const KernelSpec& spec_of(const std::vector<KernelSpec>& specs, const std::string& name) {
    for (const KernelSpec& s : specs)
        if (s.name == name) return s;
    throw std::logic_error("no kernel " + name);
}

class ExternalForces : public test::ModelTest {
protected:
    std::mt19937_64 rng{31};
};

TEST_P(ExternalForces, EveryLinksWrenchObeysVirtualWork) {
    std::vector<std::string> links;
    for (const Frame& f : model.frames)
        if (f.body >= 0) links.push_back(f.name);
    const std::vector<LinkFrame> sites = link_frames(model, links, "test", true);
    const std::vector<KernelSpec> specs = kernel_specs(sites, {});
    std::uniform_real_distribution<double> u(-10, 10);
    for (int s = 0; s < 20; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        VecX<double> f(6 * sites.size());
        for (double& e : f) e = u(rng);
        const VecX<double> zero = VecX<double>::Zero(f.size());
        const Arrays<double> in{x.q, x.qd, x.qdd, x.gravity, f}, in0{x.q, x.qd, x.qdd, x.gravity, zero};
        VecX<double> expected = spec_of(specs, "rnea").reference(model, in0)[0];
        for (size_t k = 0; k < links.size(); ++k)
            expected -= link_jacobian(model, *link_frame(model, links[k]), x.q).transpose() * f.segment<6>(6 * k);
        const VecX<double> tau = spec_of(specs, "rnea").reference(model, in)[0];
        EXPECT_LT(test::rel_err(tau, expected), 1e-10) << "state " << s;
        const Arrays<double> fd_in{x.q, x.qd, tau, x.gravity, f};
        EXPECT_LT(test::rel_err(spec_of(specs, "aba").reference(model, fd_in)[0], x.qdd), 1e-10) << "aba, state " << s;
        EXPECT_LT(test::rel_err(spec_of(specs, "fd_crba_ltdl").reference(model, fd_in)[0], x.qdd), 1e-10) << "fd_crba_ltdl, state " << s;
    }
}

INSTANTIATE_TEST_SUITE_P(AllModels, ExternalForces, ::testing::ValuesIn(test::all_models()), test::case_name);

// A generated robot's rnea, aba and fd_crba_ltdl with wrenches on `links` (the order of its f_ext).
template <class Robot> void check_generated(const Model& model, const std::vector<std::string>& links, Robot robot) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-10, 10);
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::vector<double> f(6 * links.size()), zero(f.size(), 0.0);
        for (double& e : f) e = u(rng);
        const VecX<double> tau0 = robot.rnea(x, zero), tau = robot.rnea(x, f);
        VecX<double> expected = tau0;
        for (size_t k = 0; k < links.size(); ++k)
            expected -= link_jacobian(model, *link_frame(model, links[k]), x.q).transpose() *
                        Eigen::Map<const Vec6<double>>(f.data() + 6 * k);
        EXPECT_LT(test::rel_err(tau, expected), 1e-10) << "state " << s;
        EXPECT_LT(test::rel_err(robot.aba(x, tau, f), x.qdd), 1e-10) << "aba, state " << s;
        EXPECT_LT(test::rel_err(robot.fd(x, tau, f), x.qdd), 1e-10) << "fd_crba_ltdl, state " << s;
    }
}

#define ROBOT_CALLS(NS)                                                                                              \
    struct {                                                                                                         \
        VecX<double> rnea(const test::RandomState& x, const std::vector<double>& f) const {                          \
            VecX<double> out(NS::NV);                                                                                \
            NS::rnea(x.q.data(), x.qd.data(), x.qdd.data(), x.gravity.data(), f.data(), out.data());                  \
            return out;                                                                                              \
        }                                                                                                            \
        VecX<double> aba(const test::RandomState& x, const VecX<double>& tau, const std::vector<double>& f) const {  \
            VecX<double> out(NS::NV);                                                                                \
            NS::aba(x.q.data(), x.qd.data(), tau.data(), x.gravity.data(), f.data(), out.data());                     \
            return out;                                                                                              \
        }                                                                                                            \
        VecX<double> fd(const test::RandomState& x, const VecX<double>& tau, const std::vector<double>& f) const {   \
            VecX<double> out(NS::NV);                                                                                \
            NS::fd_crba_ltdl(x.q.data(), x.qd.data(), tau.data(), x.gravity.data(), f.data(), out.data());            \
            return out;                                                                                              \
        }                                                                                                            \
    }

TEST(GeneratedExternalForces, FloatingHumanoidWithAWrenchOnEveryLink) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    std::vector<std::string> links;
    for (const Body& b : model.bodies) links.push_back(b.name);
    ASSERT_EQ(wrench_humanoid::rnea_f_ext_size, static_cast<int>(6 * links.size()));
    ROBOT_CALLS(wrench_humanoid) robot;
    check_generated(model, links, robot);
}

TEST(GeneratedExternalForces, ArmWithWrenchesOnTwoLinks) {
    const Model model = load_urdf(test::project_model("arm7.urdf"), {false});
    ROBOT_CALLS(wrench_arm) robot;
    check_generated(model, {"link007", "link003"}, robot);
}

// The eval driver reads STATE.json's "external_wrenches" as `rbdgen eval` does, and refuses a wrench on
// a link its kernels do not take (rather than ignore it).
TEST(GeneratedExternalForces, EvalDriverReadsTheStatesWrenches) {
    using nlohmann::json;
    json state = json::parse(R"({"q": {"joint002": 0.7, "joint004": -1.1}, "v": {"joint003": 0.4},
                                  "external_wrenches": {"link007": [0.1, -0.2, 0.3, 4, -5, 6], "link003": [1, 0, 0, 0, 0, -2]}})");
    const auto both = [&](const json& s) {
        const test::TempFile file("state.json", s.dump());
        const test::CommandResult driver = test::shell(std::string(WRENCH_ARM_EVAL) + " < " + file.str() + " 2>&1");
        const test::CommandResult reference = test::run("eval " + test::project_model("arm7.urdf") + " --state " + file.str());
        return std::pair{driver, reference};
    };
    const auto [driver, reference] = both(state);
    ASSERT_EQ(driver.status, 0) << driver.out;
    ASSERT_EQ(reference.status, 0) << reference.out;
    const json g = json::parse(driver.out), r = json::parse(reference.out);
    for (const char* kernel : {"rnea", "aba", "fd_crba_ltdl"})
        for (const auto& [joint, value] : r[kernel].items())
            EXPECT_NEAR(g[kernel][joint].get<double>(), value.get<double>(), 1e-12 * std::max(1.0, std::abs(value.get<double>())))
                << kernel << " " << joint;
    state.erase("external_wrenches");
    const json without = json::parse(both(state).second.out);
    EXPECT_GT(std::abs(without["rnea"]["joint006"].get<double>() - r["rnea"]["joint006"].get<double>()), 0.1) << "the wrenches act";
    state["external_wrenches"] = {{"link005", {0, 0, 0, 0, 0, 1}}};
    const test::CommandResult refused = both(state).first;
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.out.find("'link005'"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("--external-forces link005"), std::string::npos) << refused.out;
}

// ur5's tool0 is merged into wrist_3_link by a fixed joint: its wrench is in its own frame.
TEST(GeneratedExternalForces, Ur5WithAWrenchOnItsToolFlange) {
#ifdef RBDGEN_HAVE_UR5
    const Model model = load_urdf(test::shared_model("ur5.urdf"), {false});
    ROBOT_CALLS(wrench_ur5) robot;
    check_generated(model, {"tool0", "upper_arm_link"}, robot);
#else
    GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): ur5 not built";
#endif
}

}  // namespace
