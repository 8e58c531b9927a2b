// The inverse-dynamics regressor: Y(q, q̇, q̈) π = RNEA's τ on every model, fixed and floating, with π
// each body's inertial parameters in its URDF link frame; the kernel runs on the generator's internal
// frames (prepare_model), the RNEA on the URDF's. A column block is exactly zero on the joints that
// do not support its body. Then the generated regressor of the floating humanoid (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <random>

#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "emit/prepare.hpp"
#include "regressor_humanoid.hpp"
#include "test_support.hpp"

namespace {

using namespace rbdgen;

VecX<double> parameters(const Model& urdf_model) {  // every body's π, in its link frame U (an MJCF body's, off its joint's anchor)
    VecX<double> pi(kInertialParameters * urdf_model.N());
    for (int i = 0; i < urdf_model.N(); ++i) {
        const Body& b = urdf_model.bodies[i];
        pi.segment<kInertialParameters>(kInertialParameters * i) = parameters_of_inertia(b.I.expressed_in_parent(b.X_urdf.inverse()));
    }
    return pi;
}

bool supports(const Model& m, int j, int k) {
    for (; k >= 0; k = m.bodies[k].lambda)
        if (k == j) return true;
    return false;
}

class Regressor : public test::ModelTest {};

TEST_P(Regressor, TimesTheParametersIsRneaAndZeroWhereAJointDoesNotSupportTheBody) {
    const Model internal = prepare_model(model, 0).model;
    const KernelSpec& spec = kernel_spec("regressor");
    const VecX<double> pi = parameters(model);
    std::mt19937_64 rng(12);
    for (int s = 0; s < 20; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> Yv = spec.reference(internal, {x.q, x.qd, x.qdd, x.gravity})[0];
        const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Y(Yv.data(), model.nv, pi.size());
        VecX<double> rotors = VecX<double>::Zero(model.nv);  // the armature's τ, which no body's parameters carry
        for (const Body& b : model.bodies)
            for (int e = 0; e < b.joint.nv(); ++e) rotors[b.v_index + e] = b.joint.armature * x.qdd[b.v_index + e];
        EXPECT_LT(test::rel_err(Y * pi + rotors, rnea<double>(model, x.q, x.qd, x.qdd, x.gravity)), 1e-10) << "state " << s;
        for (int j = 0; j < model.N(); ++j)
            for (int k = 0; k < model.N(); ++k)
                if (!supports(model, j, k))
                    for (int r = 0; r < model.bodies[j].joint.nv(); ++r)
                        ASSERT_EQ(Y.block(model.bodies[j].v_index + r, kInertialParameters * k, 1, kInertialParameters).norm(), 0.0)
                            << model.bodies[j].joint_name << " / " << model.bodies[k].name;
    }
}

INSTANTIATE_TEST_SUITE_P(AllModels, Regressor, ::testing::ValuesIn(test::all_models()), test::case_name);

TEST(GeneratedRegressor, FloatingHumanoidTimesTheParametersIsRnea) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    const VecX<double> pi = parameters(model);
    std::mt19937_64 rng(13);
    for (int s = 0; s < 100; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        std::vector<double> Y(regressor_humanoid::regressor_Y_size);
        regressor_humanoid::regressor(x.q.data(), x.qd.data(), x.qdd.data(), x.gravity.data(), Y.data());
        VecX<double> tau(model.nv);
        regressor_humanoid::rnea(x.q.data(), x.qd.data(), x.qdd.data(), x.gravity.data(), tau.data());
        const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Ym(Y.data(), model.nv, pi.size());
        EXPECT_LT(test::rel_err(Ym * pi, tau), 1e-10) << "state " << s;
        EXPECT_LT(test::rel_err(Ym * pi, rnea<double>(model, x.q, x.qd, x.qdd, x.gravity)), 1e-10) << "state " << s;
    }
}

}  // namespace
