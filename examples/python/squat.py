"""A humanoid written by others (PAL Robotics' Talos, ../shared/models) through a squat, on its
floating base, through its generated kernels from Python (rbdgen.load):

  1. the centre of mass's height (com) as the base sinks and the legs bend;
  2. the centroidal momentum h_G (centroidal): its linear part is m c-dot;
  3. the power balance d(T + V)/dt = qd^T tau, T and V from the energy kernel and tau from rnea
     (the base's wrench included): the work the joints and the ground do is the energy's change;

plotted with matplotlib to squat.png (or the path given). Usage:
  python3 examples/python/squat.py [URDF] [OUT.png]
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

urdf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "models", "talos_full_v2.urdf")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "squat.png")
if not os.path.isfile(urdf):
    sys.exit("examples/python/squat.py: %s is absent; give a humanoid's URDF: squat.py ROBOT.urdf" % urdf)
robot = rbdgen.load(urdf, floating_base=True, kernels=["rnea", "com", "centroidal", "energy"])
names = [n for n in robot.dof_names]

# Two squats in 4 s at 1 kHz: s(t) = (1 - cos(pi t)) / 2 bends hips, knees and ankles of both legs
# (hip pitch -a s, knee 2 a s, ankle pitch -a s) while the base sinks by d s; the base keeps its
# orientation, so its velocity in its own frame is (0, 0, 0, 0, 0, z-dot).
t = np.linspace(0, 4, 4001)
s, sd, sdd = (1 - np.cos(np.pi * t)) / 2, np.pi / 2 * np.sin(np.pi * t), np.pi**2 / 2 * np.cos(np.pi * t)
a, d = 0.6, 0.12
bend = np.zeros(robot.NV)
for side in ("left", "right"):
    for joint, k in (("leg_%s_3_joint", -a), ("leg_%s_4_joint", 2 * a), ("leg_%s_5_joint", -a)):
        if joint % side in names:
            bend[names.index(joint % side)] = k
Q = np.zeros((len(t), robot.NQ))
Q[:, 2] = 1.0 - d * s                      # base height
Q[:, 6] = 1.0                              # quaternion (x, y, z, w) = identity
Q[:, 7:] = np.outer(s, bend[6:])
QD = np.outer(sd, bend)
QD[:, 5] = -d * sd
QDD = np.outer(sdd, bend)
QDD[:, 5] = -d * sdd
g = np.array([0.0, 0.0, -9.81])

c = robot.com(Q)                                   # (4001, 3)
A, h, Adot_qd = robot.centroidal(Q, QD)
T, V = robot.energy(Q, QD, np.broadcast_to(g, (len(t), 3)))
tau = robot.rnea(Q, QD, QDD, np.broadcast_to(g, (len(t), 3)))
power = np.einsum("ij,ij->i", QD, tau)
E = (T + V).ravel()
dE = (E[2:] - E[:-2]) / (t[2] - t[0])
mass = robot.total_mass

fig, ax = plt.subplots(3, 1, figsize=(9, 9), sharex=True)
ax[0].plot(t, c[:, 2])
ax[0].set_ylabel("CoM height (m)")
ax[0].set_title("%s: two squats through the generated kernels" % os.path.basename(urdf))
ax[1].plot(t, h)
ax[1].legend(["k_x", "k_y", "k_z", "l_x", "l_y", "l_z"], ncol=6, fontsize=8, loc="upper right")
ax[1].set_ylabel("centroidal momentum h_G")
ax[2].plot(t, power, label="qd^T tau (rnea)")
ax[2].plot(t[1:-1:50], dE[::50], "k.", markersize=3, label="d(T + V)/dt, central differences of energy")
ax[2].set_ylabel("power (W)")
ax[2].set_xlabel("time (s)")
ax[2].legend(loc="upper right")
fig.tight_layout()
fig.savefig(out, dpi=90)
cd = (c[2:] - c[:-2]) / (t[2] - t[0])
print("worst |d(T + V)/dt - qd^T tau|: %.1e W (of %.0f W); worst |l - m c-dot|: %.1e"
      % (np.abs(dE - power[1:-1]).max(), np.abs(power).max(), np.abs(h[1:-1, 3:] - mass * cd).max()))
print("wrote %s" % out)
