// Pinocchio 3.7, the strongest peer (bench_pinocchio.cpp): each rbdgen kernel family against its
// Pinocchio counterpart, at the same states, in one process. The Pinocchio side is a translation unit
// of its own (pinocchio.cpp, at -O3 -march=native, as its users build it), built only where
// find_package(pinocchio) finds it (../shared/peers/pinocchio/build.sh); pinocchio_absent.cpp stands
// in elsewhere. Only plain arrays cross between the two: the states in rbdgen's convention, and each
// output mapped back into it (free-flyer [linear; angular] → [angular; linear], momentum rows, joint
// order), outside any timing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collect.hpp"
#include "peers.hpp"

namespace rbdgen::bench {

// A kernel family: rbdgen's kernel and what Pinocchio calls for the same outputs.
enum class Family {
    fk,                // fk (every moving body's pose) | forwardKinematics
    rnea,              // rnea                   | rnea
    crba,              // crba                   | crba
    aba,               // aba                    | aba
    fd,                // fd_crba_ltdl           | nonLinearEffects + crba + cholesky::decompose + cholesky::solve
    minv,              // minv                   | computeMinverse
    com,               // com                    | centerOfMass
    com_jacobian,      // com_jacobian           | jacobianCenterOfMass
    centroidal,        // centroidal (A, h, Ȧq̇)  | dccrba, then dAg q̇
    coriolis,          // coriolis               | computeCoriolisMatrix
    energy,            // energy (T, V)          | computeKineticEnergy + computePotentialEnergy
    rnea_derivatives,  // rnea_derivatives       | computeRNEADerivatives
    aba_derivatives,   // aba_derivatives        | computeABADerivatives
    centroidal_derivatives,  // centroidal_derivatives | computeCentroidalDynamicsDerivatives
    integrate_jacobians,     // integrate_jacobians    | dIntegrate, ARG0 and ARG1
    difference_jacobians,    // difference_jacobians (q0: this state's q, q1: the next state's) | dDifference, ARG0 and ARG1
};
constexpr Family kFamilies[] = {Family::fk, Family::rnea,       Family::crba,         Family::aba,       Family::fd,
                                Family::minv,       Family::com,          Family::com_jacobian, Family::centroidal,
                                Family::coriolis,   Family::energy,       Family::rnea_derivatives, Family::aba_derivatives,
                                Family::centroidal_derivatives, Family::integrate_jacobians, Family::difference_jacobians};
const char* family_name(Family f);             // the rbdgen kernel's name
const char* pinocchio_counterpart(Family f);   // what Pinocchio calls
int output_size(Family f, int nv, int nb);     // the rbdgen kernel's outputs, one after the other (nb: moving bodies)

class PinocchioRobot {
public:
    virtual ~PinocchioRobot() = default;
    // The states, in rbdgen's convention (Inputs: q, q̇, x = q̈ for rnea and τ for the forward
    // dynamics, gravity), converted to Pinocchio's once.
    virtual void set_states(const std::vector<Inputs>& states) = 0;
    // One call of the family's Pinocchio algorithms at state k (and k + 1, cycled, for the second
    // configuration of difference_jacobians): what is timed.
    virtual void run(Family f, int k) = 0;
    // The outputs of the last run(f, k), in rbdgen's convention and order (output_size values).
    virtual std::vector<double> outputs(Family f, int k) = 0;
};

// The robot as Pinocchio's URDF parser reads it (a free-flyer root where floating_base), its joints
// matched to rbdgen's by name; nullptr, with the reason in `why`, where Pinocchio is not built in or a
// joint has no counterpart.
std::unique_ptr<PinocchioRobot> pinocchio_robot(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints,
                                                std::string& why);

}  // namespace rbdgen::bench
