"""Roles: the benchmark that plays a part on the GPU at hand (the L1-resident chain, the L2-resident
chain past the L1, the DRAM chain, the headline of a level, a peak over every SM), found from the
run's own geometry (its context) and each entry's declared family and axes, never from a footprint
or a name written for one GPU (DESIGN.md, "Roles, not names"). This is the one owner of each role:
accept.py's checks, ceilings.py, plot_generations.py and the report read them here.

    find(role, entries, ctx) -> the benchmark's key (its name without Google Benchmark's tail), or None
    missing_reason(role, entries, ctx) -> why no benchmark plays it here (None when one does)

`entries` are result entries (dicts with "name" and, since 2026-11, "family" and "axes") or bare
names (a listing): resultfile.family and resultfile.axes read either.
"""
import re

from archbench_tools.results import resultfile

LINE = 128  # the chains of the footprint sweeps take one 128 B line per access
# The L1-resident chain: at most 32 lines, resident in the L1 of every GPU the suite knows (16 KiB
# and more), and far from its edge.
L1_RESIDENT_MAX_BYTES = 4096
# The L2-resident chain: the largest footprint of at most an eighth of the L2. An H200 reads its
# 5.4 MiB chain at 282.3 cycles within 0.22 % over 15 boards (docs/acceptance.md); a few-KiB chain
# touches a few slices and reads 274-285 cycles by the SM (issue 65). An eighth keeps it well within
# one partition of a split L2, and past the L1 on every GPU whose L2 is at least 16x its L1.
L2_RESIDENT_FRACTION = 1 / 8
# The DRAM chain: the sweep's largest footprint, at least twice the L2 (every line misses it).
DRAM_MIN_L2_MULTIPLE = 2


def _entry(e):
    return e if isinstance(e, dict) else {"name": e}


def _key(e):
    return resultfile.benchmark_key(str(_entry(e).get("run_name") or _entry(e).get("name", "")))


class Index:
    """The entries by family, each as (key, axes): read once, however many roles look."""

    def __init__(self, entries):
        self.by_family = {}
        for e in entries:
            d = _entry(e)
            self.by_family.setdefault(resultfile.family(d), []).append((_key(d), resultfile.axes(d)))


_INDEXES = {}  # the last few indexes by their entries' names and declared fields: every role of one run reads one index


def index_of(entries):
    """The Index of `entries`, built once for the same entries (0.2 s for a full run's 10,000)."""
    if isinstance(entries, Index):
        return entries
    entries = [_entry(e) for e in entries]
    # the declared fields are part of the key: a listing's bare names and a run's entries may differ
    seen = tuple((d.get("run_name") or d.get("name"), d.get("family"), repr(d.get("axes"))) for d in entries)
    if seen not in _INDEXES:
        if len(_INDEXES) >= 4:
            _INDEXES.pop(next(iter(_INDEXES)))
        _INDEXES[seen] = Index(entries)
    return _INDEXES[seen]


def _members(entries, family, **axes):
    """(key, axes) of the entries of `family` whose axes include `axes` (compared as text)."""
    index = index_of(entries)
    want = {k: str(v) for k, v in axes.items()}
    return [(key, a) for key, a in index.by_family.get(family, []) if all(a.get(k) == v for k, v in want.items())]


def _int(a, axis):
    try:
        return int(a.get(axis, ""))
    except ValueError:
        return None


def _chain(op, pick):
    """The `op` chain at 128 B strides whose footprint `pick(footprints, ctx)` chooses."""
    def find(entries, ctx):
        by_fp = {}
        for key, a in _members(entries, f"MemLatency/chain/{op}", stride=LINE):
            fp = _int(a, "footprint")
            if fp is not None:
                by_fp.setdefault(fp, key)
        if not by_fp:
            return None, f"no MemLatency/chain/{op} at {LINE} B strides in this run"
        chosen, why = pick(sorted(by_fp), ctx)
        return (by_fp[chosen], None) if chosen is not None else (None, why)
    return find


def _l1_resident(fps, ctx):
    fit = [f for f in fps if f <= L1_RESIDENT_MAX_BYTES]
    return (fit[-1], None) if fit else (None, f"no chain of at most {L1_RESIDENT_MAX_BYTES} B in the sweep")


def _l2_resident(fps, ctx):
    l2 = resultfile.context_number(ctx, "gpu_l2_bytes")
    if l2 is None:
        return None, "the run's context has no L2 size (gpu_l2_bytes)"
    # Past the L1: more than the unified L1/shared memory of an SM (shared memory bounds it below).
    l1 = resultfile.context_number(ctx, "gpu_smem_per_sm_bytes") or 0
    fit = [f for f in fps if 2 * l1 < f <= l2 * L2_RESIDENT_FRACTION]
    return (fit[-1], None) if fit else (
        None, f"no chain between twice the shared memory per SM and an eighth of the L2 ({l2 / 2 ** 20:.1f} MiB): "
              "this GPU's L2 is too small to tell an L2 hit from an L1 hit with one chain")


def _dram(fps, ctx):
    l2 = resultfile.context_number(ctx, "gpu_l2_bytes")
    if l2 is None:
        return None, "the run's context has no L2 size (gpu_l2_bytes)"
    if fps[-1] < DRAM_MIN_L2_MULTIPLE * l2:
        return None, f"no chain past {DRAM_MIN_L2_MULTIPLE}x the L2 ({DRAM_MIN_L2_MULTIPLE * l2 / 2 ** 20:.0f} MiB) in this run"
    return fps[-1], None


def _single(family, **axes):
    """The one benchmark of `family` (with `axes`)."""
    def find(entries, ctx):
        hits = _members(entries, family, **axes)
        return (hits[0][0], None) if hits else (None, f"no {family} in this run")
    return find


def _every_sm(family, **axes):
    """The benchmark of `family` (with `axes`) over the most SMs: every SM of the GPU where it ran on
    them all (its `sms` axis equals the context's SM count)."""
    def find(entries, ctx):
        hits = [(_int(a, "sms") or 0, key) for key, a in _members(entries, family, **axes)]
        if not hits:
            return None, f"no {family} in this run"
        return max(hits)[1], None
    return find


class Role:
    def __init__(self, what, family, counter, finder):
        self.what, self.family, self.counter, self._find = what, family, counter, finder

    def find(self, entries, ctx):
        return self._find(index_of(entries), ctx)


ROLES = {
    "l1_chain": Role("the L1-resident chain (ld.ca, a few lines)", "MemLatency/chain/ld.ca", "latency_cycles",
                     _chain("ld.ca", _l1_resident)),
    "l2_chain": Role("the L2-resident chain (ld.cg, past the L1, within an eighth of the L2)", "MemLatency/chain/ld.cg",
                     "latency_cycles", _chain("ld.cg", _l2_resident)),
    "dram_chain": Role("the DRAM chain (ld.cg, the sweep's largest footprint, past twice the L2)",
                       "MemLatency/chain/ld.cg", "latency_cycles", _chain("ld.cg", _dram)),
    "dram_read": Role("the DRAM read headline", "Bandwidth/headline/DRAM/read", "bytes_per_second",
                      _single("Bandwidth/headline/DRAM/read")),
    "dram_write": Role("the DRAM write headline", "Bandwidth/headline/DRAM/write", "bytes_per_second",
                       _single("Bandwidth/headline/DRAM/write")),
    "dram_copy": Role("the DRAM copy headline", "Bandwidth/headline/DRAM/copy", "bytes_per_second",
                      _single("Bandwidth/headline/DRAM/copy")),
    "l2_read": Role("the L2 read headline", "Bandwidth/headline/L2/read", "bytes_per_clk_per_sm",
                    _single("Bandwidth/headline/L2/read")),
    "l1_read": Role("the L1 read headline", "Bandwidth/headline/L1/read", "bytes_per_clk_per_sm",
                    _single("Bandwidth/headline/L1/read")),
    "smem_read": Role("the shared-memory read headline", "Bandwidth/headline/smem/read", "bytes_per_clk_per_sm",
                      _single("Bandwidth/headline/smem/read")),
    "ffma_peak": Role("the FP32 FMA peak over every SM", "Pipeline/throughput/ffma", "thread_inst_per_clk_per_sm",
                      _every_sm("Pipeline/throughput/ffma", ilp=4, warps_per_sm=64)),
    "dfma_peak": Role("the FP64 FMA peak over every SM", "Pipeline/throughput/dfma", "thread_inst_per_clk_per_sm",
                      _every_sm("Pipeline/throughput/dfma", ilp=4, warps_per_sm=64)),
    "f16_tensor_peak": Role("the dense FP16 tensor peak (wgmma) over every SM", "TensorCore/wgmma/throughput/f16/ss",
                            "flop_per_clk_per_sm",
                            _every_sm("TensorCore/wgmma/throughput/f16/ss", n=256, warpgroups_per_sm=2, fill="random")),
    "clock_ffma": Role("the sustained SM clock under FP32 load", "Scheduling/sustained_clock/ffma",
                       "sm_clock_sustained_mhz", _single("Scheduling/sustained_clock/ffma")),
    "clock_tensor": Role("the sustained SM clock under tensor load", "Scheduling/sustained_clock/wgmma_f16",
                         "sm_clock_sustained_mhz", _single("Scheduling/sustained_clock/wgmma_f16")),
    "h2d_pinned": Role("host to device, pinned 128 MiB", "HostLink/copy", "bytes_per_second",
                       _single("HostLink/copy", dir="h2d", memory="pinned", size=128 << 20)),
    "d2h_pinned": Role("device to host, pinned 128 MiB", "HostLink/copy", "bytes_per_second",
                       _single("HostLink/copy", dir="d2h", memory="pinned", size=128 << 20)),
    "l1_capacity": Role("the L1 capacity (no carveout)", "Geometry/l1/capacity", "capacity_bytes",
                        _single("Geometry/l1/capacity", carveout=0)),
    "l1_line": Role("the L1 line", "Geometry/l1/line", "line_bytes", _single("Geometry/l1/line")),
    "readonly_capacity": Role("the read-only cache capacity", "Geometry/readonly/capacity", "capacity_bytes",
                              _single("Geometry/readonly/capacity")),
    "constant_levels": Role("the constant-cache levels", "Geometry/constant/capacity", "levels",
                            _single("Geometry/constant/capacity")),
}


def find(role, entries, ctx):
    """The key of the benchmark that plays `role` in `entries` on the GPU `ctx` describes, or None."""
    return ROLES[role].find(entries, ctx)[0]


def missing_reason(role, entries, ctx):
    """Why no benchmark plays `role` here; None when one does."""
    return ROLES[role].find(entries, ctx)[1]


def resolve(entries, ctx, roles=None):
    """{role: key or None} for every role (or the ones named)."""
    index = index_of(entries)
    return {r: ROLES[r].find(index, ctx)[0] for r in (roles or ROLES)}


def exact_filter(keys):
    """A --benchmark_filter that selects exactly these benchmarks (Google Benchmark's regex dialect:
    no \\d, dots in brackets), each anchored at both ends of its name's measured part."""
    return "|".join("^" + re.sub(r"\.", "[.]", k) + "(/|$)" for k in sorted(set(keys)))


def family_filter(family, **axes):
    """A --benchmark_filter (Google Benchmark's regex dialect) that selects the benchmarks of `family`
    whose axes include these values, the axes in the order the sweep declares them."""
    dot = lambda text: re.sub(r"\.", "[.]", str(text))  # noqa: E731
    return "^" + dot(family) + "".join(f"/(.*/)?{dot(k)}:{dot(v)}" for k, v in axes.items()) + "(/|$)"


def context_from_info(text):
    """The context numbers the roles read, from `archbench --info`'s text (a GPU's L2 and shared
    memory per SM), for a filter made before the run."""
    ctx = {}
    m = re.search(r"\bL2 (\d+) KiB", text)
    if m:
        ctx["gpu_l2_bytes"] = str(int(m.group(1)) * 1024)
    m = re.search(r"shared memory (\d+) KiB/SM", text)
    if m:
        ctx["gpu_smem_per_sm_bytes"] = str(int(m.group(1)) * 1024)
    m = re.search(r"(\d+) SMs", text)
    if m:
        ctx["gpu_sm_count"] = m.group(1)
    return ctx
