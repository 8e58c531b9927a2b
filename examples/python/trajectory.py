"""A smooth motion of every joint of a robot written by others (Franka's Panda, ../shared/models),
through its generated kernels from Python (rbdgen.load, docs/build.md, "Python"):

  1. the torques along it, by rnea, every state in one call;
  2. the motion recovered from those torques by aba (forward dynamics), against the motion asked for;
  3. the torques' time derivative from the N-CMTM (cornea, Samy et al. Alg. 1, order 2), against
     central differences of the torques;

plotted with matplotlib to trajectory.png (or the path given). Usage:
  python3 examples/python/trajectory.py [URDF] [OUT.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
import rbdgen  # noqa: E402

urdf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "models", "panda.urdf")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "trajectory.png")
if not os.path.isfile(urdf):
    sys.exit("examples/python/trajectory.py: %s is absent; give a URDF: trajectory.py ROBOT.urdf" % urdf)
robot = rbdgen.load(urdf, kernels=["rnea", "aba", "cornea"], extra=["--ncmtm-order", "2"])

# q_j(t) = a_j sin(w_j t + p_j) and its derivatives, every joint, 2 s at 1 kHz
t = np.linspace(0, 2, 2001)
j = np.arange(robot.NV)
a, w, p = 0.6 / (1 + 0.2 * j), 1.5 + 0.4 * j, 0.3 * j
phase = np.outer(t, w) + p
Q = a * np.sin(phase)
QD = a * w * np.cos(phase)
QDD = -a * w**2 * np.sin(phase)
QDDD = -a * w**3 * np.cos(phase)

tau = robot.rnea(Q, QD, QDD)                       # (2001, NV): one call, every state
qdd = robot.aba(Q, QD, tau)                        # the motion back from the torques
psi = np.stack([QD, QDD, QDDD], axis=1)            # (2001, 3, NV): psi, psi', psi''
tau_orders = robot.cornea(Q, psi)                  # (2001, 2, NV): tau and its derivative
tau_dot = tau_orders[:, 1, :]
differences = (tau[2:] - tau[:-2]) / (t[2] - t[0])

fig, ax = plt.subplots(3, 1, figsize=(9, 9), sharex=True)
ax[0].plot(t, tau)
ax[0].set_ylabel("joint torque (N m, N)")
ax[0].set_title("%s: a smooth motion of every joint, through the generated kernels" % os.path.basename(urdf))
ax[1].semilogy(t, np.abs(qdd - QDD).max(axis=1) + 1e-18)
ax[1].set_ylabel("|aba(rnea(qdd)) - qdd|, worst joint")
ax[2].plot(t, tau_dot)
ax[2].plot(t[1:-1:50], differences[::50], "k.", markersize=3)
ax[2].plot([], [], "k.", label="central differences of rnea's torques")
ax[2].set_ylabel("d tau / dt by the N-CMTM (cornea)")
ax[2].set_xlabel("time (s)")
ax[2].legend(loc="upper right")
fig.tight_layout()
fig.savefig(out, dpi=90)
print("worst |aba(rnea(qdd)) - qdd|: %.1e; worst |cornea's dtau/dt - differences|: %.1e (h = %.0e s)"
      % (np.abs(qdd - QDD).max(), np.abs(tau_dot[1:-1] - differences).max(), t[1] - t[0]))
print("wrote %s" % out)
