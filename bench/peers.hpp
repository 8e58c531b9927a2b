// The implementations the benchmark sets side by side, behind one plain-array interface, so that no
// Eigen or KDL object crosses between translation units built with different flags.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rbdgen::bench {

// One kernel call on plain arrays: (q, qd, qdd or tau, gravity) → out.
using Call = std::function<void(const double* q, const double* qd, const double* x, const double* g, double* out)>;

struct Peer {
    std::string name;  // "rbdgen", "rbdgen-straight", "rbdgen-uniform", "rbdgen-native", "reference", "kdl", "dart", "mujoco"
    Call rnea, crba, fd_crba_ltdl, aba;  // empty where the peer has no such kernel
    // What whole-body controllers compute (bench_whole_body.cpp), where the peer has it: the centre of
    // mass, its Jacobian, H⁻¹, and the energies (out: T, V).
    Call com, com_jacobian, minv, energy;
};

// A joint of the generated robot (its header's joint table): where its coordinates sit.
struct JointSlot {
    std::string name;
    bool floating = false;
    int q_index = 0, v_index = 0;
};

struct Robot {
    std::string label, urdf;
    std::vector<JointSlot> joints;
    bool floating_base = false, serial = false;
    int nq = 0, nv = 0;
    Peer generated;
    Peer straight;  // every kernel straight-line (--emission straight), where `generated` has the default emission
    Peer native;    // the default emission built with -march=native
    Peer uniform;   // every kernel --emission uniform
    std::string report_json;  // the generator's report, for op counts
    // For the cold-cache timing: the generated kernels as plain function pointers.
    void (*rnea_fn)(const double*, const double*, const double*, const double*, double*) = nullptr;
    void (*aba_fn)(const double*, const double*, const double*, const double*, double*) = nullptr;
    void (*crba_fn)(const double*, double*) = nullptr;
};

std::vector<Robot> generated_robots();  // robots.cpp, configured by CMake
Peer reference_peer(const std::string& urdf, bool floating_base);  // reference.cpp
Peer kdl_peer(const std::string& urdf);  // kdl.cpp, built with Debian's flags
Peer dart_peer(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints);  // dart.cpp
Peer mujoco_peer(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints);  // mujoco.cpp

}  // namespace rbdgen::bench
