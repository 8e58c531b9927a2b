"""The generated robots' Python modules (rbdgen_add_robot PYTHON; docs/build.md, "Python").

Every kernel that `rbdgen eval` prints is called from Python at the same random states and compared
with eval's JSON (the generator's reference algorithms, in double); the LTDL kernels, which eval does
not print, against NumPy's dense solve; a batch of states against the loop over them, exactly; and
bad input raises ValueError naming the argument, never crashing the interpreter.

Environment (set by tests/CMakeLists.txt): RBDGEN (the generator), RBDGEN_PY_ROBOTS: entries
module|urdf|floating|scalar|problem|batch, separated by '#', with the modules' folders on PYTHONPATH.
"""
import importlib
import json
import os
import subprocess
import tempfile

import numpy as np
import pytest

ROBOTS = [dict(zip(("module", "urdf", "floating", "scalar", "problems", "batch"), e.split("|")))
          for e in os.environ.get("RBDGEN_PY_ROBOTS", "").split("#") if e]
if not ROBOTS:
    pytest.skip("RBDGEN_PY_ROBOTS is not set: run through ctest (tests/CMakeLists.txt builds the modules)",
                allow_module_level=True)


ON_REQUEST = ("rnea_derivatives", "aba_derivatives", "regressor", "centroidal_derivatives")  # eval prints them when named


def random_state(m, rng, floating):
    """A STATE.json dict: every joint, a floating base with a unit quaternion, τ of the base zero."""
    state = {"q": {}, "v": {}, "a": {}, "tau": {}, "gravity": [0.3, -0.2, -9.81]}
    for j in m.joint_names:
        if floating and j == m.joint_names[0]:
            continue
        state["q"][j], state["v"][j], state["a"][j], state["tau"][j] = (float(x) for x in rng.uniform(-1, 1, 4))
    if floating:
        quat = rng.normal(size=4)
        state["base"] = {"position": list(rng.uniform(-1, 1, 3)), "quaternion": list(quat / np.linalg.norm(quat)),
                         "velocity": list(rng.uniform(-1, 1, 6)), "acceleration": list(rng.uniform(-1, 1, 6))}
    return state


def evaluate(robot, state):
    """`rbdgen eval` of the robot at the state, with the module's problems."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(state, f)
    cmd = [os.environ["RBDGEN"], "eval", robot["urdf"], "--state", f.name]
    on_request = [k for k in ON_REQUEST if k in importlib.import_module(robot["module"]).kernels]
    if on_request:
        cmd += ["--kernels", ",".join(on_request)]
    if robot["floating"] == "1":
        cmd.append("--floating-base")
    if robot["problems"]:
        cmd += ["--problem", robot["problems"]]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    return json.loads(out)


def flat(value):
    """eval's JSON of one output as the kernel's array: a dict by name in order, a matrix, or a pose
    (R row by row, then p)."""
    if isinstance(value, dict) and "matrix" in value:
        return np.array(value["matrix"], dtype=float)
    if isinstance(value, dict) and value.keys() == {"R", "p"}:
        return np.concatenate([np.array(value["R"], dtype=float).ravel(), np.array(value["p"], dtype=float)])
    if isinstance(value, dict):
        return np.concatenate([flat(v) for v in value.values()])
    return np.array(value, dtype=float).ravel()


def call(m, kernel, arrays):
    """The kernel at the arrays of m.arrays() (by its inputs' names; the configuration kernels' q0 is
    q, v is qd and q1 is q + qd by the module's integrate, as eval takes them)."""
    named = dict(arrays, q0=arrays["q"], v=arrays["qd"])
    if hasattr(m, "integrate"):
        named["q1"] = m.integrate(arrays["q"], arrays["qd"])
    return getattr(m, kernel)(*[named[n] for n in m.kernels[kernel]["inputs"]])


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_every_kernel_eval_prints_agrees_with_eval(robot):
    m = importlib.import_module(robot["module"])
    rng = np.random.default_rng(32)
    tolerance = 1e-12 if robot["scalar"] == "double" else 2e-4
    checked = set()
    for _ in range(3):
        state = random_state(m, rng, robot["floating"] == "1")
        reference = evaluate(robot, state)
        arrays = m.arrays(state)
        for kernel, value in reference.items():
            if kernel == "joints" or not hasattr(m, kernel):
                continue
            mine = call(m, kernel, arrays)
            outputs = list(m.kernels[kernel]["outputs"])
            if len(outputs) > 1:  # eval prints each output by name (the derivatives' matrices)
                pairs = [(mine[i], flat(value[name])) for i, name in enumerate(outputs)]
            else:
                pairs = [(mine, flat(value))]
            # a problem's kernels solve a linear system: the emitted order of operations (shared
            # reciprocals, common subexpressions) against the reference's, amplified by its
            # condition, differs by up to 5e-12 relative (arm7's 6D contact); 1e-9, as the eval drivers'
            solved = kernel.endswith("_lu") or kernel.endswith("_aba") and kernel != "aba"
            for got, want in pairs:
                want = want.reshape(got.shape)
                scale = max(1.0, np.abs(want).max())
                assert np.abs(got - want).max() / scale < (max(tolerance, 1e-9) if solved else tolerance), kernel
            checked.add(kernel)
    assert {"rnea", "crba", "fk"} | ({"aba"} if not m.fd_refusal else set()) <= checked, checked
    assert {k for k in ON_REQUEST if k in m.kernels} <= checked, checked


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_the_regressor_is_linear_in_the_parameters(robot):
    """Y(q, qd, qdd) pi = rnea(q, qd, qdd) for one pi at every state: pi fitted by least squares at
    200 random states predicts the torques at 50 others."""
    m = importlib.import_module(robot["module"])
    if "regressor" not in m.kernels:
        pytest.skip("built without the regressor (py_arm has it)")
    rng = np.random.default_rng(3)
    states = [m.arrays(random_state(m, rng, robot["floating"] == "1")) for _ in range(250)]
    batch = {k: np.stack([s[k] for s in states]) for k in states[0]}
    Y, tau = call(m, "regressor", batch), call(m, "rnea", batch)
    pi = np.linalg.lstsq(Y[:200].reshape(-1, Y.shape[2]), tau[:200].reshape(-1), rcond=None)[0]
    assert np.abs(Y[200:] @ pi - tau[200:]).max() < 1e-9 * max(1.0, np.abs(tau).max())


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_ltdl_solves_what_numpy_solves(robot):
    m = importlib.import_module(robot["module"])
    if m.fd_refusal:
        pytest.skip("H is singular for this robot: its LTDL raises (test_forward_dynamics_of_a_singular_H_raises)")
    rng = np.random.default_rng(5)
    arrays = m.arrays(random_state(m, rng, robot["floating"] == "1"))
    H = m.crba(arrays["q"])
    b = rng.uniform(-1, 1, m.NV)
    x = m.ltdl_solve(m.ltdl(H), b)
    Hs = np.tril(H) + np.tril(H, -1).T  # the lower triangle, mirrored
    tolerance = 1e-10 if robot["scalar"] == "double" else 1e-3
    assert np.abs(Hs @ x - b).max() < tolerance * max(1.0, np.abs(b).max())


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_a_batch_is_the_loop_over_its_states(robot):
    """Through batch:: where the robot has it (BATCH states at a time, the rest one by one): 9 states
    are 4 calls of 2 and one, or 2 of 4 and one."""
    m = importlib.import_module(robot["module"])
    assert m.BATCH == int(robot["batch"])
    rng = np.random.default_rng(7)
    states = [m.arrays(random_state(m, rng, robot["floating"] == "1")) for _ in range(9)]
    batch = {k: np.stack([s[k] for s in states]) for k in states[0]}
    for kernel in ("rnea", "crba", "fk") + (("aba",) if not m.fd_refusal else ()):
        together = call(m, kernel, batch)
        for s, one in enumerate(states):
            np.testing.assert_array_equal(together[s], call(m, kernel, one))
    # on several threads: the same numbers, bit for bit
    for threads in (2, 3, 0):
        np.testing.assert_array_equal(m.rnea(batch["q"], batch["qd"], batch["qdd"], threads=threads),
                                      m.rnea(batch["q"], batch["qd"], batch["qdd"]))
    for bad in (-1, 1.5, "2"):
        with pytest.raises(ValueError, match="threads is a whole number"):
            m.rnea(batch["q"], batch["qd"], batch["qdd"], threads=bad)
    # gravity given once is every state's
    np.testing.assert_array_equal(m.rnea(batch["q"], batch["qd"], batch["qdd"], batch["gravity"][0]),
                                  m.rnea(batch["q"], batch["qd"], batch["qdd"], batch["gravity"]))
    # out= receives the result
    out = np.empty((9, m.NV), dtype=m.rnea(states[0]["q"], states[0]["qd"], states[0]["qdd"]).dtype)
    r = m.rnea(batch["q"], batch["qd"], batch["qdd"], out=out)
    assert np.shares_memory(r, out)
    np.testing.assert_array_equal(out, m.rnea(batch["q"], batch["qd"], batch["qdd"]))
    # a non-contiguous array is copied, not refused
    wide = np.zeros((9, 2 * m.NQ))
    wide[:, ::2] = batch["q"]
    np.testing.assert_array_equal(m.rnea(wide[:, ::2], batch["qd"], batch["qdd"]), m.rnea(batch["q"], batch["qd"], batch["qdd"]))


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_bad_input_raises_naming_it(robot):
    m = importlib.import_module(robot["module"])
    q, v = m.neutral(), np.zeros(m.NV)
    cases = [
        (lambda: m.rnea(q[:-1], v, v), "argument 'q': expected shape (%d,) (one state) or (N, %d) (N states), got (%d,)" % (m.NQ, m.NQ, m.NQ - 1)),
        (lambda: m.rnea(np.zeros(m.NQ, dtype=int), v, v), "argument 'q': expected an array of floats (float64 or float32), got dtype int64"),
        (lambda: m.rnea(q, v), "missing argument 'qdd'"),
        (lambda: m.rnea(q, v, v, gravity=np.zeros(2)), "argument 'gravity': expected shape (3,)"),
        (lambda: m.rnea(np.tile(q, (3, 1)), np.zeros((4, m.NV)), v), "argument 'qd' has 4 states, an earlier one 3"),
        (lambda: m.rnea(q, v, v, torque=v), "no argument 'torque'"),
        (lambda: m.rnea(q, v, v, qd=v), "argument 'qd' given twice"),
        (lambda: m.rnea(q, v, v, out=np.zeros(m.NV, dtype=np.float16)), "out 'tau': expected an array of"),
        (lambda: m.rnea(q, v, v, out=np.zeros(m.NV + 1)), "out 'tau'"),
        (lambda: m.crba("q"), "argument 'q': expected an array of floats"),
        (lambda: m.rnea(q, v, v, v, v), "takes 4 arrays, got 5"),
    ]
    for f, message in cases:
        with pytest.raises(ValueError) as e:
            f()
        assert message in str(e.value)
    # every kernel, fed wrong shapes, zero-size arrays and NaN: ValueError or numbers, no crash
    for kernel, arrays in m.kernels.items():
        f, shapes = getattr(m, kernel), list(arrays["inputs"].values())
        good = [np.full(s, 0.5) for s in shapes]
        try:
            f(*good)
        except ValueError as e:  # undefined for this robot, whatever its input (the test below)
            assert m.fd_refusal and m.fd_refusal in str(e), kernel
            continue
        for k, s in enumerate(shapes):
            for bad in (np.zeros(0), np.zeros((2, 0)), np.zeros(s[:-1] + (s[-1] + 1,)), np.zeros((1, 1, 1, 1))):
                with pytest.raises(ValueError, match="argument '%s'" % list(arrays["inputs"])[k]):
                    f(*good[:k], bad, *good[k + 1:])
        empty = f(*[np.zeros((0,) + s) for s in shapes])
        for out, s in zip(empty if isinstance(empty, tuple) else (empty,), arrays["outputs"].values()):
            assert out.shape == (0,) + s, kernel
        nans = f(*[np.full(s, np.nan) for s in shapes])
        assert all(isinstance(x, np.ndarray) for x in (nans if isinstance(nans, tuple) else (nans,))), kernel
    nan = m.rnea(np.full(m.NQ, np.nan), v, v)
    assert np.isnan(nan).any()  # (a joint moving only massless links carries no torque, NaN or not)
    assert m.rnea(np.zeros((0, m.NQ)), v, v).shape == (0, m.NV)


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_state_conversions(robot):
    m = importlib.import_module(robot["module"])
    floating = robot["floating"] == "1"
    joint = m.joint_names[1 if floating else 0]
    a = m.arrays({"q": {joint: 0.25}, "v": {joint: -0.5}, "gravity": [0, 0, -1]})
    assert a["q"][m.q_index[joint]] == 0.25 and a["qd"][m.v_index[joint]] == -0.5
    assert list(a["gravity"]) == [0, 0, -1]
    assert len(m.dof_names) == m.NV and len(a["q"]) == m.NQ
    if floating:
        assert m.neutral()[m.q_index[m.joint_names[0]] + 6] == 1
    with pytest.raises(ValueError, match="'q' names 'no_such_joint', not a moving joint"):
        m.arrays({"q": {"no_such_joint": 1.0}})
    # state() is arrays()'s inverse, both ways
    rng = np.random.default_rng(11)
    given = random_state(m, rng, floating)
    if floating:
        given["base"]["wrench"] = list(rng.uniform(-1, 1, 6))
    a = m.arrays(given)
    back = m.state(a["q"], a["qd"], a["qdd"], a["tau"], a["gravity"])
    for key in ("q", "v", "a", "tau"):
        assert back[key].keys() == given[key].keys(), key
        np.testing.assert_allclose(list(back[key].values()), list(given[key].values()), rtol=0, atol=1e-6 if robot["scalar"] == "float" else 0)
    if floating:
        for key, value in given["base"].items():
            np.testing.assert_allclose(back["base"][key], value, rtol=0, atol=1e-6 if robot["scalar"] == "float" else 0)
    for key, value in m.arrays(back).items():
        np.testing.assert_array_equal(value, a[key])
    assert m.state(q=a["q"]).keys() == ({"q", "base"} if floating else {"q"})
    with pytest.raises(ValueError, match="state\\(\\): argument 'qd': expected an array of floats of shape \\(%d,\\)" % m.NV):
        m.state(qd=np.zeros(m.NV + 1))


@pytest.mark.parametrize("robot", ROBOTS, ids=[r["module"] for r in ROBOTS])
def test_forward_dynamics_of_a_singular_H_raises(robot):
    m = importlib.import_module(robot["module"])
    q, v = m.neutral(), np.zeros(m.NV)
    if not m.fd_refusal:
        assert np.isfinite(m.aba(q, v, v)).all()
        return
    assert "moves only massless links" in m.fd_refusal
    for kernel in ("aba", "fd_crba_ltdl"):
        with pytest.raises(ValueError, match="moves only massless links"):
            getattr(m, kernel)(q, v, v)
    with pytest.raises(ValueError, match="moves only massless links"):
        m.ltdl(np.eye(m.NV))
    assert np.isfinite(m.rnea(q, v, v)).all()  # inverse dynamics stays defined
