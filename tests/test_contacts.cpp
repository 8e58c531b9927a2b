// Contacts through Nori's system (sparse/problem_file.cpp "contacts", the built-in problems
// contact:LINK[:point],... and impulse:...): constrained dynamics and impacts by the static-pivot LU,
// on every floating model, 6D contacts on both feet (a quadruped's four feet in point contact, the
// floating arm held at its last link), against oracles that do not share the LU:
//  - the identities that define constrained dynamics: the contact frames' accelerations from
//    frame_states (algorithms/frames.hpp) at the returned q̈ vanish, and RNEA at that q̈ with the
//    returned wrenches as external forces gives back τ;
//  - a dense KKT solve [H Jᵀ; J 0] with Eigen on H from CRBA, J from the frame Jacobians and J̇q̇ from
//    frame_states at q̈ = 0;
//  - for an impact: J q̇⁺ = 0, and H (q̇⁺ − q̇) = Jᵀ Λ by RNEA at zero velocity and gravity.
// Each check runs on both ways the generator solves a contact problem, through their kernels' specs:
// <problem>_lu (the LU on Nori's system) and <problem>_aba (the articulated-body algorithm, algorithms/contact_aba.hpp).
#include <Eigen/Dense>

#include <fstream>
#include <functional>
#include <iterator>

#include "algorithms/crba.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/rnea.hpp"
#include "emit/kernel.hpp"
#include "model/error.hpp"
#include "model/load_model.hpp"
#include "emit/prepare.hpp"
#include "sparse/analysis.hpp"
#include "contact_robots.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

using test::Contacts;

class ContactDynamics : public test::ContactTest {
protected:
    // The contacts' Jacobian (world-aligned), its rows the held components, and J̇ q̇.
    std::pair<MatX<double>, VecX<double>> jacobian(const VecX<double>& q, const VecX<double>& qd) const {
        const int m = rows_a_contact(), first = 6 - m;
        MatX<double> J(m * frames.size(), model.nv);
        VecX<double> Jdqd(m * frames.size());
        const std::vector<FrameState<double>> s = frame_states<double>(model, frames, q, qd, VecX<double>::Zero(model.nv));
        for (size_t c = 0; c < frames.size(); ++c) {
            J.middleRows(m * c, m) = frame_jacobian<double>(model, frames[c], q).bottomRows(m);
            Jdqd.segment(m * c, m) = s[c].a.tail(m);
        }
        return {J, Jdqd};
    }
    // The wrenches the LU returns (each in its link's frame, [n; f], a point contact's f alone) as
    // RNEA's external forces, in body coordinates.
    std::vector<Vec6<double>> external_forces(const VecX<double>& w) const {
        std::vector<Vec6<double>> f(model.N(), Vec6<double>::Zero());
        const int m = rows_a_contact();
        for (size_t c = 0; c < frames.size(); ++c) {
            Vec6<double> wF = Vec6<double>::Zero();
            wF.tail(m) = w.segment(m * c, m);
            f[frames[c].body] += frames[c].X.transpose_apply(wF);
        }
        return f;
    }
    // The problem's two fused kernels, <name>_lu and <name>_aba: (name, its unknowns from the state
    // and the known inputs after q and qd).
    using Solve = std::function<VecX<double>(const test::RandomState&, const std::vector<VecX<double>>&)>;
    std::vector<std::pair<std::string, Solve>> ways(const Problem& problem, const ProblemAnalysis& a) const {
        std::vector<std::pair<std::string, Solve>> out;
        for (KernelSpec& k : problem_kernel_specs(std::make_shared<const ProblemAnalysis>(a)))
            if (k.name == problem.name + "_lu" || k.name == problem.name + "_aba")
                out.push_back({k.name, [this, k](const test::RandomState& x, const std::vector<VecX<double>>& known) {
                                   Arrays<double> in{x.q, x.qd};
                                   in.insert(in.end(), known.begin(), known.end());
                                   in.push_back(x.gravity);
                                   return k.reference(model, in).front();
                               }});
        EXPECT_EQ(out.size(), 2u) << "a contact problem has both kernels";
        return out;
    }
    std::mt19937_64 rng{31};
};

TEST_P(ContactDynamics, HoldsTheContactsAndBalancesTheTorques) {
    const Problem problem = load_problem(model, "contact:" + test::contact_list(GetParam()));
    const ProblemAnalysis a = analyze_problem(model, problem, {.states = 200});
    std::cout << model.name << " contact:" << test::contact_list(GetParam()) << ": ordering " << a.ordering << ", LU " << a.lu.nnz << " (fill "
              << a.lu.fill << "), tail " << a.lu.tail_cols() << ", min pivot " << a.min_pivot << "\n";
    const int nw = rows_a_contact() * static_cast<int>(frames.size());
    ASSERT_EQ(static_cast<int>(problem.wanted.size()), model.nv + nw);
    for (const auto& [way, solve] : ways(problem, a)) {
    double worst_identity = 0, worst_kkt = 0;
    for (int s = 0; s < test::states(100); ++s) {
        test::RandomState x = test::random_state(model, rng);
        x.tau.head(6).setZero();  // nothing drives the floating base
        const VecX<double> u = solve(x, {x.tau});
        const VecX<double> qdd = u.head(model.nv), w = u.tail(nw);
        // The contact frames do not accelerate.
        const std::vector<FrameState<double>> f = frame_states<double>(model, frames, x.q, x.qd, qdd);
        const double scale = std::max(1.0, qdd.cwiseAbs().maxCoeff());
        for (size_t c = 0; c < frames.size(); ++c) {
            const double held = f[c].a.tail(rows_a_contact()).cwiseAbs().maxCoeff() / scale;
            worst_identity = std::max(worst_identity, held);
            ASSERT_LT(held, 1e-9) << way << ", state " << s << ", contact " << frames[c].link << ": " << f[c].a.transpose();
        }
        // RNEA with the wrenches gives back τ.
        const std::vector<Vec6<double>> fx = external_forces(w);
        const VecX<double> tau = rnea<double>(model, x.q, x.qd, qdd, x.gravity, &fx);
        const double balance = test::rel_err(tau, x.tau);
        worst_identity = std::max(worst_identity, balance);
        ASSERT_LT(balance, 1e-9) << way << ", state " << s;
        // The dense KKT system [H Jᵀ; J 0] [q̈; −λ] = [τ − h; −J̇ q̇].
        const MatX<double> H = crba<double>(model, x.q);
        const VecX<double> h = rnea<double>(model, x.q, x.qd, VecX<double>::Zero(model.nv), x.gravity);
        const auto [J, Jdqd] = jacobian(x.q, x.qd);
        MatX<double> K = MatX<double>::Zero(model.nv + nw, model.nv + nw);
        K.topLeftCorner(model.nv, model.nv) = H;
        K.topRightCorner(model.nv, nw) = J.transpose();
        K.bottomLeftCorner(nw, model.nv) = J;
        VecX<double> rhs(model.nv + nw);
        rhs << x.tau - h, -Jdqd;
        const VecX<double> kkt = K.fullPivLu().solve(rhs);
        const double e = test::rel_err(qdd, kkt.head(model.nv));
        worst_kkt = std::max(worst_kkt, e);
        ASSERT_LT(e, 1e-9) << way << ", state " << s;
    }
    std::cout << "  " << way << ": worst identity " << worst_identity << ", against the dense KKT solve " << worst_kkt << "\n";
    }
}

TEST_P(ContactDynamics, ImpactStopsTheContactsWithTheImpulses) {
    const Problem problem = load_problem(model, "impulse:" + test::contact_list(GetParam()));
    const ProblemAnalysis a = analyze_problem(model, problem, {.states = 200});
    const int nw = rows_a_contact() * static_cast<int>(frames.size());
    ASSERT_EQ(static_cast<int>(problem.wanted.size()), model.nv + nw);
    EXPECT_EQ(problem.wanted_names.front().rfind("qd_plus[", 0), 0u) << problem.wanted_names.front();
    for (const auto& [way, solve] : ways(problem, a))
    for (int s = 0; s < test::states(100); ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const VecX<double> u = solve(x, {});
        const VecX<double> qd_plus = u.head(model.nv), impulses = u.tail(nw);
        const auto [J, Jdqd] = jacobian(x.q, x.qd);
        const double scale = std::max(1.0, x.qd.cwiseAbs().maxCoeff());
        ASSERT_LT((J * qd_plus).cwiseAbs().maxCoeff() / scale, 1e-9) << way << ", state " << s;
        // H (q̇⁺ − q̇) − Jᵀ Λ = RNEA at zero velocity and gravity with Λ as external forces
        const std::vector<Vec6<double>> fx = external_forces(impulses);
        const VecX<double> r = rnea<double>(model, x.q, VecX<double>::Zero(model.nv), qd_plus - x.qd, Vec3<double>::Zero(), &fx);
        const MatX<double> H = crba<double>(model, x.q);
        ASSERT_LT(r.cwiseAbs().maxCoeff() / std::max(1.0, (H * (qd_plus - x.qd)).cwiseAbs().maxCoeff()), 1e-9) << way << ", state " << s;
    }
}

// Baumgarte stabilization (a problem file's {type: 6d, kd, kp}): the held frame's acceleration is
// −kd v − kp e, e its position error from the measurements (world-aligned in frame_states: the same
// relation, rotated).
TEST_P(ContactDynamics, BaumgarteStabilizationDrivesTheError) {
    const double kd = 10, kp = 100;
    std::string yaml = "contacts:\n";
    for (const std::string& l : GetParam().links)
        yaml += "  " + l + ": {type: " + (GetParam().point ? "point" : "6d") + ", kd: 10, kp: 100}\n";
    const test::TempFile file("baumgarte.yaml", yaml);
    const Problem problem = read_problem_file(model, file.str());
    const ProblemAnalysis a = analyze_problem(model, problem, {.states = 200});
    const int m = rows_a_contact(), nw = m * static_cast<int>(frames.size());
    ASSERT_EQ(problem.inputs.size(), 2u);
    ASSERT_EQ(problem.inputs[1].size(), nw);  // each contact's error, in the file's order
    std::uniform_real_distribution<double> u(-0.01, 0.01);
    for (const auto& [way, solve] : ways(problem, a))
    for (int s = 0; s < test::states(50); ++s) {
        test::RandomState x = test::random_state(model, rng);
        x.tau.head(6).setZero();
        VecX<double> e(nw);
        for (int k = 0; k < nw; ++k) e[k] = u(rng);
        const VecX<double> qdd = solve(x, {x.tau, e}).head(model.nv);
        const std::vector<FrameState<double>> f = frame_states<double>(model, frames, x.q, x.qd, qdd);
        for (size_t c = 0; c < frames.size(); ++c) {
            // the contact's error in the file's order (the links' order), rotated to world axes
            const size_t declared = std::find(GetParam().links.begin(), GetParam().links.end(), frames[c].link) - GetParam().links.begin();
            Vec6<double> eF = Vec6<double>::Zero();
            eF.tail(m) = e.segment(m * declared, m);
            const Vec6<double> want = -kd * f[c].v - kp * world_aligned<double>(f[c].X_0, eF);
            const double scale = std::max({1.0, want.cwiseAbs().maxCoeff(), qdd.cwiseAbs().maxCoeff()});
            const double err = (f[c].a - want).tail(m).cwiseAbs().maxCoeff() / scale;
            ASSERT_LT(err, 1e-9) << way << ", state " << s << ", contact " << frames[c].link;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Floating, ContactDynamics, ::testing::ValuesIn(test::contact_robots()), test::contact_case_name);

// Four point contacts at the corners of each flat foot (fixed links added to the humanoid's feet): a
// redundant but consistent set (the feet at rest), 12 rows a foot for its 6 wrench components, solved in the
// least-squares sense (the analysis' tail says so); each foot's net wrench in its link's frame.
// The corners do not accelerate, RNEA with the net wrenches gives back τ, and q̈ is the KKT system's
// (rank-deficient: its minimum-norm solution, by complete orthogonal decomposition). Within 1e-5: the
// least-squares tail's normal equations square its condition number.
TEST(Contacts, FourPointContactsOfAFlatFootAreSolvedInTheLeastSquaresSense) {
    std::ifstream in(test::project_model("humanoid30.urdf"));
    std::string urdf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string corners, spec;
    for (const char* foot : {"link006", "link012"})
        for (int k = 0; k < 4; ++k) {
            const std::string name = std::string(foot) + "_corner" + std::to_string(k);
            corners += "<link name=\"" + name + "\"/><joint name=\"" + name + "_joint\" type=\"fixed\"><parent link=\"" + foot +
                       "\"/><child link=\"" + name + "\"/><origin xyz=\"" + (k % 2 ? "0.1" : "-0.05") + " " + (k / 2 ? "0.04" : "-0.04") +
                       " -0.08\" rpy=\"0.1 0 0.3\"/></joint>\n";
            spec += (spec.empty() ? "" : ",") + name + ":point";
        }
    urdf.insert(urdf.rfind("</robot>"), corners);
    const test::TempFile file("flat_feet.urdf", urdf);
    const Model model = prepare_model(load_urdf(file.str(), {.floating_base = true})).model;
    const Problem problem = load_problem(model, "contact:" + spec);
    const ProblemAnalysis a = analyze_problem(model, problem, {.states = 200});
    std::cout << "flat feet: ordering " << a.ordering << ", tail " << a.lu.tail_rows() << " x " << a.lu.tail_cols() << ", unused rows "
              << a.unused_rows.size() << ", min pivot " << a.min_pivot << "\n";
    EXPECT_GT(a.lu.tail_rows() + static_cast<int>(a.unused_rows.size()), a.lu.tail_cols()) << "the redundant rows are solved in the least-squares sense";
    ASSERT_EQ(problem.wanted_names.back(), "fx[link012].fz");
    std::vector<LinkFrame> corners_f, feet;
    for (const char* foot : {"link006", "link012"}) {
        feet.push_back(*link_frame(model, foot));
        for (int k = 0; k < 4; ++k) corners_f.push_back(*link_frame(model, std::string(foot) + "_corner" + std::to_string(k)));
    }
    std::mt19937_64 rng(5);
    double worst = 0, worst_balance = 0, worst_kkt = 0;
    const auto corner_jacobian = [&](const VecX<double>& q) {
        MatX<double> J(24, model.nv);
        for (int c = 0; c < 8; ++c) J.middleRows(3 * c, 3) = frame_jacobian<double>(model, corners_f[c], q).bottomRows(3);
        return J;
    };
    for (int s = 0; s < test::states(50); ++s) {
        test::RandomState x = test::random_state(model, rng);
        x.tau.head(6).setZero();
        // feet at rest, as contacts are: q̇ in the corners' null space (else four points of one rigid
        // body cannot all stop accelerating, and the rows are not consistent)
        {
            const MatX<double> Jc = corner_jacobian(x.q);
            x.qd -= Jc.completeOrthogonalDecomposition().solve(Jc * x.qd);
        }
        const VecX<double> u = wanted_of(problem, solve_problem<double>(model, a, x.q, x.qd, x.gravity, {x.tau}));
        const VecX<double> qdd = u.head(model.nv);
        const double scale = std::max(1.0, qdd.cwiseAbs().maxCoeff());
        for (const FrameState<double>& f : frame_states<double>(model, corners_f, x.q, x.qd, qdd))
            worst = std::max(worst, f.a.tail(3).cwiseAbs().maxCoeff() / scale);
        // the tail's normal equations square its condition number: 1e-5, not the 1e-9 of a full LU
        ASSERT_LT(worst, 1e-5) << "state " << s;
        std::vector<Vec6<double>> fx(model.N(), Vec6<double>::Zero());
        for (int k = 0; k < 2; ++k) fx[feet[k].body] += feet[k].X.transpose_apply(Vec6<double>(u.segment(model.nv + 6 * k, 6)));
        worst_balance = std::max(worst_balance, test::rel_err(rnea<double>(model, x.q, x.qd, qdd, x.gravity, &fx), x.tau));
        ASSERT_LT(worst_balance, 1e-5) << "state " << s;
        // the KKT system with the 24 corner rows, of rank 12
        const MatX<double> J = corner_jacobian(x.q);
        VecX<double> Jdqd(24);
        const std::vector<FrameState<double>> s0 = frame_states<double>(model, corners_f, x.q, x.qd, VecX<double>::Zero(model.nv));
        for (int c = 0; c < 8; ++c) Jdqd.segment(3 * c, 3) = s0[c].a.tail(3);
        MatX<double> K = MatX<double>::Zero(model.nv + 24, model.nv + 24);
        K.topLeftCorner(model.nv, model.nv) = crba<double>(model, x.q);
        K.topRightCorner(model.nv, 24) = J.transpose();
        K.bottomLeftCorner(24, model.nv) = J;
        VecX<double> rhs(model.nv + 24);
        rhs << x.tau - rnea<double>(model, x.q, x.qd, VecX<double>::Zero(model.nv), x.gravity), -Jdqd;
        worst_kkt = std::max(worst_kkt, test::rel_err(qdd, K.completeOrthogonalDecomposition().solve(rhs).head(model.nv)));
        ASSERT_LT(worst_kkt, 1e-5) << "state " << s;
    }
    std::cout << "  worst: corners held " << worst << ", torque balance " << worst_balance << ", against the KKT system " << worst_kkt << "\n";
}

// Contact sets the tree cannot hold are refused, naming the contacts: a 6D contact on a fixed-base
// quadruped's 3-DoF leg, and 6D contacts on two bodies with one joint between them. And what a user
// writes wrong in a contacts file or a built-in problem, each with its message.
TEST(Contacts, IllPosedAndMistakenSetsAreRefused) {
    const Model quadruped = prepare_model(load_urdf(test::project_model("quadruped.urdf"))).model;
    const Model humanoid = prepare_model(load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true})).model;
    const auto refused = [](const std::function<void()>& f, const std::vector<std::string>& words) {
        try {
            f();
            ADD_FAILURE() << "accepted; expected an error with " << words.front();
        } catch (const Error& e) {
            for (const std::string& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
        }
    };
    refused([&] { analyze_problem(quadruped, load_problem(quadruped, "contact:link003"), {.states = 10}); },
            {"--problem contact:link003", "ill-posed", "contacts (link003)", "fx[link003]"});
    refused([&] { analyze_problem(humanoid, load_problem(humanoid, "contact:link005,link006"), {.states = 10}); },
            {"ill-posed", "link005, link006"});
    refused([&] { load_problem(humanoid, "contact:link006,link006:point"); }, {"link 'link006' is named twice"});
    refused([&] { load_problem(humanoid, "contact:link006:sphere"); }, {"contact 'link006' is 'sphere'", "6d or point"});
    refused([&] { load_problem(humanoid, "impulse:"); }, {"--problem impulse:", "give each contact's link"});
    refused([&] { load_problem(humanoid, "contact:no_such_link"); }, {"no link 'no_such_link'"});
    const std::vector<std::pair<std::string, std::vector<std::string>>> files{
        {"contacts:\n  link006: {type: 6d, kd: fast}\n", {":2:", "contact 'link006' kd is not a number"}},
        {"contacts:\n  link006: {type: 6d, kp: -1}\n", {":2:", "kp must be a finite number"}},
        {"contacts:\n  link006: {kd: 1}\n", {":2:", "give its type"}},
        {"contacts:\n  link006: {type: 6d, mu: 0.5}\n", {":2:", "unknown key 'mu'"}},
        {"impulse: true\ncontacts:\n  link006: {type: 6d, kd: 1}\n", {":3:", "an impulse problem has none"}},
        {"impulse: true\n", {":1:", "needs the contacts"}},
        {"impulse: yes please\ncontacts: {link006: 6d}\n", {":1:", "use true or false"}},
        {"impulse: true\ncontacts: {link006: 6d}\njoint_forces: unknown\n", {"leave out joint_accelerations, joint_forces"}},
        {"contacts: {link006: 6d}\nsensors:\n  ft: {type: force_torque, link: link006}\n", {"link006", "declare it once"}}};
    for (const auto& [text, words] : files) {
        const test::TempFile file("contacts.yaml", text);
        std::vector<std::string> w = words;
        w.push_back(file.str());
        refused([&] { read_problem_file(humanoid, file.str()); }, w);
    }
}

}  // namespace
}  // namespace rbdgen
