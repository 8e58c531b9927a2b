// The Lie groups' coefficient functions of x = θ² (sinc, cosc, sinc3, their derivatives, dexp_inv and
// the quaternion logarithm's log_ratio), for the algorithms in double and float: the same definitions
// the emitted code calls (templates/rbdgen_runtime.hpp.in, included by special.cpp), so that the
// generator's reference and the kernels compute one function. For sym::Expr, sym/expr.hpp makes
// each a node of its own (Op::Sinc ...).
#pragma once

#include "sym/expr.hpp"

namespace rbdgen {

double sinc(double x);
double cosc(double x);
double sinc3(double x);
double cosc_dx(double x);
double sinc3_dx(double x);
double dexp_inv(double x);
double log_ratio(double y, double w);

namespace sym {
// A special operation's value (Op::Sinc ... Op::LogRatio; y only for LogRatio).
double special_value(Op op, double x, double y);
float special_value(Op op, float x, float y);
// Its name in the emitted code
const char* special_name(Op op);
}  // namespace sym

}  // namespace rbdgen
