// The float error budget of a traced kernel, without a compiler: its expression graph evaluated in
// float and in double arithmetic (sym::Graph::evaluate, the operations a `--scalar float` kernel
// performs, in its order) on random states of three kinds, the relative error of the float outputs
// ‖y_float − y_double‖∞ / max(‖y_double‖∞, 1% of its median over the states) per state, its worst and
// its 99th percentile.
#pragma once

#include <functional>
#include <string>

#include "emit/kernel.hpp"

namespace rbdgen {

struct FloatError {
    double worst = 0, p99 = 0;
    int states = 0;          // states whose double result was finite
    std::string worst_kind;  // "random", "right angles" (1-DoF angles at multiples of pi/2) or "fast" (10x velocities)
};

// `producer(name)`: the traced kernel that makes an input a state does not give (crba's H for
// ltdl), evaluated in double for each state and rounded to float for the float run, so that a
// kernel's budget is its own. Without one, an identity-dominated matrix or random numbers.
FloatError float_error(const Model& model, const Kernel& kernel, const std::function<const Kernel*(const std::string&)>& producer,
                       int states = 1000);

}  // namespace rbdgen
