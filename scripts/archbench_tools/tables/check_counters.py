#!/usr/bin/env python3
"""Checks a --counters run (one or several files of one run) against what the benchmarks assume.

Usage: check_counters.py FILE [FILE...] [--markdown]

- Bandwidth: the level that served >= 90 % of the bytes (GPU counters) against the level the
  footprint targets (`level_by_footprint`), as a table; every disagreement is put in one of the
  classes docs/counters.md explains, or listed as unexplained.
- DRAM bytes (read + written) against the bytes the kernel moves, at every footprint labelled
  DRAM: within 2 %. Reads measured at L2: what DRAM still served and from which footprint on it
  passes 1 % (reported); for loads that do not allocate in L1, at most 1 % from L1.
- SmemBanks: shared-memory wavefronts per request against the refined bank model's (the bank
  model at 4 B, refined for wide accesses): within 2 %.
- Atomics: sectors that crossed between the L2 partitions, of the atomics on lines homed near
  (< 10 %) and far (> 90 %) from the SM.
- Pipeline: warp instructions per warp-level step.
- The replay's wall time per feature (hw_counters_ms): what --counters adds to a run.
Exit codes: 0 every check holds, 1 a check failed or a disagreement is unexplained, 2 bad input.
"""
import argparse
import collections
import os
import sys
from archbench_tools.results import resultfile  # noqa: E402

LEVELS = {1.0: "L1", 1.5: "L1-L2", 2.0: "L2", 2.5: "L2-DRAM", 3.0: "DRAM"}
WRITES = ("write", "copy", "rmw")

# Why a measured level differs from the footprint's (docs/counters.md, "Where the level differs").
EXPLANATIONS = {
    "stores-in-l2": "a copy's or rmw's stores are served by L2 (L1 is write-through): at most its loads are L1's",
    "write-back": "written lines reach DRAM before the written footprint fills the L2",
    "beyond-l2": "a streaming read beyond ~0.75x the L2 keeps less in L2 than the footprint label allows",
    "l1-beyond-edge": "each SM's L1 keeps part of its slice beyond the L1 edge (L1 hits the label does not count)",
}


# Loads that allocate in L1 (kernels/bandwidth.hpp, BwVariant::loads_via_l1).
VIA_L1 = ("ld", "ld.ca", "ld.cs", "ld.nc")


def explain(kind, ops, label, measured, footprint, l2_bytes):
    if kind in ("copy", "rmw") and measured == 1.5 and label <= 1.5:
        return "stores-in-l2"
    if measured > label:
        if kind in WRITES:
            return "write-back"
        if footprint and l2_bytes and footprint > 0.75 * l2_bytes:
            return "beyond-l2"
    if measured < label and measured <= 1.5 and ops.split("+")[0] in VIA_L1:
        return "l1-beyond-edge"
    return None


def bandwidth_kind(b):
    """(kind, ops) of a Bandwidth benchmark: read/ld.cg, shape/L2/read/ld.cg/..."""
    parts = resultfile.family_parts(b)
    return (parts[3], parts[4]) if parts[1] == "shape" else (parts[1], parts[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables (for CI) instead of plain text")
    args = ap.parse_args()
    docs = [resultfile.load_or_exit(p, "check_counters.py") for p in args.files]
    rows = [b for d in docs for b in d.get("benchmarks", [])
            if isinstance(b, dict) and resultfile.measured(b) and b.get("run_type") != "aggregate"]
    ctx = docs[0].get("context", {})
    status = ctx.get("archbench_counters")
    if not any("hw_counters_ms" in b for b in rows):
        print(f"check_counters.py: error: {', '.join(args.files)}: no benchmark has counters (run with --counters)"
              + (f"; this run says: {status}" if status else ""), file=sys.stderr)
        return 2
    try:
        l2_bytes = float(ctx.get("gpu_l2_bytes", 0))
    except ValueError:
        l2_bytes = 0
    failures = []
    out = print

    out(f"archbench counters check: {len(args.files)} file(s), {ctx.get('gpu_name', '?')}, "
        f"sha {ctx.get('archbench_git_sha', '?')}")
    out(f"profiler: {status}")

    # Replay time per feature.
    per_feature = collections.OrderedDict()
    for b in rows:
        f = resultfile.feature(b)
        n, with_counters, ms = per_feature.get(f, (0, 0, 0.0))
        per_feature[f] = (n + 1, with_counters + ("hw_counters_ms" in b), ms + b.get("hw_counters_ms", 0.0))
    out("\nfeature      benchmarks  with counters  replay time")
    for f, (n, c, ms) in per_feature.items():
        out(f"{f:<12} {n:>10}  {c:>13}  {ms / 1000:>9.1f} s")
    out(f"{'total':<12} {sum(v[0] for v in per_feature.values()):>10}  {sum(v[1] for v in per_feature.values()):>13}  "
        f"{sum(v[2] for v in per_feature.values()) / 1000:>9.1f} s")

    # Bandwidth: measured level against the label.
    bw = [b for b in rows if resultfile.feature(b) == "Bandwidth" and b.get("level_measured") == 1
          and "level_by_footprint" in b]
    if bw:
        table = collections.Counter((b["level_by_footprint"], b["level"]) for b in bw)
        agree = sum(v for (a, m), v in table.items() if a == m)
        out(f"\nBandwidth: the level that served >= 90 % of the bytes against the footprint's label, {len(bw)} points, "
            f"{agree} agree")
        out("label \\ measured " + "".join(f"{LEVELS[v]:>9}" for v in LEVELS))
        for a in LEVELS:
            if any(k[0] == a for k in table):
                out(f"{LEVELS[a]:<16} " + "".join(f"{table.get((a, m), 0):>9}" for m in LEVELS))
        groups = collections.defaultdict(list)
        for b in bw:
            if b["level"] == b["level_by_footprint"]:
                continue
            kind, ops = bandwidth_kind(b)
            why = explain(kind, ops, b["level_by_footprint"], b["level"], b.get("footprint_bytes", 0), l2_bytes)
            groups[(why or "UNEXPLAINED", kind + "/" + ops, b["level_by_footprint"], b["level"])].append(
                b.get("footprint_bytes", 0))
        if groups:
            out("\ndisagreements (class, variant, label -> measured, points, footprints):")
            for (why, variant, a, m), fs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
                out(f"  {why:<15} {variant:<16} {LEVELS[a]:>7} -> {LEVELS[m]:<7} {len(fs):>4}  "
                    f"{min(fs) / 2**20:.1f}-{max(fs) / 2**20:.1f} MiB")
            for why, text in EXPLANATIONS.items():
                if any(k[0] == why for k in groups):
                    out(f"  {why}: {text}")
            unexplained = sum(len(v) for k, v in groups.items() if k[0] == "UNEXPLAINED")
            if unexplained:
                failures.append(f"{unexplained} Bandwidth point(s) whose measured level differs for no known reason")

        # Reads measured at L2: how much DRAM still served (the L2 level allows up to 10 %), and
        # from which footprint on it passes 1 %; for loads that do not allocate in L1, what L1 served.
        l2_reads = [b for b in bw if b["level"] == 2.0 and bandwidth_kind(b)[0] == "read"]
        if l2_reads:
            no_l1 = [b for b in l2_reads if bandwidth_kind(b)[1] in ("ld.cg", "ld.cv", "ld.lu", "ld.na")]
            dram_max = max(b.get("hw_served_dram_pct", 0) for b in l2_reads)
            l1_max = max((b.get("hw_served_l1_pct", 0) for b in no_l1), default=0)
            leaking = [b.get("footprint_bytes", 0) for b in l2_reads if b.get("hw_served_dram_pct", 0) > 1]
            out(f"\nReads measured at L2 ({len(l2_reads)} points): DRAM served at most {dram_max:.2f} % of the bytes"
                + (f", more than 1 % from {min(leaking) / l2_bytes:.2f}x the L2 on ({len(leaking)} points)"
                   if leaking and l2_bytes else "")
                + f"; L1 at most {l1_max:.2f} % for the {len(no_l1)} that do not allocate in L1")
            if l1_max > 1:
                failures.append("a read that does not allocate in L1 had more than 1 % of its bytes from L1")

        dram = [b for b in bw if b["level_by_footprint"] == 3.0 and b.get("bytes_per_launch")]
        if dram:
            ratios = sorted(((b.get("hw_dram_read_bytes", 0) + b.get("hw_dram_write_bytes", 0)) / b["bytes_per_launch"],
                             b["name"]) for b in dram)
            off = [r for r in ratios if abs(r[0] - 1) > 0.02]
            out(f"\nDRAM bytes / the kernel's bytes at the {len(dram)} footprints labelled DRAM: "
                f"{ratios[0][0]:.4f} to {ratios[-1][0]:.4f}; {len(off)} outside 2 %")
            for r, n in off[:10]:
                out(f"  {r:.4f}  {n}")
            if off:
                failures.append(f"{len(off)} DRAM point(s) whose DRAM bytes are not within 2 % of the kernel's")

    # The refined model (wide_model_wavefronts) is the bank model at 4 B and differs for permuted
    # or broadcast 8- and 16-byte accesses (analysis/smem_banks.hpp); both are reported.
    smem = [b for b in rows if resultfile.feature(b) == "SmemBanks" and "hw_smem_load_wavefronts_per_request" in b
            and b.get("wide_model_wavefronts")]
    if smem:
        def dev(b, model):
            return abs(b["hw_smem_load_wavefronts_per_request"] / b[model] - 1)
        bad = [b for b in smem if dev(b, "wide_model_wavefronts") > 0.02]
        plain = [b for b in smem if b.get("model_wavefronts") and dev(b, "model_wavefronts") > 0.02]
        worst = max(smem, key=lambda b: dev(b, "wide_model_wavefronts"))
        plain_4b = sum(1 for b in plain if resultfile.axes(b).get("width") == "4")
        out(f"\nSmemBanks: wavefronts per request against the refined bank model at {len(smem)} points: largest "
            f"difference {100 * dev(worst, 'wide_model_wavefronts'):.2f} %; {len(bad)} beyond 2 % (against the plain "
            f"bank model: {len(plain)} beyond 2 %, {plain_4b} of them 4-byte accesses)")
        for b in bad[:10]:
            out(f"  {b['name']}: {b['hw_smem_load_wavefronts_per_request']:.3f} against {b['wide_model_wavefronts']}")
        if bad:
            failures.append(f"{len(bad)} SmemBanks point(s) whose wavefronts differ from the model by more than 2 %")

    homes = collections.defaultdict(list)
    for b in rows:
        if resultfile.feature(b) == "Atomics" and "hw_l2_fabric_pct" in b:
            contention = resultfile.axes(b).get("contention")
            if contention in ("near_l2", "far_l2"):
                homes[contention].append(b["hw_l2_fabric_pct"])
    if homes:
        near, far = homes.get("near_l2", []), homes.get("far_l2", [])
        out(f"\nAtomics: sectors crossing between the L2 partitions, of the atomics' sectors: near_l2 "
            f"{min(near, default=0):.1f}-{max(near, default=0):.1f} % ({len(near)} points), far_l2 "
            f"{min(far, default=0):.1f}-{max(far, default=0):.1f} % ({len(far)} points)")
        if near and max(near) >= 10:
            failures.append("an Atomics near_l2 point crossed the partitions for >= 10 % of its sectors")
        if far and min(far) <= 90:
            failures.append("an Atomics far_l2 point crossed the partitions for <= 90 % of its sectors")

    pipe = [b for b in rows if "hw_inst_per_step" in b]
    if pipe:
        by_op = collections.defaultdict(list)
        for b in pipe:  # Pipeline/throughput/<op>, Pipeline/dpx/throughput/<op>
            v, parts = b["hw_inst_per_step"], resultfile.family_parts(b)
            by_op["dpx/" + parts[3] if parts[1] == "dpx" else parts[2]].append(v)
        out(f"\nPipeline: warp instructions per warp-level step, {len(pipe)} points (median per op):")
        out("  " + ", ".join(f"{op} {sorted(v)[len(v) // 2]:.3f}" for op, v in sorted(by_op.items())))

    if failures:
        out("\nFAILED: " + "; ".join(failures))
        return 1
    out("\nevery check holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
