#include "model/frames.hpp"

#include <cmath>
#include <optional>

#include "model/snap.hpp"
#include "spatial/spatial.hpp"

namespace rbdgen {
namespace {

using V3 = Vec3<double>;
using M3 = Mat3<double>;
using X = Transform<double>;

bool one_dof(const Body& b) { return b.joint.one_dof(); }

// Tolerances of the frame choice, all far below any physical length or angle (unit directions and
// rotation entries are O(1); lengths in metres):
constexpr double kParallel = 1e-12;     // 1 − (d₁·d₂)² below this: the axes are parallel
constexpr double kZeroNormal = 1e-12;   // a common normal shorter than this: the axes meet
constexpr double kCoincident = 1e-9;    // |d₁ × d₂| below this: the axes coincide
constexpr double kRoundoff = 1e-14;     // rotation entries this close to 0 or ±1 are rounding residue
constexpr double kTrigRoundoff = 1e-15; // cos, sin of a chosen angle this close to 0 or ±1: exact
constexpr double kOffAxis = 1e-9;       // a centre of mass closer to the joint axis leaves x free
constexpr double kAxisAlongX = 1e-6;    // the old x axis nearly along the joint axis: use y instead
constexpr double kFormFits = 1e-9;      // a DH or screw form that rebuilds X_tree this closely is taken

double snap(double v, double tol) { return snapped_to_exact(v, tol); }

// Closest points of the lines p1 + t d1 and p2 + s d2 (unit directions). Returns the foot on line 1
// and the unit direction x from line 1 towards line 2 (perpendicular to both).
struct CommonNormal {
    V3 foot;
    V3 x;
};
CommonNormal common_normal(const V3& p1, const V3& d1, const V3& p2, const V3& d2) {
    const double b = d1.dot(d2);
    const V3 w = p1 - p2;
    double t;
    if (1 - b * b < kParallel) {
        t = d1.dot(p2 - p1);  // parallel: the foot level with p2
    } else {
        t = (b * d2.dot(w) - d1.dot(w)) / (1 - b * b);
    }
    const V3 foot = p1 + t * d1;
    const double s = d2.dot(foot - p2);
    V3 n = p2 + s * d2 - foot;
    n -= n.dot(d1) * d1;
    if (n.norm() > kZeroNormal) return {foot, n.normalized()};
    V3 x = d1.cross(d2);  // intersecting
    if (x.norm() > kCoincident) return {foot, x.normalized()};
    x = d1.cross(std::abs(d1.x()) < 0.9 ? V3::UnitX() : V3::UnitY());  // coincident
    return {foot, x.normalized()};
}

// Featherstone's DH transform ʲX_p = rz(θ) xlt(d ẑ) rx(α) xlt(a x̂), read off a transform that has
// that form up to rounding, and rebuilt with exact zeros. θ is returned apart (a joint offset).
struct DH {
    double a, alpha_c, alpha_s, d, theta;
};
DH dh_parameters(const X& Xp) {
    const V3 z = Xp.E.row(2).transpose();  // z_j in parent coordinates: (0, −sin α, cos α)
    const double h = std::hypot(z.y(), z.z());
    DH p;
    p.alpha_c = snap(z.z() / h, kRoundoff);
    p.alpha_s = snap(-z.y() / h, kRoundoff);
    p.a = Xp.r.x();
    p.d = Xp.r.dot(z);
    const V3 x = Xp.E.row(0).transpose();
    p.theta = std::atan2(x.dot(V3(0, p.alpha_c, p.alpha_s)), x.x());
    return p;
}
// Featherstone's non-DH node as three axial screws, ʲX_p = rz(θ) xlt(d ẑ) rx(α) xlt(a x̂) rz(θ₀) xlt(d₀ ẑ):
// the DH transform to the joint axis from the parent's x axis turned by θ₀ about, and moved d₀ along,
// the parent's z axis. With E = rz(θ) rx(α) rz(θ₀), E's column z is (sin α sin θ, sin α cos θ, cos α)
// and its row z is (sin α sin θ₀, −sin α cos θ₀, cos α). θ is returned apart (a joint offset).
struct Screws {
    double theta, d, alpha_c, alpha_s, a, theta0, d0;
};
Screws screw_parameters(const X& Xp) {
    const M3& E = Xp.E;
    const V3& r = Xp.r;  // = a (cos θ₀, sin θ₀, 0) + d (row z of rx(α) rz(θ₀)) + d₀ ẑ
    Screws p;
    p.alpha_c = snap(E(2, 2), kRoundoff);
    p.alpha_s = snap(std::hypot(E(0, 2), E(1, 2)), kRoundoff);
    if (p.alpha_s != 0) {
        const double h = std::hypot(p.alpha_c, p.alpha_s);
        p.alpha_c /= h, p.alpha_s /= h;
        p.theta = std::atan2(E(0, 2), E(1, 2));
        p.theta0 = std::atan2(E(2, 0), -E(2, 1));
        const double c0 = std::cos(p.theta0), s0 = std::sin(p.theta0);
        p.a = r.x() * c0 + r.y() * s0;
        p.d = (r.x() * s0 - r.y() * c0) / p.alpha_s;
        p.d0 = r.z() - p.d * p.alpha_c;
    } else {  // parallel axes: the common normal is any; take the one through the parent's origin
        p.alpha_c = p.alpha_c < 0 ? -1 : 1;
        p.theta0 = std::atan2(r.y(), r.x());
        p.a = std::hypot(r.x(), r.y());
        p.d = 0;
        p.d0 = r.z();
        const double c0 = std::cos(p.theta0), s0 = std::sin(p.theta0);
        const M3 Ez = E * (M3() << c0, -s0, 0, s0, c0, 0, 0, 0, 1).finished() *  // E rz(θ₀)ᵀ rx(α)ᵀ = rz(θ)
                      (M3() << 1, 0, 0, 0, p.alpha_c, 0, 0, 0, p.alpha_c).finished();
        p.theta = std::atan2(Ez(0, 1), Ez(0, 0));
    }
    return p;
}

X rx(double c, double s) {
    X t;
    t.E << 1, 0, 0, 0, c, s, 0, -s, c;
    return t;
}
X rz(double theta) {
    const double c = snap(std::cos(theta), kTrigRoundoff), s = snap(std::sin(theta), kTrigRoundoff);
    X t;
    t.E << c, s, 0, -s, c, 0, 0, 0, 1;
    return t;
}
X xlt(const V3& r) { return {M3::Identity(), r}; }

// X_tree = xlt(d ẑ) rx(α) xlt(a x̂) rz(θ₀) xlt(d₀ ẑ), read off X_tree: E = rx(α) rz(θ₀) exactly when
// E₀₂ = 0, and then r = a (cos θ₀, sin θ₀, 0) + d (row z of E) + d₀ ẑ. Read once, here, from the
// transform as stored (so that the screws rebuild it to rounding), and kept in the body.
std::optional<TreeScrews> read_screws(const X& Xt) {
    const M3& E = Xt.E;
    const V3& r = Xt.r;
    if (E(0, 2) != 0) return std::nullopt;
    TreeScrews t;
    t.c0 = E(0, 0), t.s0 = E(0, 1), t.c_alpha = E(2, 2), t.s_alpha = E(1, 2);
    t.a = r.x() * t.c0 + r.y() * t.s0;
    t.d = t.s_alpha == 0 ? 0.0 : (r.x() * t.s0 - r.y() * t.c0) / t.s_alpha;
    t.d0 = r.z() - t.d * t.c_alpha;
    const V3 rebuilt(t.a * t.c0 + t.d * E(2, 0), t.a * t.s0 + t.d * E(2, 1), t.d0 + t.d * E(2, 2));
    if ((r - rebuilt).cwiseAbs().maxCoeff() > kRoundoff * std::max(1.0, r.norm())) return std::nullopt;
    return t;
}

bool near(const X& a, const X& b, double tol) {
    return (a.E - b.E).cwiseAbs().maxCoeff() < tol && (a.r - b.r).cwiseAbs().maxCoeff() < tol * std::max(1.0, b.r.norm());
}

}  // namespace

FrameChoice choose_internal_frames(const Model& model) {
    const int N = model.N();
    std::vector<int> subtree(N, 1), dh_child(N, -1);
    for (int i = N - 1; i >= 0; --i)
        if (model.bodies[i].lambda >= 0) subtree[model.bodies[i].lambda] += subtree[i];
    for (int i = 0; i < N; ++i) {  // the DH child of a body: its 1-DoF child with the largest subtree
        const int p = model.bodies[i].lambda;
        if (p >= 0 && one_dof(model.bodies[p]) && one_dof(model.bodies[i]) &&
            (dh_child[p] < 0 || subtree[i] > subtree[dh_child[p]]))
            dh_child[p] = i;
    }

    // T_j = ᴺX_O: the new frame N_j of each body from its URDF frame O_j (rotation columns x, y, z
    // of N_j in O_j coordinates, origin o_j in O_j coordinates).
    std::vector<X> T(N);
    std::vector<bool> x_at_com(N, false);  // x_j chosen towards the centre of mass: h_y = 0
    std::vector<M3> R(N, M3::Identity());
    for (int j = 0; j < N; ++j) {
        const Body& b = model.bodies[j];
        if (!one_dof(b)) continue;  // the floating base keeps its URDF frame: its velocity is an input
        const V3 a = b.joint.axis;
        const int p = b.lambda;
        CommonNormal cn{V3::Zero(), V3::Zero()};
        if (dh_child[j] >= 0) {  // x_j along the common normal towards the DH child's axis
            const Body& c = model.bodies[dh_child[j]];
            cn = common_normal(V3::Zero(), a, c.X_tree.r, c.X_tree.E.transpose() * c.joint.axis);
        } else if (p >= 0 && one_dof(model.bodies[p])) {
            // A leaf: its origin at the foot of the common normal from the parent's axis, so that
            // d = 0 when the leaf is its parent's DH child; x_j along that normal, unless turned
            // towards the centre of mass below.
            const X& Xt = b.X_tree;  // ʲX_p (URDF frames)
            const V3 p_axis = Xt.E * model.bodies[p].joint.axis;
            const V3 p_point = -(Xt.E * Xt.r);  // the parent's origin, on its axis
            cn = common_normal(V3::Zero(), a, p_point, p_axis);
            const CommonNormal back = common_normal(p_point, p_axis, V3::Zero(), a);
            cn.x = back.x;  // pointing away from the parent's axis
            // Its θ is free (a joint offset): x_j towards the centre of mass, so that h_y = 0.
            if (b.I.m > 0) {
                const V3 c = b.I.h / b.I.m - cn.foot;
                const V3 c_perp = c - c.dot(a) * a;
                if (c_perp.norm() > kOffAxis) cn.x = c_perp.normalized(), x_at_com[j] = true;
            }
        } else {
            const V3 old_x = V3::UnitX() - a.x() * a;
            cn.x = (old_x.norm() > kAxisAlongX ? old_x : V3(V3::UnitY() - a.y() * a)).normalized();
        }
        R[j].col(0) = cn.x;
        R[j].col(2) = a;
        R[j].col(1) = a.cross(cn.x);
        T[j] = {R[j].transpose(), cn.foot};
    }

    FrameChoice choice;
    choice.model = model;
    for (int j = 0; j < N; ++j) {
        Body& b = choice.model.bodies[j];
        const int p = b.lambda;
        X Xn = T[j] * model.bodies[j].X_tree * (p >= 0 ? T[p].inverse() : X());
        bool form = false;  // a DH or three-screw form fits X_tree
        if (one_dof(b)) {
            if (p >= 0 && dh_child[p] == j) {
                const DH dh = dh_parameters(Xn);
                const X rebuilt = xlt(V3(0, 0, dh.d)) * rx(dh.alpha_c, dh.alpha_s) * xlt(V3(dh.a, 0, 0));
                if (near(rz(dh.theta) * rebuilt, Xn, kFormFits)) {
                    ++choice.dh_transforms;
                    form = true;
                    if (b.joint.type == JointType::Revolute) {
                        b.joint.offset += dh.theta;
                        Xn = rebuilt;
                    } else {
                        Xn = rz(dh.theta) * rebuilt;
                    }
                }
            }
            if (b.joint.type == JointType::Revolute && Xn.E(0, 2) != 0) {
                const Screws sc = screw_parameters(Xn);
                const X rebuilt = xlt(V3(0, 0, sc.d)) * rx(sc.alpha_c, sc.alpha_s) * xlt(V3(sc.a, 0, 0)) *
                                  rz(sc.theta0) * xlt(V3(0, 0, sc.d0));
                if (near(rz(sc.theta) * rebuilt, Xn, kFormFits)) {
                    form = true;
                    b.joint.offset += sc.theta;
                    Xn = rebuilt;
                }
            }
            b.joint.axis = V3::UnitZ();
        }
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) Xn.E(r, c) = snap(Xn.E(r, c), kRoundoff);
        for (int r = 0; r < 3; ++r)
            if (std::abs(Xn.r[r]) < kTrigRoundoff) Xn.r[r] = 0;
        b.X_tree = Xn;
        if (one_dof(b)) {
            b.screws = read_screws(Xn);
            if (!b.screws)
                b.general_transform =
                    b.joint.type == JointType::Prismatic
                        ? (form ? "a prismatic joint: its DH rotation about the axis cannot become a joint offset"
                                : "a prismatic joint whose placement is no DH transform (three screws are tried for "
                                  "revolute joints only)")
                        : form ? "its three screws do not rebuild the placement to rounding"
                               : "its placement has no DH or three-screw form within 1e-9";
        }
        b.I = model.bodies[j].I.expressed_in_parent(T[j].inverse());  // in N_j: ᴼX_N = T⁻¹
        if (x_at_com[j]) b.I.h.y() = 0;  // its rounding residue (|h_y| ~ 1e-17 |h|)
        b.X_urdf = model.bodies[j].X_urdf * T[j].inverse();  // ᵁX_N = ᵁX_O ᴼX_N
    }
    return choice;
}

}  // namespace rbdgen
