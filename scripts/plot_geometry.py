#!/usr/bin/env python3
"""Plots Geometry from one or more archbench JSON files.

Usage: plot_geometry.py [--out DIR] FILE...

Writes DIR/geometry_sweeps.{png,svg}: the raw L1 sweeps (one per shared-memory carveout hint) and
the L2 sweep, latency against footprint, with the capacities the suite inferred; and
DIR/geometry_l2_sm_map.{png,svg}: every SM's near and far L2 latency. Files without Geometry
data are skipped with a note.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotlib import feature_benchmarks, main, save, finish, name_fields, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Geometry")
    l1, l2, l1_cap, l2_cap, sm_map, l2_ref = {}, [], {}, None, None, []
    for b in rows:
        name = b["name"].split("/iterations")[0]
        fields = name_fields(name)
        if name.startswith("Geometry/l1/sweep/"):
            l1.setdefault(int(fields["carveout"]), []).append((b["footprint_bytes"], b["latency_cycles"]))
        elif name.startswith("Geometry/l1/capacity/"):
            l1_cap[int(fields["carveout"])] = b["capacity_bytes"]
        elif name.startswith("Geometry/l2/sweep/"):
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
    data = (l1, l2, l1_cap, l2_cap, sm_map, l2_ref)
    return label, ctx, data if (l1 or l2) else None


def plot_sweeps(datasets, out_dir):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.5))
    for label, _, (l1, l2, l1_cap, l2_cap, _, l2_ref) in datasets:
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
    for label, _, (*_, sm_map, _) in datasets:
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


def plot(datasets, args):
    return plot_sweeps(datasets, args.out) + plot_sm_map(datasets, args.out)


if __name__ == "__main__":
    sys.exit(main(__doc__, "Geometry", load, plot))
