"""A quadruped written by others (ODRI's Solo-12, ../shared/models) stands up from a crouch with its
four feet held on the ground: a trajectory optimization by iLQR (Gauss-Newton's Hessians, with the
feedback gains that keep the rollouts of an unstable crouch from diverging) over the joint torques of
40 knots, through the generated kernels from Python (rbdgen.load):

  - the dynamics under contact, q-ddot = contact_aba(q, qd, tau), four point feet held, and its
    derivatives (contact_derivatives: dqdd/dq on the tangent space, dqdd/dqd, dqdd/dtau);
  - the velocity projected on the contacts by the impact map (impulse_aba, impulse_derivatives);
  - the step q' = q (+) dt qd' on the configuration manifold (integrate: the base by SE(3)'s
    exponential) and its Jacobians (integrate_jacobians);
  - the cost's configuration error q_goal (-) q (difference) and its Jacobian (difference_jacobians);
  - the first guess: the torques that hold the crouch still (nle and frame_jacobians).

Each iteration prints the cost; the cost and the motion are plotted with matplotlib to stand_up.png
(or the path given). Usage:
  python3 examples/python/stand_up.py [solo12.urdf] [OUT.png]
"""
import os
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
import rbdgen  # noqa: E402

urdf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "models", "solo12.urdf")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "stand_up.png")
if not os.path.isfile(urdf):
    sys.exit("examples/python/stand_up.py: %s is absent; give Solo-12's URDF: stand_up.py solo12.urdf" % urdf)
feet = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
start = time.time()
robot = rbdgen.load(urdf, floating_base=True, name="solo12_stand_up",
                    kernels=["fk", "nle", "frame_jacobians", "integrate", "integrate_jacobians", "difference", "difference_jacobians"],
                    problems=[kind + ":" + ",".join(f + ":point" for f in feet) for kind in ("contact", "impulse")],
                    extra=["--frames", ",".join(feet)])
print("module built or loaded in %.1f s" % (time.time() - start))
NQ, NV = robot.NQ, robot.NV
g = np.array([0.0, 0.0, -9.81])


def posture(hfe, kfe):
    """The base level and its height such that the four feet touch z = 0, the legs at (0, hfe, kfe)."""
    q = np.zeros(NQ)
    q[6] = 1.0  # the quaternion (x, y, z, w): level
    q[7:] = np.tile([0.0, hfe, kfe], 4)
    frame_pose = robot.fk(q)[1].reshape(4, 12)  # each foot: R row-major, then its position
    q[2] = -frame_pose[:, 11].mean()
    return q


q_crouch, q_goal = posture(1.2, -2.4), posture(0.8, -1.6)
T, dt = 40, 0.025


def knot(q, v, tau):
    """One step and its Jacobians with respect to the state's tangent (dq, dv) and the joint torques:
    q-ddot under contact, the velocity v + dt q-ddot projected on the feet's constraint by the impact
    map (impulse_aba: the feet's velocities zero, which keeps the Euler step from drifting off the
    ground), then q' = q (+) dt v' on the manifold."""
    tau18 = np.concatenate([np.zeros(6), tau])
    unknowns = robot.contact_aba(q, v, tau18, g)  # q-ddot, then the feet's forces in their frames
    qdd, lam = unknowns[:NV], unknowns[NV:]
    dqdd_dq, dqdd_dv, dqdd_dtau, _, _, _ = robot.contact_derivatives(q, v, tau18, g)
    v_free = v + dt * qdd
    v1 = robot.impulse_aba(q, v_free, g)[:NV]
    dv1_dq, dv1_dvfree, _, _ = robot.impulse_derivatives(q, v_free, g)
    q1 = robot.integrate(q, dt * v1)
    dq_dq, dq_dv = robot.integrate_jacobians(q, dt * v1)
    dv1 = np.hstack([dv1_dq + dv1_dvfree @ (dt * dqdd_dq), dv1_dvfree @ (np.eye(NV) + dt * dqdd_dv)])  # d v1 / d(dq, dv)
    A = np.vstack([np.hstack([dq_dq, np.zeros((NV, NV))]) + dt * dq_dv @ dv1, dv1])
    dv1_dtau = dv1_dvfree @ (dt * dqdd_dtau[:, 6:])
    B = np.vstack([dt * dq_dv @ dv1_dtau, dv1_dtau])
    return q1, v1, lam, A, B


weights_q = np.concatenate([[3, 3, 3, 10, 10, 30], np.ones(12)])  # the base's pose first, its height most
w_v, w_tau = 0.3, 2e-3


def knot_cost(k, q, v, tau):
    """The residuals of knot k+1 (its state after tau) and their Jacobians on the state's tangent:
    the configuration error q_goal (-) q, the velocity, the torque; the last knot weighs 10 times."""
    w = 10.0 if k == T - 1 else 1.0
    e = robot.difference(q_goal, q)
    r_x = np.concatenate([w * weights_q * e, w * w_v * v])
    R_x = np.zeros((2 * NV, 2 * NV))
    R_x[:NV, :NV] = w * weights_q[:, None] * robot.difference_jacobians(q_goal, q)[1]
    R_x[NV:, NV:] = w * w_v * np.eye(NV)
    return r_x, R_x, w_tau * tau


def rollout(U, nominal=None, K=None, alpha=1.0, kff=None):
    """The motion from the crouch under U, or (iLQR's forward pass) under U + alpha kff + K dx, dx the
    state's tangent offset from the nominal (q_nominal (+) dq = q)."""
    q, v = q_crouch.copy(), np.zeros(NV)
    qs, vs, Us, forces, steps, cost = [q], [v], [], [], [], 0.0
    for k in range(T):
        tau = U[k].copy()
        if K is not None:
            dx = np.concatenate([robot.difference(nominal[0][k], q), v - nominal[1][k]])
            tau += alpha * kff[k] + K[k] @ dx
        q1, v1, lam, A, B = knot(q, v, tau)
        r_x, R_x, r_u = knot_cost(k, q1, v1, tau)
        cost += 0.5 * (r_x @ r_x + r_u @ r_u)
        steps.append((A, B, r_x, R_x, r_u))
        q, v = q1, v1
        qs.append(q), vs.append(v), Us.append(tau), forces.append(lam)
    return cost, (qs, vs), np.array(Us), np.array(forces), steps


def backward(steps, mu):
    """iLQR's backward pass (the Gauss-Newton Hessians of the residuals): feedforward steps and
    feedback gains, with mu added to Q_uu."""
    V_x, V_xx = np.zeros(2 * NV), np.zeros((2 * NV, 2 * NV))
    kff, K = [None] * T, [None] * T
    for k in reversed(range(T)):
        A, B, r_x, R_x, r_u = steps[k]
        # the state after knot k carries its cost: fold it into V before stepping back through A, B
        V_x, V_xx = V_x + R_x.T @ r_x, V_xx + R_x.T @ R_x
        Q_x, Q_u = A.T @ V_x, w_tau * r_u + B.T @ V_x
        Q_xx, Q_ux = A.T @ V_xx @ A, B.T @ V_xx @ A
        Q_uu = w_tau**2 * np.eye(12) + B.T @ V_xx @ B + mu * np.eye(12)
        kff[k] = -np.linalg.solve(Q_uu, Q_u)
        K[k] = -np.linalg.solve(Q_uu, Q_ux)
        V_x = Q_x + K[k].T @ Q_uu @ kff[k] + K[k].T @ Q_u + Q_ux.T @ kff[k]
        V_xx = Q_xx + K[k].T @ Q_uu @ K[k] + K[k].T @ Q_ux + Q_ux.T @ K[k]
        V_xx = 0.5 * (V_xx + V_xx.T)
    return kff, K


# The first guess: the joint torques that hold the crouch still, S^T tau + J^T lambda = nle(q, 0)
# for the feet's linear rows of J, least squares
J_feet = robot.frame_jacobians(q_crouch).reshape(4, 6, NV)[:, 3:, :].reshape(12, NV)
M = np.hstack([np.vstack([np.zeros((6, 12)), np.eye(12)]), J_feet.T])
tau_hold = np.linalg.lstsq(M, robot.nle(q_crouch, np.zeros(NV), g), rcond=None)[0][:12]
cost, nominal, U, forces, steps = rollout(np.tile(tau_hold, (T, 1)))
costs, mu = [cost], 1e-6
print("iteration  0: cost %.6g" % cost)
for it in range(1, 21):
    kff, K = backward(steps, mu)
    for alpha in (1.0, 0.5, 0.25, 0.125, 0.0625):
        trial = rollout(U, nominal, K, alpha, kff)
        if trial[0] < costs[-1]:
            break
    if trial[0] >= costs[-1]:
        mu *= 100
        print("iteration %2d: no decrease; damping %.0e" % (it, mu))
        continue
    cost, nominal, U, forces, steps = trial
    costs.append(cost)
    mu = max(mu / 10, 1e-9)
    print("iteration %2d: cost %.6g  (line search step %g)" % (it, cost, alpha))
    if costs[-2] - costs[-1] < 1e-6 * costs[-2]:
        print("converged: the cost fell by less than 1e-6 of itself")
        break
path = np.array(nominal[0])
if costs[-2] - costs[-1] >= 1e-6 * costs[-2]:
    sys.exit("examples/python/stand_up.py: iLQR did not converge in 20 iterations")
print("base height %.3f m -> %.3f m (goal %.3f m); final configuration error %.2e; %.1f s in all"
      % (q_crouch[2], path[-1][2], q_goal[2], np.linalg.norm(robot.difference(q_goal, path[-1])), time.time() - start))
# the feet's forces in their frames, turned to the world's axes (each frame's R from fk at the knot)
R = robot.fk(path[:-1])[1].reshape(T, 4, 12)[:, :, :9].reshape(T, 4, 3, 3)
normal = np.einsum("tfij,tfj->tfi", R, forces.reshape(T, 4, 3))[:, :, 2]
print("feet's normal forces: %.1f N to %.1f N (positive: the ground pushes)" % (normal.min(), normal.max()))

t = dt * np.arange(T + 1)
fig, ax = plt.subplots(1, 3, figsize=(13, 3.8))
ax[0].semilogy(np.arange(len(costs)), costs, "o-")
ax[0].set_xlabel("iLQR iteration")
ax[0].set_title("cost")
ax[1].plot(t, path[:, 2], label="base height [m]")
ax[1].plot(t, path[:, 8], label="FL hip flexion [rad]")
ax[1].plot(t, path[:, 9], label="FL knee [rad]")
ax[1].axhline(q_goal[2], color="gray", lw=0.5)
ax[1].set_xlabel("t [s]")
ax[1].legend()
ax[1].set_title("Solo-12 stands up, feet held")
for i, f in enumerate(feet):
    ax[2].plot(t[1:], normal[:, i], label=f)
ax[2].set_xlabel("t [s]")
ax[2].set_title("normal contact forces [N]")
ax[2].legend()
fig.tight_layout()
fig.savefig(out, dpi=110)
print("plotted to", out)
