// The derivatives of the dynamics (algorithms/rnea_derivatives.hpp, aba_derivatives.hpp) against
// oracles that share none of their code: central differences of the reference RNEA and ABA on the
// tangent space (q ⊕ δ), ADOL-C's forward mode on the same reference algorithms, the identities that
// tie ∂q̈ to ∂τ and H, a floating body's derivative worked by hand, and the branch-induced zeros.
#include "adolc_taylor.hpp"  // first: Eigen's NumTraits<adouble>

#include <nlohmann/json.hpp>

#include "algorithms/aba.hpp"
#include "algorithms/aba_derivatives.hpp"
#include "algorithms/centroidal_derivatives.hpp"
#include "algorithms/com.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/rnea.hpp"
#include "algorithms/rnea_derivatives.hpp"
#include "emit/kernel.hpp"
#include "sym/expr.hpp"
#include "emit/prepare.hpp"
#include "model/topology.hpp"
#include "test_support.hpp"

#include <unordered_map>

namespace rbdgen {
namespace {

using AVec = Eigen::Matrix<adouble, Eigen::Dynamic, 1>;
constexpr int kStates = test::states(20);

class Derivatives : public test::ModelTest {
protected:
    std::mt19937_64 rng{2029};
};

TEST_P(Derivatives, RneaDerivativesAreCentralDifferences) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const RneaDerivatives<double> d = rnea_derivatives<double>(model, x.q, x.qd, x.qdd, x.gravity);
        const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return rnea<double>(model, q, x.qd, x.qdd, x.gravity); });
        const MatX<double> dv = test::central(x.qd, [&](const VecX<double>& qd) { return rnea<double>(model, x.q, qd, x.qdd, x.gravity); });
        worst = std::max({worst, test::rel_err(d.dtau_dq, dq), test::rel_err(d.dtau_dqd, dv)});
    }
    EXPECT_LT(worst, 1e-6);
    std::cout << GetParam().label() << ": d rnea against central differences, worst relative error " << worst << "\n";
}

TEST_P(Derivatives, AbaDerivativesAreCentralDifferences) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const AbaDerivatives<double> d = aba_derivatives<double>(model, x.q, x.qd, x.tau, x.gravity);
        const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return aba<double>(model, q, x.qd, x.tau, x.gravity); });
        const MatX<double> dv = test::central(x.qd, [&](const VecX<double>& qd) { return aba<double>(model, x.q, qd, x.tau, x.gravity); });
        const MatX<double> dt = test::central(x.tau, [&](const VecX<double>& tau) { return aba<double>(model, x.q, x.qd, tau, x.gravity); });
        worst = std::max({worst, test::rel_err(d.dqdd_dq, dq), test::rel_err(d.dqdd_dqd, dv), test::rel_err(d.Minv, dt)});
    }
    EXPECT_LT(worst, 1e-6);
    std::cout << GetParam().label() << ": d aba against central differences, worst relative error " << worst << "\n";
}

// ADOL-C's forward mode on the reference RNEA and ABA, on adouble, one tangent direction a sweep
// (q's directions mapped by tangent_basis).
TEST_P(Derivatives, AgreeWithAdolcForwardMode) {
    double worst = 0;
    for (int s = 0; s < 3; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const int nq = model.nq, nv = model.nv;
        for (const bool forward : {false, true}) {
            VecX<double> x0(nq + 2 * nv);
            x0 << x.q, x.qd, forward ? x.tau : x.qdd;
            const test::TaylorTape tape(5, x0, [&](const AVec& in) {
                const AVec q = in.head(nq), qd = in.segment(nq, nv), third = in.tail(nv);
                return forward ? aba<adouble>(model, q, qd, third, x.gravity.cast<adouble>())
                               : rnea<adouble>(model, q, qd, third, x.gravity.cast<adouble>());
            });
            const MatX<double> ad = tape.tangent_jacobian(x0, test::tangent_basis(model, x.q), 2 * nv);
            const MatX<double> dq = ad.leftCols(nv), dv = ad.rightCols(nv);
            if (forward) {
                const AbaDerivatives<double> d = aba_derivatives<double>(model, x.q, x.qd, x.tau, x.gravity);
                worst = std::max({worst, test::rel_err(d.dqdd_dq, dq), test::rel_err(d.dqdd_dqd, dv)});
            } else {
                const RneaDerivatives<double> d = rnea_derivatives<double>(model, x.q, x.qd, x.qdd, x.gravity);
                worst = std::max({worst, test::rel_err(d.dtau_dq, dq), test::rel_err(d.dtau_dqd, dv)});
            }
        }
    }
    EXPECT_LT(worst, 1e-10);
    std::cout << GetParam().label() << ": derivatives against ADOL-C forward mode, worst relative error " << worst << "\n";
}

// ∂q̈/∂τ H = 1 and ∂q̈/∂q = −H⁻¹ ∂τ/∂q at q̈ = ABA(q, q̇, τ), H from the CRBA and q̈ from ABA.
TEST_P(Derivatives, ForwardAndInverseDerivativesAreTied) {
    double worst = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const AbaDerivatives<double> d = aba_derivatives<double>(model, x.q, x.qd, x.tau, x.gravity);
        const MatX<double> H = crba<double>(model, x.q);
        const VecX<double> qdd = aba<double>(model, x.q, x.qd, x.tau, x.gravity);
        const RneaDerivatives<double> id = rnea_derivatives<double>(model, x.q, x.qd, qdd, x.gravity);
        worst = std::max({worst, test::rel_err(d.Minv * H, MatX<double>::Identity(model.nv, model.nv)),
                          test::rel_err(H * d.dqdd_dq, -id.dtau_dq), test::rel_err(H * d.dqdd_dqd, -id.dtau_dqd)});
    }
    EXPECT_LT(worst, 1e-10);
}

// frame_motion_derivatives' algorithm against central differences of frame_states (frames.hpp), every
// body's link a frame: the world-aligned velocity along q's tangent directions and q̇, the classical
// acceleration along q, q̇ and q̈; and at three of the states against ADOL-C's forward mode on the same
// reference.
TEST_P(Derivatives, FrameMotionDerivativesAreCentralDifferencesAndAdolc) {
    std::vector<LinkFrame> frames;
    for (const Body& b : model.bodies)
        if (b.is_link()) frames.push_back(*link_frame(model, b.name));
    const int n = model.nv, nq = model.nq, rows = 6 * static_cast<int>(frames.size());
    double worst = 0, worst_adolc = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const std::vector<WorldAlignedMotionDerivatives<double>> d = world_aligned_motion_derivatives<double>(model, frames, x.q, x.qd, x.qdd);
        const auto motion_of = [&]<class S>(const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) {
            const std::vector<FrameState<S>> f = frame_states<S>(model, frames, q, qd, qdd);
            VecX<S> va(2 * rows);
            for (size_t j = 0; j < f.size(); ++j) va.template segment<6>(6 * j) = f[j].v, va.template segment<6>(rows + 6 * j) = f[j].a;
            return va;
        };
        const auto motion = [&](const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd) { return motion_of(q, qd, qdd); };
        const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return motion(q, x.qd, x.qdd); });
        const MatX<double> dqd = test::central(x.qd, [&](const VecX<double>& qd) { return motion(x.q, qd, x.qdd); });
        const MatX<double> dqdd = test::central(x.qdd, [&](const VecX<double>& qdd) { return motion(x.q, x.qd, qdd); });
        MatX<double> dv_dq(rows, n), dv_dqd(rows, n), da_dq(rows, n), da_dqd(rows, n), da_dqdd(rows, n);
        for (size_t j = 0; j < frames.size(); ++j) {
            dv_dq.middleRows<6>(6 * j) = d[j].dv_dq, dv_dqd.middleRows<6>(6 * j) = d[j].dv_dqd;
            da_dq.middleRows<6>(6 * j) = d[j].da_dq, da_dqd.middleRows<6>(6 * j) = d[j].da_dqd, da_dqdd.middleRows<6>(6 * j) = d[j].da_dqdd;
        }
        worst = std::max({worst, test::rel_err(dv_dq, dq.topRows(rows)), test::rel_err(dv_dqd, dqd.topRows(rows)),
                          test::rel_err(da_dq, dq.bottomRows(rows)), test::rel_err(da_dqd, dqd.bottomRows(rows)),
                          test::rel_err(da_dqdd, dqdd.bottomRows(rows)), test::rel_err(MatX<double>::Zero(rows, n), dqdd.topRows(rows))});
        if (s >= 3) continue;
        VecX<double> x0(nq + 2 * n);
        x0 << x.q, x.qd, x.qdd;
        const test::TaylorTape tape(7, x0, [&](const AVec& in) { return motion_of(AVec(in.head(nq)), AVec(in.segment(nq, n)), AVec(in.tail(n))); });
        const MatX<double> ad = tape.tangent_jacobian(x0, test::tangent_basis(model, x.q), 3 * n);
        worst_adolc = std::max({worst_adolc, test::rel_err(dv_dq, ad.topLeftCorner(rows, n)), test::rel_err(dv_dqd, ad.topRows(rows).middleCols(n, n)),
                                test::rel_err(da_dq, ad.bottomLeftCorner(rows, n)), test::rel_err(da_dqd, ad.bottomRows(rows).middleCols(n, n)),
                                test::rel_err(da_dqdd, ad.bottomRightCorner(rows, n))});
    }
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(worst_adolc, 1e-10);
    std::cout << GetParam().label() << ": frame motion derivatives against central differences, worst relative error " << worst
              << "; against ADOL-C " << worst_adolc << "\n";
}

// centroidal_derivatives' algorithm against central differences of centroidal_momentum_rate (the bodies'
// momenta and their rates summed, no recursion of derivatives) along q's tangent directions, q̇ and q̈,
// and against ADOL-C's forward mode on the same reference; ∂h/∂q̇ = ∂ḣ/∂q̈ = A_G (centroidal's recursion).
TEST_P(Derivatives, CentroidalDerivativesAreCentralDifferencesAndAdolc) {
    if (!(total_mass(model) > 0)) GTEST_SKIP() << GetParam().label() << " has no mass: no centre of mass";
    const int nq = model.nq, nv = model.nv;
    double worst = 0, worst_adolc = 0, worst_identity = 0;
    for (int s = 0; s < kStates; ++s) {
        const test::RandomState x = test::random_state(model, rng);
        const CentroidalDerivatives<double> d = centroidal_derivatives<double>(model, x.q, x.qd, x.qdd);
        const auto momentum = [&](const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd) {
            const CentroidalRate<double> r = centroidal_momentum_rate<double>(model, q, qd, qdd);
            VecX<double> hh(12);
            hh << r.h, r.hdot;
            return hh;
        };
        const MatX<double> dq = test::central_dq(model, x.q, [&](const VecX<double>& q) { return momentum(q, x.qd, x.qdd); });
        const MatX<double> dqd = test::central(x.qd, [&](const VecX<double>& qd) { return momentum(x.q, qd, x.qdd); });
        const MatX<double> dqdd = test::central(x.qdd, [&](const VecX<double>& qdd) { return momentum(x.q, x.qd, qdd); });
        const MatX<double> A = centroidal<double>(model, x.q, x.qd).A;
        worst = std::max({worst, test::rel_err(d.dh_dq, dq.topRows(6)), test::rel_err(d.dhdot_dq, dq.bottomRows(6)),
                          test::rel_err(d.dhdot_dqd, dqd.bottomRows(6)), test::rel_err(d.dhdot_dqdd, dqdd.bottomRows(6)),
                          test::rel_err(A, dqd.topRows(6)), test::rel_err(MatX<double>::Zero(6, nv), dqdd.topRows(6))});
        worst_identity = std::max(worst_identity, test::rel_err(d.dhdot_dqdd, A));
        if (s >= 3) continue;
        VecX<double> x0(nq + 2 * nv);
        x0 << x.q, x.qd, x.qdd;
        const test::TaylorTape tape(6, x0, [&](const AVec& in) {
            const CentroidalRate<adouble> r = centroidal_momentum_rate<adouble>(model, in.head(nq), in.segment(nq, nv), in.tail(nv));
            AVec hh(12);
            hh << r.h, r.hdot;
            return hh;
        });
        const MatX<double> ad = tape.tangent_jacobian(x0, test::tangent_basis(model, x.q), 3 * nv);
        worst_adolc = std::max({worst_adolc, test::rel_err(d.dh_dq, ad.topLeftCorner(6, nv)),
                                test::rel_err(d.dhdot_dq, ad.bottomLeftCorner(6, nv)),
                                test::rel_err(d.dhdot_dqd, ad.bottomRows(6).middleCols(nv, nv)),
                                test::rel_err(d.dhdot_dqdd, ad.bottomRightCorner(6, nv))});
    }
    EXPECT_LT(worst, 1e-6);
    EXPECT_LT(worst_adolc, 1e-10);
    EXPECT_LT(worst_identity, 1e-12);
    std::cout << GetParam().label() << ": centroidal derivatives against central differences, worst relative error " << worst
              << "; against ADOL-C " << worst_adolc << "\n";
}

INSTANTIATE_TEST_SUITE_P(AllModels, Derivatives, ::testing::ValuesIn(test::all_models()), test::case_name);

// Branch-induced zeros are never computed: in the traced kernel, ∂τ_i/∂q_j and ∂τ_i/∂q̇_j are the
// constant 0 exactly where joints i and j are not on one path to the root, and computed elsewhere.
TEST(DerivativeKernels, BranchInducedZerosAreNeverComputed) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {true});
    const Kernel k = trace_kernel(model, kernel_spec("rnea_derivatives"));
    const std::vector<std::vector<bool>> path = jsim_pattern(expanded_parent(model));
    long zeros = 0, computed_on_path = 0;
    for (int o = 0; o < 2; ++o)
        for (int i = 0; i < model.nv; ++i)
            for (int j = 0; j < model.nv; ++j) {
                const int node = k.output_nodes[o][i * model.nv + j];
                const bool computed = k.graph->node(node).op != sym::Op::Const;
                if (path[std::max(i, j)][std::min(i, j)]) {
                    computed_on_path += computed;
                    continue;
                }
                EXPECT_TRUE(k.graph->is_const(node, 0)) << "output " << o << " row " << i << " column " << j;
                ++zeros;
            }
    EXPECT_GT(zeros, model.nv * model.nv / 2);  // the humanoid's branches: a third of both matrices
    // on a path, every entry but ∂τ/∂(base position), which nothing depends on, and the entries of
    // ∂τ/∂q̇ the tree makes zero, is computed
    EXPECT_GT(computed_on_path, jsim_nonzeros(expanded_parent(model)));
    // report.json gives each output's count of what is computed
    const test::TempFile dir("derivatives_report", "");
    std::filesystem::remove(dir.str());
    const test::CommandResult r = test::run("generate --floating-base " + test::project_model("humanoid30.urdf") +
                                            " --kernels rnea_derivatives,aba_derivatives -o " + dir.str());
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json report = nlohmann::json::parse(std::ifstream(dir.str() + "/report.json"))["kernels"];
    EXPECT_EQ(report["rnea_derivatives"]["output_nonzeros_each"]["dtau_dq"].get<long>() +
                  report["rnea_derivatives"]["output_nonzeros_each"]["dtau_dqd"].get<long>(), computed_on_path);
    EXPECT_NE(report["aba_derivatives"]["method"].get<std::string>().find("ltdl"), std::string::npos);
    std::filesystem::remove_all(dir.str());
}

// The other way to derivatives (DESIGN.md): forward-mode differentiation of the traced RNEA, every
// direction a tangent pass over its graph in Expr arithmetic, so that zero tangents fold away and
// equal ones are shared, as the emitter would get them. Checked against the analytical derivatives at
// a state, and its operations counted against rnea_derivatives' trace: the analytical recursions must
// be the cheaper (they are the default for that reason; docs/derivatives.md).
long forward_mode_operations(const Model& model, const test::RandomState& x, const RneaDerivatives<double>& expected) {
    using sym::Expr;
    sym::Graph g;
    sym::Tracing tracing(g);
    const auto inputs = [](int array, int n) {
        VecX<Expr> v(n);
        for (int i = 0; i < n; ++i) v[i] = Expr::input(array, i);
        return v;
    };
    const VecX<Expr> q = inputs(0, model.nq), qd = inputs(1, model.nv), qdd = inputs(2, model.nv);
    const VecX<Expr> tau = rnea<Expr>(model, q, qd, qdd, x.gravity.cast<Expr>());
    std::vector<int> outputs;
    for (int i = 0; i < model.nv; ++i) outputs.push_back(tau[i].id());
    const std::vector<int> order = g.live(outputs);
    std::vector<int> derivatives;  // column by column: dτ/dq, then dτ/dq̇
    for (int d = 0; d < 2 * model.nv; ++d) {
        std::unordered_map<int, Expr> t;  // a node's tangent; absent: zero
        const auto seed = [&](const VecX<Expr>& v, int i, const Expr& e) { t[v[i].id()] = e; };
        if (d >= model.nv) seed(qd, d - model.nv, Expr(1.0));
        for (const Body& b : model.bodies) {
            if (d >= model.nv || d < b.v_index || d >= b.v_index + b.joint.nv()) continue;
            if (b.joint.one_dof()) {
                seed(q, b.q_index, Expr(1.0));
                continue;
            }
            const int k = d - b.v_index, iq = b.q_index, iu = iq + b.joint.quaternion_at();
            const Expr X = q[iu], Y = q[iu + 1], Z = q[iu + 2], W = q[iu + 3];
            if (k < 3) {  // d(Q ⊗ (e_k / 2, 1)) = Q ⊗ (e_k / 2, 0)
                const Vec3<Expr> v(X, Y, Z), e = Vec3<Expr>::Unit(k) * Expr(0.5);
                const Vec3<Expr> dv = e * W + v.cross(e);
                for (int c = 0; c < 3; ++c) seed(q, iu + c, dv[c]);
                seed(q, iu + 3, -v.dot(e));
            } else {  // R e_k
                const Expr two(2.0), one(1.0);
                const Vec3<Expr> columns[3] = {{one - two * (Y * Y + Z * Z), two * (X * Y + Z * W), two * (X * Z - Y * W)},
                                               {two * (X * Y - Z * W), one - two * (X * X + Z * Z), two * (Y * Z + X * W)},
                                               {two * (X * Z + Y * W), two * (Y * Z - X * W), one - two * (X * X + Y * Y)}};
                for (int c = 0; c < 3; ++c) seed(q, iq + c, columns[k - 3][c]);
            }
        }
        for (int id : order) {
            if (t.count(id)) continue;  // a seed
            const sym::Node n = g.node(id);
            const auto tangent = [&](int operand) { return t.count(operand) ? t.at(operand) : Expr(0.0); };
            const Expr a = n.a >= 0 ? Expr::from_id(n.a) : Expr(0.0), b = n.b >= 0 ? Expr::from_id(n.b) : Expr(0.0);
            const Expr ta = tangent(n.a >= 0 ? n.a : id), tb = n.b >= 0 ? tangent(n.b) : Expr(0.0);
            Expr d_id(0.0);
            switch (n.op) {
                case sym::Op::Const:
                case sym::Op::Input: continue;
                case sym::Op::Add: d_id = ta + tb; break;
                case sym::Op::Sub: d_id = ta - tb; break;
                case sym::Op::Mul: d_id = ta * b + a * tb; break;
                case sym::Op::Div: d_id = (ta - Expr::from_id(id) * tb) / b; break;
                case sym::Op::Neg: d_id = -ta; break;
                case sym::Op::Sqrt: d_id = ta * Expr(0.5) / Expr::from_id(id); break;
                case sym::Op::Sin: d_id = cos(a) * ta; break;
                case sym::Op::Cos: d_id = -(sin(a) * ta); break;
                default: ADD_FAILURE() << "RNEA's trace holds no coefficient function"; break;
            }
            if (!g.is_const(d_id.id(), 0)) t[id] = d_id;
        }
        for (int i = 0; i < model.nv; ++i) derivatives.push_back(t.count(outputs[i]) ? t.at(outputs[i]).id() : Expr(0.0).id());
    }
    // the same numbers as the analytical recursions
    std::vector<std::vector<double>> in{{x.q.data(), x.q.data() + model.nq}, {x.qd.data(), x.qd.data() + model.nv},
                                        {x.qdd.data(), x.qdd.data() + model.nv}};
    const std::vector<double> values = g.evaluate(in);
    MatX<double> dq(model.nv, model.nv), dv(model.nv, model.nv);
    for (int d = 0; d < 2 * model.nv; ++d)
        for (int i = 0; i < model.nv; ++i) (d < model.nv ? dq(i, d) : dv(i, d - model.nv)) = values[derivatives[d * model.nv + i]];
    EXPECT_LT(test::rel_err(dq, expected.dtau_dq), 1e-10);
    EXPECT_LT(test::rel_err(dv, expected.dtau_dqd), 1e-10);
    return g.count(derivatives).total();
}

TEST(DerivativeKernels, AnalyticalRecursionsAreCheaperThanForwardModeOfTheTrace) {
    std::vector<test::ModelCase> cases{{test::project_model("humanoid30.urdf"), true}};
    if (test::shared_models_present()) cases.push_back({test::shared_model("talos_full_v2.urdf"), true});
    std::mt19937_64 rng(1);
    for (const test::ModelCase& c : cases) {
        const Model model = prepare_model(test::load(c)).model;  // as the generator traces it
        const test::RandomState x = test::random_state(model, rng);
        const long forward = forward_mode_operations(model, x, rnea_derivatives<double>(model, x.q, x.qd, x.qdd, x.gravity));
        const long analytical = trace_kernel(model, kernel_spec("rnea_derivatives")).ops().total();
        const long rnea_ops = trace_kernel(model, kernel_spec("rnea")).ops().total();
        std::cout << c.label() << ": dtau/dq and dtau/dqd in " << analytical << " operations analytically, " << forward
                  << " by forward mode on the traced RNEA (" << rnea_ops << ")\n";
        EXPECT_LT(analytical, forward) << c.label();
    }
}

// A floating body alone, at rest, its centre of mass at c: τ = (m c × a, m a) with a = Rᵀ (−g) the
// acceleration of its frame in its own coordinates. Turning it to R exp(δω) turns a to exp(−δω) a,
// so ∂a/∂δω_k = −e_k × a = a × e_k; moving it (δv) changes nothing.
TEST(DerivativeKernels, FloatingBaseConventionByHand) {
    const test::TempFile urdf("floating_body.urdf", R"(<robot name="b"><link name="body"><inertial>
        <origin xyz="0.1 -0.2 0.3"/><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/>
        </inertial></link></robot>)");
    const Model model = load_urdf(urdf.str(), {true});
    ASSERT_EQ(model.nv, 6);
    VecX<double> q(7);
    const Eigen::Quaterniond Q(Eigen::AngleAxisd(0.7, Vec3<double>(1, 2, -0.5).normalized()));
    q << 0.3, -1, 2, Q.x(), Q.y(), Q.z(), Q.w();
    const Vec3<double> g(0, 0, -9.81), c(0.1, -0.2, 0.3);
    const double mass = 2;
    const Vec3<double> a = Q.toRotationMatrix().transpose() * -g;
    const VecX<double> zero = VecX<double>::Zero(6);
    const RneaDerivatives<double> d = rnea_derivatives<double>(model, q, zero, zero, g);
    const MatX<double> expected_dq = [&] {
        MatX<double> e = MatX<double>::Zero(6, 6);
        for (int k = 0; k < 3; ++k) {
            const Vec3<double> da = a.cross(Vec3<double>::Unit(k));
            e.block<3, 1>(0, k) = mass * c.cross(da);
            e.block<3, 1>(3, k) = mass * da;
        }
        return e;
    }();
    EXPECT_LT(test::rel_err(d.dtau_dq, expected_dq), 1e-14) << d.dtau_dq << "\n\n" << expected_dq;
    EXPECT_LT(d.dtau_dqd.cwiseAbs().maxCoeff(), 1e-14);  // at rest, no velocity term
}

}  // namespace
}  // namespace rbdgen
