// Every algorithm compiled once for a scalar (algorithms/compiled_once.hpp): instances/double.cpp and
// instances/expr.cpp each expand RBDGEN_INSTANCES with their scalar.
#pragma once

#include "algorithms/aba.hpp"
#include "algorithms/aba_derivatives.hpp"
#include "algorithms/centroidal.hpp"
#include "algorithms/centroidal_derivatives.hpp"
#include "algorithms/com.hpp"
#include "algorithms/configuration.hpp"
#include "algorithms/contact_aba.hpp"
#include "algorithms/contact_dynamics_derivatives.hpp"
#include "algorithms/coriolis.hpp"
#include "algorithms/cornea.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/energy.hpp"
#include "algorithms/fd_crba_ltdl.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/frame_motion_derivatives.hpp"
#include "algorithms/frames.hpp"
#include "algorithms/jacobians.hpp"
#include "algorithms/ltdl.hpp"
#include "algorithms/minv.hpp"
#include "algorithms/minv_aba.hpp"
#include "algorithms/ncmtm_fd.hpp"
#include "algorithms/ncmtm_jacobians.hpp"
#include "algorithms/ncmtm_kinematics.hpp"
#include "algorithms/regressor.hpp"
#include "algorithms/rnea.hpp"
#include "algorithms/rnea_derivatives.hpp"
#include "sparse/analysis.hpp"
#include "sparse/newton_euler_system.hpp"
#include "sparse/problem.hpp"

#define RBDGEN_INSTANCES(S)                         \
    template RBDGEN_ABA(S);                         \
    template RBDGEN_ABA_DERIVATIVES(S);             \
    template RBDGEN_ABA_DERIVATIVES_ARTICULATED(S); \
    template RBDGEN_CENTER_OF_MASS(S);              \
    template RBDGEN_CENTROIDAL(S);                  \
    template RBDGEN_CENTROIDAL_DERIVATIVES(S);      \
    template RBDGEN_CENTROIDAL_MOMENTUM_RATE(S);    \
    template RBDGEN_COM_JACOBIAN(S);                \
    template RBDGEN_CONTACT_ABA(S);                 \
    template RBDGEN_DIFFERENCE(S);                  \
    template RBDGEN_DIFFERENCE_JACOBIANS(S);        \
    template RBDGEN_INTEGRATE(S);                   \
    template RBDGEN_INTEGRATE_JACOBIANS(S);         \
    template RBDGEN_CONTACT_DYNAMICS_DERIVATIVES(S); \
    template RBDGEN_CONTACT_SYSTEM(S);              \
    template RBDGEN_CONTACT_KKT_SIDES(S);           \
    template RBDGEN_CORIOLIS(S);                    \
    template RBDGEN_CORNEA(S);                      \
    template RBDGEN_CRBA(S);                        \
    template RBDGEN_ENERGY(S);                      \
    template RBDGEN_JOINT_SPACE_SYSTEM(S);          \
    template RBDGEN_FD_CRBA_LTDL(S);                \
    template RBDGEN_FORWARD_KINEMATICS(S);          \
    template RBDGEN_WORLD_MOTION(S);                \
    template RBDGEN_FRAME_MOTION_DERIVATIVES(S);    \
    template RBDGEN_WORLD_ALIGNED_MOTION_DERIVATIVES(S); \
    template RBDGEN_FRAME_STATES(S);                \
    template RBDGEN_FRAME_JACOBIAN(S);              \
    template RBDGEN_FRAME_JACOBIAN_RATE(S);         \
    template RBDGEN_SPATIAL_JACOBIAN(S);            \
    template RBDGEN_SPATIAL_JACOBIAN_RATE(S);       \
    template RBDGEN_LTDL(S);                        \
    template RBDGEN_MINV(S);                        \
    template RBDGEN_MINV_ABA(S);                    \
    template RBDGEN_NCMTM_FD(S);                    \
    template RBDGEN_NCMTM_FK(S);                    \
    template RBDGEN_NCMTM_JACOBIAN(S);              \
    template RBDGEN_NCMTM_TORQUE_JACOBIANS(S);      \
    template RBDGEN_REGRESSOR(S);                   \
    template RBDGEN_RNEA(S);                        \
    template RBDGEN_RNEA_DERIVATIVE_PASSES(S);      \
    template RBDGEN_RNEA_DERIVATIVE_VECTORS(S);     \
    template RBDGEN_RNEA_DERIVATIVES(S);            \
    template RBDGEN_NEWTON_EULER_SYSTEM(S);         \
    template RBDGEN_PROBLEM_SYSTEM(S);              \
    template RBDGEN_SOLVE_PROBLEM(S);
