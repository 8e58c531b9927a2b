// One generated robot as the tests see it: its constants and a table of its kernels, each callable on
// arrays of double whatever the robot's scalar. test_generated.cpp is compiled once and runs on every
// robot of the table; each robot's entry (robot_entry.cpp, compiled once a robot with that robot's
// header alone: no Eigen, no GoogleTest) converts the arrays to and from its scalar and calls the
// robot's functions. test_generated.cpp used to be compiled once a robot (9.6 s each, docs/testing.md).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace rbdgen::generated {

// A kernel k of the robot: k, k_cold and batch::k, with the arguments of the robot's header in
// order. Each argument is an array of double: sizes[i] elements, or sizes[i] × W for batch (element
// e of lane s at e × W + s). Inputs are rounded to the robot's scalar, outputs converted back
// (exactly: float to double loses nothing, so bit-for-bit comparisons keep their meaning).
struct Kernel {
    const char* name;
    int args;
    const int* sizes;
    bool input[16];  // a kernel has at most 16 arguments (a problem with Baumgarte's errors: 13)
    void (*call)(double* const* a);
    void (*cold)(double* const* a);   // k_cold
    void (*batch)(double* const* a);  // batch::k, W states
    void (*warm)();                   // warm(Kernel::k)
    // Whether k (cold: k_cold) lies within the code range of extent(Kernel::k).
    bool (*in_code_range)(bool cold);

    template <class... P> void operator()(P*... p) const {
        static_assert(sizeof...(P) <= 16);
        if (static_cast<int>(sizeof...(P)) != args) {
            std::fprintf(stderr, "%s takes %d arguments, called with %d\n", name, args, static_cast<int>(sizeof...(P)));
            std::abort();
        }
        double* const a[] = {const_cast<double*>(p)...};
        call(a);
    }
};

struct Robot {
    const char* name;    // the library's: gen_<label>_<scalar>
    const char* urdf;    // the URDF it is generated from
    const char* report;  // its report.json
    const char* scalar;  // "double" or "float"
    bool floating;
    int NQ, NV, NB, W;       // W: the batch width (BATCH)
    const char* fd_refusal;  // the header's: non-empty when forward dynamics is undefined
    const char* contacts;    // its problems contact:<contacts> and impulse:<contacts>, or ""  (ROBOT_CONTACTS)
    const char* baumgarte;   // a problem file of contacts with Baumgarte's terms (its kernels quadruped_baumgarte_*), or ""
    double tolerance;        // against the reference (1e-12 in double, 1e-4 in float)
    double lu_tolerance;     // against a second formulation (Nori's LU against RNEA and ABA)
    double (*round)(double); // to the robot's scalar and back
    void (*warm_all)();
    std::vector<Kernel> kernels;

    bool has(std::string_view kernel) const {
        for (const Kernel& k : kernels)
            if (kernel == k.name) return true;
        return false;
    }
    const Kernel& operator[](std::string_view kernel) const;  // aborts, naming it, where the robot has none
};

// Every robot linked into the program, in link order (each entry adds itself).
std::vector<const Robot*>& robots();

}  // namespace rbdgen::generated
