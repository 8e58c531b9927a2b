#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "model/urdf_loader.hpp"
#include "peers.hpp"

namespace rbdgen::bench {

Peer reference_peer(const std::string& urdf, bool floating_base) {
    auto model = std::make_shared<Model>(load_urdf(urdf, {.floating_base = floating_base}));
    using V = Eigen::Map<const VecX<double>>;
    Peer p{"reference", {}, {}, {}, {}};
    p.rnea = [model](const double* q, const double* qd, const double* qdd, const double* g, double* out) {
        const int nq = model->nq, nv = model->nv;
        Eigen::Map<VecX<double>>(out, nv) = rnea<double>(*model, V(q, nq), V(qd, nv), V(qdd, nv), Vec3<double>(g));
    };
    p.crba = [model](const double* q, const double*, const double*, const double*, double* out) {
        Eigen::Map<MatX<double>>(out, model->nv, model->nv) = crba<double>(*model, V(q, model->nq));
    };
    p.fd_crba_ltdl = [model](const double* q, const double* qd, const double* tau, const double* g, double* out) {
        const int nq = model->nq, nv = model->nv;
        Eigen::Map<VecX<double>>(out, nv) = fd_crba_ltdl<double>(*model, V(q, nq), V(qd, nv), V(tau, nv), Vec3<double>(g));
    };
    p.aba = [model](const double* q, const double* qd, const double* tau, const double* g, double* out) {
        const int nq = model->nq, nv = model->nv;
        Eigen::Map<VecX<double>>(out, nv) = aba<double>(*model, V(q, nq), V(qd, nv), V(tau, nv), Vec3<double>(g));
    };
    return p;
}

}  // namespace rbdgen::bench
