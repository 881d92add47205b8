"""Where the tools find the checkout they work on: its catalogues (benchmarks/*.json), its results
and references. One owner for every tool's default paths.

root(): $ARCHBENCH_ROOT when set; else the checkout this package runs from (scripts/archbench_tools
inside it); else the nearest folder above the working directory that holds benchmarks/features.json
(an installed package used inside a checkout); else the data root an installed package carries
(installed_data: the catalogues and references); else, for a tool that needs the checkout's
catalogues, one line and exit 2, and for one that can do without (required=False), None."""
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))
# The folder that holds the package: scripts/ in a checkout, site-packages when installed.
PACKAGE_PARENT = os.path.dirname(PACKAGE)
_MARKER = os.path.join("benchmarks", "features.json")


def _is_checkout(d):
    return os.path.isfile(os.path.join(d, _MARKER))


def root(required=True):
    """The checkout's folder; where there is none, one line and exit 2 (required), else None: a tool
    that can work without the checkout's catalogues and results (compare of two files, --help)."""
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
            data = installed_data()
            if data:
                return data
            if not required:
                return None
            print(f"{os.path.basename(sys.argv[0])}: error: no archbench checkout here (no {_MARKER} in "
                  f"{os.getcwd()} or above): run it inside one, or set ARCHBENCH_ROOT", file=sys.stderr)
            sys.exit(2)
        d = parent


def installed_data():
    """The read-only data root `pip install .` puts beside the package (pyproject.toml's data-files:
    the catalogues and the references, <prefix>/share/archbench), or None."""
    import site
    import sysconfig
    for prefix in (sysconfig.get_path("data"), getattr(site, "USER_BASE", None)):
        d = os.path.join(prefix, "share", "archbench") if prefix else None
        if d and _is_checkout(d):
            return d
    return None


def checkout():
    """The git checkout a tool works on (guard, method_digest, results_archive): root(), unless that is
    an installed data root, which has no history; then one line and exit 2."""
    r = root()
    if r == installed_data():
        print(f"{os.path.basename(sys.argv[0])}: error: this tool works on an archbench checkout's git tree "
              f"(none in {os.getcwd()} or above; the installed data root {r} has none): run it inside one, "
              "or set ARCHBENCH_ROOT", file=sys.stderr)
        sys.exit(2)
    return r


def in_root(*parts, required=True):
    """A path inside the checkout: in_root("results", "reference"); None outside one when not required."""
    r = root(required)
    return os.path.join(r, *parts) if r else None


def tool_command(module, *args):
    """(argv, env) that run archbench_tools.<module> as its own program (python -m), wherever the
    package lives."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    return [sys.executable, "-m", f"archbench_tools.{module}", *args], env
