"""The tools as one package (issue 66, step 3): every module lives in scripts/archbench_tools/ by
layer and none patches sys.path; every scripts/<tool>.py is the command or the module of the same
name in it; pyproject.toml has a command for every tool; and `pip install .` into a fresh virtual
environment gives every command, which runs inside a checkout and outside one (the package's data
root), except the tools that work on a checkout's git tree, which say so in one line (exit 2)."""
import glob
import os
import re
import subprocess
import sys
import venv

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPTS = os.path.join(ROOT, "scripts")
PACKAGE = os.path.join(SCRIPTS, "archbench_tools")
LAYERS = {"results", "tables", "compare", "nightly", "plots", "report", "fleet"}


def modules():
    """{module: (layer, source)} of the package's tools."""
    out = {}
    for p in sorted(glob.glob(os.path.join(PACKAGE, "*", "*.py"))):
        name = os.path.basename(p)[:-3]
        if name != "__init__":
            out[name] = (os.path.basename(os.path.dirname(p)), open(p).read())
    return out


def commands(source):
    return "main" if re.search(r"^def main\(", source, re.M) else \
        "SCRIPT.main" if re.search(r"^SCRIPT = Script\(", source, re.M) else None


def feature_plot(source):
    """A plot module (SCRIPT = Script(...)): `archbench-plot NAME` runs it, found from the feature
    table, so it needs no command line or scripts/ path of its own (the first ones keep theirs)."""
    return commands(source) == "SCRIPT.main"


def test_the_modules_sit_by_layer_and_none_patches_the_path():
    mods = modules()
    assert {layer for layer, _ in mods.values()} == LAYERS
    for name, (layer, source) in mods.items():
        assert "sys.path" not in source, f"{layer}/{name}.py patches sys.path"
        assert not re.search(r"^\s*(import|from) (resultfile|plotlib|compare|features)\b", source, re.M), name


def test_every_script_path_is_the_module_of_its_name():
    mods = modules()
    shims = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(SCRIPTS, "*.py"))}
    assert shims <= set(mods)
    # Every command has its path under scripts/; a library module (results/roles, nightly/history)
    # is imported through the package and needs none.
    assert {name for name, (_, source) in mods.items() if commands(source) and not feature_plot(source)} <= shims
    sys.path.insert(0, SCRIPTS)
    import compare  # the old flat name: the package's module itself (a user's script keeps working)
    from archbench_tools.compare import compare as packaged
    assert compare is packaged
    for name, (layer, source) in mods.items():
        if name not in shims:
            continue
        shim = open(os.path.join(SCRIPTS, f"{name}.py")).read()
        assert f"from archbench_tools.{layer} import {name} as _m" in shim, name
        if commands(source) and name in ("compare", "nightly", "report", "plot_tlb", "validate_results"):
            r = subprocess.run([sys.executable, os.path.join(SCRIPTS, f"{name}.py"), "--help"],
                               capture_output=True, text=True, cwd="/")
            assert r.returncode == 0 and "usage:" in r.stdout, (name, r.stderr[-300:])


def test_pyproject_has_a_command_per_tool():
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    declared = dict(re.findall(r'^(archbench-[a-z0-9-]+) = "([^"]+)"$', text, re.M))
    expected = {f"archbench-{name.replace('_', '-')}": f"archbench_tools.{layer}.{name}:{commands(source)}"
                for name, (layer, source) in modules().items() if commands(source) and not feature_plot(source)}
    assert declared == expected


def test_pip_install_gives_every_command(tmp_path):
    try:
        import setuptools  # noqa: F401
        import wheel  # noqa: F401
    except ImportError as e:
        pytest.skip(f"building the package here needs setuptools and wheel ({e})")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    bin_dir = env_dir / "bin"
    r = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps",
                        "--no-index", ROOT], capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    names = re.findall(r'^(archbench-[a-z0-9-]+) = ', text, re.M)
    assert len(names) >= 25
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ARCHBENCH_ROOT"}
    # Inside a checkout: a feature's plots by its name, the module found from the feature table.
    r = subprocess.run([str(bin_dir / "archbench-plot"), "MemLatency", os.path.join(ROOT, "tests", "data", "h100_memlatency.json"),
                        "--out", str(tmp_path / "plots")], capture_output=True, text=True, cwd=os.path.join(ROOT, "docs"), env=env)
    assert r.returncode == 0 and "memlatency_footprint.png" in r.stdout, r.stderr[-500:]
    # Outside a checkout the package's data root (the catalogues and references, pyproject.toml's
    # data-files) serves: every --help, compare of two files, accept and the report work; a tool that
    # works on a checkout's git tree says in one line that it needs one (exit 2).
    run = os.path.join(ROOT, "tests", "data", "h100_declared.json")
    for name in names:
        r = subprocess.run([str(bin_dir / name), "--help"], capture_output=True, text=True, cwd=str(outside), env=env)
        assert r.returncode == 0 and "usage:" in r.stdout, (name, r.stderr[-500:])
    for name, args, want in (("archbench-compare", [run, run], "Verdict: no regression"),
                             ("archbench-accept", [run], "Verdict: healthy"),
                             ("archbench-report", ["--out", str(outside / "report"), run], "index.md")):
        r = subprocess.run([str(bin_dir / name), *args], capture_output=True, text=True, cwd=str(outside), env=env)
        assert r.returncode == 0 and want in r.stdout, (name, r.stdout[-500:], r.stderr[-500:])
    r = subprocess.run([str(bin_dir / "archbench-guard")], capture_output=True, text=True, cwd=str(outside), env=env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "works on an archbench checkout's git tree" in r.stderr, \
        r.stderr
    # The package's own files came along: the dashboard's templates.
    site = subprocess.run([str(bin_dir / "python"), "-c", "import archbench_tools.report, os; "
                           "print(os.path.dirname(archbench_tools.report.__file__))"],
                          capture_output=True, text=True, cwd=str(outside)).stdout.strip()
    assert not site.startswith(SCRIPTS) and os.path.isfile(os.path.join(site, "dashboard", "index.html"))
