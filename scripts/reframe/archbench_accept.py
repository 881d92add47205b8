"""archbench's acceptance as a ReFrame test (issue 87: the verdict where HPC centres write their
acceptance tests). It runs accept.py, on a run it is given (`-S run_file=RUN.json`) or measuring the
short acceptance run first (`-S binary=build/release/archbench`), passes where accept.py calls the
board healthy, and reports each check as a performance variable with the fleet model's reference
and bounds: what a healthy board reads, and how far below (a rate) or above (a latency) it may
read, from accept.py's Prometheus exposition of the same run.

    reframe -c scripts/reframe/archbench_accept.py -r -S binary=$PWD/build/release/archbench
    reframe -c scripts/reframe/archbench_accept.py -r -S run_file=$PWD/results/<gpu>/<run>.json.gz

ReFrame (pip install reframe-hpc) loads this file; it is not a module of the tools' package."""
import os
import re

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import performance_function, run_after, run_before, sanity_function, variable

ACCEPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accept.py")
SAMPLE = re.compile(r'^(archbench_accept_check_(?:value|expected|bound))\{([^}]*)\} (\S+)$', re.M)


def checks_of(prom_text):
    """{check: {"value", "expected", "bound", "unit"}} from accept.py's Prometheus exposition."""
    out = {}
    for metric, labels, number in SAMPLE.findall(prom_text):
        fields = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', labels))
        entry = out.setdefault(fields["check"], {"unit": fields.get("unit", "")})
        entry[metric.rsplit("_", 1)[1]] = float(number)
    return out


@rfm.simple_test
class ArchbenchAcceptance(rfm.RunOnlyRegressionTest):
    descr = "archbench acceptance: is this GPU a healthy one of its model? (accept.py, docs/acceptance.md)"
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    binary = variable(str, value="")    # measure the short acceptance run with this archbench binary
    run_file = variable(str, value="")  # or judge this result file
    expected_model = variable(str, value="")  # the fleet model (default: the committed one of the GPU's model)
    integrity = variable(float, value=0.0)  # with binary: the data-integrity screen's seconds after the checks (0: none)
    soak = variable(int, value=0)  # with binary: the sustained-clock loads' seconds each (0: the default 10)
    executable = "python3"
    tags = {"acceptance", "archbench"}

    @run_before("run")
    def accept_command(self):
        if bool(self.binary) == bool(self.run_file):
            raise ValueError("give one of -S binary=ARCHBENCH or -S run_file=RUN.json")
        what = [os.path.abspath(self.run_file)] if self.run_file else ["--run", os.path.abspath(self.binary)]
        model = ["--expected", os.path.abspath(self.expected_model)] if self.expected_model else []
        if (self.integrity or self.soak) and not self.binary:
            raise ValueError("-S integrity and -S soak measure: give -S binary=ARCHBENCH")
        extra = ([f"--integrity={self.integrity:g}"] if self.integrity else []) + \
                ([f"--soak={self.soak}"] if self.soak else [])
        self.executable_opts = [os.path.abspath(ACCEPT), *what, *model, *extra, "--prometheus", "accept.prom"]

    @sanity_function
    def healthy(self):
        return sn.assert_found(r"^Verdict: healthy", self.stdout)

    @run_before("performance")
    def references_from_the_fleet(self):
        """Each check a performance variable: its value against what a healthy board reads, within
        the bound accept.py held it to (a rate may read lower, a latency higher)."""
        path = os.path.join(self.stagedir, "accept.prom")
        checks = checks_of(open(path).read()) if os.path.exists(path) else {}
        self.perf_variables, references = {}, {}
        for name, c in checks.items():
            if "value" not in c:
                continue
            self.perf_variables[name] = sn.make_performance_function(sn.defer(c["value"]), c["unit"])
            ref, bound = c.get("expected"), c.get("bound")
            if not ref or bound is None:
                continue
            off = bound / ref - 1
            references[name] = (ref, off, None, c["unit"]) if off <= 0 else (ref, None, off, c["unit"])
        self.reference = {"*": references}
