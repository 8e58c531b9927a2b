// The derivatives of constrained dynamics and of an impact (<problem>_derivatives,
// algorithms/contact_dynamics_derivatives.hpp) against oracles that share none of their code:
//  - central differences of the problem's own forward kernel <problem>_aba (algorithms/contact_aba.hpp,
//    the articulated-body solve; the derivatives use H's factors), along q's tangent directions,
//    q̇ and τ;
//  - the constrained inverse: ∂q̈/∂τ = H⁻¹ − H⁻¹Jᵀ(J H⁻¹ Jᵀ)⁻¹ J H⁻¹, dense, with H from CRBA and J from
//    frame_jacobian;
//  - the contacts stay held along every column: ∂a/∂x + J ∂q̈/∂x = 0, ∂a/∂x the central differences
//    of frame_states' accelerations at fixed q̈;
//  - ADOL-C's forward mode on the reference <problem>_aba.
// On every floating model with contacts at its feet (test_contacts.cpp's set): both feet of the
// humanoids in 6D contact, a quadruped's four feet in point contact, arm7 held at its flange.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <Eigen/Dense>
#include <stdexcept>

#include "algorithms/contact_aba.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/frames.hpp"
#include "emit/kernel.hpp"
#include "emit/prepare.hpp"
#include "model/load_model.hpp"
#include "sparse/analysis.hpp"
#include "temp_file.hpp"
#include "contact_robots.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

constexpr int kStates = test::states(20);

using test::Contacts;

// The five-point stencil at h = 2e-4 (test::stencil): near a singular leg the contacts' J H⁻¹ Jᵀ is
// ill-conditioned, and at its default h = 1e-3 the truncation reached 6e-6 (solo12's impact, one state
// of 20; 6e-10 at h = 1e-4, the same state); rounding stays under 1e-9 at 2e-4.
constexpr double kStep = 2e-4;

// A kernel of the problem, through its spec: its outputs from the state and the known inputs.
struct ProblemKernel {
    KernelSpec spec;
    Arrays<double> operator()(const Model& m, const VecX<double>& q, const VecX<double>& qd, const std::vector<VecX<double>>& known,
                              const Vec3<double>& g) const {
        Arrays<double> in{q, qd};
        in.insert(in.end(), known.begin(), known.end());
        in.push_back(g);
        return spec.reference(m, in);
    }
};

class ContactDerivatives : public test::ContactTest {
protected:
    // The problem's kernels <name>_aba and <name>_derivatives.
    std::pair<ProblemKernel, ProblemKernel> kernels(const Problem& problem) const {
        const auto a = std::make_shared<const ProblemAnalysis>(analyze_problem(model, problem, {.states = 10}));
        std::optional<KernelSpec> forward, derivatives;
        for (KernelSpec& k : problem_kernel_specs(a)) {
            if (k.name == problem.name + "_aba") forward = k;
            if (k.name == problem.name + "_derivatives") derivatives = k;
        }
        // a failure of the test that called it (GoogleTest reports the exception), not a crash
        if (!forward || !derivatives)
            throw std::logic_error("a contact problem has " + problem.name + "_aba and " + problem.name + "_derivatives; its specifications give no " +
                                   problem.name + (forward ? "_derivatives" : "_aba"));
        return {{*forward}, {*derivatives}};
    }
    // A tape of its own a robot: ADOL-C writes a large tape (talos') to files in the working directory
    // named by its tag, and ctest runs two robots' tests side by side.
    short tape_tag() const {
        const std::vector<Contacts> all = test::contact_robots();
        return static_cast<short>(20 + std::find_if(all.begin(), all.end(), [&](const Contacts& c) { return c.urdf == GetParam().urdf; }) - all.begin());
    }
    // The contacts' Jacobian, world-aligned, its rows the held components.
    MatX<double> jacobian(const VecX<double>& q) const {
        const int m = rows_a_contact();
        MatX<double> J(m * frames.size(), model.nv);
        for (size_t c = 0; c < frames.size(); ++c) J.middleRows(m * c, m) = frame_jacobian<double>(model, frames[c], q).bottomRows(m);
        return J;
    }
    // The held components of the contacts' classical accelerations, world-aligned.
    VecX<double> held_accelerations(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd) const {
        const int m = rows_a_contact();
        const std::vector<FrameState<double>> s = frame_states<double>(model, frames, q, qd, qdd);
        VecX<double> a(m * frames.size());
        for (size_t c = 0; c < frames.size(); ++c) a.segment(m * c, m) = s[c].a.tail(m);
        return a;
    }
    std::mt19937_64 rng{47};
};

// Each derivative against central differences of <problem>_aba: along q's tangent directions, q̇,
// and τ where the problem reads it (its other columns, a force on a floating base, are the
// constrained inverse's: the next test).
TEST_P(ContactDerivatives, AreCentralDifferencesOfTheForwardKernel) {
    for (const bool impulse : {false, true}) {
        const Problem problem = load_problem(model, (impulse ? "impulse:" : "contact:") + test::contact_list(GetParam()));
        const auto both = kernels(problem);  // not a structured binding: clang's lambdas cannot capture one
        const ProblemKernel &forward = both.first, &derivatives = both.second;
        const int n = model.nv;
        double worst = 0;
        for (int s = 0; s < kStates; ++s) {
            const test::RandomState x = test::random_state(model, rng);
            std::vector<VecX<double>> known;
            if (!impulse) known.push_back(x.tau);
            const Arrays<double> d = derivatives(model, x.q, x.qd, known, x.gravity);
            const auto f = [&](const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau) {
                std::vector<VecX<double>> k;
                if (!impulse) k.push_back(tau);
                return forward(model, q, qd, k, x.gravity).front();
            };
            const int rows = static_cast<int>(f(x.q, x.qd, x.tau).size()), m = rows - n;
            const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return f(q, x.qd, x.tau); }, kStep);
            const MatX<double> dqd = test::central(x.qd, [&](const VecX<double>& qd) { return f(x.q, qd, x.tau); }, kStep);
            const MatX<double> dtau = test::central(x.tau, [&](const VecX<double>& tau) { return f(x.q, x.qd, tau); }, kStep);
            const auto matrix = [&](int o, int r) { return Eigen::Map<const MatX<double>>(d[o].data(), n, r).transpose().eval(); };
            const int outputs = impulse ? 2 : 3;  // then the wrenches'
            ASSERT_EQ(static_cast<int>(d.size()), 2 * outputs);
            for (int o = 0; o < outputs; ++o) {
                MatX<double> expected = o == 0 ? dq : o == 1 ? dqd : dtau, top = matrix(o, n), bottom = matrix(outputs + o, m);
                for (int k = 0; k < n && o == 2; ++k)  // along τ the forces the problem reads; a floating base's it holds at zero
                    if (!problem.tau_known[k]) expected.col(k).setZero(), top.col(k).setZero(), bottom.col(k).setZero();
                worst = std::max({worst, test::rel_err(top, expected.topRows(n)), test::rel_err(bottom, expected.bottomRows(m))});
            }
            ASSERT_LT(worst, 1e-6) << problem.name << ", state " << s;
        }
        std::cout << GetParam().urdf << " " << problem.name << ": derivatives against central differences of " << problem.name
                  << "_aba, worst relative error " << worst << "\n";
    }
}

// ∂q̈/∂τ is the constrained inverse, and the contacts stay held along every column of q, q̇ and τ.
TEST_P(ContactDerivatives, AreTheConstrainedInverseAndHoldTheContacts) {
    const Problem problem = load_problem(model, "contact:" + test::contact_list(GetParam()));
    const auto both = kernels(problem);  // not a structured binding: clang's lambdas cannot capture one
    const ProblemKernel &forward = both.first, &derivatives = both.second;
    const int n = model.nv;
    double worst_inverse = 0, worst_held = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const Arrays<double> d = derivatives(model, x.q, x.qd, {x.tau}, x.gravity);
        const auto matrix = [&](int o) { return Eigen::Map<const MatX<double>>(d[o].data(), n, n).transpose().eval(); };
        const MatX<double> Hinv = crba<double>(model, x.q).inverse(), J = jacobian(x.q);
        const MatX<double> constrained = Hinv - Hinv * J.transpose() * (J * Hinv * J.transpose()).inverse() * J * Hinv;
        // every column, a floating base's too (a force there, which the problem holds at zero)
        const MatX<double> dtau = matrix(2);
        worst_inverse = std::max(worst_inverse, (dtau - constrained).cwiseAbs().maxCoeff() / constrained.cwiseAbs().maxCoeff());
        // ∂a/∂x at fixed q̈ by differences of frame_states, J ∂q̈/∂x the kernel's
        const VecX<double> qdd = forward(model, x.q, x.qd, {x.tau}, x.gravity).front().head(n);
        const MatX<double> da_dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return held_accelerations(q, x.qd, qdd); }, kStep);
        const MatX<double> da_dqd = test::central(x.qd, [&](const VecX<double>& qd) { return held_accelerations(x.q, qd, qdd); }, kStep);
        const double scale = std::max({1.0, da_dq.cwiseAbs().maxCoeff(), da_dqd.cwiseAbs().maxCoeff()});
        worst_held = std::max({worst_held, (da_dq + J * matrix(0)).cwiseAbs().maxCoeff() / scale,
                               (da_dqd + J * matrix(1)).cwiseAbs().maxCoeff() / scale, (J * dtau).cwiseAbs().maxCoeff() / scale});
    }
    EXPECT_LT(worst_inverse, 1e-9);
    EXPECT_LT(worst_held, 1e-6);
    std::cout << GetParam().urdf << ": dqdd_dtau against the constrained inverse " << worst_inverse
              << "; the contacts' acceleration along every column " << worst_held << "\n";
}

// Baumgarte's stabilization: kd v and kp e join the held rows; their derivatives along q and q̇, and
// along the errors e (the outputs dqdd_de and dlambda_de, after those along τ).
TEST_P(ContactDerivatives, FollowBaumgartesTerms) {
    std::string yaml = "contacts:\n";
    for (const std::string& l : GetParam().links)
        yaml += "  " + l + ": {type: " + (GetParam().point ? "point" : "6d") + ", kd: 10, kp: 100}\n";
    const test::TempFile file("baumgarte.yaml", yaml);
    const Problem problem = read_problem_file(model, file.str());
    const auto both = kernels(problem);  // not a structured binding: clang's lambdas cannot capture one
    const ProblemKernel &forward = both.first, &derivatives = both.second;
    const int n = model.nv;
    std::uniform_real_distribution<double> u(-0.01, 0.01);
    double worst = 0, worst_e = 0;
    for (int s = 0; s < 5; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        VecX<double> e(problem.inputs[1].size());
        for (int k = 0; k < e.size(); ++k) e[k] = u(rng);
        const Arrays<double> d = derivatives(model, x.q, x.qd, {x.tau, e}, x.gravity);
        const auto f = [&](const VecX<double>& q, const VecX<double>& qd) { return forward(model, q, qd, {x.tau, e}, x.gravity).front(); };
        const int rows = static_cast<int>(f(x.q, x.qd).size()), m = rows - n;
        ASSERT_EQ(d.size(), 8u);  // along q, q̇, τ and e: ∂q̈, then ∂λ
        for (int along = 0; along < 2; ++along) {
            const MatX<double> fd = along == 0 ? test::central_dq(model, x.q, [&](const VecX<double>& q) { return f(q, x.qd); }, kStep)
                                               : test::central(x.qd, [&](const VecX<double>& qd) { return f(x.q, qd); }, kStep);
            worst = std::max({worst, test::rel_err(Eigen::Map<const MatX<double>>(d[along].data(), n, n).transpose(), fd.topRows(n)),
                              test::rel_err(Eigen::Map<const MatX<double>>(d[4 + along].data(), n, m).transpose(), fd.bottomRows(m))});
        }
        const int ne = static_cast<int>(e.size());
        const MatX<double> fd =
            test::central(e, [&](const VecX<double>& err) { return forward(model, x.q, x.qd, {x.tau, err}, x.gravity).front(); }, kStep);
        worst_e = std::max({worst_e, test::rel_err(Eigen::Map<const MatX<double>>(d[3].data(), ne, n).transpose(), fd.topRows(n)),
                            test::rel_err(Eigen::Map<const MatX<double>>(d[7].data(), ne, m).transpose(), fd.bottomRows(m))});
    }
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(worst_e, 1e-6);
    std::cout << GetParam().urdf << ": with Baumgarte's terms, against central differences " << worst << ", along the errors "
              << worst_e << "\n";
}

// ADOL-C's forward mode on the reference <problem>_aba (contact_aba on adouble), one tangent direction
// a sweep, at 3 states.
TEST_P(ContactDerivatives, AgreeWithAdolcForwardMode) {
    using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;
    double worst = 0;
    for (const bool impulse : {false, true}) {
        const Problem problem = load_problem(model, (impulse ? "impulse:" : "contact:") + test::contact_list(GetParam()));
        const auto both = kernels(problem);  // not a structured binding: clang's lambdas cannot capture one
        const ProblemKernel &forward = both.first, &derivatives = both.second;
        const int nq = model.nq, nv = model.nv;
        for (int s = 0; s < 3; ++s) {
            const test::RandomState x = test::random_state(model, rng);
            VecX<double> x0(nq + 2 * nv), tau = x.tau;  // at the τ the problem reads (a floating base's zero)
            for (int i = 0; i < nv; ++i)
                if (!problem.tau_known[i]) tau[i] = 0;
            x0 << x.q, x.qd, tau;
            const test::TaylorTape tape(tape_tag(), x0, [&](const AVec& in) {
                const AVec q = in.head(nq), qd = in.segment(nq, nv);
                const AVec tau = in.tail(nv);  // a force on every dof, as dqdd_dtau is
                const ConstrainedMotion<adouble> c =
                    contact_aba<adouble>(model, problem.held, q, qd, tau, x.gravity.cast<adouble>(), AVec(), problem.impulse);
                AVec out(nv + c.lambda.size());
                out << c.qdd, c.lambda;
                return out;
            });
            const Arrays<double> d = derivatives(model, x.q, x.qd, impulse ? std::vector<VecX<double>>{} : std::vector{x.tau}, x.gravity);
            const int along = impulse ? 2 : 3;
            const MatX<double> ad = tape.tangent_jacobian(x0, test::tangent_basis(model, x.q), along * nv);
            const int m = static_cast<int>(ad.rows()) - nv;
            for (int a = 0; a < along; ++a)
                worst = std::max({worst, test::rel_err(Eigen::Map<const MatX<double>>(d[a].data(), nv, nv).transpose(), ad.middleCols(a * nv, nv).topRows(nv)),
                                  test::rel_err(Eigen::Map<const MatX<double>>(d[along + a].data(), nv, m).transpose(),
                                                ad.middleCols(a * nv, nv).bottomRows(m))});
        }
    }
    EXPECT_LT(worst, 1e-10);
    std::cout << GetParam().urdf << ": contact and impact derivatives against ADOL-C forward mode, worst relative error " << worst << "\n";
}

INSTANTIATE_TEST_SUITE_P(Floating, ContactDerivatives, ::testing::ValuesIn(test::contact_robots()), test::contact_case_name);

}  // namespace
}  // namespace rbdgen
