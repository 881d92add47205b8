"""One loader for every script: an archbench result file, or one clear line and exit code 2.

    doc = resultfile.load(path)                    # raises ResultError with a one-line message
    doc = resultfile.load_or_exit(path, "report.py")

A result is Google Benchmark's JSON with archbench's context: an object with a "context" object
and a "benchmarks" list of objects. `.json.gz` files (large committed runs) are read as well.
`run_date(path, doc)` orders runs by the date in their name and context, never by the file's
modification time (git sets it to the checkout's time).
"""
import datetime
import functools
import gzip
import json
import os
import re
import sys


class ResultError(Exception):
    pass


def load(path):
    try:
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt") as f:
            text = f.read()
    except FileNotFoundError:
        raise ResultError(f"{path}: cannot read: no such file")
    except IsADirectoryError:
        raise ResultError(f"{path}: a directory, not a result file")
    except UnicodeDecodeError:
        raise ResultError(f"{path}: not a result file (not UTF-8 text: a binary file?)")
    except (OSError, EOFError) as e:
        raise ResultError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")
    if not text.strip():
        raise ResultError(f"{path}: empty file")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ResultError(f"{path}: not valid JSON (truncated?): {e}")
    if not isinstance(doc, dict):
        raise ResultError(f"{path}: not an archbench result (the top level is a {type(doc).__name__}, not an object)")
    if not isinstance(doc.get("benchmarks"), list):
        raise ResultError(f"{path}: not an archbench result (no 'benchmarks' list)")
    if not isinstance(doc.get("context"), dict):
        raise ResultError(f"{path}: not an archbench result (no 'context' object)")
    if any(not isinstance(b, dict) for b in doc["benchmarks"]):
        raise ResultError(f"{path}: not an archbench result (a benchmark entry is not an object)")
    if not is_archbench(doc):
        raise ResultError(f"{path}: not an archbench result (Google Benchmark JSON without archbench's context)")
    return doc


# A benchmark's family and sweep axes (fixtures/harness/bench_name.hpp: the family, then one
# "/key:value" part per argument). Files from 2026-11-29 on carry them as the entry's own
# "family" and "axes" fields beside its name; older files only in the name, which these read back
# by the same rule, without the parts Google Benchmark appends (iterations, repetitions, the time
# kind). Every script asks these, none takes a name apart.
_APPENDED = re.compile(r"^(iterations|repeats|min_time|min_warmup_time|threads):|^(manual_time|real_time|process_time)(_\w+)?$")


def _name_parts(b):
    name = str(b.get("name") or b.get("run_name", ""))
    return [p for p in name.split("/") if not _APPENDED.match(p)]


def family(b):
    """The benchmark's family: "MemLatency/chain/ld.cg"."""
    if isinstance(b.get("family"), str):
        return b["family"]
    return "/".join(p for p in _name_parts(b) if ":" not in p)


def is_under(family, wanted):
    """`family` is `wanted` or a family under it, part by part ("Sync/grid/sync" is under "Sync/grid",
    "Sync/gridx" is not)."""
    return family == wanted or family.startswith(wanted + "/")


def family_parts(b):
    """The family's parts: ["MemLatency", "chain", "ld.cg"]."""
    return family(b).split("/")


def feature(b):
    """The feature the benchmark belongs to: "MemLatency"."""
    return family_parts(b)[0]


def fields_match_name(b):
    """False when an entry's own family or axes say other than its name (a writer's defect)."""
    by_name = {"name": b.get("name", "")}
    return family(b) == family(by_name) and axes(b) == axes(by_name)


_ITERATIONS = re.compile(r"/iterations:\d+")


def benchmark_key(name):
    """A benchmark's name without Google Benchmark's '/iterations:N': a change of the timed
    launches per benchmark (Atomics went from 3 to 5) must not cut a benchmark off its history."""
    return _ITERATIONS.sub("", name)


def short_name(name):
    """The name without Google Benchmark's '/iterations:N/manual_time' tail (for display and keys)."""
    return name.split("/iterations:")[0].replace("/manual_time", "")


PAIR_AXES = (("src", "gpu"), ("dst", "peer"))  # a pair benchmark's GPUs (P2P): source, destination


def pair_of(b):
    """(source GPU, destination GPU) of a pair benchmark (its src/dst or gpu/peer axes), or None."""
    a = axes(b)
    src, dst = (next((a[k] for k in keys if k in a), None) for keys in PAIR_AXES)
    return (int(src), int(dst)) if src is not None and dst is not None else None


@functools.lru_cache(maxsize=None)  # a pure function of the name, asked for every metric of every run
def feature_of_name(name):
    """The feature of a benchmark known only by its name (a key in a table): "MemLatency"."""
    return feature({"name": name})


@functools.lru_cache(maxsize=None)
def axes_of_name(name):
    """The axes of a benchmark known only by its name (read once; not to be changed by the caller)."""
    return axes({"name": name})


@functools.lru_cache(maxsize=None)
def family_of_name(name):
    """The family of a benchmark known only by its name."""
    return family({"name": name})


def axes(b):
    """The benchmark's arguments in order, each value as its name writes it (text):
    {"footprint": "4096", "stride": "128"}."""
    if isinstance(b.get("axes"), dict):
        return {k: str(v) for k, v in b["axes"].items()}
    return dict(p.split(":", 1) for p in _name_parts(b) if ":" in p)


# Counters beside a metric (file format): the spread of the samples it is the median of
# (report_sampled: <metric>_sd_pct, <metric>_samples), its range over CUDA contexts (Sync's fences:
# <metric>_context_min, _context_max), and a host copy's share of its link's peak.
SAMPLE_SD_SUFFIX, SAMPLE_COUNT_SUFFIX = "_sd_pct", "_samples"
CONTEXT_MIN_SUFFIX, CONTEXT_MAX_SUFFIX = "_context_min", "_context_max"
LINK_SHARE_COUNTER = "pct_of_link_peak"

def context_number(ctx, key):
    """A positive number from a run's context, or None (absent, empty or not a number)."""
    try:
        v = float((ctx or {}).get(key, ""))
        return v if v > 0 else None
    except (TypeError, ValueError):
        return None


PART = "gpu_board_part_number"
HOST_GPUS = "gpu_host_gpu_count"  # NVML's count of the host's GPUs (written since 2026-11-29)


def host_gpus(context):
    """How many GPUs the run's host has: NVML's count, else the CUDA-visible count where it is
    above one (a lower bound: CUDA_VISIBLE_DEVICES hides GPUs from CUDA), else None (unknown)."""
    for key, least in ((HOST_GPUS, 1), ("gpu_visible_count", 2)):
        try:
            n = int(context.get(key, ""))
        except (TypeError, ValueError):
            continue
        if n >= least:
            return n
    return None


def board_group(context):
    """The group of boards the model of normal holds a board against: its part number, and the
    host's GPU count where the host has more than one ("692-2G520-0282-001 on 2-GPU hosts"): a
    system-scope fence costs 8-10 % more on a host with two NVLink-joined H200s, whatever runs on
    the other GPU (docs/sync.md), so such boards are a part of their own. None: no part number."""
    part = context.get(PART)
    n = host_gpus(context)
    return f"{part} on {n}-GPU hosts" if part and n and n > 1 else part


def group_part(group):
    """The part number of a board group (board_group): "692-2G520-0282-001 on 2-GPU hosts" ->
    "692-2G520-0282-001"; the groups of one part number are boards of one physical part."""
    return re.sub(r" on \d+-GPU hosts$", "", group) if group else group


def is_archbench(doc):
    """Written by archbench (its context has archbench_* keys), or a published reference."""
    ctx = doc.get("context", {})
    return any(k.startswith("archbench_") for k in ctx) or "reference_source" in ctx or \
        any(str(b.get("name", "")).startswith("Reference/") for b in doc["benchmarks"])


def output_dir(path):
    """Makes the folder scripts write into; ResultError with the reason when it cannot be made."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{path}: cannot create the output folder: {e.strerror or e}")
    if not os.access(path, os.W_OK):
        raise ResultError(f"{path}: the output folder is not writable")
    return path


def _or_exit(script, fn, path):
    """fn(path), or the script's one-line error and exit code 2 (bad input) on a ResultError."""
    try:
        return fn(path)
    except ResultError as e:
        print(f"{script}: error: {e}", file=sys.stderr)
        sys.exit(2)


def output_dir_or_exit(path, script):
    return _or_exit(script, output_dir, path)


def load_or_exit(path, script):
    return _or_exit(script, load, path)


_DATE_IN_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})|(\d{8}T\d{6})")


def run_date(path, doc=None):
    """A sortable key: the context's date when the file has one, else the date in the file name
    (YYYY-MM-DD or a nightly stamp), then the name itself (the -2, -3 of a second run a day)."""
    ctx_date = ""
    if doc is not None:
        ctx_date = str(doc.get("context", {}).get("date", ""))
    if not ctx_date:
        m = _DATE_IN_NAME.search(os.path.basename(path))
        if m and m.group(1):
            ctx_date = m.group(1)
        elif m:
            ctx_date = datetime.datetime.strptime(m.group(2), "%Y%m%dT%H%M%S").isoformat()
    return ctx_date, os.path.basename(path)


# Something that did not apply to the GPU is a skip with its reason, not a failure
# (fixtures/harness/unsupported.hpp): Google Benchmark 1.8 writes it as "skipped": true with
# "skip_message"; 1.7, which has no skips, as an error whose message starts with this prefix.
UNSUPPORTED_PREFIX = "unsupported: "


def skip_reason(b):
    """Why benchmark entry `b` was skipped (it does not apply to the GPU), else None."""
    if b.get("skipped"):
        return str(b.get("skip_message") or "skipped")
    msg = b.get("error_message")
    if b.get("error_occurred") and isinstance(msg, str) and msg.startswith(UNSUPPORTED_PREFIX):
        return msg[len(UNSUPPORTED_PREFIX):]
    return None


def failed(b):
    """The entry is an error (a failed CUDA call or self-check), not a skip."""
    return bool(b.get("error_occurred")) and skip_reason(b) is None


def measured(b):
    """The entry holds measurements: neither failed nor skipped."""
    return not b.get("error_occurred") and not b.get("skipped")


class LabelError(ResultError):
    """A label whose declaration is malformed (one line: what and where)."""


METHOD_PREFIX = "method="


def _from_label(label):
    """The legacy path, the one reader of labels: a file written before its entries carried their
    declarations as fields. 'primary=a:lower,b:5% | method=3f2a9c1b7e40 | note' ->
    ([(a, 'lower', 0.0), (b, 'value', 5.0)], '3f2a9c1b7e40', 'note'); ([], None, label) where the
    label declares nothing."""
    if not isinstance(label, str) or not label.startswith("primary="):
        return [], None, label if isinstance(label, str) else ""
    decl, *rest = label.split(" | ")
    method = next((p[len(METHOD_PREFIX):].strip() or None for p in rest if p.startswith(METHOD_PREFIX)), None)
    note = " | ".join(p for p in rest if not p.startswith(METHOD_PREFIX))
    out = []
    for item in decl[len("primary="):].split(","):
        counter, _, how = item.strip().rpartition(":")
        if not counter:
            raise LabelError(f"malformed primary declaration '{decl}'")
        if how in ("higher", "lower"):
            out.append((counter, how, 0.0))
        elif how.endswith("%"):
            try:
                out.append((counter, "value", float(how[:-1])))
            except ValueError:
                raise LabelError(f"malformed tolerance in '{decl}'")
        else:
            raise LabelError(f"malformed primary declaration '{decl}'")
    return out, method, note


# For result files written before benchmarks declared their metrics (no primary= label): the one
# legacy path, here beside the label's.
LEGACY_RULES = [  # (name prefix, [(counter, kind, tolerance %)]) -- the longest prefix wins
    ("MemLatency/", [("latency_cycles", "lower", 0)]),
    ("Pipeline/latency/", [("latency_cycles", "lower", 0)]),
    ("Pipeline/throughput/", [("inst_per_clk_per_sm", "higher", 0)]),
    ("Bandwidth/", [("bytes_per_clk_per_sm", "higher", 0)]),
    ("Atomics/", [("atomics_per_clk", "higher", 0)]),
    ("Atomics/latency/", [("latency_cycles", "lower", 0)]),
    ("SmemBanks/latency/", [("latency_cycles", "lower", 0)]),
    ("SmemBanks/throughput/", [("cycles_per_access", "lower", 0)]),
    ("SmemBanks/geometry", [("banks", "value", 0), ("bank_width_bytes", "value", 0)]),
    ("Dsm/latency/", [("remote_cycles", "lower", 0)]),
    ("Dsm/bandwidth/", [("bytes_per_clk_per_sm", "higher", 0)]),
    ("Tlb/latency/", [("latency_cycles", "lower", 0)]),
    ("Tlb/geometry/", [("levels", "value", 0), ("page_size_bytes", "value", 0)]),
    ("TensorCore/", [("flop_per_clk_per_sm", "higher", 0)]),
    ("TensorCore/mma_sync/latency/", [("latency_cycles", "lower", 0)]),
    ("TensorCore/wgmma/latency/", [("latency_cycles", "lower", 0)]),
    ("TensorCore/cublas/", [("flops", "higher", 0)]),
    ("Scheduling/timeline/", [("coresident_blocks_per_sm", "value", 0)]),
    ("Scheduling/warp_schedulers/", [("schedulers", "value", 0)]),
    ("Scheduling/sustained_clock/", [("sm_clock_sustained_mhz", "higher", 0)]),
    ("Scheduling/icache/", [("cycles_per_instruction", "lower", 0)]),
    ("Scheduling/icache_geometry/", [("level1_capacity_bytes", "value", 10)]),
    ("Geometry/", [("latency_cycles", "lower", 0)]),
    ("Geometry/l1/capacity/", [("capacity_bytes", "value", 5)]),
    ("Geometry/l1/line", [("line_bytes", "value", 0)]),
    ("Geometry/l1/sets_ways", [("sets", "value", 0), ("ways", "value", 0)]),
    ("Geometry/fill/ld.ca", [("l1_fill_bytes", "value", 0), ("l2_fill_bytes", "value", 0)]),
    ("Geometry/fill/ld.cg", [("l2_fill_bytes", "value", 0)]),
    ("Geometry/fill/ld.ca/stride:", [("latency_cycles", "lower", 0)]),
    ("Geometry/fill/ld.cg/stride:", [("latency_cycles", "lower", 0)]),
    ("Geometry/l2/capacity", [("capacity_bytes", "value", 5), ("near_partition_bytes", "value", 10)]),
    ("Geometry/l2/line", [("line_bytes", "value", 0)]),
    ("Geometry/l2/sm_map", [("near_median_cycles", "lower", 0), ("far_median_cycles", "lower", 0)]),
    ("Geometry/readonly/capacity", [("capacity_bytes", "value", 5)]),
    ("Geometry/readonly/shares_l1", [("shares_storage", "value", 0)]),
    ("Geometry/constant/capacity", [("levels", "value", 0)]),
    ("P2P/", [("gpus", "value", 0)]),
    ("P2P/link/", [("link_peak_bytes_per_second", "value", 0)]),
    ("P2P/copy/", [("bytes_per_second", "higher", 0)]),
    ("P2P/remote_read/", [("bytes_per_second", "higher", 0)]),
    ("P2P/remote_write/", [("bytes_per_second", "higher", 0)]),
    ("P2P/latency/", [("latency_cycles", "lower", 0)]),
    ("P2P/atomics/", [("atomics_per_clk", "higher", 0)]),
]


def legacy_primary(name):
    """The metrics of a benchmark from a file written before benchmarks declared theirs: the longest
    LEGACY_RULES prefix of its name's."""
    best = None
    for prefix, metrics in LEGACY_RULES:
        if name.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, metrics)
    return list(best[1]) if best else []


def declaration_text(primary):
    """The declaration as the harness writes it in a label ('primary=a:lower,b:5%'): a method
    identifier is made of it (fixtures/harness/method_ids.hpp, method_digest.label_id)."""
    return "primary=" + ",".join(f"{c}:{how if how != 'value' else f'{tol:g}%'}" for c, how, tol in primary)


def declared(b):
    """What a benchmark entry declares: (primary [(counter, how, tolerance %)], method identifier or
    None, note). From its own fields ("primary", "method", "note": benchmarks/shell/incremental_json.cpp),
    else from its label (older files). LabelError where a label's declaration is malformed."""
    fields = b.get("primary")
    if isinstance(fields, list):
        try:
            primary = [(str(p["counter"]), str(p["how"]), float(p.get("tolerance_pct", 0.0))) for p in fields]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise LabelError(f"malformed primary field {fields!r}")
        return primary, b.get("method") or None, b.get("note") or ""
    return _from_label(b.get("label", ""))


def label_note(b):
    """The free text of a benchmark entry's note, without its declarations, which are the tools' and
    not the reader's: 'primary=ways:0% | method=925f7f442548 | why' -> 'why'."""
    try:
        note = declared(b)[2]
    except LabelError:
        note = str(b.get("label") or "")
    return "; ".join(p.strip() for p in note.split(" | ") if p.strip())


def slug(text, empty="x"):
    """A name for files and anchors: lower case, runs of anything else than [a-z0-9] as one '-'
    ('NVIDIA H100 80GB HBM3' -> 'nvidia-h100-80gb-hbm3'), `empty` for a name with none."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", str(text).lower())).strip("-") or empty
