"""rbdgen from Python: a robot's generated kernels as a NumPy module, without CMake of your own.

    import rbdgen
    arm = rbdgen.load("arm.urdf", kernels=["rnea", "aba"])    # generate, compile, import
    tau = arm.rnea(arm.neutral(), qd, qdd)

load() keeps each build in a cache folder named after the robot and a hash of the URDF's bytes, the
options and the generator's executable: a second load imports it without compiling, an edited URDF is
generated and compiled again. `python3 -m rbdgen build ROBOT.urdf [options] [-o DIR]` does the same
from a shell and prints where the module is. Needs the `rbdgen` command (rbdgen=, else RBDGEN, else the
one installed with this package, else rbdgen on PATH), CMake, a C++ compiler, and Debian's
python3-dev, pybind11-dev and python3-numpy.
"""
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys

__all__ = ["load", "build", "compiles"]

compiles = 0  # how many modules this process has compiled (a cached load compiles none)

_CMAKE = """cmake_minimum_required(VERSION 3.18)
project({name}_python CXX)
set(CMAKE_CXX_STANDARD 17)
if(NOT Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python COMPONENTS Interpreter Development.Module REQUIRED)
find_package(pybind11 CONFIG REQUIRED)
file(GLOB sources CONFIGURE_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/src/*.cpp)
list(FILTER sources EXCLUDE REGEX "_(eval|bench)\\\\.cpp$")
pybind11_add_module({name} MODULE NO_EXTRAS ${{sources}})
target_compile_options({name} PRIVATE {options})
find_package(Threads REQUIRED)
target_link_libraries({name} PRIVATE Threads::Threads)
"""


try:  # an installed package knows its generator (CMakeLists.txt writes _installed.py)
    from ._installed import GENERATOR as _INSTALLED
except ImportError:  # the source tree's python/
    _INSTALLED = None


def _generator(rbdgen):
    installed = _INSTALLED if _INSTALLED and os.access(_INSTALLED, os.X_OK) else None
    exe = rbdgen or os.environ.get("RBDGEN") or installed or shutil.which("rbdgen")
    if not exe:
        raise FileNotFoundError("no rbdgen command: put it on PATH, set RBDGEN, or pass rbdgen=")
    return exe


def _identifier(text):
    s = "".join(c if c.isalnum() or c == "_" else "_" for c in text)
    return s if s and s[0].isalpha() else "robot_" + s


def _snap(snap_tolerance, snap_max_effect):
    """rbdgen generate's --snap-tolerance and --snap-max-effect (docs/kernels.md), where given."""
    args = []
    if snap_tolerance is not None:
        args += ["--snap-tolerance", repr(float(snap_tolerance))]
    if snap_max_effect is not None:
        args += ["--snap-max-effect", repr(float(snap_max_effect))]
    return args


def _options(floating_base, kernels, scalar, problems, extra):
    args = []
    if floating_base:
        args.append("--floating-base")
    if kernels:
        args += ["--kernels", ",".join(kernels)]
    if scalar != "double":
        args += ["--scalar", scalar]
    for p in problems:
        args += ["--problem", p]
    return args + list(extra)


def build(urdf, out_dir, name=None, floating_base=False, kernels=None, scalar="double", problems=(), extra=(),
          compile_options=("-O2",), rbdgen=None, quiet=False, snap_tolerance=None, snap_max_effect=None):
    """Generates the robot into out_dir/src and compiles its module into out_dir; returns the module's path."""
    extra = list(extra) + _snap(snap_tolerance, snap_max_effect)
    global compiles
    exe = _generator(rbdgen)
    name = name or _identifier(os.path.splitext(os.path.basename(urdf))[0])
    src, work = os.path.join(out_dir, "src"), os.path.join(out_dir, "build")
    os.makedirs(out_dir, exist_ok=True)
    cmd = [exe, "generate", urdf, "-o", src, "--name", name, "--python"] + _options(floating_base, kernels, scalar, problems, extra)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(r.stderr.strip() or r.stdout.strip())
    with open(os.path.join(out_dir, "CMakeLists.txt"), "w") as f:
        f.write(_CMAKE.format(name=name, options=" ".join(compile_options)))
    sources = len([s for s in os.listdir(src) if s.endswith(".cpp") and not s.endswith(("_eval.cpp", "_bench.cpp"))])
    if not quiet:
        print("rbdgen: compiling %s (%d sources) in %s" % (name, sources, work), file=sys.stderr, flush=True)
    for step in (["cmake", "-S", out_dir, "-B", work, "-DCMAKE_BUILD_TYPE=Release"],
                 ["cmake", "--build", work, "-j%d" % (os.cpu_count() or 1)]):
        r = subprocess.run(step, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("rbdgen: compiling %s failed:\n%s" % (name, (r.stdout + r.stderr)[-4000:]))
    compiles += 1
    built = [f for f in os.listdir(work) if f.startswith(name + ".") and f.endswith(".so")]
    if not built:
        raise RuntimeError("rbdgen: no module %s in %s" % (name, work))
    final = os.path.join(out_dir, built[0])
    shutil.copy2(os.path.join(work, built[0]), final)
    return final


def _import(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _files(exe, path):
    """The files rbdgen reads for the robot at path (rbdgen info's "files"), or path alone where info
    refuses it (the build then says why)."""
    run = subprocess.run([exe, "info", "--json", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if run.returncode != 0:
        return [path]
    return json.loads(run.stdout).get("files", [path])


def load(urdf, floating_base=False, kernels=None, scalar="double", problems=(), name=None, cache_dir=None,
         compile_options=("-O2",), rbdgen=None, extra=(), snap_tolerance=None, snap_max_effect=None):
    """The robot's module (urdf: its URDF, MJCF or SDFormat file), built on first use and cached (RBDGEN_CACHE, else ~/.cache/rbdgen); extra:
    more of rbdgen generate's options (["--ncmtm-order", "2"]); snap_tolerance, snap_max_effect: which near-exact
    constants are made exact (rbdgen generate's --snap-tolerance and --snap-max-effect; by default only those that change
    no output by more than 1e-10)."""
    extra = list(extra) + _snap(snap_tolerance, snap_max_effect)
    exe = _generator(rbdgen)
    text = b""
    for path in _files(exe, urdf):  # the file and those it includes (MJCF): an edited include builds anew
        with open(path, "rb") as f:
            text += f.read() + b"\0"
    with open(shutil.which(exe) or exe, "rb") as f:  # the generator itself: a rebuilt one writes anew
        generator = hashlib.sha256(f.read()).digest()
    options = _options(floating_base, kernels, scalar, problems, extra) + list(compile_options)
    key = hashlib.sha256(b"\0".join([text, generator] + [o.encode() for o in options])).hexdigest()[:16]
    name = name or _identifier(os.path.splitext(os.path.basename(urdf))[0])
    root = cache_dir or os.environ.get("RBDGEN_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "rbdgen")
    out_dir = os.path.join(root, "%s-%s" % (name, key))
    cached = [f for f in os.listdir(out_dir) if f.startswith(name + ".") and f.endswith(".so")] if os.path.isdir(out_dir) else []
    path = os.path.join(out_dir, cached[0]) if cached else build(
        urdf, out_dir, name, floating_base, kernels, scalar, problems, extra, compile_options, exe)
    return _import(name, path)
