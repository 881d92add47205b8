"""The suite's features, from benchmarks/features.json: the one list the scripts read (CMake's
tests read the same file). Each row: name, label (ctest), plot (scripts/plot_<plot>.py),
plot_files, doc, run (default, apart, on_request, fault_injection), and gpus (how many its GPU tests
need, where more than one)."""
import json
import os

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", "features.json")


def rows():
    with open(TABLE) as f:
        return json.load(f)["features"]


def names():
    """Every feature a result file may hold."""
    return [r["name"] for r in rows()]


def measured():
    """The features that measure the GPU (all but the fault-injection one): a planted slowdown can
    be asked of each."""
    return [r["name"] for r in rows() if r["run"] != "fault_injection"]


def on_request():
    """Features the default run leaves out, registered only when a filter names them."""
    return {r["name"] for r in rows() if r["run"] == "on_request"}


def optional():
    """Features a whole run may lack: run apart, on request, or only under fault injection."""
    return {r["name"] for r in rows() if r["run"] != "default"}


def plots():
    """The plot scripts' names (plot_<name>.py), in the order reports show them."""
    return [r["plot"] for r in rows() if r["plot"]]


def feature_of_plot():
    """{plot script name: feature name}."""
    return {r["plot"]: r["name"] for r in rows() if r["plot"]}
