// Each kernel is a reference algorithm run on the symbolic scalar: its inputs are named arrays, its
// outputs the expressions it returns. Nothing here computes dynamics; it only wires algorithms to
// arrays.
#include <functional>
#include <map>

#include "algorithms/aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "model/error.hpp"
#include "model/topology.hpp"

namespace rbdgen {
namespace {

using sym::Expr;
using E = Expr;

VecX<E> input_vector(Kernel& k, const std::string& name, int size, const std::string& doc) {
    k.inputs.push_back({name, size, doc});
    VecX<E> x(size);
    for (int i = 0; i < size; ++i) x[i] = Expr::input(name + "[" + std::to_string(i) + "]");
    return x;
}

void set_output(Kernel& k, const std::string& name, const std::string& doc, const std::vector<E>& values) {
    k.output = {name, static_cast<int>(values.size()), doc};
    for (const E& v : values) k.output_nodes.push_back(v.id());
}
std::vector<E> elements(const VecX<E>& x) { return {x.data(), x.data() + x.size()}; }
std::vector<E> row_major(const MatX<E>& m) {
    std::vector<E> v;
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) v.push_back(m(r, c));
    return v;
}

const char* kQ = "joint positions (a floating base: position, then quaternion x, y, z, w)";
const char* kV = "joint velocities (a floating base: [angular; linear] in base coordinates)";

using Tracer = std::function<void(const Model&, Kernel&)>;

const std::map<std::string, std::pair<std::string, Tracer>>& tracers() {
    static const std::map<std::string, std::pair<std::string, Tracer>> t = {
        {"fk",
         {"Poses of every body's URDF link frame in the world frame: rotation R (row-major 3x3, body to world) then position p.",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              const VecX<E> zero = VecX<E>::Zero(m.nv);
              const Kinematics<E> kin = forward_kinematics<E>(m, q, zero, zero);
              std::vector<E> out;
              for (int i = 0; i < m.N(); ++i) {
                  const Transform<E> X_0 = m.bodies[i].X_urdf.cast<E>() * kin.X_0[i];  // the URDF frame's
                  const Mat3<E> R = X_0.E.transpose();
                  for (int r = 0; r < 3; ++r)
                      for (int c = 0; c < 3; ++c) out.push_back(R(r, c));
                  for (int r = 0; r < 3; ++r) out.push_back(X_0.r[r]);
              }
              set_output(k, "pose", "12 per body: R row-major, then p", out);
          }}},
        {"rnea",
         {"Inverse dynamics by the recursive Newton-Euler algorithm: tau = ID(q, qd, qdd).",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              const VecX<E> qd = input_vector(k, "qd", m.nv, kV);
              const VecX<E> qdd = input_vector(k, "qdd", m.nv, "joint accelerations");
              const VecX<E> g = input_vector(k, "gravity", 3, "gravity in the world frame");
              set_output(k, "tau", "joint forces", elements(rnea<E>(m, q, qd, qdd, g)));
          }}},
        {"gravity",
         {"Gravity vector g(q) = ID(q, 0, 0).",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              const VecX<E> g = input_vector(k, "gravity", 3, "gravity in the world frame");
              set_output(k, "g", "generalized gravity forces", elements(gravity_vector<E>(m, q, g)));
          }}},
        {"crba",
         {"Joint-space inertia matrix H(q) by the composite-rigid-body algorithm (row-major NV x NV).",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              set_output(k, "H", "joint-space inertia matrix, row-major", row_major(crba<E>(m, q)));
          }}},
        {"ltdl",
         {"Sparse LTDL factorization H = L^T D L (Featherstone App. A): LD holds L below the diagonal "
          "and D on it (row-major NV x NV, zero above). Reads only H's lower triangle.",
          [](const Model& m, Kernel& k) {
              const VecX<E> h = input_vector(k, "H", m.nv * m.nv, "joint-space inertia matrix, row-major");
              MatX<E> H(m.nv, m.nv);
              for (int r = 0; r < m.nv; ++r)
                  for (int c = 0; c < m.nv; ++c) H(r, c) = c <= r ? h[r * m.nv + c] : E(0.0);
              ltdl<E>(H, expanded_parent(m));
              set_output(k, "LD", "L (unit diagonal implied) and D, row-major", row_major(H.triangularView<Eigen::Lower>().toDenseMatrix()));
          }}},
        {"ltdl_solve",
         {"One back-substitution with the LTDL factors: x = H^-1 b = L^-1 D^-1 L^-T b.",
          [](const Model& m, Kernel& k) {
              const VecX<E> ld = input_vector(k, "LD", m.nv * m.nv, "output of ltdl");
              const VecX<E> b = input_vector(k, "b", m.nv, "right-hand side");
              MatX<E> LD(m.nv, m.nv);
              for (int r = 0; r < m.nv; ++r)
                  for (int c = 0; c < m.nv; ++c) LD(r, c) = ld[r * m.nv + c];
              set_output(k, "x", "solution", elements(ltdl_solve<E>(LD, expanded_parent(m), b)));
          }}},
        {"fd_crba_ltdl",
         {"Forward dynamics by CRBA + sparse LTDL + solve: qdd = H^-1 (tau - C).",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              const VecX<E> qd = input_vector(k, "qd", m.nv, kV);
              const VecX<E> tau = input_vector(k, "tau", m.nv, "joint forces");
              const VecX<E> g = input_vector(k, "gravity", 3, "gravity in the world frame");
              set_output(k, "qdd", "joint accelerations", elements(fd_crba_ltdl<E>(m, q, qd, tau, g)));
          }}},
        {"aba",
         {"Forward dynamics by the articulated-body algorithm: qdd = FD(q, qd, tau).",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              const VecX<E> qd = input_vector(k, "qd", m.nv, kV);
              const VecX<E> tau = input_vector(k, "tau", m.nv, "joint forces");
              const VecX<E> g = input_vector(k, "gravity", 3, "gravity in the world frame");
              set_output(k, "qdd", "joint accelerations", elements(aba<E>(m, q, qd, tau, g)));
          }}},
        {"jacobians",
         {"Spatial Jacobian J (6 x NV, row-major) in world coordinates: column k is the motion axis of joint "
          "variable k in the world frame; body i's velocity in world coordinates is J qd over the joints that support i.",
          [](const Model& m, Kernel& k) {
              const VecX<E> q = input_vector(k, "q", m.nq, kQ);
              set_output(k, "J", "6 x NV, row-major, [angular; linear] about the world origin", row_major(spatial_jacobian<E>(m, q)));
          }}},
    };
    return t;
}

}  // namespace

const std::vector<std::string>& kernel_names() {
    static const std::vector<std::string> names = {"fk", "rnea", "gravity", "crba", "ltdl",
                                                   "ltdl_solve", "fd_crba_ltdl", "aba", "jacobians"};
    return names;
}

Kernel trace_kernel(const Model& model, const std::string& name, int max_nodes) {
    const auto it = tracers().find(name);
    if (it == tracers().end()) {
        std::string list;
        for (const std::string& n : kernel_names()) list += (list.empty() ? "" : ", ") + n;
        throw Error("unknown kernel '" + name + "'; the kernels are " + list);
    }
    Kernel k;
    k.name = name;
    k.doc = it->second.first;
    k.graph->max_nodes = max_nodes;
    sym::Tracing tracing(*k.graph);
    it->second.second(model, k);
    return k;
}

}  // namespace rbdgen
