// Every reference algorithm, on one model of each shape: every kernel's reference (kernel_specs() with
// external wrenches, operational frames and a payload; the N-CMTM's with its Jacobians; each problem's
// assembly, static-pivot LU, solve, articulated-body solve and derivatives) at random states, through
// emit/prepare.hpp's reference_outputs, as the generator's snapping check runs them. The oracles: every
// kernel runs and returns finite numbers, and Nori's system against the classical algorithms (a second
// formulation): inverse dynamics by the LU is RNEA's τ, forward dynamics ABA's q̈, and constrained
// dynamics and an impact by the LU are those of the articulated-body solve.
//
// The numbers of each algorithm are checked against their oracles (ADOL-C, central differences,
// MuJoCo, KDL, identities) in the main build's test_algorithms, test_derivatives, test_contacts, ...
// In the sanitized build, which leaves those out (their ADOL-C instantiations and checks were 320 CPU
// s of its build, docs/testing.md "The sanitized build"), this test is where the reference algorithms
// run under ASan and UBSan: the same instantiations in double (instances/double.cpp), on every kernel.
#include <algorithm>
#include <set>

#include "emit/kernel.hpp"
#include "emit/prepare.hpp"
#include "sparse/analysis.hpp"
#include "sparse/problem.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

struct Shape {
    test::ModelCase model;
    std::vector<std::string> wrenches, frames, payload;  // links
    int ncmtm_order;
    std::vector<std::string> problems;
    bool shared = false;
};
void PrintTo(const Shape& s, std::ostream* os) { *os << s.model.label(); }

std::vector<Shape> shapes() {
    return {
        // a chain
        {{test::project_model("arm7.urdf"), false}, {"link007", "link003"}, {"link007", "link003"}, {"link007"}, 3,
         {"id", "fd", "contact:link007", "impulse:link007:point"}},
        // a branched floating robot: four feet held with Baumgarte's stabilization, an impact (a problem's
    // analysis took 3.5 to 5 s under the sanitizers; inverse and forward dynamics are on a floating
    // base in forms_degree)
        {{test::project_model("quadruped.urdf"), true}, {"link003", "link009"}, {"link006"}, {"link012"}, 2,
         {test::project_model("problems/quadruped_baumgarte.yaml"), "impulse:link003:point,link009"}},
        // MJCF: a free joint, ball joints, bodies of several joints
        {{test::project_model("mjcf/forms_degree.xml"), false}, {}, {}, {}, 2, {"id", "fd"}},
        // SDFormat: a nested model, a universal joint
        {{test::project_model("sdf/nested_arm.sdf"), false}, {}, {}, {}, 1, {"id", "fd"}},
        // a real robot of merged fixed joints: the frames, wrench and payload on a merged link
        {{test::shared_model("ur5.urdf"), false}, {"tool0"}, {"tool0", "forearm_link"}, {"tool0"}, 2, {"id", "fd"}, true},
    };
}

class References : public ::testing::TestWithParam<Shape> {};

TEST_P(References, EveryKernelRunsAndNorisSystemAgreesWithTheClassicalAlgorithms) {
    const Shape& c = GetParam();
    if (c.shared) RBDGEN_SKIP_IF_NO_SHARED_MODELS();
    const Model model = test::load(c.model);
    std::vector<KernelSpec> specs = kernel_specs(link_frames(model, c.wrenches, "wrenches", true), link_frames(model, c.frames, "frames", false),
                                                 link_frames(model, c.payload, "payload", true));
    for (KernelSpec& k : ncmtm_kernel_specs(model, c.ncmtm_order)) specs.push_back(std::move(k));
    std::vector<std::string> names;
    for (const std::string& p : c.problems) {
        const Problem problem = load_problem(model, p);
        names.push_back(problem.name);
        for (KernelSpec& k : problem_kernel_specs(std::make_shared<const ProblemAnalysis>(analyze_problem(model, problem))))
            specs.push_back(std::move(k));
    }
    // every kernel family is here: the default ones, those on request, the frames', the N-CMTM's
    std::set<std::string> spec_names;
    for (const KernelSpec& k : specs) spec_names.insert(k.name);
    for (const bool on_request : {false, true})
        for (const std::string& k : kernel_names(on_request)) EXPECT_TRUE(spec_names.count(k)) << k;
    if (!c.frames.empty())
        for (const std::string& k : frame_kernel_names()) EXPECT_TRUE(spec_names.count(k)) << k;
    for (const char* k : {"ncmtm_fk", "cornea", "ncmtm_fd", "ncmtm_jacobian", "ncmtm_torque_jacobian"}) EXPECT_TRUE(spec_names.count(k)) << k;

    const int states = test::states(3);
    for (int s = 0; s < states; ++s) {
        const std::map<std::string, Arrays<double>> out = reference_outputs(model, 7 + s, specs);
        for (const KernelSpec& k : specs) {
            const auto it = out.find(k.name);
            ASSERT_NE(it, out.end()) << k.name << " did not run";
            ASSERT_EQ(it->second.size(), k.outputs.size()) << k.name;
            for (size_t o = 0; o < k.outputs.size(); ++o) {
                EXPECT_EQ(it->second[o].size(), k.outputs[o].size(model)) << k.name << "." << k.outputs[o].name;
                EXPECT_TRUE(it->second[o].allFinite()) << k.name << "." << k.outputs[o].name;
            }
        }
        // Nori's LU against RNEA and ABA, and against the articulated-body solve of the contacts
        // (without the external wrenches and payload, which the problems do not take)
        const std::map<std::string, Arrays<double>> plain = reference_outputs(model, 7 + s, {kernel_spec("rnea"), kernel_spec("aba")});
        const auto same = [&](const VecX<double>& x, const VecX<double>& y, const std::string& what) {
            ASSERT_EQ(x.size(), y.size()) << what;
            EXPECT_LT((x - y).norm(), 1e-9 * (1 + y.norm())) << what;
        };
        for (size_t n = 0; n < names.size(); ++n) {
            const std::string& p = names[n];
            if (p == "id") {
                same(out.at("id_lu")[0], plain.at("rnea")[0], "id_lu against rnea");
                continue;
            }
            if (p == "fd") {
                same(out.at("fd_lu")[0], plain.at("aba")[0], "fd_lu against aba");
                continue;
            }
            // the contacts and impacts here (and the problem file's) are of one contact a body: they have the articulated-body solve
            ASSERT_TRUE(out.count(p + "_aba")) << p;
            const Arrays<double>& lu = out.at(p + "_lu");
            const Arrays<double>& aba = out.at(p + "_aba");
            ASSERT_EQ(lu.size(), aba.size()) << p;
            for (size_t o = 0; o < lu.size(); ++o) same(aba[o], lu[o], p + "_aba against " + p + "_lu");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, References, ::testing::ValuesIn(shapes()),
                         [](const ::testing::TestParamInfo<Shape>& i) { return test::case_name(::testing::TestParamInfo<test::ModelCase>(i.param.model, i.index)); });

}  // namespace
}  // namespace rbdgen
