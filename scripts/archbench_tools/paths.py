"""Where the tools find the checkout they work on: its catalogues (benchmarks/*.json), its results
and references. One owner for every tool's default paths.

root(): $ARCHBENCH_ROOT when set; else the checkout this package runs from (scripts/archbench_tools
inside it); else the nearest folder above the working directory that holds benchmarks/features.json
(an installed package used inside a checkout); else one line and exit 2: the tools read the
checkout's catalogues, and a command run outside one has none."""
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))
# The folder that holds the package: scripts/ in a checkout, site-packages when installed.
PACKAGE_PARENT = os.path.dirname(PACKAGE)
_MARKER = os.path.join("benchmarks", "features.json")


def _is_checkout(d):
    return os.path.isfile(os.path.join(d, _MARKER))


def root():
    env = os.environ.get("ARCHBENCH_ROOT")
    if env:
        return os.path.abspath(env)
    source = os.path.dirname(PACKAGE_PARENT)
    if _is_checkout(source):
        return source
    d = os.getcwd()
    while True:
        if _is_checkout(d):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            print(f"{os.path.basename(sys.argv[0])}: error: no archbench checkout here (no {_MARKER} in "
                  f"{os.getcwd()} or above): run it inside one, or set ARCHBENCH_ROOT", file=sys.stderr)
            sys.exit(2)
        d = parent


def in_root(*parts):
    """A path inside the checkout: in_root("results", "reference")."""
    return os.path.join(root(), *parts)


def tool_command(module, *args):
    """(argv, env) that run archbench_tools.<module> as its own program (python -m), wherever the
    package lives."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    return [sys.executable, "-m", f"archbench_tools.{module}", *args], env
