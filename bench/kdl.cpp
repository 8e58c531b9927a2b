// KDL's solvers, built with Debian's flags (no -march=native: Eigen objects cross KDL's API).
#include <kdl/chaindynparam.hpp>
#include <kdl/chainfdsolver_recursive_newton_euler.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include "kdl_chain.hpp"
#include "peers.hpp"

namespace rbdgen::bench {

namespace {
struct Kdl {
    KDL::Chain chain;
    int n;
    KDL::JntArray q, qd, x, out;
    KDL::Wrenches f;
    KDL::JntSpaceInertiaMatrix H;
    KDL::Vector gravity{0, 0, -9.81};
    std::unique_ptr<KDL::ChainIdSolver_RNE> id;
    std::unique_ptr<KDL::ChainDynParam> dyn;
    std::unique_ptr<KDL::ChainFdSolver_RNE> fd;
    explicit Kdl(const std::string& urdf)
        : chain(test::kdl_chain(urdf)), n(chain.getNrOfJoints()), q(n), qd(n), x(n), out(n),
          f(chain.getNrOfSegments(), KDL::Wrench::Zero()), H(n),
          id(new KDL::ChainIdSolver_RNE(chain, gravity)), dyn(new KDL::ChainDynParam(chain, gravity)),
          fd(new KDL::ChainFdSolver_RNE(chain, gravity)) {}
    void load(const double* a, const double* b, const double* c) {
        for (int i = 0; i < n; ++i) q(i) = a[i], qd(i) = b[i], x(i) = c ? c[i] : 0.0;
    }
};
}  // namespace

Peer kdl_peer(const std::string& urdf) {
    auto k = std::make_shared<Kdl>(urdf);
    Peer p{"kdl", {}, {}, {}, {}};
    p.rnea = [k](const double* q, const double* qd, const double* qdd, const double*, double* out) {
        k->load(q, qd, qdd);
        k->id->CartToJnt(k->q, k->qd, k->x, k->f, k->out);
        for (int i = 0; i < k->n; ++i) out[i] = k->out(i);
    };
    p.crba = [k](const double* q, const double*, const double*, const double*, double* out) {
        k->load(q, q, nullptr);
        k->dyn->JntToMass(k->q, k->H);
        for (int i = 0; i < k->n * k->n; ++i) out[i] = k->H.data.data()[i];
    };
    p.aba = [k](const double* q, const double* qd, const double* tau, const double*, double* out) {
        k->load(q, qd, tau);
        k->fd->CartToJnt(k->q, k->qd, k->x, k->f, k->out);
        for (int i = 0; i < k->n; ++i) out[i] = k->out(i);
    };
    return p;
}

}  // namespace rbdgen::bench
