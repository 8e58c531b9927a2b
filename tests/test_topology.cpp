// Featherstone §2 and §4: expanded parent array, depths, D0/D1/D2 against the paper's closed forms.
#include "model/synthetic.hpp"
#include "model/topology.hpp"
#include "test_support.hpp"

namespace rbdgen {
namespace {

// Featherstone's 1-based arrays (0 = root) to ours (0-based, −1 = root) and back.
std::vector<int> from_paper(std::vector<int> lambda) {
    for (int& p : lambda) p -= 1;
    return lambda;
}

TEST(Topology, ExpandedParentArrayOfTree1) {
    // §2, Fig. 2: Tree 1 with joints 1, 2 and 6 of 2, 2 and 3 DoF.
    const std::vector<int> lambda = from_paper({0, 1, 1, 2, 2, 3, 3});
    const std::vector<int> n_i = {2, 2, 1, 1, 1, 3, 1};
    EXPECT_EQ(expanded_parent(lambda, n_i), from_paper({0, 1, 2, 3, 2, 4, 4, 5, 8, 9, 5}));
}

TEST(Topology, JsimPatternOfTree1) {
    // Eq. (4).
    const char* expected[] = {"xxxxxxx", "xx.xx..", "x.x..xx", "xx.x...", "xx..x..", "x.x..x.", "x.x...x"};
    const auto p = jsim_pattern(from_paper({0, 1, 1, 2, 2, 3, 3}));
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) EXPECT_EQ(p[i][j], expected[i][j] == 'x') << i << "," << j;
}

struct ClosedForm {
    long n, D1, D2;
};

// Table 2.
ClosedForm table2(const std::string& topology, long m) {
    if (topology == "chain") return {m, (m * m - m) / 2, (m * m * m - m) / 6};
    if (topology == "sidebranch") return {2 * m, m * m, (2 * m * m * m + 3 * m * m + m) / 6};
    if (topology == "grid") return {m * m, m * m * m - m * m, (7 * m * m * m * m - 6 * m * m * m - m * m) / 12};
    long D1 = 0, D2 = 0;  // balanced binary tree
    for (long i = 1; i <= m - 1; ++i) {
        D1 += i * (1L << i);
        D2 += i * (i + 1) * (1L << (i - 1));
    }
    return {(1L << m) - 1, D1, D2};
}

TEST(Topology, Table2ClosedFormsFromUrdf) {
    for (const std::string topology : {"chain", "sidebranch", "bintree", "grid"}) {
        for (int m : {1, 2, 3, 4, 5, 7}) {
            // Through the whole path: synthetic URDF text, urdfdom, the model's parent array.
            const Model model = load_urdf_string(synthetic_urdf(synthetic_tree(topology, m), 42), topology);
            const ClosedForm expected = table2(topology, m);
            const CostQuantities c = cost_quantities(parent_array(model));
            EXPECT_EQ(model.nv, expected.n) << topology << " m=" << m;
            EXPECT_EQ(c.D1, expected.D1) << topology << " m=" << m;
            EXPECT_EQ(c.D2, expected.D2) << topology << " m=" << m;
            EXPECT_EQ(jsim_nonzeros(parent_array(model)), 2 * expected.D1 + expected.n);
        }
    }
}

TEST(Topology, LargeTable2Trees) {
    for (const std::string topology : {"chain", "sidebranch", "bintree", "grid"}) {
        const int m = topology == "bintree" ? 9 : topology == "grid" ? 16 : 100;
        const ClosedForm expected = table2(topology, m);
        const CostQuantities c = cost_quantities(synthetic_tree(topology, m).parent);
        EXPECT_EQ(c.D1, expected.D1) << topology;
        EXPECT_EQ(c.D2, expected.D2) << topology;
    }
}

TEST(Topology, HumanoidOfSection6) {
    const Model model = load_urdf(test::project_model("humanoid30.urdf"), {.floating_base = true});
    EXPECT_EQ(model.nv, 30);
    const CostQuantities c = cost_quantities(parent_array(model));
    const CostQuantities ce = cost_quantities(expanded_parent(model));
    EXPECT_EQ(c.D0, 24);
    EXPECT_EQ(c.D1, 84);
    EXPECT_EQ(ce.D1, 219);
    EXPECT_EQ(ce.D2, 1039);
    EXPECT_EQ(jsim_nonzeros(expanded_parent(model)), 468);  // "2 D1e + 30 = 468"
}

TEST(Topology, DepthsAndBranches) {
    const std::vector<int> lambda = from_paper({0, 1, 1, 2, 2, 3, 3});
    EXPECT_EQ(depths(lambda), (std::vector<int>{1, 2, 2, 3, 3, 3, 3}));
    EXPECT_EQ(branching_bodies(lambda), 3);
    EXPECT_EQ(leaf_bodies(lambda), 4);
}

}  // namespace
}  // namespace rbdgen
