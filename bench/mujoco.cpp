// MuJoCo 2.2 (Debian's libmujoco-dev, built with Debian's flags), the strongest dynamics engine in
// Debian: its model of the URDF from its own URDF reader (tests/mujoco_model.hpp: meshes removed, a
// free joint on the root for a floating base), contacts, limits and passive forces off (mj_rne and the
// factorization below compute none of them), its coordinates mapped to rbdgen's by joint name. The
// calls a user makes for each quantity: inverse dynamics mj_kinematics, mj_comPos, mj_comVel and
// mj_rne; H mj_kinematics, mj_comPos, mj_crb and mj_fullM; forward dynamics mj_kinematics, mj_comPos,
// mj_crb, mj_factorM, mj_comVel, mj_rne without acceleration (the bias) and mj_solveM on τ − bias.
// A floating base: MuJoCo's free joint takes the quaternion w first and the linear velocity in world
// axes, [v_world; ω_body] = T [ω_body; v_body] with T's block R; forces map by Tᵀ and accelerations by
// T q̈ + Ṫ q̇ (Ṫ q̇ = R (ω × v)), the conversions docs/mjcf.md writes down.
#include <Eigen/Dense>

#include <stdexcept>

#include "mujoco_model.hpp"
#include "peers.hpp"

namespace rbdgen::bench {

namespace {
struct Mj {
    test::Mujoco mj;
    int nv = 0;
    struct Slot {
        int qpos, dof, q, v;
    };
    std::vector<Slot> slots;  // 1-DoF joints
    int free_qpos = -1, free_dof = -1, free_q = -1, free_v = -1;
    std::vector<mjtNum> a, b, full;
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  // the free joint's rotation, at the last load

    // qpos, qvel and gravity from rbdgen's q, q̇ and g (q̇ may be null: zero)
    void load(const double* q, const double* qd, const double* g) {
        mjData* d = mj.d;
        for (const Slot& s : slots) d->qpos[s.qpos] = q[s.q], d->qvel[s.dof] = qd ? qd[s.v] : 0.0;
        if (free_qpos >= 0) {
            const Eigen::Quaterniond Q(q[free_q + 6], q[free_q + 3], q[free_q + 4], q[free_q + 5]);
            R = Q.normalized().toRotationMatrix();
            for (int k = 0; k < 3; ++k) d->qpos[free_qpos + k] = q[free_q + k];
            d->qpos[free_qpos + 3] = Q.w(), d->qpos[free_qpos + 4] = Q.x(), d->qpos[free_qpos + 5] = Q.y(), d->qpos[free_qpos + 6] = Q.z();
            const Eigen::Vector3d w = qd ? Eigen::Vector3d(qd + free_v) : Eigen::Vector3d::Zero(),
                                  v = qd ? Eigen::Vector3d(qd + free_v + 3) : Eigen::Vector3d::Zero();
            const Eigen::Vector3d v_world = R * v;
            for (int k = 0; k < 3; ++k) d->qvel[free_dof + k] = v_world[k], d->qvel[free_dof + 3 + k] = w[k];
        }
        if (g)
            for (int k = 0; k < 3; ++k) mj.m->opt.gravity[k] = g[k];
    }
    // MuJoCo's acceleration from rbdgen's q̈ (after load): T q̈ + Ṫ q̇
    void acceleration(const double* qd, const double* qdd, mjtNum* out) const {
        for (const Slot& s : slots) out[s.dof] = qdd[s.v];
        if (free_qpos < 0) return;
        const Eigen::Vector3d w(qd + free_v), v(qd + free_v + 3), dw(qdd + free_v), dv(qdd + free_v + 3);
        const Eigen::Vector3d lin = R * (dv + w.cross(v));
        for (int k = 0; k < 3; ++k) out[free_dof + k] = lin[k], out[free_dof + 3 + k] = dw[k];
    }
    // rbdgen's generalized force from MuJoCo's: Tᵀ f
    void force(const mjtNum* f, double* out) const {
        for (const Slot& s : slots) out[s.v] = f[s.dof];
        if (free_qpos < 0) return;
        const Eigen::Vector3d lin = R.transpose() * Eigen::Vector3d(f + free_dof);
        for (int k = 0; k < 3; ++k) out[free_v + k] = f[free_dof + 3 + k], out[free_v + 3 + k] = lin[k];
    }
    // MuJoCo's generalized force from rbdgen's: T⁻ᵀ τ
    void force_to_mujoco(const double* tau, mjtNum* out) const {
        for (const Slot& s : slots) out[s.dof] = tau[s.v];
        if (free_qpos < 0) return;
        const Eigen::Vector3d lin = R * Eigen::Vector3d(tau + free_v + 3);
        for (int k = 0; k < 3; ++k) out[free_dof + k] = lin[k], out[free_dof + 3 + k] = tau[free_v + k];
    }
    // rbdgen's q̈ from MuJoCo's acceleration: T⁻¹ (a − Ṫ q̇)
    void acceleration_from_mujoco(const double* qd, const mjtNum* acc, double* out) const {
        for (const Slot& s : slots) out[s.v] = acc[s.dof];
        if (free_qpos < 0) return;
        const Eigen::Vector3d w(qd + free_v), v(qd + free_v + 3);
        const Eigen::Vector3d dv = R.transpose() * Eigen::Vector3d(acc + free_dof) - w.cross(v);
        for (int k = 0; k < 3; ++k) out[free_v + k] = acc[free_dof + 3 + k], out[free_v + 3 + k] = dv[k];
    }
    std::vector<int> dof_of_v;  // MuJoCo's coordinate of each of rbdgen's velocity coordinates
};
}  // namespace

Peer mujoco_peer(const std::string& urdf, bool floating_base, const std::vector<JointSlot>& joints) {
    auto p = std::make_shared<Mj>();
    test::load_mujoco(urdf, floating_base, p->mj);
    if (!p->mj.m) return Peer{"mujoco", {}, {}, {}, {}, {}, {}, {}, {}};  // MuJoCo refuses the URDF: no row
    mjModel* m = p->mj.m;
    p->mj.d = mj_makeData(m);
    m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_PASSIVE;
    p->nv = m->nv;
    for (const JointSlot& j : joints) {
        if (j.floating) {
            int free = -1;
            for (int k = 0; k < m->njnt; ++k)
                if (m->jnt_type[k] == mjJNT_FREE) free = k;
            if (free < 0) throw std::runtime_error("MuJoCo has no free joint in " + urdf);
            p->free_qpos = m->jnt_qposadr[free], p->free_dof = m->jnt_dofadr[free], p->free_q = j.q_index, p->free_v = j.v_index;
            continue;
        }
        const int id = mj_name2id(m, mjOBJ_JOINT, j.name.c_str());
        if (id < 0) throw std::runtime_error("MuJoCo has no joint " + j.name + " in " + urdf);
        p->slots.push_back({m->jnt_qposadr[id], m->jnt_dofadr[id], j.q_index, j.v_index});
    }
    const int nv = p->nv;
    p->dof_of_v.assign(nv, 0);
    for (const Mj::Slot& s : p->slots) p->dof_of_v[s.v] = s.dof;
    if (p->free_qpos >= 0)
        for (int k = 0; k < 3; ++k) p->dof_of_v[p->free_v + k] = p->free_dof + 3 + k, p->dof_of_v[p->free_v + 3 + k] = p->free_dof + k;
    p->a.assign(nv, 0), p->b.assign(nv, 0), p->full.assign(static_cast<size_t>(nv) * nv, 0);
    Peer peer{"mujoco", {}, {}, {}, {}, {}, {}, {}, {}};
    peer.rnea = [p](const double* q, const double* qd, const double* qdd, const double* g, double* out) {
        mjModel* m = p->mj.m;
        mjData* d = p->mj.d;
        p->load(q, qd, g);
        p->acceleration(qd, qdd, d->qacc);
        mj_kinematics(m, d);
        mj_comPos(m, d);
        mj_comVel(m, d);
        mj_rne(m, d, 1, p->a.data());
        p->force(p->a.data(), out);
    };
    peer.crba = [p](const double* q, const double*, const double*, const double*, double* out) {
        mjModel* m = p->mj.m;
        mjData* d = p->mj.d;
        p->load(q, nullptr, nullptr);
        mj_kinematics(m, d);
        mj_comPos(m, d);
        mj_crb(m, d);
        mj_fullM(m, p->full.data(), d->qM);
        // H = Tᵀ H_mj T: the entries permuted, and on a floating base the linear rows and columns turned
        // by R (T is a permutation with the block R)
        const int n = p->nv;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) out[r * n + c] = p->full[p->dof_of_v[r] * n + p->dof_of_v[c]];
        if (p->free_qpos < 0) return;
        Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> H(out, n, n);
        const int l = p->free_v + 3;
        H.middleRows<3>(l) = p->R.transpose() * H.middleRows<3>(l);
        H.middleCols<3>(l) = H.middleCols<3>(l) * p->R;
    };
    peer.aba = [p](const double* q, const double* qd, const double* tau, const double* g, double* out) {
        mjModel* m = p->mj.m;
        mjData* d = p->mj.d;
        p->load(q, qd, g);
        mj_kinematics(m, d);
        mj_comPos(m, d);
        mj_crb(m, d);
        mj_factorM(m, d);
        mj_comVel(m, d);
        mj_rne(m, d, 0, p->b.data());  // the bias C q̇ + g
        p->force_to_mujoco(tau, p->a.data());
        for (int k = 0; k < p->nv; ++k) p->a[k] -= p->b[k];
        mj_solveM(m, d, p->a.data(), p->a.data(), 1);
        p->acceleration_from_mujoco(qd, p->a.data(), out);
    };
    return peer;
}

}  // namespace rbdgen::bench
