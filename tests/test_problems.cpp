// Problems declared in a problem file (sparse/problem_file.cpp) on Nori's system, Nori §VI: a
// floating humanoid standing on two feet. With four load cells a foot (eq. 18) the problem is
// ill-posed (Property 3, Remark 5) and refused, naming what the sensors cannot determine; on slippery
// feet (eq. 23) it is accepted and solved. The oracle is a simulation by RNEA: random q, q̇, q̈ and
// feet wrenches that leave the floating base unforced; the load cells' readings; the static-pivot
// LU's estimate of every joint torque and both feet's wrenches against the simulated ones.
#include <algorithm>

#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "model/error.hpp"
#include "emit/prepare.hpp"
#include "sparse/analysis.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

struct Humanoid {
    std::string urdf, left, right;  // the feet's links
    bool shared;
};
void PrintTo(const Humanoid& h, std::ostream* os) { *os << h.urdf; }
const Humanoid kHumanoid30{test::project_model("humanoid30.urdf"), "link006", "link012", false};
const Humanoid kTalos{test::shared_model("talos_full_v2.urdf"), "left_sole_link", "right_sole_link", true};

std::string sensors(const Humanoid& h, const std::string& type) {
    return "sensors:\n  left_cells: {type: " + type + ", link: " + h.left + "}\n  right_cells: {type: " + type +
           ", link: " + h.right + "}\nunknowns: [joint_forces, link_wrenches]\n";
}

class Problems : public ::testing::TestWithParam<Humanoid> {
protected:
    void SetUp() override {
        if (GetParam().shared && !test::shared_models_present())
            GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): talos not tested";
        // The generator's own model: internal frames, merged links (talos' soles) as frames.
        model = prepare_model(load_urdf(GetParam().urdf, {.floating_base = true})).model;
    }
    // A link's frame: its body and ᶠX_body.
    std::pair<int, Transform<double>> link(const std::string& name) const {
        for (const Frame& f : model.frames)
            if (f.name == name) return {f.body, f.X_body * model.bodies[f.body].X_urdf};
        ADD_FAILURE() << "no link " << name;
        return {0, {}};
    }
    Model model;
    std::mt19937_64 rng{7};
};

TEST_P(Problems, LoadCellsOnBothFeetAreIllPosed) {
    const test::TempFile file("load_cells.yaml", sensors(GetParam(), "load_cells"));
    try {
        analyze_problem(model, read_problem_file(model, file.str()));
        FAIL() << "the eq. (18) sensor set was accepted";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("ill-posed"), std::string::npos) << m;
        EXPECT_NE(m.find(file.str()), std::string::npos) << m;
        EXPECT_NE(m.find("fx[" + GetParam().left + "]"), std::string::npos) << m;  // a foot's wrench, in its frame
    }
}

TEST_P(Problems, SlipperyFeetAreSolved) {
    const Humanoid& h = GetParam();
    const test::TempFile file("slippery.yaml", sensors(h, "slippery_contact"));
    const Problem problem = read_problem_file(model, file.str());
    const ProblemAnalysis a = analyze_problem(model, problem);
    EXPECT_GE(a.states_checked, 10000);
    std::cout << model.name << " slippery feet: ordering " << a.ordering << ", D " << a.pattern.rows << " x " << a.pattern.cols
              << ", nnz " << a.pattern.nnz() << ", LU " << a.lu.nnz << " (fill " << a.lu.fill << ", tail " << a.lu.tail_rows()
              << " x " << a.lu.tail_cols() << "), min pivot " << a.min_pivot << ", singular states " << a.singular_states << "\n";
    const auto [left_body, X_left] = link(h.left);
    const auto [right_body, X_right] = link(h.right);
    // A foot's slippery wrench [n; f] in its frame: f_x = f_y = 0, the other four free.
    const int free_components[4] = {0, 1, 2, 5};
    auto f_ext_of = [&, left_body = left_body, X_left = X_left, right_body = right_body, X_right = X_right](const Eigen::Matrix<double, 8, 1>& w) {
        std::vector<Vec6<double>> f(model.N(), Vec6<double>::Zero());
        Vec6<double> l = Vec6<double>::Zero(), r = Vec6<double>::Zero();
        for (int k = 0; k < 4; ++k) l[free_components[k]] = w[k], r[free_components[k]] = w[4 + k];
        f[left_body] += X_left.transpose_apply(l);  // ᴮX*_F f = (ᶠX_B)ᵀ f
        f[right_body] += X_right.transpose_apply(r);
        return f;
    };
    std::uniform_real_distribution<double> u(-1, 1);
    for (int s = 0; s < test::states(200); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        // Random feet wrenches, and the base acceleration that leaves the floating base unforced
        // (on slippery feet the base cannot accelerate at will): RNEA is affine in it.
        const Eigen::Matrix<double, 8, 1> w = Eigen::Matrix<double, 8, 1>::NullaryExpr([&] { return 50 * u(rng); });
        const std::vector<Vec6<double>> feet = f_ext_of(w);
        VecX<double> qdd = x.qdd;
        const auto base_force = [&](const Vec6<double>& base_acceleration) {
            qdd.head<6>() = base_acceleration;
            return Vec6<double>(rnea<double>(model, x.q, x.qd, qdd, x.gravity, &feet).head<6>());
        };
        const Vec6<double> b0 = base_force(Vec6<double>::Zero());
        Mat6<double> H_bb;
        for (int k = 0; k < 6; ++k) H_bb.col(k) = base_force(Vec6<double>::Unit(k)) - b0;
        qdd.head<6>() = H_bb.llt().solve(-b0);
        const VecX<double> tau = rnea<double>(model, x.q, x.qd, qdd, x.gravity, &feet);
        ASSERT_LT(tau.head<6>().norm(), 1e-9 * std::max(1.0, tau.norm()));
        // The load cells read f_z, n_x, n_y of each foot.
        VecX<double> y(6);
        y << w[3], w[0], w[1], w[7], w[4], w[5];
        const VecX<double> d = solve_problem<double>(model, a, x.q, x.qd, x.gravity, {qdd, y});
        const VecX<double> estimate = wanted_of(problem, d);
        // The unknowns: every actuated joint's τ, then each foot's whole wrench (feet in body order).
        VecX<double> truth(model.nv - 6 + 12);
        truth.head(model.nv - 6) = tau.tail(model.nv - 6);
        const int first = left_body < right_body ? 0 : 4, second = 4 - first;
        for (int k = 0; k < 6; ++k) truth[model.nv - 6 + k] = k == 3 || k == 4 ? 0 : w[first + (k < 3 ? k : 3)];
        for (int k = 0; k < 6; ++k) truth[model.nv + k] = k == 3 || k == 4 ? 0 : w[second + (k < 3 ? k : 3)];
        ASSERT_EQ(estimate.size(), truth.size());
        ASSERT_LT(test::rel_err(estimate, truth), 1e-9) << "state " << s;
    }
}

// An accelerometer (an IMU's) on arm7's last link, the acceleration of the joint before it unknown
// (its own joint's cannot be seen: the link frame's origin is on that joint's axis, and the analysis
// refuses it as ill-posed): the LU's
// q̈ against the true one, the reading made by finite differences of the link frame's position
// (forward kinematics along q + q̇ t + q̈ t²/2), minus gravity, in the link frame.
// The kernels' array of D's values holds each value once (report.json D_slots): ⁱX_λ and its transpose
// in the parent's row, and the two copies of E in X, share a place; every nonzero of D at a random
// state is found at its place, or is the constant of the model the kernels fold.
TEST(ProblemKernels, DArrayHoldsEachValueOnce) {
    const Model model = prepare_model(load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true})).model;
    const auto a = std::make_shared<const ProblemAnalysis>(analyze_problem(model, forward_dynamics_problem(model), {.states = 50}));
    const std::vector<long> slot = D_slots(*a);
    const std::vector<KernelSpec> specs = problem_kernel_specs(a);
    const auto assemble = std::find_if(specs.begin(), specs.end(), [](const KernelSpec& s) { return s.name == "fd_assemble"; });
    ASSERT_NE(assemble, specs.end());
    std::mt19937_64 rng(11);
    const test::RandomState x = test::random_state(model, rng);
    const VecX<double> D = assemble->reference(model, {x.q, x.qd, x.tau, x.gravity})[0];
    const NewtonEulerSystem<double> sys = problem_system<double>(model, a->problem, x.q, x.qd, x.gravity, {x.tau});
    long varying = 0, k = 0;
    for (int c = 0; c < a->pattern.cols; ++c)
        for (int r : a->pattern.columns[c]) {
            if (slot[k] < 0) {
                EXPECT_EQ(sys.D(r, c), a->entry_value[k]) << r << ", " << c;
            } else {
                ++varying;
                ASSERT_LT(slot[k], D.size());
                EXPECT_EQ(D[slot[k]], sys.D(r, c)) << r << ", " << c;
            }
            ++k;
        }
    EXPECT_EQ(*std::max_element(slot.begin(), slot.end()) + 1, D.size());
    EXPECT_LT(2 * D.size(), varying);  // measured: 280 values for 848 varying nonzeros
}

TEST(Accelerometer, EstimatesTheUnknownJointAcceleration) {
    const Model model = prepare_model(load_urdf(test::project_model("arm7.urdf"))).model;
    const test::TempFile file("imu.yaml", "joints:\n  joint006: {acceleration: unknown}\nsensors:\n"
                                          "  imu: {type: accelerometer, link: link007}\nunknowns: [joint_accelerations]\n");
    const Problem problem = read_problem_file(model, file.str());
    const ProblemAnalysis a = analyze_problem(model, problem);
    ASSERT_EQ(problem.wanted_names, std::vector<std::string>{"qdd[joint006]"});
    std::cout << "arm7 accelerometer: ordering " << a.ordering << ", tail " << a.lu.tail_rows() << " x " << a.lu.tail_cols()
              << ", singular states " << a.singular_states << "\n";
    std::mt19937_64 rng(5);
    const int last = model.N() - 1;
    for (int s = 0; s < test::states(50); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const auto pose = [&](double t) {
            const VecX<double> q = x.q + t * x.qd + 0.5 * t * t * x.qdd;
            return kernel_spec("fk").reference(model, {q})[0].segment<12>(12 * last).eval();
        };
        const VecX<double> p0 = pose(0);
        const auto second_difference = [&](double h) {
            return Vec3<double>((pose(h).tail<3>() - 2 * p0.tail<3>() + pose(-h).tail<3>()) / (h * h));
        };
        const Vec3<double> accel = (4 * second_difference(5e-3) - second_difference(1e-2)) / 3;  // Richardson: O(h⁴)
        const Mat3<double> R = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(p0.data());  // link to world
        const Vec3<double> reading = R.transpose() * (accel - x.gravity);
        const VecX<double> d = solve_problem<double>(model, a, x.q, x.qd, x.gravity, {x.qdd, reading});
        EXPECT_NEAR(wanted_of(problem, d)[0], x.qdd[model.nv - 2], 1e-5 * std::max(1.0, std::abs(x.qdd[model.nv - 2]))) << "state " << s;
    }
}

INSTANTIATE_TEST_SUITE_P(Humanoids, Problems, ::testing::Values(kHumanoid30, kTalos),
                         [](const auto& info) { return info.param.shared ? std::string("talos") : std::string("humanoid30"); });

}  // namespace
}  // namespace rbdgen
