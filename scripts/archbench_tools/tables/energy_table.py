#!/usr/bin/env python3
"""Energy per operation from archbench runs: the table, and the orderings a healthy GPU shows.

Usage: energy_table.py [--check-orderings] FILE...

Prints, per run, a Markdown table of every Energy benchmark: the incremental (dynamic) energy in
pJ per operation, FLOP, byte and bit, with the static part included beside it, the variants'
spread, and the SM clock each held (throttled ones marked). With --check-orderings, exits 1 when
a run breaks an ordering that the physics of the chip implies (docs/energy.md):
  - per byte read: DRAM > L2 > L1;
  - per operation: DFMA > FFMA;
  - per FLOP: every reduced-precision tensor type (16-bit, TF32, 8-bit) below FFMA.
FP64 tensor FLOPs are reported but not ordered (DMMA through mma.sync ran above DFMA per FLOP on
an H200). Exit 2 on a file that is not an archbench result or holds no Energy benchmark.
"""
import argparse
import os
import sys
from archbench_tools.results import resultfile  # noqa: E402

SCRIPT = os.path.basename(sys.argv[0])


def primary_unit(b):
    for unit in ("op", "flop", "byte"):
        if f"pj_per_{unit}" in b and f"pj_per_{unit}_with_static" in b:
            return unit
    return None


short = resultfile.short_name


def energy_rows(doc):
    rows = {}
    for b in doc.get("benchmarks", []):
        if resultfile.feature(b) == "Energy" and resultfile.measured(b) and primary_unit(b):
            rows[short(b["name"])] = b
    return rows


def fmt(b, counter):
    return f"{b[counter]:.3g}" if counter in b else "-"


def table(rows):
    out = ["| benchmark | pJ (dynamic) | per | pJ/bit | pJ/FLOP | pJ with static | pair spread | SM clock | rest clock |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, b in rows.items():
        unit = primary_unit(b)
        clock = f"{b.get('sm_clock_mhz', 0):.0f} MHz" + (" (throttled)" if b.get("throttled") else "")
        per_flop = fmt(b, "pj_per_flop") if unit != "flop" else "-"
        out.append(f"| {name} | {fmt(b, f'pj_per_{unit}')} | {unit} | {fmt(b, 'pj_per_bit')} | {per_flop} | "
                   f"{fmt(b, f'pj_per_{unit}_with_static')} | {b.get('pair_spread_pct', 0):.1f} % | {clock} | "
                   f"{b.get('rest_sm_clock_mhz', 0):.0f} MHz |")
    return "\n".join(out)


def find(rows, family):
    """The first entry of `family` or a family under it."""
    return next((b for b in rows.values() if resultfile.is_under(resultfile.family(b), family)), None)


def ordering_violations(rows):
    """The orderings this run breaks, as sentences; orderings whose benchmarks are missing are not checked."""
    bad = []

    def order(hi_name, hi, lo_name, lo, counter):
        if hi and lo and not hi[counter] > lo[counter]:
            bad.append(f"{hi_name} ({hi[counter]:.3g} {counter}) is not above {lo_name} ({lo[counter]:.3g})")

    dram, l2, l1 = (find(rows, f"Energy/bytes/{lvl}/read") for lvl in ("DRAM", "L2", "L1"))
    order("DRAM read", dram, "L2 read", l2, "pj_per_byte")
    order("L2 read", l2, "L1 read", l1, "pj_per_byte")
    order("DFMA", find(rows, "Energy/op/dfma"), "FFMA", find(rows, "Energy/op/ffma"), "pj_per_op")
    ffma = find(rows, "Energy/op/ffma")
    for name, b in rows.items():
        if name.startswith(("Energy/mma_sync/", "Energy/wgmma/")) and "f64" not in name and ffma:
            order("FFMA per FLOP", ffma, name, b, "pj_per_flop")
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--check-orderings", action="store_true")
    args = ap.parse_args(argv)
    broken = 0
    for path in args.files:
        doc = resultfile.load_or_exit(path, SCRIPT)
        rows = energy_rows(doc)
        if not rows:
            print(f"{SCRIPT}: error: {path} holds no measured Energy benchmark", file=sys.stderr)
            return 2
        ctx = doc.get("context", {})
        print(f"## {ctx.get('gpu_name', '?')} {ctx.get('gpu_uuid', '')[:12]} ({os.path.basename(path)})\n")
        print(table(rows) + "\n")
        if args.check_orderings:
            bad = ordering_violations(rows)
            for b in bad:
                print(f"ORDERING BROKEN: {b}")
            if not bad:
                print("orderings: DRAM > L2 > L1 per byte, DFMA > FFMA per op, tensor types below FFMA per FLOP: all hold")
            broken += bool(bad)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
