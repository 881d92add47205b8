#!/usr/bin/env python3
"""Plots Geometry from one or more archbench JSON files.

Usage: plot_geometry.py [--out DIR] [--l2-map CSV] FILE...

Writes DIR/geometry_sweeps.{png,svg}: the raw L1 sweeps (one per shared-memory carveout hint) and
the L2 sweep, latency against footprint, with the capacities the suite inferred;
DIR/geometry_l2_sm_map.{png,svg}: every SM's near and far L2 latency; and, from
Geometry/l2/slice_map, DIR/geometry_l2_slice_terms.{png,svg}: each SM's fitted term by GPC and
side. With --l2-map (the CSV that ARCHBENCH_L2_MAP_CSV wrote), DIR/geometry_l2_slice_map.{png,svg}:
the SM x slice latency matrix, SMs by side and GPC, slices by their term. Files without Geometry
data are skipped with a note.
"""
import csv
import os
import re
import sys
from archbench_tools.plots.plotlib import feature_benchmarks, Script, save, finish, axes, family, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Geometry")
    l1, l2, l1_cap, l2_cap, sm_map, l2_ref, terms = {}, [], {}, None, None, [], None
    for b in rows:
        name, fields = family(b), axes(b)
        if name == "Geometry/l1/sweep":
            l1.setdefault(int(fields["carveout"]), []).append((b["footprint_bytes"], b["latency_cycles"]))
        elif name == "Geometry/l1/capacity":
            l1_cap[int(fields["carveout"])] = b["capacity_bytes"]
        elif name == "Geometry/l2/sweep":
            l2.append((b["footprint_bytes"], b["latency_cycles"]))
        elif name == "Geometry/l2/capacity":
            l2_cap = (b["near_partition_bytes"], b["capacity_bytes"])
            l2_ref = [("API's L2", b["api_l2_bytes"])] if "api_l2_bytes" in b else []
            if b.get("api_l2_enabled_bytes", b.get("api_l2_bytes")) != b.get("api_l2_bytes"):
                l2_ref.append((f"its {int(b['l2_slices'])} slices with data", b["api_l2_enabled_bytes"]))
        elif name == "Geometry/l2/sm_map":
            sm_map = {}
            for k, v in b.items():
                m = re.fullmatch(r"sm(\d+)_(near|far)_cycles", k)
                if m and v > 0:
                    sm_map.setdefault(m.group(2), []).append((int(m.group(1)), v))
        elif name == "Geometry/l2/slice_map":
            terms = {}
            for k, v in b.items():
                m = re.fullmatch(r"sm(\d+)_(gpc|side|term_cycles)", k)
                if m:
                    terms.setdefault(int(m.group(1)), {})[m.group(2)] = v
            terms = {sm: t for sm, t in terms.items() if t.get("side", -1) >= 0}
    data = (l1, l2, l1_cap, l2_cap, sm_map, l2_ref, terms)
    return label, ctx, data if (l1 or l2 or terms) else None


def plot_sweeps(datasets, out_dir):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.5))
    for label, _, (l1, l2, l1_cap, l2_cap, _, l2_ref, _) in datasets:
        suffix = f" — {label}" if len(datasets) > 1 else ""
        for c, pts in sorted(l1.items()):
            pts.sort()
            line, = a1.plot([p[0] / 1024 for p in pts], [p[1] for p in pts], "-o", markersize=3,
                            label=f"carveout hint {c} %{suffix}")
            if c in l1_cap and l1_cap[c] > 0:
                a1.axvline(l1_cap[c] / 1024, color=line.get_color(), linestyle=":", alpha=0.8)
        if l2:
            l2.sort()
            a2.plot([p[0] / 2**20 for p in l2], [p[1] for p in l2], "-o", markersize=3, label="ld.cg" + suffix)
            for x, what in zip(l2_cap or (), ("one partition", "whole L2")):
                a2.axvline(x / 2**20, color="grey", linestyle=":")
                a2.annotate(f"{what} {x / 2**20:.1f} MiB", (x / 2**20, 300), rotation=90, fontsize=7, ha="right")
            if l2_ref and l2_cap and len(datasets) == 1:  # the sizes the capacity is read against
                a2.text(0.98, 0.04, "\n".join(f"{what}: {x / 2**20:.2f} MiB (measured {l2_cap[1] / x:.3f}x)"
                                              for what, x in l2_ref),
                        transform=a2.transAxes, fontsize=7, ha="right", va="bottom",
                        bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "grey"})
    a1.set_xlabel("footprint, KiB (one element per 128 B)")
    a2.set_xlabel("footprint, MiB (one element per 128 B)")
    for a, title in ((a1, "L1 (ld.ca), inferred capacity dotted"), (a2, "L2 (ld.cg)")):
        a.set_xscale("log", base=2)
        value_axes(a, "cycles per load", legend_size=7, minor_grid=True)
        a.set_title(title, fontsize=10)
    return finish(fig, "Cache geometry sweeps", datasets, out_dir, "geometry_sweeps")


def plot_sm_map(datasets, out_dir):
    if not any(d[2][4] for d in datasets):
        return []
    fig, ax = plt.subplots(figsize=(11, 4))
    for label, _, (*_, sm_map, _, _) in datasets:
        if not sm_map:
            continue
        suffix = f" — {label}" if len(datasets) > 1 else ""
        for kind, marker in (("near", "o"), ("far", "s")):
            pts = sorted(sm_map.get(kind, []))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker, markersize=3, label=f"{kind} L2{suffix}")
    ax.set_xlabel("%smid")
    value_axes(ax, "cycles per load (ld.cg)")
    fig.suptitle("L2 latency seen from every SM")
    fig.tight_layout()
    return save(fig, out_dir, "geometry_l2_sm_map")


def plot_slice_terms(datasets, out_dir):
    """Each SM's fitted term (its L2 latency against its side's mean), grouped by GPC."""
    runs = [(label, d[6]) for label, _, d in datasets if d[6]]
    if not runs:
        return []
    fig, axes = plt.subplots(len(runs), 1, figsize=(11, 3.2 * len(runs)), squeeze=False)
    for ax, (label, terms) in zip(axes[:, 0], runs):
        order = sorted(terms, key=lambda sm: (terms[sm]["side"], terms[sm]["gpc"], sm))
        x = 0
        for gpc in sorted({terms[sm]["gpc"] for sm in order}):
            sms = [sm for sm in order if terms[sm]["gpc"] == gpc]
            side = int(terms[sms[0]]["side"])
            ax.bar(range(x, x + len(sms)), [terms[sm]["term_cycles"] for sm in sms],
                   color=f"C{int(gpc) % 10}", label=f"GPC {int(gpc)} (side {side})")
            x += len(sms) + 1
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks([])
        ax.set_xlabel("SMs, by side and GPC")
        value_axes(ax, "SM term (cycles)", legend_size=7, from_zero=False, ncol=4)
        ax.set_title(label, fontsize=9)
    fig.suptitle("L2 hit latency: each SM's term in the model SM + slice (per partition side)")
    fig.tight_layout()
    return save(fig, out_dir, "geometry_l2_slice_terms")


def read_l2_map(path):
    """The CSV of ARCHBENCH_L2_MAP_CSV: rows (sm, side, gpc, term, cycles per slice group) and the
    lines per group. Exits 2 with one line on a file that is not one."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        head, lines, body = rows[0], rows[1], rows[2:]
        if head[:4] != ["sm", "side", "gpc", "sm_term_cycles"] or lines[0] != "lines" or not body:
            raise ValueError("not an L2 map (ARCHBENCH_L2_MAP_CSV)")
        sms = [(int(r[0]), int(r[1]), int(r[2]), [float(v) for v in r[4:]]) for r in body]
        if any(len(r[3]) != len(head) - 4 for r in sms):
            raise ValueError("rows of unequal length")
        return sms
    except OSError as e:
        print(f"plot_geometry.py: error: --l2-map {path}: cannot read: {e.strerror or e}", file=sys.stderr)
        sys.exit(2)
    except (ValueError, IndexError) as e:
        print(f"plot_geometry.py: error: --l2-map {path}: not an L2 map (ARCHBENCH_L2_MAP_CSV): {e}", file=sys.stderr)
        sys.exit(2)


def plot_l2_map(path, sms, out_dir):
    sms.sort(key=lambda r: (r[1], r[2], r[0]))
    groups = len(sms[0][3])
    side0 = [r for r in sms if r[1] == 0] or sms
    order = sorted(range(groups), key=lambda g: sum(r[3][g] for r in side0) / len(side0))
    matrix = [[r[3][g] for g in order] for r in sms]
    fig, ax = plt.subplots(figsize=(11, 7))
    im = ax.imshow(matrix, aspect="auto", cmap="viridis", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="L2 hit latency (cycles, ld.cg)")
    for i in range(1, len(sms)):
        if sms[i][1:3] != sms[i - 1][1:3]:
            ax.axhline(i - 0.5, color="white", linewidth=1.5 if sms[i][1] != sms[i - 1][1] else 0.5)
    starts = [i for i in range(len(sms)) if i == 0 or sms[i][1:3] != sms[i - 1][1:3]]
    ax.set_yticks(starts)
    ax.set_yticklabels([f"side {sms[i][1]} GPC {sms[i][2]}" for i in starts], fontsize=7)
    ax.set_xlabel(f"{groups} slice groups, by their mean latency from side 0")
    fig.suptitle(f"Every SM's L2 hit latency to every slice group — {os.path.basename(path)}")
    fig.tight_layout()
    return save(fig, out_dir, "geometry_l2_slice_map")


def plot(datasets, args):
    l2_map = read_l2_map(args.l2_map) if args.l2_map else None  # bad input before any picture is written
    sweeps = [d for d in datasets if d[2][0] or d[2][1]]  # a run of the slice map alone has no sweep
    written = (plot_sweeps(sweeps, args.out) if sweeps else []) + plot_sm_map(datasets, args.out) + \
        plot_slice_terms(datasets, args.out)
    if l2_map:
        written += plot_l2_map(args.l2_map, l2_map, args.out)
    return written


def l2_map_arg(ap):
    ap.add_argument("--l2-map", metavar="CSV", help="the SM x slice CSV that ARCHBENCH_L2_MAP_CSV wrote")


SCRIPT = Script(__doc__, "Geometry", load, plot, extra_args=l2_map_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())
