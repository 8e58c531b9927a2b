// The emitter's middle pass: a traced kernel as the list of statements a backend prints, in order,
// with how each value is read. No text here: the straight-line backend (emit_cpp.cpp) prints a
// schedule one statement a line; another backend (compact, batched) may print the same schedule
// differently without touching this pass or that backend.
#pragma once

#include <string>
#include <vector>

#include "emit/kernel.hpp"

namespace rbdgen {

// How a node's value is read where it is used.
struct Value {
    enum class Kind { Temporary, Constant, Input, SinQ, CosQ } kind = Kind::Temporary;
    double constant = 0;         // Constant
    int array = -1, index = -1;  // Input: the kernel's input array and element; SinQ, CosQ: the element of q
    std::string name;            // Temporary: the algorithm's name for it (made an identifier), or empty
};

struct Statement {
    enum class Kind {
        Assign,      // target = op(a, b)
        SinCos,      // sin and cos of one angle (a), from one call
        SinCos2,     // sin and cos of two angles (a, b), from one two-lane call
        TurnedTrig,  // the `_sc` entry point: sin or cos of q[index] + θ from sin_q, cos_q (angle addition)
        Store,       // output array `output`, element `element` = a
    } kind;
    sym::Op op = sym::Op::Add;  // Assign; TurnedTrig: Sin or Cos
    int target = -1;            // Assign, TurnedTrig: the node defined
    int a = -1, b = -1;         // operands (nodes); the angles of SinCos(2)
    // SinCos(2): the sine and cosine nodes of angle a, then of angle b (−1: not needed, but the call
    // still writes it), and the node the call was scheduled at (names an unneeded result).
    int sin_a = -1, cos_a = -1, first_a = -1, sin_b = -1, cos_b = -1, first_b = -1;
    int index = -1;          // TurnedTrig: the element of q
    double cos_theta = 1, sin_theta = 0;  // TurnedTrig
    int output = -1, element = -1;        // Store
};

struct Schedule {
    std::vector<Value> values;  // by node id
    std::vector<Statement> statements;
};

// Where a kernel's stores go: each right after the statement that computes its value (a value then
// need not stay live to the end: on the floating humanoid's straight-line CRBA at -O2, 1616 → 1072
// stack accesses), or all at the end (the compact backend, whose steps own their stores).
enum class Stores { AtDefinition, AtEnd };

// The schedule of kernel k: trig calls first (a call clobbers every floating-point register), paired
// two angles a call, each pair before its first reader; then every other live node in the trace's
// order; the stores as `stores` says (an output that is a constant, an input or a sine or cosine is
// stored at the end). With precomputed_trig (the `_sc` entry point), the sines and cosines of q and of
// q plus a constant are read from sin_q, cos_q.
Schedule schedule(const Kernel& k, bool precomputed_trig, Stores stores);

}  // namespace rbdgen
