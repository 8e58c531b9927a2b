// A kernel's description (KernelSpec) and its trace (Kernel). Everything the generator emits for a
// kernel derives from its spec: the declaration and its docs in the robot header, the eval and bench
// drivers, the report, `rbdgen generate --help`'s kernel list and rbdgen_add_robot's. Adding a kind
// of kernel is adding an entry to kernel_specs() (emit/kernel_specs.cpp) and its algorithm.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "emit/eval_form.hpp"
#include "model/model.hpp"
#include "sym/expr.hpp"

namespace rbdgen {

// How an array's elements are laid out.
enum class ArrayLayout {
    Vector,         // rows x 1
    RowMajor,       // rows x cols, row by row
    LowerRowMajor,  // rows x cols, row by row; only the lower triangle (j <= i) is read or meaningful
};

// What an eval driver (and `rbdgen eval`) fills an input with, from STATE.json; None: the kernel
// takes something a state does not give, and is not in eval's output.
// MotionQ and Motion: q and the joint motion ψ, ψ̇, …, ψ^(N) of STATE.json's "motion" (the N-CMTM kernels).
// ExternalWrenches: STATE.json's "external_wrenches", a row of 6 a link (the array's element names).
// Parameters: STATE.json's "parameters", a row of 10 a link (the URDF's values for a link it leaves out).
// QNext: q ⊕ qd, the configuration a unit time's motion reaches (eval's difference; the drivers' from integrate).
enum class StateField { None, Q, V, A, Tau, Gravity, Measurements, MotionQ, Motion, ExternalWrenches, Parameters, QNext };

struct ArraySpec {
    std::string name;  // a C++ identifier we choose (q, qd, tau, H, ...), never from the URDF
    std::string doc;
    std::function<int(const Model&)> rows;
    std::function<int(const Model&)> cols;  // empty: a vector (one column)
    ArrayLayout layout = ArrayLayout::Vector;
    StateField state = StateField::None;  // inputs
    bool angles = false;                  // input q: the `_sc` entry point takes its sines and cosines instead
    std::string produced_by;              // input: the kernel whose output of this name the bench driver feeds it
    std::optional<EvalForm> json;         // outputs: how `rbdgen eval` prints it (emit/eval_form.hpp), or not at all
    // Measurements input ("<sensor>.<component>", filled from STATE.json's "measurements") and Named
    // outputs: a name an element.
    std::vector<std::string> element_names;
    // Matrix outputs (row-major): the names of the rows and of the columns; none, the model's dofs.
    std::function<std::vector<std::string>(const Model&)> row_names, column_names;
    std::vector<std::string> names_of_rows(const Model& m) const { return row_names ? row_names(m) : m.dof_names(); }
    std::vector<std::string> names_of_columns(const Model& m) const { return column_names ? column_names(m) : m.dof_names(); }
    // What eval prints beside the values (EvalResult::names and row_names): a Matrix's columns and rows,
    // LinkPoses' rows (its links), the element names of the others.
    std::vector<std::string> printed_names(const Model& m) const {
        return json == EvalForm::Matrix ? names_of_columns(m) : json == EvalForm::LinkPoses ? names_of_rows(m) : element_names;
    }
    std::vector<std::string> printed_row_names(const Model& m) const { return json == EvalForm::Matrix ? names_of_rows(m) : std::vector<std::string>(); }
    std::vector<double> defaults;  // Parameters: the URDF's values (the float budget's and bench driver's input)
    int n_rows(const Model& m) const { return rows(m); }
    int n_cols(const Model& m) const { return cols ? cols(m) : 1; }
    int size(const Model& m) const { return n_rows(m) * n_cols(m); }
};

template <class S> using Arrays = std::vector<VecX<S>>;  // a kernel's arrays, each flattened by its layout

struct KernelSpec {
    std::string name;  // a C++ identifier: the function's name
    std::string doc;
    std::vector<ArraySpec> inputs, outputs;
    // Forward dynamics is undefined when H is singular (a joint moving only massless links): the
    // kernel is then emitted returning NaN, and eval leaves it out naming why.
    bool forward_dynamics = false;
    // Emitted only when --kernels names it (the regressor and the N-CMTM Jacobians: large, and not every
    // user wants them).
    bool on_request = false;
    // The compact emission writes Featherstone's LTDL and its solve as loops over the tree's tables
    // (emit/ltdl_loops.hpp): Factor reads H and writes LD, Solve reads LD and b and writes x, and
    // FactorAndSolve runs `head` (the kernel's inputs to H's nonzeros in ltdl_rows order and the bias
    // forces C, traced and emitted like any kernel), τ − C, and both, leaving q̈ in its output.
    // Derivatives runs the same to a q̈ of its own, then `tail` (the kernel's inputs with that q̈ in
    // place of τ, to ∂τ/∂q and ∂τ/∂q̇ written into its first two outputs), and solves with the factors
    // all their columns at once, negated, and the identity's into its third output (H⁻¹): aba_derivatives.
    // DerivativePairs runs `head` (the kernel's inputs to the vectors of rnea_derivatives' pair terms)
    // and the pair terms as loops over LTDL's rows (a DoF and its ancestors): rnea_derivatives.
    // DerivativesArticulated, aba_derivatives' other route, runs `head` (the kernel's inputs to H⁻¹,
    // written into its third output, and q̈), `tail` as Derivatives does, and the products of H⁻¹ with
    // the tail's outputs as loops over whole rows.
    // Kkt, a contact problem's derivatives (algorithms/contact_dynamics_derivatives.hpp), runs `head` (the
    // kernel's inputs to H's factors LD, J, τ − C or an impact's q̇ and k, its four outputs), the dense
    // steps as loops over whole rows (W, A, G, q̈ and λ), `tail` (q, qd, qdd, lambda and gravity to the
    // right-hand sides [R; M] along q and q̇, one output each) and their solves as loops into the kernel's
    // outputs: the i-th side's into output i (the joint rows) and the one after the joint outputs (the
    // wrench rows); then along τ or, an impact, q̇, and along Baumgarte's errors where kkt_errors has
    // them (emit/ltdl_loops.cpp kkt_loops).
    enum class LtdlLoops { None, Factor, Solve, FactorAndSolve, Derivatives, DerivativePairs, DerivativesArticulated, Kkt };
    LtdlLoops ltdl_loops = LtdlLoops::None;
    // Kkt: Baumgarte's errors e, element by element, the row of k (the held rows) it enters and its kp
    // (algorithms/contact_dynamics_derivatives.hpp held_errors)
    std::vector<std::pair<int, double>> kkt_errors;
    std::shared_ptr<const KernelSpec> head, tail;
    // How the kernel computes what it does, where there was a choice (report.json "method"): the words
    // before its first ':' name the method.
    std::string method;
    // The same kernel by other algorithms (same inputs and outputs): trace_kernel traces each and keeps
    // the one of fewest operations for this robot; for a kernel emitted as loops, emitted_kernel keeps
    // the one of lowest ltdl_loop_ops with vector lanes instead (emit/ltdl_loops.hpp).
    std::vector<std::shared_ptr<const KernelSpec>> alternatives;
    // Traced with value numbering by value (sym/merge_values.hpp): Nori's LU, whose symmetric
    // products Xᵀ Iᴬ X are traced as two expressions a pair of entries.
    bool merge_values = false;
    // The algorithm on the two scalars: the reference (double) and the tracer (symbolic).
    std::function<Arrays<double>(const Model&, const Arrays<double>&)> reference;
    std::function<Arrays<sym::Expr>(const Model&, const Arrays<sym::Expr>&)> trace;
    // Eval prints it when a state gives all its inputs and it has a printable output.
    bool evaluated() const;
    // The key of output `o` in eval's JSON: the kernel's name, or "kernel.output" when it prints several.
    std::string result_name(size_t o) const;
};

// Every kernel, in the order they are emitted and reported.
const std::vector<KernelSpec>& kernel_specs();
// The links named `links`. Throws rbdgen::Error, starting with `where` (the option or file that names
// them), naming a link the model does not have (with the closest names), one named twice, or with
// `moving`, one welded to the fixed base.
std::vector<LinkFrame> link_frames(const Model& model, const std::vector<std::string>& links, const std::string& where, bool moving);
// The kernels for links that carry external wrenches (--external-forces: rnea, aba and fd_crba_ltdl
// take input f_ext, a row of 6 a link, [torque; force] in the link's URDF frame about its origin) and
// operational frames (--frames: fk also returns their poses, and the kernels frame_jacobians and
// frame_motion are added); kernel_specs() when there are neither.
// With a payload (--parameters), rnea, gravity, nle, crba, aba and fd_crba_ltdl take input pi: the
// links' inertial parameters, a row of 10 a link (algorithms/regressor.hpp's order).
std::vector<KernelSpec> kernel_specs(const std::vector<LinkFrame>& wrenches, const std::vector<LinkFrame>& frames,
                                     const std::vector<LinkFrame>& payload = {});
// The kernels only --frames adds.
const std::vector<std::string>& frame_kernel_names();
// The kernels that divide by the moving bodies' total mass (the centre of mass and the centroidal
// momentum): refused on a robot of no mass.
const std::vector<std::string>& mass_kernel_names();
// The kernels of one analysed problem on Nori's system (sparse/analysis.hpp), named after it: the
// fused <problem>_lu (the unknowns asked for from q, qd, the known quantities and gravity), and its
// three steps <problem>_assemble (D's nonzeros and b), <problem>_factor (the static-pivot LU) and
// <problem>_solve (every variable of d).
struct ProblemAnalysis;
std::vector<KernelSpec> problem_kernel_specs(std::shared_ptr<const ProblemAnalysis> analysis);
// The N-CMTM kernels of order N (Samy et al.): ncmtm_fk, cornea and ncmtm_fd (the model names the
// links of ncmtm_fk's output), and on request the Jacobians ncmtm_jacobian and ncmtm_torque_jacobian.
// Throws rbdgen::Error for an order out of range.
std::vector<KernelSpec> ncmtm_kernel_specs(const Model& model, int order);
constexpr int kMaxNcmtmOrder = 12;
// The spec of `name`; throws rbdgen::Error listing the kernels when there is none.
const KernelSpec& kernel_spec(const std::string& name);
// The kernels emitted by default, or (on_request) those emitted only when --kernels names them.
std::vector<std::string> kernel_names(bool on_request = false);

// An array of a traced kernel: the spec's, sized for the model.
struct KernelArray {
    std::string name, doc;
    int rows = 0, cols = 1;
    ArrayLayout layout = ArrayLayout::Vector;
    int size() const { return rows * cols; }
};

struct Kernel {
    const KernelSpec* spec = nullptr;
    std::string name, doc;
    std::unique_ptr<sym::Graph> graph = std::make_unique<sym::Graph>();
    std::vector<KernelArray> inputs, outputs;
    std::vector<std::vector<int>> output_nodes;  // graph node of each element of each output
    // Divisions sharing a divisor are one reciprocal and multiplications (sym::share_reciprocals);
    // the operations as the algorithm wrote them, where that changed them.
    std::optional<sym::OpCounts> ops_with_divisions;
    // The spec's method, or the alternative's that was kept, with the operations of each traced.
    std::string method;
    std::vector<int> all_output_nodes() const;
    sym::OpCounts ops() const { return graph->count(all_output_nodes()); }
};

// Trace one kernel of the model (which must already be in the generator's internal frames).
// Divisions that share a divisor become one reciprocal and multiplications unless keep_divisions.
// What the trace folds: everything (straight-line), all but the signs of constants (compact:
// sym::Graph::sign_neutral), or also none of the model's placements and inertias (uniform:
// sym::Graph::opaque_model). Of a kernel's methods (KernelSpec::alternatives), the one named
// `method` (--method), else the one of fewest operations.
enum class Folding { Full, SignNeutral, Opaque };
Kernel trace_kernel(const Model& model, const KernelSpec& spec, int max_nodes = sym::Graph::default_max_nodes,
                    bool keep_divisions = false, Folding folding = Folding::Full, const std::string& method = "");
// The name of a method: the words of KernelSpec::method before its first ':'.
std::string method_name(const std::string& method);

}  // namespace rbdgen
