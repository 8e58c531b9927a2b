// The Python module of a generated robot (pybind11): every emitted kernel as a function of NumPy
// arrays, written from the kernels' specs like the header and the drivers (templates/rbdgen_python.hpp.in
// does the arrays' checks and the loop over states).
#pragma once

#include <string>
#include <vector>

#include "emit/kernel.hpp"

namespace rbdgen {

struct PythonKernel {
    const Kernel* kernel;
    bool refused;  // undefined for this robot (forward dynamics with H singular): raises the header's fd_refusal
};

// <ns>_python.cpp: module `ns`, the kernels of header `header` (namespace ns); banner: the files' first lines;
// batch: the header's BATCH (calls of many states then go through batch::), or 0.
std::string python_module(const std::string& ns, const std::string& header, const std::string& banner,
                          const std::vector<PythonKernel>& kernels, int batch);

}  // namespace rbdgen
