"""python3 -m rbdgen build ROBOT.urdf [rbdgen generate's options] [-o DIR]: generate and compile the
robot's Python module, and print where it is."""
import argparse
import os
import sys

from . import build


def main(argv):
    if not argv or argv[0] != "build":
        print("usage: python3 -m rbdgen build ROBOT.urdf [rbdgen generate's options] [-o DIR]", file=sys.stderr)
        return 2
    b = argparse.ArgumentParser(prog="python3 -m rbdgen build", description=__doc__)
    b.add_argument("urdf")
    b.add_argument("-o", "--output", default=None, help="folder (default: ./<name>_python)")
    b.add_argument("--name")
    b.add_argument("--floating-base", action="store_true")
    b.add_argument("--kernels", help="comma-separated, as rbdgen generate's")
    b.add_argument("--scalar", default="double", choices=["double", "float"])
    b.add_argument("--problem", action="append", default=[])
    args, extra = b.parse_known_args(argv[1:])  # the rest goes to rbdgen generate as it is
    name = args.name or os.path.splitext(os.path.basename(args.urdf))[0]
    out = os.path.abspath(args.output or name + "_python")
    try:
        path = build(args.urdf, out, args.name, args.floating_base, args.kernels.split(",") if args.kernels else None,
                     args.scalar, args.problem, extra)
    except (ValueError, RuntimeError, FileNotFoundError) as e:
        print("rbdgen: error: %s" % e, file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
