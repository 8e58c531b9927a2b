// How `rbdgen eval` and a generated robot's eval driver print a kernel's output (cli/state.hpp
// EvalResult; each kernel output names its own, emit/kernel.hpp ArraySpec::json): by joint name (NV
// entries), as the NV x NV matrix with the names of its rows, by the array's element names, by joint
// name a list of derivatives (rows: the derivatives, NV columns), by the element names a row of
// 6-vectors (one row a link), as a matrix with the names of its rows and of its columns, or by link
// name a pose (12 a link: R row-major, then p).
#pragma once

namespace rbdgen {

enum class EvalForm { JointVector, JointMatrix, Named, JointDerivatives, LinkMotions, Matrix, LinkPoses };

// The enumerator as C++ source names it (the eval driver's text, emit/drivers.cpp).
constexpr const char* enumerator_name(EvalForm f) {
    switch (f) {
        case EvalForm::JointVector: return "JointVector";
        case EvalForm::JointMatrix: return "JointMatrix";
        case EvalForm::Named: return "Named";
        case EvalForm::JointDerivatives: return "JointDerivatives";
        case EvalForm::LinkMotions: return "LinkMotions";
        case EvalForm::Matrix: return "Matrix";
        case EvalForm::LinkPoses: return "LinkPoses";
    }
    return "";
}

}  // namespace rbdgen
