"""Issue 66, step 1: a new feature is its own files plus one declaration. A copy of the tracked tree
gets a toy feature - its registration, kernel and launcher, GPU tests, counters, plot and doc page,
each where such files live - and a row of benchmarks/features.json, and no other edit. Configured,
the build compiles its files into the suite and the GPU tests, ctest has its GPU tests under its
label, the registry's table names it, its method identifier is made from its row, the counter
catalogue holds its counter (meaning, direction, what its benchmarks must report), and
`archbench-plot Toy` and the report draw its plot with its caption."""
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOY = os.path.join(ROOT, "tests", "data", "toy_feature")
# The toy's own files, and where each goes: the only files a new feature adds.
OWN_FILES = {"toy.cpp": "benchmarks/toy.cpp", "toy.cu": "kernels/toy.cu", "toy.hpp": "kernels/toy.hpp",
             "test_toy_gpu.cpp": "tests/gpu/test_toy_gpu.cpp", "toy.counters.json": "benchmarks/toy.counters.json",
             "plot_toy.py": "scripts/archbench_tools/plots/plot_toy.py"}
ROW = {"name": "Toy", "source": "benchmarks/toy.cpp", "label": "toy", "plot": "toy", "plot_files": ["toy_widgets"],
       "captions": {"toy_widgets": "Widgets a toy moves per clock."},
       "doc": "docs/toy.md", "method": {"version": 1, "kernels": ["kernels/toy.cu"]}, "run": "default",
       "summary": "a toy"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    if not shutil.which("cmake") or not shutil.which("git"):
        pytest.skip("needs cmake and git")
    copy = tmp_path_factory.mktemp("tree")
    tracked = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    for rel in tracked.decode().split("\0"):
        if not rel or rel.startswith("results/") or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        os.makedirs(os.path.join(copy, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(copy, rel))
    before = set(tracked.decode().split("\0"))
    for src, dst in OWN_FILES.items():
        shutil.copy(os.path.join(TOY, src), os.path.join(copy, dst))
    (copy / "docs" / "toy.md").write_text("# Toy\n\nA toy feature (tests/scripts/test_toy_feature.py).\n")
    table = copy / "benchmarks" / "features.json"
    doc = json.loads(table.read_text())
    doc["features"].append(ROW)
    table.write_text(json.dumps(doc, indent=2))
    added = {*OWN_FILES.values(), "docs/toy.md"}
    assert not added & before
    build = copy / "build"
    r = subprocess.run(["cmake", "-S", str(copy), "-B", str(build), "-DARCHBENCH_BUILD_TESTS=ON",
                        "-DCMAKE_CUDA_ARCHITECTURES=90"], capture_output=True, text=True)
    if r.returncode != 0 and ("No CMAKE_CUDA_COMPILER" in r.stderr or "CUDA" in r.stderr and "not find" in r.stderr):
        pytest.skip("no CUDA toolkit to configure with")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return copy, build


def test_the_build_compiles_its_files_into_the_suite_and_the_gpu_tests(tree):
    copy, build = tree
    commands = json.load(open(build / "compile_commands.json"))
    compiled = {os.path.relpath(c["file"], copy) for c in commands}
    for rel in ("benchmarks/toy.cpp", "kernels/toy.cu", "tests/gpu/test_toy_gpu.cpp"):
        assert rel in compiled, f"{rel} is not built"
    # Compile them for real (the objects alone, not the whole suite).
    for rel in ("kernels/toy.cu", "benchmarks/toy.cpp"):
        entry = next(c for c in commands if os.path.relpath(c["file"], copy) == rel)
        r = subprocess.run(entry["command"], shell=True, cwd=entry["directory"], capture_output=True, text=True)
        assert r.returncode == 0, f"{rel}:\n{r.stderr[-3000:]}"
        obj = entry["command"].split(" -o ")[1].split()[0]
        assert os.path.getsize(os.path.join(entry["directory"], obj)) > 0, obj


def test_the_registry_ctest_and_the_method_find_it_from_its_row(tree):
    copy, build = tree
    table = (build / "generated" / "archbench" / "feature_table.hpp").read_text()
    assert '{"Toy", "default"}' in table
    listed = subprocess.run(["ctest", "-N", "-L", "toy"], cwd=build, capture_output=True, text=True).stdout
    assert "gpu_toy" in listed and "gpu_suite_toy" in listed, listed
    r = subprocess.run([sys.executable, os.path.join(copy, "scripts", "method_digest.py"), "--show"],
                       capture_output=True, text=True, env={**os.environ, "ARCHBENCH_ROOT": str(copy)})
    assert r.returncode == 0 and any(line.split()[:1] == ["Toy"] for line in r.stdout.splitlines()), r.stdout + r.stderr


def toy_run(tmp):
    """A result file as a run of the toy would write it."""
    doc = {"context": {"archbench_git_sha": "toy", "gpu_name": "Toy GPU"},
           "benchmarks": [{"name": "Toy/store/iterations:1/manual_time", "run_name": "Toy/store/iterations:1/manual_time",
                           "family": "Toy/store", "axes": {}, "run_type": "iteration",
                           "label": "primary=toy_widgets_per_clk:higher | method=000000000000",
                           "toy_widgets_per_clk": 3.0}]}
    path = tmp / "toy-run.json"
    path.write_text(json.dumps(doc))
    return path


def in_copy(copy, *code):
    """Runs Python in the copy's package (its checkout found by ARCHBENCH_ROOT)."""
    return subprocess.run([sys.executable, "-c", "\n".join(code)], capture_output=True, text=True,
                          cwd=str(copy), env={**os.environ, "ARCHBENCH_ROOT": str(copy),
                                              "PYTHONPATH": os.path.join(copy, "scripts")})


def test_the_counter_catalogue_holds_its_counter_from_its_own_file(tree, tmp_path):
    copy, _ = tree
    run = toy_run(tmp_path)
    r = in_copy(copy, "from archbench_tools.tables import counters",
                f"assert counters.uncatalogued(counters.counters_of(__import__('json').load(open({str(run)!r})))) == []",
                "assert counters.direction()['toy_widgets_per_clk'] == 'higher'",
                "assert counters.required()['Toy/store'] == ['toy_widgets_per_clk']",
                "assert any(g['group'] == 'Toy' for g in counters.groups())")
    assert r.returncode == 0, r.stderr[-2000:]


def test_its_plot_is_drawn_by_name_and_captioned(tree, tmp_path):
    copy, _ = tree
    run = toy_run(tmp_path)
    r = subprocess.run([sys.executable, os.path.join(copy, "scripts", "plot.py"), "Toy", str(run), "--out",
                        str(tmp_path / "plots")], capture_output=True, text=True,
                       env={**os.environ, "ARCHBENCH_ROOT": str(copy)})
    assert r.returncode == 0 and "toy_widgets.png" in r.stdout, r.stdout + r.stderr[-2000:]
    r = in_copy(copy, "from archbench_tools.tables import features",
                "assert features.captions()['toy_widgets'].startswith('Widgets')",
                "assert 'toy' in features.plots()")
    assert r.returncode == 0, r.stderr[-2000:]
