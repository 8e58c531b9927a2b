// MuJoCo's finite differences (Debian's libmujoco-dev, Debian's build), the way its users take the
// derivatives of the dynamics and the way mjd_transitionFD takes them: one-sided, every perturbation
// from one computation at the state, each a call of mj_forwardSkip (for ∂q̈) or mj_inverseSkip (for
// ∂τ) that skips the stages the perturbation leaves unchanged (a velocity: the position stage; a
// force: position and velocity), positions moved on the manifold by mj_integratePos. Every constraint
// (contacts, limits, the equalities MuJoCo makes of a URDF's mimic joints) and passive force off. The outputs are MuJoCo's, in its coordinates (a free
// joint's linear velocity in world axes): `joint_dofs` maps rbdgen's 1-DoF joints to them, the block
// two libraries can be compared on without converting the base.
#include "mujoco_differences.hpp"

#include <Eigen/Geometry>

#include <stdexcept>

#include "mujoco_model.hpp"

namespace rbdgen::bench {

namespace {
struct Differences {
    test::Mujoco mj;
    int free_qpos = -1, free_dof = -1;
    std::vector<std::pair<int, int>> slots;  // (rbdgen's q index, MuJoCo's qpos) of the 1-DoF joints
    std::vector<mjtNum> qpos, qvel, base, x;  // the state, and the outputs at it
};
}  // namespace

MujocoDifferences mujoco_differences(const std::string& urdf, const Model& model) {
    auto p = std::make_shared<Differences>();
    const bool floating = model.bodies[0].joint.type == JointType::Floating;  // its q 0..6 and q̇ 0..5
    test::load_mujoco(urdf, floating, p->mj);
    if (!p->mj.m) throw std::runtime_error("MuJoCo refuses " + urdf + ": " + p->mj.refusal);
    mjModel* m = p->mj.m;
    p->mj.d = mj_makeData(m);
    // no constraint of any kind (MuJoCo's URDF reader makes a mimic joint an equality) and no passive force
    m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_PASSIVE;
    MujocoDifferences out;
    for (const Body& b : model.bodies) {
        if (b.joint.type == JointType::Floating) {
            for (int k = 0; k < m->njnt; ++k)
                if (m->jnt_type[k] == mjJNT_FREE) p->free_qpos = m->jnt_qposadr[k], p->free_dof = m->jnt_dofadr[k];
            continue;
        }
        if (b.joint.nv() != 1) continue;
        const int id = mj_name2id(m, mjOBJ_JOINT, b.joint_name.c_str());
        if (id < 0) throw std::runtime_error("MuJoCo has no joint " + b.joint_name + " in " + urdf);
        p->slots.push_back({b.q_index, m->jnt_qposadr[id]});
        out.joint_dofs.push_back({b.v_index, m->jnt_dofadr[id]});
    }
    const int n = m->nv;
    p->qpos.assign(m->nq, 0), p->qvel.assign(n, 0), p->base.assign(n, 0), p->x.assign(n, 0);
    const std::vector<std::pair<int, int>> out_dofs = out.joint_dofs;
    out.run = [p, floating, out_dofs](const double* q, const double* qd, const double* x, const double* g, bool forward, double* const* out) {
        mjModel* m = p->mj.m;
        mjData* d = p->mj.d;
        const int n = m->nv;
        for (const auto& [qi, qpos] : p->slots) d->qpos[qpos] = q[qi];
        if (floating) {  // rbdgen's base (q 0..6: position, quaternion x y z w; q̇ 0..5: ω, v in the body)
            const Eigen::Quaterniond Q(q[6], q[3], q[4], q[5]);
            for (int k = 0; k < 3; ++k) d->qpos[p->free_qpos + k] = q[k];
            d->qpos[p->free_qpos + 3] = Q.w(), d->qpos[p->free_qpos + 4] = Q.x(), d->qpos[p->free_qpos + 5] = Q.y(),
                                   d->qpos[p->free_qpos + 6] = Q.z();
        }
        for (int k = 0; k < 3; ++k) m->opt.gravity[k] = g[k];
        // the velocities and the third input in MuJoCo's dofs: a joint's as they are; the base's
        // [ω; v] in the body as MuJoCo's [R v; ω], its [torque; force] as [R f; torque], its
        // acceleration [ω̇; v̇] as [R (v̇ + ω × v); ω̇] (docs/mjcf.md)
        mjtNum* third = forward ? d->qfrc_applied : d->qacc;
        for (const auto& [v, dof] : out_dofs) d->qvel[dof] = qd[v], third[dof] = x[v];
        if (floating) {
            const Eigen::Matrix3d R = Eigen::Quaterniond(q[6], q[3], q[4], q[5]).normalized().toRotationMatrix();
            const Eigen::Vector3d w(qd), v(qd + 3), a(x), l(x + 3);
            const Eigen::Vector3d v_world = R * v, linear = forward ? Eigen::Vector3d(R * l) : Eigen::Vector3d(R * (l + w.cross(v)));
            for (int k = 0; k < 3; ++k)
                d->qvel[p->free_dof + k] = v_world[k], d->qvel[p->free_dof + 3 + k] = w[k], third[p->free_dof + k] = linear[k],
                                   third[p->free_dof + 3 + k] = a[k];
        }
        const auto compute = [&](int skip) {
            if (forward) mj_forwardSkip(m, d, skip, 1);
            else mj_inverseSkip(m, d, skip, 1);
        };
        const mjtNum* y = forward ? d->qacc : d->qfrc_inverse;
        const double h = 1e-6;
        compute(mjSTAGE_NONE);
        std::copy(y, y + n, p->base.begin());
        const auto column = [&](double* o, int k) {
            for (int i = 0; i < n; ++i) o[i * n + k] = (y[i] - p->base[i]) / h;
        };
        std::copy(d->qpos, d->qpos + m->nq, p->qpos.begin());
        for (int k = 0; k < n; ++k) {  // q, along each dof's tangent
            std::fill(p->qvel.begin(), p->qvel.end(), 0.0);
            p->qvel[k] = 1;
            mj_integratePos(m, d->qpos, p->qvel.data(), h);
            compute(mjSTAGE_NONE);
            column(out[0], k);
            std::copy(p->qpos.begin(), p->qpos.end(), d->qpos);
        }
        compute(mjSTAGE_NONE);  // the position stage at the state again, for the skips below
        for (int k = 0; k < n; ++k) {  // q̇
            const mjtNum v = d->qvel[k];
            d->qvel[k] = v + h;
            compute(mjSTAGE_POS);
            column(out[1], k);
            d->qvel[k] = v;
        }
        if (!forward) return;
        compute(mjSTAGE_POS);
        for (int k = 0; k < n; ++k) {  // τ
            const mjtNum f = d->qfrc_applied[k];
            d->qfrc_applied[k] = f + h;
            compute(mjSTAGE_VEL);
            column(out[2], k);
            d->qfrc_applied[k] = f;
        }
    };
    return out;
}

}  // namespace rbdgen::bench
