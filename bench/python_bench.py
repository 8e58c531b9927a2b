"""The generated robots from Python (issue 32): rnea, crba and aba on arm7, the floating humanoid and
talos_full, through their modules (rbdgen.load, -O2), against DART's Python bindings (Debian's
python3-dartpy, a loop over the states as its users write it), in one process, interleaved.

  - one state a call: ns a call from Python; the module's call overhead is that minus the kernel's own
    time in the module's loop over many states (the same C++ call, without Python);
  - N = 10,000 states a call: states per second, against dartpy's loop.

Each time is the minimum over repetitions. Writes a Markdown table (stdout, or the file given).
Usage: RBDGEN=build/generator/rbdgen python3 bench/python_bench.py [OUT.md]
"""
import os
import re
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


def main(out):
    rows = []
    for label, urdf, floating in ROBOTS:
        if not os.path.isfile(urdf):
            print("%s: %s is absent, left out" % (label, urdf), file=sys.stderr)
            continue
        m = rbdgen.load(urdf, floating_base=floating, kernels=["rnea", "crba", "aba"])
        rng = np.random.default_rng(1)
        Q = np.tile(m.neutral(), (N, 1)) + rng.uniform(-0.5, 0.5, (N, m.NQ))
        if floating:  # unit quaternions
            w = m.q_index[m.joint_names[0]]
            Q[:, w + 3:w + 7] /= np.linalg.norm(Q[:, w + 3:w + 7], axis=1, keepdims=True)
        QD, X = rng.uniform(-1, 1, (N, m.NV)), rng.uniform(-1, 1, (N, m.NV))
        q, qd, x = Q[0].copy(), QD[0].copy(), X[0].copy()
        calls = {"rnea": (lambda: m.rnea(q, qd, x), lambda: m.rnea(Q, QD, X)),
                 "crba": (lambda: m.crba(q), lambda: m.crba(Q)),
                 "aba": (lambda: m.aba(q, qd, x), lambda: m.aba(Q, QD, X))}
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
        for kernel, (one, many) in calls.items():
            t_one = best(one, calls=2000)
            t_many = best(many, reps=7) / N
            t_dart = best(peers[kernel], reps=5) / n_dart if skel is not None else float("nan")
            rows.append("| %s | %s | %.0f | %.0f | %.0f | %.2f M | %.3f M | %.0f× |" % (
                label, kernel, t_one * 1e9, t_many * 1e9, (t_one - t_many) * 1e9, 1e-6 / t_many, 1e-6 / t_dart, t_dart / t_many))
    text = ("| robot | kernel | one state a call, ns | per state in a call of %d, ns | overhead a call, ns | states/s, rbdgen | "
            "states/s, dartpy loop | rbdgen / dartpy |\n|---|---|---|---|---|---|---|---|\n" % N) + "\n".join(rows) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
