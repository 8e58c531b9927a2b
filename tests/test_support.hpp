// Shared by the tests: the model list, random states, and running the rbdgen command.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "model/load_model.hpp"
#include "model/urdf_loader.hpp"
#include "temp_file.hpp"

namespace rbdgen::test {

struct ModelCase {
    std::string path;
    bool floating_base;
    std::string label() const { return std::filesystem::path(path).stem().string() + (floating_base ? "_floating" : ""); }
};

inline std::string project_model(const std::string& name) { return std::string(RBDGEN_SOURCE_DIR) + "/models/" + name; }
inline std::string shared_model(const std::string& name) { return std::string(RBDGEN_SHARED_MODELS) + "/" + name; }
inline bool shared_models_present() { return std::filesystem::exists(RBDGEN_SHARED_MODELS); }

// Every model, fixed-base and, where it is meant to float, on a floating base. In the sanitized
// build (RBDGEN_SANITIZED_MODELS), one model a shape, the tests' code and the reference algorithms
// being the same on every model, and each of them 5 to 40 times slower under ASan + UBSan: a chain
// (arm7), a branched floating robot (the quadruped), an MJCF robot of free and ball joints and bodies
// of several joints (forms_degree), an SDFormat one with a universal joint (nested_arm), and a real
// robot of merged fixed joints (ur5). The main build runs every model (docs/testing.md).
inline std::vector<ModelCase> all_models() {
    std::vector<ModelCase> cases;
#ifdef RBDGEN_SANITIZED_MODELS
    cases = {{project_model("arm7.urdf"), false}, {project_model("quadruped.urdf"), true}, {project_model("mjcf/forms_degree.xml"), false},
             {project_model("sdf/nested_arm.sdf"), false}};
    if (shared_models_present()) cases.push_back({shared_model("ur5.urdf"), false});
    return cases;
#endif
    for (const char* m : {"arm7.urdf", "dualarm.urdf", "planar.urdf"}) cases.push_back({project_model(m), false});
    for (const char* m : {"quadruped.urdf", "humanoid30.urdf", "arm7.urdf"}) cases.push_back({project_model(m), true});
    // MJCF: a floating base, bodies of several joints, joint anchors and ref, armature (forms_degree),
    // and a fixed base of unnamed joints, one a slide with a ref (forms_radian)
    for (const char* m : {"mjcf/forms_degree.xml", "mjcf/forms_radian.xml"}) cases.push_back({project_model(m), false});
    // SDFormat: a nested model, relative_to poses, a universal joint, Drake's rotor inertia
    cases.push_back({project_model("sdf/nested_arm.sdf"), false});
    if (shared_models_present()) {
        for (const char* m : {"ur5.urdf", "panda.urdf", "allegro_right_hand.urdf", "baxter.urdf", "solo12.urdf"})
            cases.push_back({shared_model(m), false});
        for (const char* m : {"solo12.urdf", "talos_reduced.urdf", "talos_full_v2.urdf"})
            cases.push_back({shared_model(m), true});
        cases.push_back({shared_model("sdf/pioneer2dx.sdf"), true});  // the makers' SDFormat, floating as in Gazebo
    }
    return cases;
}

// How many random states a test of the numbers draws: n in the main build, at most 3 in the sanitized
// one, where each state runs the same code as the next (the sanitizers check that code; the numbers are
// checked at every state in the main build). test_contact_derivatives' 20 states of central differences
// took 41 s there.
constexpr int states(int n) {
#ifdef RBDGEN_SANITIZED_MODELS
    return n < 3 ? n : 3;
#else
    return n;
#endif
}

inline Model load(const ModelCase& c) { return load_model(c.path, {c.floating_base}); }
// A URDF (urdfdom and MuJoCo's URDF reader read it too), not an MJCF or SDFormat file.
inline bool is_urdf(const ModelCase& c) { return std::filesystem::path(c.path).extension() == ".urdf"; }

inline void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.label(); }

// A GoogleTest name for a parameterized test over models.
inline std::string case_name(const ::testing::TestParamInfo<ModelCase>& info) {
    std::string name = info.param.label();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

// A fixture over every model (all_models()), skipping the real robots where they are absent.
class ModelTest : public ::testing::TestWithParam<ModelCase> {
protected:
    void SetUp() override {
        if (GetParam().path.find(RBDGEN_SHARED_MODELS) == 0 && !shared_models_present())
            GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): real robot models not tested";
        model = load(GetParam());
    }
    Model model;
};

#define RBDGEN_SKIP_IF_NO_SHARED_MODELS()                                                                  \
    if (!rbdgen::test::shared_models_present())                                                           \
    GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): real robot models not tested"


struct RandomState {
    VecX<double> q, qd, qdd, tau;
    Vec3<double> gravity;
};

// Uniform random joint state; a floating base gets a random position and unit quaternion.
inline RandomState random_state(const Model& model, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    RandomState s;
    s.q.resize(model.nq);
    for (int k = 0; k < model.nq; ++k) s.q[k] = 3.0 * u(rng);
    normalize_quaternions(model, s.q.data());
    s.qd = VecX<double>::NullaryExpr(model.nv, [&] { return 2.0 * u(rng); });
    s.qdd = VecX<double>::NullaryExpr(model.nv, [&] { return 5.0 * u(rng); });
    s.tau = VecX<double>::NullaryExpr(model.nv, [&] { return 20.0 * u(rng); });
    s.gravity = Vec3<double>(u(rng), u(rng), -9.81 + u(rng));
    return s;
}

// The unit quaternion (x, y, z, w) of q's floating joint at `at`, and R (body to world).
inline Eigen::Quaterniond quaternion(const VecX<double>& q, int at) { return {q[at + 6], q[at + 3], q[at + 4], q[at + 5]}; }
// The unit quaternion (x, y, z, w) of body b's joint (floating or ball).
inline Eigen::Quaterniond quaternion(const VecX<double>& q, const Body& b) {
    const int at = b.q_index + b.joint.quaternion_at();
    return {q[at + 3], q[at], q[at + 1], q[at + 2]};
}

// q ⊕ δ: a 1-DoF joint's coordinate plus δ; a floating joint's rotation R exp(δω), position p + R δv;
// a ball joint's rotation R exp(δω).
inline VecX<double> plus(const Model& m, VecX<double> q, const VecX<double>& delta) {
    for (const Body& b : m.bodies) {
        const int iq = b.q_index, iv = b.v_index;
        if (b.joint.one_dof()) {
            q[iq] += delta[iv];
            continue;
        }
        const Eigen::Quaterniond Q = quaternion(q, b);
        const Vec3<double> w = delta.segment<3>(iv);
        const Eigen::Quaterniond step = w.norm() == 0 ? Eigen::Quaterniond::Identity()
                                                      : Eigen::Quaterniond(Eigen::AngleAxisd(w.norm(), w.normalized()));
        if (b.joint.type == JointType::Floating) q.segment<3>(iq) += Q.toRotationMatrix() * delta.segment<3>(iv + 3);
        const Eigen::Quaterniond R = Q * step;
        q.segment<4>(iq + b.joint.quaternion_at()) << R.x(), R.y(), R.z(), R.w();
    }
    return q;
}

// dq/dδ at δ = 0 (NQ x NV): the tangent directions as changes of q.
inline MatX<double> tangent_basis(const Model& m, const VecX<double>& q) {
    MatX<double> T = MatX<double>::Zero(m.nq, m.nv);
    for (const Body& b : m.bodies) {
        const int iq = b.q_index, iv = b.v_index;
        if (b.joint.one_dof()) {
            T(iq, iv) = 1;
            continue;
        }
        const Eigen::Quaterniond Q = quaternion(q, b);
        if (b.joint.type == JointType::Floating) T.block<3, 3>(iq, iv + 3) = Q.toRotationMatrix();
        for (int k = 0; k < 3; ++k) {  // d(Q ⊗ (δω / 2, 1)) / dδω_k = Q ⊗ (e_k / 2, 0)
            const Eigen::Quaterniond e(0, 0.5 * (k == 0), 0.5 * (k == 1), 0.5 * (k == 2));
            const Eigen::Quaterniond d = Q * e;
            T.block<4, 1>(iq + b.joint.quaternion_at(), iv + k) << d.x(), d.y(), d.z(), d.w();
        }
    }
    return T;
}

// Central differences of f along each tangent direction of q, and along each coordinate of x: the
// five-point stencil (f(−2h) − 8 f(−h) + 8 f(h) − f(2h)) / 12h, h = 1e-3 unless given, whose O(h⁴)
// truncation stays below 1e-6 where H is ill-conditioned (the allegro hand's light fingers, talos's
// grippers) and the three-point stencil's O(h²) does not (9e-6 seen there).
template <class F> VecX<double> stencil(const F& f_at, double h = 1e-3) {
    return (f_at(-2 * h) - 8 * f_at(-h) + 8 * f_at(h) - f_at(2 * h)) / (12 * h);
}
template <class F> MatX<double> central_dq(const Model& m, const VecX<double>& q, const F& f, double h = 1e-3) {
    MatX<double> J(f(q).size(), m.nv);
    for (int k = 0; k < m.nv; ++k)
        J.col(k) = stencil([&](double t) { return f(plus(m, q, VecX<double>::Unit(m.nv, k) * t)); }, h);
    return J;
}
template <class F> MatX<double> central(const VecX<double>& x, const F& f, double h = 1e-3) {
    MatX<double> J(f(x).size(), x.size());
    for (int k = 0; k < x.size(); ++k)
        J.col(k) = stencil([&](double t) { return f(VecX<double>(x + VecX<double>::Unit(x.size(), k) * t)); }, h);
    return J;
}

// ‖a − b‖∞ / max(1, ‖b‖∞)
inline double rel_err(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

struct CommandResult {
    int status;
    std::string out;  // stdout and stderr together
};

// Runs a shell command; its stdout and stderr together, and its exit status (−1 if it did not exit).
inline CommandResult shell(const std::string& command) {
    const std::string cmd = command + " 2>&1";
    CommandResult r{0, ""};
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// Runs the rbdgen command with `args`.
inline CommandResult run(const std::string& args) { return shell(std::string(RBDGEN_EXE) + " " + args); }


}  // namespace rbdgen::test
