// The reference implementation in double, compiled once for all generated-robot tests (the
// algorithms are templates; instantiating them in every robot's test would multiply build time).
#pragma once

#include <vector>

#include "model/model.hpp"

namespace rbdgen::reference {

VecX<double> rnea(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd, const Vec3<double>& g);
VecX<double> gravity(const Model& m, const VecX<double>& q, const Vec3<double>& g);
MatX<double> crba(const Model& m, const VecX<double>& q);
MatX<double> ltdl(const Model& m, MatX<double> H);  // lower triangle: L and D
VecX<double> ltdl_solve(const Model& m, const MatX<double>& LD, const VecX<double>& b);
VecX<double> aba(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g);
VecX<double> fd_crba_ltdl(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau, const Vec3<double>& g);
std::vector<double> poses(const Model& m, const VecX<double>& q);  // 12 per body (URDF link frame): R row-major, p
MatX<double> spatial_jacobian(const Model& m, const VecX<double>& q);
// dtau/dq then dtau/dqd, row-major one after the other
std::vector<double> rnea_derivatives(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd,
                                     const Vec3<double>& g);
// dqdd/dq, dqdd/dqd, dqdd/dtau, row-major one after the other
std::vector<double> aba_derivatives(const Model& m, const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau,
                                    const Vec3<double>& g);

}  // namespace rbdgen::reference
