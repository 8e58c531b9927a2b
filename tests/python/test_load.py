"""rbdgen.load (python/rbdgen): generate, compile and import a robot without CMake of one's own;
a second load imports the cached build without compiling (counted by rbdgen.compiles, not timed),
an edited URDF is built again. (python3 -m rbdgen build, from an installed rbdgen: test_consumer.cpp.)"""
import os
import shutil
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import rbdgen  # noqa: E402

if "RBDGEN" not in os.environ:
    pytest.skip("RBDGEN is not set: run through ctest (the generator it builds)", allow_module_level=True)
ARM = os.path.join(os.path.dirname(__file__), "..", "..", "models", "arm7.urdf")


def test_load_caches_and_rebuilds_after_an_edit(tmp_path):
    urdf = tmp_path / "arm.urdf"
    shutil.copy(ARM, urdf)
    cache = tmp_path / "cache"
    before = rbdgen.compiles
    arm = rbdgen.load(str(urdf), kernels=["rnea", "aba"], cache_dir=str(cache), compile_options=["-O0"])
    assert rbdgen.compiles == before + 1
    q, v = arm.neutral() + 0.3, np.zeros(arm.NV)
    tau = arm.rnea(q, v, v)
    np.testing.assert_allclose(arm.aba(q, v, tau), v, atol=1e-10)
    again = rbdgen.load(str(urdf), kernels=["rnea", "aba"], cache_dir=str(cache), compile_options=["-O0"])
    assert rbdgen.compiles == before + 1  # the cached build, imported
    np.testing.assert_array_equal(again.rnea(q, v, v), tau)
    # an edited URDF (a heavier link) is generated and compiled again, and its torques change
    text = urdf.read_text()
    i = text.rindex('<mass value="')  # the last link's (the first is the fixed base's)
    j = text.index('"', i + len('<mass value="'))
    urdf.write_text(text[:i] + '<mass value="%g' % (2 * float(text[i + len('<mass value="'):j])) + text[j:])
    edited = rbdgen.load(str(urdf), kernels=["rnea", "aba"], cache_dir=str(cache), compile_options=["-O0"])
    assert rbdgen.compiles == before + 2
    assert np.abs(edited.rnea(q, v, v) - tau).max() > 1e-6


MJCF = os.path.join(os.path.dirname(__file__), "..", "..", "models", "mjcf")


def test_load_reads_mjcf_and_rebuilds_after_an_included_file_changes(tmp_path):
    """An MJCF robot (forms_radian.xml and the defaults it includes): its kernels take the file's
    armature (τ = H q̈ + ...: rnea's difference at two q̈ is H's, whose diagonal holds the armature),
    and an edit of the included file alone (a heavier armature) builds it again."""
    for name in ("forms_radian.xml", "forms_radian_defaults.xml"):
        shutil.copy(os.path.join(MJCF, name), tmp_path / name)
    model = tmp_path / "forms_radian.xml"
    cache = tmp_path / "cache"
    before = rbdgen.compiles
    robot = rbdgen.load(str(model), kernels=["rnea", "crba"], cache_dir=str(cache), compile_options=["-O0"])
    assert rbdgen.compiles == before + 1
    q, v = robot.neutral() + 0.2, np.zeros(robot.NV)
    ball = robot.q_index["wrist_ball"]
    q[ball:ball + 4] /= np.linalg.norm(q[ball:ball + 4])  # the ball joint's quaternion, a unit one
    H = robot.crba(q).reshape(robot.NV, robot.NV)
    # a ball joint's STATE.json entries are arrays: its quaternion [x, y, z, w], three velocities
    qd = np.arange(robot.NV, dtype=float)
    state = robot.state(q=q, qd=qd)
    assert state["q"]["wrist_ball"] == list(q[ball:ball + 4])
    iv = robot.v_index["wrist_ball"]
    assert state["v"]["wrist_ball"] == list(qd[iv:iv + 3])
    back = robot.arrays(state)
    np.testing.assert_array_equal(back["q"], q)
    np.testing.assert_array_equal(back["qd"], qd)
    with pytest.raises(ValueError, match="wrist_ball"):
        robot.arrays({"v": {"wrist_ball": [1.0, 2.0]}})
    e = np.eye(robot.NV)[0]
    np.testing.assert_allclose(robot.rnea(q, v, e) - robot.rnea(q, v, v), H[:, 0], atol=1e-12)
    defaults = tmp_path / "forms_radian_defaults.xml"
    defaults.write_text(defaults.read_text().replace('armature="0.01"', 'armature="0.51"'))
    edited = rbdgen.load(str(model), kernels=["rnea", "crba"], cache_dir=str(cache), compile_options=["-O0"])
    assert rbdgen.compiles == before + 2
    H2 = edited.crba(q).reshape(robot.NV, robot.NV)
    np.testing.assert_allclose(H2 - H, 0.5 * np.eye(robot.NV), atol=1e-12)


SEVEN_DIGITS = """<robot name="r"><link name="a"/>
  <link name="b"><inertial><origin xyz="0.1 0.2 0.3"/><mass value="2"/>
    <inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0.1 0 0" rpy="1.5707963 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"""


def test_load_keeps_constants_that_snapping_would_move(tmp_path):
    """A 7-digit right angle (3e-8 from exact): by default the kernels compute the file's rotation
    (as with snapping off, snap_max_effect=0); snap_max_effect=1e-6 accepts making it exact, and the
    torques move by about that much (gravity along y: the rotation's error tilts the child's z into it)."""
    urdf = tmp_path / "r.urdf"
    urdf.write_text(SEVEN_DIGITS)
    cache = tmp_path / "cache"

    def rnea(**snap):
        robot = rbdgen.load(str(urdf), kernels=["rnea"], cache_dir=str(cache), compile_options=["-O0"], **snap)
        return robot.rnea(np.array([0.7]), np.array([0.3]), np.array([0.5]), np.array([0.0, -9.81, 0.0]))

    default, exact, snapped = rnea(), rnea(snap_max_effect=0), rnea(snap_max_effect=1e-6)
    np.testing.assert_array_equal(default, exact)
    assert 1e-10 < np.abs(snapped - exact).max() < 1e-6
