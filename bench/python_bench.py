"""The generated robots from Python (issue 32): rnea, crba and aba on arm7, the floating humanoid and
talos_full, through their modules (rbdgen.load, BATCH 4, -O2 -mavx2), against the same batched kernels
called from C++ and DART's Python bindings (Debian's python3-dartpy, a loop over the states as its
users write it), in one process, interleaved.

  - one state a call: ns a call from Python; the module's call overhead is that minus the
    single-state kernel's own time (C++'s loop over the states in the module, without batch::: the
    robot built again without BATCH);
  - N = 10,000 states a call: states per second through batch:: (the module gathers 4 states into
    structure of arrays, calls, scatters), against batch:: called from C++ on data already in that
    layout (bench/python_batch_peer.cpp, compiled with the module's sources and flags, through
    ctypes), and against dartpy's loop.

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

ROBOTS = [("arm7", os.path.join(here, "..", "models", "arm7.urdf"), False),
          ("humanoid30_fb", os.path.join(here, "..", "models", "humanoid30.urdf"), True),
          ("talos_full_fb", os.path.join(here, "..", "..", "shared", "models", "talos_full_v2.urdf"), True)]
N = 10000
FLAGS = ["-O2", "-mavx2"]


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


def batch_peer(m, kernels):
    """batch:: of module m's own sources, called from C++ (python_batch_peer.cpp) through ctypes."""
    src = os.path.join(os.path.dirname(m.__file__), "src")
    name = m.__name__
    lib = os.path.join(os.path.dirname(m.__file__), "batch_peer.so")
    sources = [os.path.join(src, "%s_%s.cpp" % (name, k)) for k in kernels]
    subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC"] + FLAGS + ["-I", src, "-include", os.path.join(src, name + ".hpp"),
                    "-DROBOT=" + name, "-o", lib, os.path.join(here, "python_batch_peer.cpp")] + sources, check=True)
    peer = ctypes.CDLL(lib)
    peer.rbdgen_batch_seconds.restype = ctypes.c_double
    peer.rbdgen_batch_seconds.argtypes = [ctypes.c_char_p, ctypes.c_long, ctypes.c_int]
    return lambda kernel: peer.rbdgen_batch_seconds(kernel.encode(), N, 1)


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
        calls = {"rnea": (lambda: m.rnea(q, qd, x), lambda: m.rnea(Q, QD, X), lambda: single.rnea(Q, QD, X)),
                 "crba": (lambda: m.crba(q), lambda: m.crba(Q), lambda: single.crba(Q)),
                 "aba": (lambda: m.aba(q, qd, x), lambda: m.aba(Q, QD, X), lambda: single.aba(Q, QD, X))}
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
        for kernel, (one, many, loop) in calls.items():
            t_one, t_many, t_loop, t_cpp, t_dart = (float("inf"),) * 5
            for _ in range(5):  # interleaved rounds, the least of each
                t_one = min(t_one, best(one, reps=3, calls=2000))
                t_loop = min(t_loop, best(loop, reps=2) / N)
                t_many = min(t_many, best(many, reps=2) / N)
                t_cpp = min(t_cpp, min(cpp(kernel) for _ in range(2)) / N)
                if skel is not None:
                    t_dart = min(t_dart, best(peers[kernel], reps=1) / n_dart)
            rows.append("| %s | %s | %.0f | %.0f | %.0f | %.2f M | %.2f M | %.0f%% | %.3f M | %.0f× |" % (
                label, kernel, t_one * 1e9, t_loop * 1e9, (t_one - t_loop) * 1e9, 1e-6 / t_many, 1e-6 / t_cpp, 100 * t_cpp / t_many,
                1e-6 / t_dart, t_dart / t_many))
    text = ("| robot | kernel | one state a call, ns | C++ loop, ns a state | overhead a call, ns | states/s, batch:: from Python "
            "(N = %d) | states/s, batch:: from C++ | Python / C++ | states/s, dartpy loop | rbdgen / dartpy |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n" % N) + "\n".join(rows) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
