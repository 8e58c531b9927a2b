// RNEA and H against KDL (Debian's orocos-kdl), an implementation that shares nothing with ours, on
// every serial chain. The KDL chain is built here straight from urdfdom, as kdl_parser does.
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <fstream>
#include <sstream>

#include "algorithms/crba.hpp"
#include "algorithms/rnea.hpp"
#include "kdl_chain.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

void compare_with_kdl(const std::string& path) {
    const Model model = load_urdf(path);
    const KDL::Chain chain = test::kdl_chain(path);
    ASSERT_EQ(static_cast<int>(chain.getNrOfJoints()), model.nv);
    std::mt19937_64 rng(777);
    const int n = model.nv;
    double worst_tau = 0, worst_H = 0;
    for (int s = 0; s < 300; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const KDL::Vector g(x.gravity.x(), x.gravity.y(), x.gravity.z());
        KDL::JntArray q(n), qd(n), qdd(n), tau(n);
        for (int i = 0; i < n; ++i) q(i) = x.q[i], qd(i) = x.qd[i], qdd(i) = x.qdd[i];
        KDL::ChainIdSolver_RNE id(chain, g);
        KDL::Wrenches f(chain.getNrOfSegments(), KDL::Wrench::Zero());
        ASSERT_GE(id.CartToJnt(q, qd, qdd, f, tau), 0);
        KDL::ChainDynParam dyn(chain, g);
        KDL::JntSpaceInertiaMatrix H(n);
        ASSERT_GE(dyn.JntToMass(q, H), 0);
        worst_tau = std::max(worst_tau, test::rel_err(rnea<double>(model, x.q, x.qd, x.qdd, x.gravity), tau.data));
        worst_H = std::max(worst_H, test::rel_err(crba<double>(model, x.q), H.data));
    }
    EXPECT_LT(worst_tau, 1e-9);
    EXPECT_LT(worst_H, 1e-9);
    std::cout << path << ": worst relative error vs KDL: tau " << worst_tau << ", H " << worst_H << "\n";
}

TEST(Kdl, ArmRneaAndJsim) { compare_with_kdl(test::project_model("arm7.urdf")); }

TEST(Kdl, Ur5RneaAndJsim) {
    RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    compare_with_kdl(test::shared_model("ur5.urdf"));
}

}  // namespace
}  // namespace rbdgen
