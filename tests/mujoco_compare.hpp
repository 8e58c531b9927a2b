// rbdgen's model against MuJoCo's of the same file (tests/test_mujoco.cpp reads a URDF, test_mjcf.cpp
// an MJCF file): H, H⁻¹, the bias forces, the centre of mass and its Jacobian, the energies and every
// body's and site's world pose, at random states.
//
// MuJoCo's conventions, met here (docs/mjcf.md): its dofs follow its own tree order, matched by joint
// name (an unnamed joint by its id, rbdgen's joint<id>; a free joint rbdgen made by its body). A free
// joint's velocity is [world linear; body angular] and its qpos [p; w, x, y, z], rbdgen's [body
// angular; body linear] and [p; x, y, z, w]: with T the map from rbdgen's velocity to MuJoCo's,
// H = Tᵀ H_mj T, Jc = Jc_mj T, and the bias forces Tᵀ (b_mj + H_mj Ṫ q̇), Ṫ q̇ = [R (ω × v); 0].
// MuJoCo's H and kinetic energy include the armature, as rbdgen's do.
#pragma once

#include <mujoco/mujoco.h>

#include "algorithms/com.hpp"
#include "algorithms/coriolis.hpp"
#include "algorithms/crba.hpp"
#include "algorithms/energy.hpp"
#include "algorithms/forward_kinematics.hpp"
#include "algorithms/minv.hpp"
#include "algorithms/rnea.hpp"
#include "test_support.hpp"

namespace rbdgen::test {

// MuJoCo's id of the body, joint or site rbdgen names `name`: by name, or for one the file leaves
// unnamed, rbdgen's <kind><id> (body3, joint5, site0). −1 if none.
inline int mujoco_id(const mjModel* m, mjtObj type, const std::string& name) {
    const int id = mj_name2id(m, type, name.c_str());
    if (id >= 0) return id;
    const std::string kind = type == mjOBJ_BODY ? "body" : type == mjOBJ_JOINT ? "joint" : "site";
    const int count = type == mjOBJ_BODY ? m->nbody : type == mjOBJ_JOINT ? m->njnt : m->nsite;
    const int* address = type == mjOBJ_BODY ? m->name_bodyadr : type == mjOBJ_JOINT ? m->name_jntadr : m->name_siteadr;
    if (name.rfind(kind, 0) != 0 || name.size() == kind.size() || name.find_first_not_of("0123456789", kind.size()) != std::string::npos)
        return -1;
    const int k = std::stoi(name.substr(kind.size()));
    return k < count && m->names[address[k]] == '\0' ? k : -1;
}

// MuJoCo's joint for rbdgen's body b, or −1: by name, or a free joint by its body (one rbdgen names
// floating_base, or adds with --floating-base).
inline int mujoco_joint(const mjModel* m, const Body& b) {
    const int j = mujoco_id(m, mjOBJ_JOINT, b.joint_name);
    if (j >= 0 || b.joint.type != JointType::Floating) return j;
    const int body = mujoco_id(m, mjOBJ_BODY, b.name);
    if (body >= 0 && m->body_jntnum[body] == 1 && m->jnt_type[m->body_jntadr[body]] == mjJNT_FREE) return m->body_jntadr[body];
    return -1;
}

// Compares at `states` random states to `tolerance` relative. `poses`: each frame of rbdgen's model
// (bodies, merged links, sites) against MuJoCo's body or site of that name.
inline void expect_mujoco_agrees(const Model& model, mjModel* m, mjData* d, int states, double tolerance, bool poses) {
    ASSERT_EQ(m->nv, model.nv);
    std::vector<int> dof(model.nv), qpos(model.nq), free_q(model.nq), free_v(model.nv);
    for (const Body& b : model.bodies) {
        const int j = mujoco_joint(m, b);
        ASSERT_GE(j, 0) << "MuJoCo has no joint " << b.joint_name;
        ASSERT_EQ(b.joint.type == JointType::Floating, m->jnt_type[j] == mjJNT_FREE) << b.joint_name;
        ASSERT_EQ(b.joint.type == JointType::Ball, m->jnt_type[j] == mjJNT_BALL) << b.joint_name;
        dof[b.v_index] = m->jnt_dofadr[j], qpos[b.q_index] = m->jnt_qposadr[j];
    }
    std::mt19937_64 rng(7);
    std::vector<mjtNum> full(model.nv * model.nv), jacp(3 * model.nv);
    for (int n = 0; n < states; ++n) {
        const RandomState s = random_state(model, rng);
        MatX<double> T = MatX<double>::Zero(model.nv, model.nv);
        VecX<double> Tdot_qd = VecX<double>::Zero(model.nv);  // MuJoCo's order
        for (const Body& b : model.bodies) {
            const int q0 = qpos[b.q_index], v0 = dof[b.v_index];
            if (b.joint.one_dof()) {
                d->qpos[q0] = s.q[b.q_index];
                T(v0, b.v_index) = 1;
                continue;
            }
            const Eigen::Quaterniond Q = quaternion(s.q, b);
            if (b.joint.type == JointType::Ball) {  // MuJoCo's qpos w, x, y, z; qvel ω in body coordinates, as rbdgen's
                d->qpos[q0] = Q.w(), d->qpos[q0 + 1] = Q.x(), d->qpos[q0 + 2] = Q.y(), d->qpos[q0 + 3] = Q.z();
                T.block<3, 3>(v0, b.v_index) = Mat3<double>::Identity();
                continue;
            }
            const Mat3<double> R = Q.toRotationMatrix();
            for (int k = 0; k < 3; ++k) d->qpos[q0 + k] = s.q[b.q_index + k];
            d->qpos[q0 + 3] = Q.w(), d->qpos[q0 + 4] = Q.x(), d->qpos[q0 + 5] = Q.y(), d->qpos[q0 + 6] = Q.z();
            T.block<3, 3>(v0, b.v_index + 3) = R;                         // world linear = R v
            T.block<3, 3>(v0 + 3, b.v_index) = Mat3<double>::Identity();  // body angular = ω
            const Vec3<double> w = s.qd.segment<3>(b.v_index), v = s.qd.segment<3>(b.v_index + 3);
            Tdot_qd.segment<3>(v0) = R * w.cross(v);
        }
        const VecX<double> qd_mj = T * s.qd;
        for (int k = 0; k < model.nv; ++k) d->qvel[k] = qd_mj[k];
        for (int k = 0; k < 3; ++k) m->opt.gravity[k] = s.gravity[k];
        mj_forward(m, d);
        MatX<double> H_mj(model.nv, model.nv);
        mj_fullM(m, full.data(), d->qM);
        for (int r = 0; r < model.nv; ++r)
            for (int c = 0; c < model.nv; ++c) H_mj(r, c) = full[r * model.nv + c];
        const MatX<double> H = T.transpose() * H_mj * T;
        ASSERT_LT(rel_err(crba<double>(model, s.q), H), tolerance) << n;
        // H⁻¹ H = 1 to what MuJoCo's H allows: its relative error times H's condition number
        const Eigen::SelfAdjointEigenSolver<MatX<double>> eig(H);
        const double condition = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
        ASSERT_LT(rel_err(minv<double>(model, s.q) * H, MatX<double>::Identity(model.nv, model.nv)), tolerance * condition) << n;
        // the bias forces C q̇ + g, by the Coriolis matrix and by RNEA at q̈ = 0
        VecX<double> bias_mj(model.nv);
        for (int k = 0; k < model.nv; ++k) bias_mj[k] = d->qfrc_bias[k];
        const VecX<double> bias = T.transpose() * (bias_mj + H_mj * Tdot_qd);
        const VecX<double> g = gravity_vector<double>(model, s.q, s.gravity);
        ASSERT_LT(rel_err(coriolis<double>(model, s.q, s.qd) * s.qd + g, bias), tolerance) << n;
        ASSERT_LT(rel_err(rnea<double>(model, s.q, s.qd, VecX<double>::Zero(model.nv), s.gravity), bias), tolerance) << n;
        // the moving bodies' centre of mass, and its Jacobian: the mass-weighted subtree Jacobians of
        // the moving bodies whose parent is welded to the world
        double mass = 0, V_static = 0;
        Vec3<double> mc = Vec3<double>::Zero();
        MatX<double> Jc_mj = MatX<double>::Zero(3, model.nv);
        for (int b = 1; b < m->nbody; ++b) {
            const Vec3<double> xipos(d->xipos[3 * b], d->xipos[3 * b + 1], d->xipos[3 * b + 2]);
            if (m->body_weldid[b] == 0) {
                V_static -= m->body_mass[b] * s.gravity.dot(xipos);
                continue;
            }
            mass += m->body_mass[b], mc += m->body_mass[b] * xipos;
            if (m->body_weldid[m->body_parentid[b]] != 0) continue;
            mj_jacSubtreeCom(m, d, jacp.data(), b);
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < model.nv; ++c) Jc_mj(r, c) += m->body_subtreemass[b] * jacp[r * model.nv + c];
        }
        const CenterOfMass<double> c = center_of_mass<double>(model, s.q);
        ASSERT_NEAR(c.m, mass, 1e-12 * mass);
        ASSERT_LT(rel_err(c.c, mc / mass), tolerance) << n;
        ASSERT_LT(rel_err(com_jacobian<double>(model, s.q), Jc_mj * T / mass), tolerance) << n;
        const Energy<double> e = energy<double>(model, s.q, s.qd, s.gravity);
        ASSERT_NEAR(e.T, d->energy[1], tolerance * std::max(1.0, std::abs(e.T))) << n;
        double V_springs = 0;  // MuJoCo's potential energy counts the joints' springs (stiffness), which are no rigid body's
        for (int j = 0; j < m->njnt; ++j)
            if (m->jnt_stiffness[j] != 0 && (m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE)) {
                const int a = m->jnt_qposadr[j];
                V_springs += 0.5 * m->jnt_stiffness[j] * (d->qpos[a] - m->qpos_spring[a]) * (d->qpos[a] - m->qpos_spring[a]);
            }
        ASSERT_NEAR(e.V, d->energy[0] - V_static - V_springs, tolerance * std::max(1.0, std::abs(e.V))) << n;
        if (!poses) continue;
        const Kinematics<double> kin = forward_kinematics<double>(model, s.q, s.qd);
        for (const Frame& f : model.frames) {
            const LinkFrame lf = *link_frame(model, f.name);
            const Transform<double> X = lf.body < 0 ? lf.X : Transform<double>(lf.X * kin.X_0[lf.body]);  // ᶠX_0
            const int body = mujoco_id(m, mjOBJ_BODY, f.name), site = mujoco_id(m, mjOBJ_SITE, f.name);
            ASSERT_TRUE(body >= 0 || site >= 0) << "MuJoCo has no body or site " << f.name;
            const mjtNum* xpos = body >= 0 ? d->xpos + 3 * body : d->site_xpos + 3 * site;
            const mjtNum* xmat = body >= 0 ? d->xmat + 9 * body : d->site_xmat + 9 * site;
            Mat3<double> R_mj;
            for (int r = 0; r < 3; ++r)
                for (int k = 0; k < 3; ++k) R_mj(r, k) = xmat[3 * r + k];
            ASSERT_LT((X.r - Vec3<double>(xpos[0], xpos[1], xpos[2])).norm(), tolerance * std::max(1.0, X.r.norm())) << f.name << " " << n;
            ASSERT_LT((X.E.transpose() - R_mj).norm(), tolerance) << f.name << " " << n;
        }
    }
}

}  // namespace rbdgen::test
