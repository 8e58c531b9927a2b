// A kernel: one traced algorithm with its inputs and outputs, ready to emit as a C++ function.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "sym/expr.hpp"

namespace rbdgen {

struct KernelArray {
    std::string name;  // a C++ identifier we choose (q, qd, tau, H, ...), never from the URDF
    int size = 0;
    std::string doc;
};

struct Kernel {
    std::string name;  // fk, rnea, gravity, crba, ltdl, ltdl_solve, fd_crba_ltdl, aba, jacobians
    std::string doc;
    std::unique_ptr<sym::Graph> graph = std::make_unique<sym::Graph>();
    std::vector<KernelArray> inputs;
    KernelArray output;
    std::vector<int> output_nodes;  // graph node of each output element
    sym::OpCounts ops() const { return graph->count(output_nodes); }
};

// The kernel names, in the order they are emitted and reported.
const std::vector<std::string>& kernel_names();

// Trace one kernel of the model (which must already be in the generator's internal frames).
Kernel trace_kernel(const Model& model, const std::string& name, int max_nodes = sym::Graph::default_max_nodes);

}  // namespace rbdgen
