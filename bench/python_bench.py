"""The generated robots from Python (issue 32): rnea, crba and aba on arm7, the floating humanoid and
talos_full, through their modules (rbdgen.load, BATCH 4, -O2 -mavx2), against the same batched kernels
called from C++, MuJoCo (its C functions through ctypes in a NumPy loop: its Python bindings are not
in Debian), DART's Python bindings (Debian's python3-dartpy) and KDL's (python3-pykdl; rnea and crba
of a serial chain: arm7), each a loop over the states as their users write it, in one process,
interleaved.

  - one state a call: ns a call from Python; the module's call overhead is that minus the
    single-state kernel's own time (C++'s loop over the states in the module, without batch::: the
    robot built again without BATCH);
  - N = 10,000 states a call, into preallocated outputs (out=): states per second through batch::
    (the module gathers 4 states into structure of arrays, calls, scatters), against batch:: called
    from C++ on data already in that layout (bench/python_batch_peer.cpp, compiled with the
    module's sources and flags, through ctypes), and against dartpy's and PyKDL's loops; and the
    same call on one thread a core (threads=, the last column).

Each time is the minimum over repetitions. Writes a Markdown table (stdout, or the file given).
Usage: RBDGEN=build/generator/rbdgen python3 bench/python_bench.py [OUT.md]
"""
import ctypes
import os
import re
import subprocess
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
import rbdgen  # noqa: E402

try:
    import dartpy as dart
except ImportError:
    dart = None
try:
    import PyKDL as kdl
except ImportError:
    kdl = None
import xml.etree.ElementTree as ET  # noqa: E402

ROBOTS = [("arm7", os.path.join(here, "..", "models", "arm7.urdf"), False),
          ("humanoid30_fb", os.path.join(here, "..", "models", "humanoid30.urdf"), True),
          ("talos_full_fb", os.path.join(here, "..", "..", "shared", "models", "talos_full_v2.urdf"), True)]
N = 10000
FLAGS = ["-O2", "-mavx2"]
THREADS = os.cpu_count() or 1


def best(f, reps=15, calls=1):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            f()
        t = min(t, (time.perf_counter() - t0) / calls)
    return t


def dart_skeleton(urdf, floating):
    """As bench/dart.cpp loads it: meshes stripped, every joint force-driven, no damping or friction."""
    loader = dart.utils.DartLoader()
    options = loader.getOptions()
    options.mDefaultRootJointType = dart.utils.DartLoader.RootJointType.FLOATING if floating else dart.utils.DartLoader.RootJointType.FIXED
    loader.setOptions(options)
    with open(urdf) as f:
        text = re.sub(r"<collision[\s\S]*?</collision>", "", re.sub(r"<visual[\s\S]*?</visual>", "", f.read()))
    skel = loader.parseSkeletonString(text, dart.common.Uri("file://" + os.path.abspath(urdf)))
    for i in range(skel.getNumJoints()):
        skel.getJoint(i).setActuatorType(dart.dynamics.Joint.ActuatorType.FORCE)
    for i in range(skel.getNumDofs()):
        d = skel.getDof(i)
        d.setDampingCoefficient(0), d.setSpringStiffness(0), d.setCoulombFriction(0)
    return skel


def kdl_chain(urdf):
    """A serial robot's KDL chain, built from its URDF as kdl_parser builds it (PyKDL has no URDF
    reader): each joint's origin and axis in its parent's frame, each link's inertia about its centre
    of mass turned into the link's axes. None for a tree."""
    root = ET.parse(urdf).getroot()
    links = {l.get("name"): l for l in root.findall("link")}
    joints = root.findall("joint")
    by_parent = {}
    for j in joints:
        by_parent.setdefault(j.find("parent").get("link"), []).append(j)
    children = {j.find("child").get("link") for j in joints}
    link = [n for n in links if n not in children][0]

    def frame(e):
        xyz = [float(x) for x in (e.get("xyz") or "0 0 0").split()] if e is not None else [0, 0, 0]
        rpy = [float(x) for x in (e.get("rpy") or "0 0 0").split()] if e is not None else [0, 0, 0]
        return kdl.Frame(kdl.Rotation.RPY(*rpy), kdl.Vector(*xyz))

    chain = kdl.Chain()
    while by_parent.get(link):
        if len(by_parent[link]) > 1:
            return None
        j = by_parent[link][0]
        link = j.find("child").get("link")
        origin = frame(j.find("origin"))
        axis = kdl.Vector(*[float(x) for x in (j.find("axis").get("xyz") if j.find("axis") is not None else "1 0 0").split()])
        joint = (kdl.Joint(j.get("name"), origin.p, origin.M * axis, kdl.Joint.RotAxis) if j.get("type") in ("revolute", "continuous")
                 else kdl.Joint(j.get("name"), kdl.Joint.Fixed))
        inertial, inertia = links[link].find("inertial"), kdl.RigidBodyInertia()
        if inertial is not None:
            at, i = frame(inertial.find("origin")), inertial.find("inertia")
            I = np.array([[float(i.get("ixx")), float(i.get("ixy")), float(i.get("ixz"))],
                          [float(i.get("ixy")), float(i.get("iyy")), float(i.get("iyz"))],
                          [float(i.get("ixz")), float(i.get("iyz")), float(i.get("izz"))]])
            R = np.array([[at.M[r, c] for c in range(3)] for r in range(3)])
            Ic = R @ I @ R.T
            inertia = kdl.RigidBodyInertia(float(inertial.find("mass").get("value")), at.p,
                                           kdl.RotationalInertia(Ic[0, 0], Ic[1, 1], Ic[2, 2], Ic[0, 1], Ic[0, 2], Ic[1, 2]))
        chain.addSegment(kdl.Segment(link, joint, origin, inertia))
    return chain


def kdl_peers(urdf, m, rng, n):
    """PyKDL's rnea and crba (ChainIdSolver_RNE, ChainDynParam) as a loop over n states, first checked
    against the module at one state; None for a tree (PyKDL solves chains only)."""
    chain = kdl_chain(urdf)
    if chain is None or chain.getNrOfJoints() != m.NV:
        return None
    g = kdl.Vector(0, 0, -9.81)
    rne, dyn = kdl.ChainIdSolver_RNE(chain, g), kdl.ChainDynParam(chain, g)
    nj = m.NV
    q, v, a, tau, H = kdl.JntArray(nj), kdl.JntArray(nj), kdl.JntArray(nj), kdl.JntArray(nj), kdl.JntSpaceInertiaMatrix(nj)
    wrenches = [kdl.Wrench() for _ in range(chain.getNrOfSegments())]
    Q, V = rng.uniform(-1, 1, (n, nj)), rng.uniform(-1, 1, (n, nj))

    def rnea(s):
        for k in range(nj):
            q[k], v[k], a[k] = Q[s, k], V[s, k], V[s, k]
        rne.CartToJnt(q, v, a, wrenches, tau)
        return np.array([tau[k] for k in range(nj)])

    def crba(s):
        for k in range(nj):
            q[k] = Q[s, k]
        dyn.JntToMass(q, H)
        return np.array([[H[r, c] for c in range(nj)] for r in range(nj)])
    worst = max(np.abs(rnea(0) - m.rnea(Q[0], V[0], V[0])).max(), np.abs(crba(0) - m.crba(Q[0])).max())
    assert worst < 1e-9, "PyKDL's chain disagrees with the module by %g" % worst

    def loop(f):
        def run():
            for s in range(n):
                f(s)
        return run
    return {"rnea": loop(rnea), "crba": loop(crba)}


def mujoco_peers(urdf, floating, n, rng):
    """MuJoCo's rnea, H and forward dynamics as a NumPy loop over n states calling its C functions
    through ctypes (its Python bindings are not in Debian): bench/python_mujoco_peer.cpp loads the URDF
    as bench/mujoco.cpp does and gives the arrays' addresses; the calls per state are mujoco.cpp's.
    MuJoCo's own coordinates (a free joint's quaternion w first, its linear velocity in world axes):
    the same work as rbdgen's, not mapped. None where g++ or libmujoco-dev is missing."""
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build-bench", "python_mujoco_peer.so")
    try:
        os.makedirs(os.path.dirname(lib), exist_ok=True)
        subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC", "-O2", "-I", os.path.join(here, "..", "tests"), "-o", lib,
                        os.path.join(here, "python_mujoco_peer.cpp"), "-lmujoco"], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("MuJoCo left out: %s" % e, file=sys.stderr)
        return None
    mj = ctypes.CDLL(lib)
    vp, dp = ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)
    mj.rbdgen_mujoco_load.restype = vp
    mj.rbdgen_mujoco_load.argtypes = [ctypes.c_char_p, ctypes.c_int]
    for f in ("model", "data"):
        getattr(mj, "rbdgen_mujoco_" + f).restype, getattr(mj, "rbdgen_mujoco_" + f).argtypes = vp, [vp]
    for f in ("qpos", "qvel", "qacc", "qM"):
        getattr(mj, "rbdgen_mujoco_" + f).restype, getattr(mj, "rbdgen_mujoco_" + f).argtypes = dp, [vp]
    for f in ("nq", "nv", "free_quaternion"):
        getattr(mj, "rbdgen_mujoco_" + f).argtypes = [vp]
    p = mj.rbdgen_mujoco_load(urdf.encode(), int(floating))
    if not p:
        return None
    m, d, nq, nv = vp(mj.rbdgen_mujoco_model(p)), vp(mj.rbdgen_mujoco_data(p)), mj.rbdgen_mujoco_nq(p), mj.rbdgen_mujoco_nv(p)
    qpos = np.ctypeslib.as_array(mj.rbdgen_mujoco_qpos(p), (nq,))
    qvel = np.ctypeslib.as_array(mj.rbdgen_mujoco_qvel(p), (nv,))
    qacc = np.ctypeslib.as_array(mj.rbdgen_mujoco_qacc(p), (nv,))
    qM = mj.rbdgen_mujoco_qM(p)
    for f in ("mj_kinematics", "mj_comPos", "mj_comVel", "mj_crb", "mj_factorM"):
        getattr(mj, f).argtypes, getattr(mj, f).restype = [vp, vp], None
    mj.mj_rne.argtypes, mj.mj_rne.restype = [vp, vp, ctypes.c_int, dp], None
    mj.mj_fullM.argtypes, mj.mj_fullM.restype = [vp, dp, dp], None
    mj.mj_solveM.argtypes, mj.mj_solveM.restype = [vp, vp, dp, dp, ctypes.c_int], None
    Q = rng.uniform(-0.5, 0.5, (n, nq))
    w = mj.rbdgen_mujoco_free_quaternion(p)
    if w >= 0:
        Q[:, w] += 1.0
        Q[:, w:w + 4] /= np.linalg.norm(Q[:, w:w + 4], axis=1, keepdims=True)
    V, X = rng.uniform(-1, 1, (n, nv)), rng.uniform(-1, 1, (n, nv))
    out, bias, H = np.empty(nv), np.empty(nv), np.empty((nv, nv))
    out_p, bias_p, H_p = out.ctypes.data_as(dp), bias.ctypes.data_as(dp), H.ctypes.data_as(dp)
    kin, com_pos, com_vel, crb, factor = mj.mj_kinematics, mj.mj_comPos, mj.mj_comVel, mj.mj_crb, mj.mj_factorM
    rne, full, solve = mj.mj_rne, mj.mj_fullM, mj.mj_solveM

    def rnea():
        for s in range(n):
            qpos[:], qvel[:], qacc[:] = Q[s], V[s], X[s]
            kin(m, d), com_pos(m, d), com_vel(m, d)
            rne(m, d, 1, out_p)

    def crba():
        for s in range(n):
            qpos[:] = Q[s]
            kin(m, d), com_pos(m, d), crb(m, d)
            full(m, H_p, qM)

    def aba():
        for s in range(n):
            qpos[:], qvel[:] = Q[s], V[s]
            kin(m, d), com_pos(m, d), crb(m, d), factor(m, d), com_vel(m, d)
            rne(m, d, 0, bias_p)
            np.subtract(X[s], bias, out=out)
            solve(m, d, out_p, out_p, 1)
    return {"rnea": rnea, "crba": crba, "aba": aba}


def batch_peer(m, kernels):
    """batch:: of module m's own sources, called from C++ (python_batch_peer.cpp) through ctypes."""
    src = os.path.join(os.path.dirname(m.__file__), "src")
    name = m.__name__
    lib = os.path.join(os.path.dirname(m.__file__), "batch_peer.so")
    sources = [os.path.join(src, "%s_%s.cpp" % (name, k)) for k in kernels]
    subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC"] + FLAGS + ["-I", src, '-DROBOT_HEADER="%s.hpp"' % name,
                    "-DROBOT=" + name, "-o", lib, os.path.join(here, "python_batch_peer.cpp")] + sources, check=True)
    peer = ctypes.CDLL(lib)
    peer.rbdgen_batch_seconds.restype = ctypes.c_double
    peer.rbdgen_batch_seconds.argtypes = [ctypes.c_char_p, ctypes.c_long, ctypes.c_int]
    return lambda kernel: peer.rbdgen_batch_seconds(kernel.encode(), N, 3)  # the first pass touches the outputs


def main(out):
    rows = []
    for label, urdf, floating in ROBOTS:
        if not os.path.isfile(urdf):
            print("%s: %s is absent, left out" % (label, urdf), file=sys.stderr)
            continue
        kernels = ["rnea", "crba", "aba"]
        m = rbdgen.load(urdf, floating_base=floating, kernels=kernels, extra=["--batch", "4"], compile_options=FLAGS,
                        name=label + "_b4")
        single = rbdgen.load(urdf, floating_base=floating, kernels=kernels, compile_options=FLAGS, name=label)
        cpp = batch_peer(m, kernels)
        rng = np.random.default_rng(1)
        Q = np.tile(m.neutral(), (N, 1)) + rng.uniform(-0.5, 0.5, (N, m.NQ))
        if floating:  # unit quaternions
            w = m.q_index[m.joint_names[0]]
            Q[:, w + 3:w + 7] /= np.linalg.norm(Q[:, w + 3:w + 7], axis=1, keepdims=True)
        QD, X = rng.uniform(-1, 1, (N, m.NV)), rng.uniform(-1, 1, (N, m.NV))
        q, qd, x = Q[0].copy(), QD[0].copy(), X[0].copy()
        # N states into preallocated outputs (out=), as a loop that calls again would: the C++ side
        # writes into arrays it allocated once too
        T, H = np.empty((N, m.NV)), np.empty((N, m.NV, m.NV))
        calls = {"rnea": (lambda: m.rnea(q, qd, x), lambda: m.rnea(Q, QD, X, out=T), lambda: single.rnea(Q, QD, X, out=T),
                          lambda: m.rnea(Q, QD, X, out=T, threads=THREADS)),
                 "crba": (lambda: m.crba(q), lambda: m.crba(Q, out=H), lambda: single.crba(Q, out=H),
                          lambda: m.crba(Q, out=H, threads=THREADS)),
                 "aba": (lambda: m.aba(q, qd, x), lambda: m.aba(Q, QD, X, out=T), lambda: single.aba(Q, QD, X, out=T),
                         lambda: m.aba(Q, QD, X, out=T, threads=THREADS))}
        skel = dart_skeleton(urdf, floating) if dart else None
        n_dart = 1000
        if skel is not None:
            dq = rng.uniform(-0.5, 0.5, (n_dart, skel.getNumDofs()))
            dv = rng.uniform(-1, 1, (n_dart, skel.getNumDofs()))

            def dart_rnea():
                for s in range(n_dart):
                    skel.setPositions(dq[s]); skel.setVelocities(dv[s]); skel.setAccelerations(dv[s])
                    skel.computeInverseDynamics()
                    skel.getForces()

            def dart_crba():
                for s in range(n_dart):
                    skel.setPositions(dq[s])
                    skel.getMassMatrix()

            def dart_aba():
                for s in range(n_dart):
                    skel.setPositions(dq[s]); skel.setVelocities(dv[s]); skel.setForces(dv[s])
                    skel.computeForwardDynamics()
                    skel.getAccelerations()
            peers = {"rnea": dart_rnea, "crba": dart_crba, "aba": dart_aba}
        kdl_calls = kdl_peers(urdf, m, rng, n_dart) if kdl else None
        mujoco = mujoco_peers(urdf, floating, n_dart, rng)
        for kernel, (one, many, loop, threaded) in calls.items():
            t_one, t_many, t_loop, t_cpp, t_dart, t_kdl, t_threads, t_mujoco = (float("inf"),) * 8
            for _ in range(5):  # interleaved rounds, the least of each
                t_one = min(t_one, best(one, reps=3, calls=2000))
                t_loop = min(t_loop, best(loop, reps=2) / N)
                t_many = min(t_many, best(many, reps=2) / N)
                t_threads = min(t_threads, best(threaded, reps=2) / N)
                t_cpp = min(t_cpp, min(cpp(kernel) for _ in range(2)) / N)
                if skel is not None:
                    t_dart = min(t_dart, best(peers[kernel], reps=1) / n_dart)
                if mujoco:
                    t_mujoco = min(t_mujoco, best(mujoco[kernel], reps=1) / n_dart)
                if kdl_calls and kernel in kdl_calls:
                    t_kdl = min(t_kdl, best(kdl_calls[kernel], reps=1) / n_dart)
            kdl_cells = "%.3f M | %.0f×" % (1e-6 / t_kdl, t_kdl / t_many) if t_kdl < float("inf") else "— | —"
            mujoco_cells = "%.3f M | %.0f×" % (1e-6 / t_mujoco, t_mujoco / t_many) if t_mujoco < float("inf") else "— | —"
            rows.append("| %s | %s | %.0f | %.0f | %.0f | %.2f M | %.2f M | %.0f%% | %s | %.3f M | %.0f× | %s | %.2f M (%.0f× dartpy) |" % (
                label, kernel, t_one * 1e9, t_loop * 1e9, (t_one - t_loop) * 1e9, 1e-6 / t_many, 1e-6 / t_cpp, 100 * t_cpp / t_many,
                mujoco_cells, 1e-6 / t_dart, t_dart / t_many, kdl_cells, 1e-6 / t_threads, t_dart / t_threads))
    text = ("| robot | kernel | one state a call, ns | C++ loop, ns a state | overhead a call, ns | states/s, batch:: from Python "
            "(N = %d) | states/s, batch:: from C++ | Python / C++ | states/s, MuJoCo ctypes loop | rbdgen / MuJoCo | states/s, dartpy loop "
            "| rbdgen / dartpy | states/s, PyKDL loop | rbdgen / PyKDL | states/s, threads=%d |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" % (N, THREADS)) + "\n".join(rows) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
