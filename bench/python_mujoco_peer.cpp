// MuJoCo for bench/python_bench.py: its model of a URDF as the C++ benchmarks load it
// (tests/mujoco_model.hpp: meshes removed, a free joint on the root for a floating base; contacts,
// limits and passive forces off), and the addresses of the arrays a caller fills. MuJoCo's own Python
// bindings are not in Debian: python_bench.py compiles this file, then calls MuJoCo's C functions
// (mj_kinematics, mj_rne, ...) through ctypes itself, a NumPy loop over the states.
#include "mujoco_model.hpp"

extern "C" {

// The model and data of `urdf` (floating: a free joint on its root), or null when MuJoCo refuses it.
void* rbdgen_mujoco_load(const char* urdf, int floating) {
    auto* p = new rbdgen::test::Mujoco;
    rbdgen::test::load_mujoco(urdf, floating != 0, *p);
    if (!p->m) {
        delete p;
        return nullptr;
    }
    p->m->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_PASSIVE;
    p->m->opt.enableflags &= ~mjENBL_ENERGY;
    return p;
}
mjModel* rbdgen_mujoco_model(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->m; }
mjData* rbdgen_mujoco_data(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->d; }
int rbdgen_mujoco_nq(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->m->nq; }
int rbdgen_mujoco_nv(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->m->nv; }
// The arrays a caller writes and reads: qpos (nq), qvel, qacc (nv), qM (nM, for mj_fullM).
mjtNum* rbdgen_mujoco_qpos(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->d->qpos; }
mjtNum* rbdgen_mujoco_qvel(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->d->qvel; }
mjtNum* rbdgen_mujoco_qacc(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->d->qacc; }
mjtNum* rbdgen_mujoco_qM(void* p) { return static_cast<rbdgen::test::Mujoco*>(p)->d->qM; }
// A free joint's quaternion in qpos (w first), or −1.
int rbdgen_mujoco_free_quaternion(void* p) {
    const mjModel* m = static_cast<rbdgen::test::Mujoco*>(p)->m;
    for (int j = 0; j < m->njnt; ++j)
        if (m->jnt_type[j] == mjJNT_FREE) return m->jnt_qposadr[j] + 3;
    return -1;
}
void rbdgen_mujoco_free(void* p) { delete static_cast<rbdgen::test::Mujoco*>(p); }
}
