#include "sym/special.hpp"

#include <stdexcept>

#include "rbdgen_runtime.hpp.in"  // the definitions the kernels call

namespace rbdgen {

double sinc(double x) { return rbdgen_sinc(x); }
double cosc(double x) { return rbdgen_cosc(x); }
double sinc3(double x) { return rbdgen_sinc3(x); }
double cosc_dx(double x) { return rbdgen_cosc_dx(x); }
double sinc3_dx(double x) { return rbdgen_sinc3_dx(x); }
double dexp_inv(double x) { return rbdgen_dexp_inv(x); }
double log_ratio(double y, double w) { return rbdgen_log_ratio(y, w); }

namespace sym {
namespace {
template <class T> T value(Op op, T x, T y) {
    switch (op) {
        case Op::Sinc: return rbdgen_sinc(x);
        case Op::Cosc: return rbdgen_cosc(x);
        case Op::Sinc3: return rbdgen_sinc3(x);
        case Op::CoscDx: return rbdgen_cosc_dx(x);
        case Op::Sinc3Dx: return rbdgen_sinc3_dx(x);
        case Op::DexpInv: return rbdgen_dexp_inv(x);
        case Op::LogRatio: return rbdgen_log_ratio(x, y);
        default: throw std::logic_error("not a special operation");
    }
}
}  // namespace
double special_value(Op op, double x, double y) { return value(op, x, y); }
float special_value(Op op, float x, float y) { return value(op, x, y); }

const char* special_name(Op op) {
    switch (op) {
        case Op::Sinc: return "rbdgen_sinc";
        case Op::Cosc: return "rbdgen_cosc";
        case Op::Sinc3: return "rbdgen_sinc3";
        case Op::CoscDx: return "rbdgen_cosc_dx";
        case Op::Sinc3Dx: return "rbdgen_sinc3_dx";
        case Op::DexpInv: return "rbdgen_dexp_inv";
        case Op::LogRatio: return "rbdgen_log_ratio";
        default: throw std::logic_error("not a special operation");
    }
}
}  // namespace sym

}  // namespace rbdgen
