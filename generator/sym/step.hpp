// One step of an algorithm, such as one body of one pass, marked for the compact emission
// (emit/compact.cpp): the steps of a kernel that trace to the same operations on different constants
// are emitted as one function, called once a step with that step's constants and value slots.
// In the algorithms, `const Step<S> step;` at the top of a loop's body; it does nothing in double
// and float, and when tracing tags every node made until the end of the scope.
#pragma once

namespace rbdgen::sym {
class Expr;
void begin_step();  // on the current trace's graph (Graph::begin_step)
void end_step();
void begin_model();  // Graph::begin_model
void end_model();
bool opaque_model();  // the current trace's Graph::opaque_model
}  // namespace rbdgen::sym

namespace rbdgen {

template <class S> struct Step {
    Step() {}  // user-provided: a Step is a guard, not an unused variable
};

template <> struct Step<sym::Expr> {
    Step() { sym::begin_step(); }
    ~Step() { sym::end_step(); }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;
};

}  // namespace rbdgen

namespace rbdgen {

// The model's constants (a placement, an inertia) converted in this scope: when tracing for the
// compact emission with Graph::opaque_model, they stay values that never fold. Nothing in double.
// A step inside a step, opened only in the uniform emission's trace (Graph::opaque_model): there
// CRBA's hops to each ancestor, and each screw factor of a transform (spatial/screw.hpp), are steps of
// their own, shared by the bodies of a joint type; in the compact trace they stay in their body's
// step, and the calls would only cost time (talos crba 2317 → 2560 ns hot with the hops alone).
template <class S> struct UniformStep {
    UniformStep() {}
};

template <> struct UniformStep<sym::Expr> {
    UniformStep() : opened_(sym::opaque_model()) {
        if (opened_) sym::begin_step();
    }
    ~UniformStep() {
        if (opened_) sym::end_step();
    }
    UniformStep(const UniformStep&) = delete;
    UniformStep& operator=(const UniformStep&) = delete;

private:
    bool opened_;
};

template <class S> struct ModelConstants {
    ModelConstants() {}
};

template <> struct ModelConstants<sym::Expr> {
    ModelConstants() { sym::begin_model(); }
    ~ModelConstants() { sym::end_model(); }
    ModelConstants(const ModelConstants&) = delete;
    ModelConstants& operator=(const ModelConstants&) = delete;
};

}  // namespace rbdgen
