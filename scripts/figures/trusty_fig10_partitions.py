#!/usr/bin/python3
"""Trusty et al. (multilevel sparse bases), Figs. 10 and 16: the stiffness-aware k-means
partitions. Heat-geodesic distances over a stiffness-weighted Laplacian make heat flow faster in
stiff material, so (Sec. 3.6.1) stiff regions get larger partitions and soft ones
smaller; the jump penalty (Sec. 3.6.2: tets touching a material interface get c times the
softest E in the heat weights, c = 0.1-0.5 in the paper) keeps partitions from straddling
material interfaces. Fig. 10 shows this on a 2D "H" with a stiff inner region, Fig. 16 on the
shoe (midsole 1e6, outer sole 1e8, upper 1e7 Pa: large partitions in the stiff parts, small in
the midsole); the paper gives pictures, no numbers.

Scene: scenes/trusty_fig10_h_shape.json, a soft neo-Hookean slab 1 x 1 x 0.1 m (E = 1e5 Pa) with
a stiff "H" inside it (E = 1e8 Pa, ratio 1e3; two bars 0.2 x 0.8 m and a 0.3 x 0.2 m crossbar,
three "regions" boxes), a box mesh of 40 x 40 x 4 cells (32,000 tets). Paper vs ours: the paper's
H is a 2D shape whose inner region is stiff; ours is a stiff H inside a soft 3D slab (simrun has
no H mesh and box meshes only take box regions). The multilevel solver starts from 24 k-means
clusters (one SMS handle per final partition), seed 1; one BE step under gravity (h = 0.01 s)
writes the frames, whose cell data "partition" and "E" we read (the step itself does not matter
here). Runs: jump_penalty 0 and 0.25 (the stressball's value), plus a homogeneous control (the H
given the soft E, so the same geometry and mesh with no stiffness contrast).

Per run and material (stiff = the H, soft = the rest; a partition belongs to the material that
fills most of its volume): partitions, mean and median partition volume (tet volumes from the
rest points of frame 0), purity (the mean fraction of a partition's volume in its own material)
and stiff / soft mean-volume ratio. For the control the H region stands in for "stiff".

Must hold (exit 1 otherwise): with the contrast, the mean partition volume in the stiff material
exceeds the soft one's by more than the homogeneous control's ratio, for both jump penalties
(the paper's claim: larger partitions in stiff regions; it can fail); every run finishes.
Reported: the purity with and without the jump penalty (the paper: the penalty keeps clusters
to material boundaries).

Fig. 12 (the modal cubature adapts to the material: stiff partitions, whose basis functions are
nearly constant, need fewer points): every run also fits the cubature ("cubature": true) and we
read its cell data "cubature_weight" (> 0 at the sampled tets). Reported per material: cubature
points, points per partition and per cubic metre, and the stiff / soft ratio of points per
partition, and the stiff / soft ratio of points per cubic metre of the partitions each material
owns, which must be below the homogeneous control's (exit 1 otherwise; the paper: "stiff regions
... require fewer cubature points; soft regions ... denser sampling").

Writes OUT/trusty_fig10_partitions.csv (one row per run and material) and .png (tet centroids of
the slab's top layer coloured by partition, the H outlined, handle origins marked), prints the
table.

usage: scripts/figures/trusty_fig10_partitions.py [--simrun PATH] [--out DIR] [--quick] [--runs DIR]
           [--timeout S] [--format png|pdf|svg[,...]]
--quick: 20 x 20 x 2 cells (4,000 tets), the same 24 clusters (< 3 s).
"""
import argparse
import csv
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "trusty_fig10_h_shape.json")
SOFT_E = 1e5
# (label, jump penalty, homogeneous control)
RUNS = [("contrast, jump 0", 0.0, False), ("contrast, jump 0.25", 0.25, False), ("homogeneous control", 0.0, True)]
H_BOXES = [((0.15, 0.1), (0.35, 0.9)), ((0.65, 0.1), (0.85, 0.9)), ((0.35, 0.4), (0.65, 0.6))]


def run(args, work, cells):
    """The three RUNS in one `simrun sweep`, each capped at --timeout seconds: per label its
    output folder, or None and why."""
    points = []
    for label, jump, control in RUNS:
        sets = {"/solver/jump_penalty": jump}
        if control:
            sets.update({f"/objects/0/regions/{i}/E": SOFT_E for i in range(len(H_BOXES))})
        points.append((label, sets))
    done = simrun.run_sweep(SCENE, points, work, "fig10",
                            fixed={"/objects/0/mesh/box/cells": list(cells), "/solver/cubature": True},
                            time_limit=args.timeout, accept=("finished", "diverged", "failed", "interrupted"),
                            binary=args.simrun)
    out = {}
    for label, _ in points:
        r = done[label]
        if r["status"] == "finished":
            out[label] = (r["dir"], "")
        else:
            out[label] = (None, f"> {args.timeout:g} s" if simrun.capped(r)
                          else f"{r['status']}: {r['message'][-200:]}")
    return out


def analyse(out):
    frame = simrun.read_vtu(os.path.join(out, "frames", "000000.vtu"))
    points, tets = frame.points, frame.tets
    tet_data = frame.cell_data_of("tetra")
    a, b, c, d = (points[tets[:, i]] for i in range(4))
    volume = np.abs(np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)) / 6
    centroid = points[tets].mean(axis=1)
    partition = tet_data["partition"].astype(int)
    young = tet_data["E"]
    in_h = np.zeros(len(tets), dtype=bool)
    for (x0, y0), (x1, y1) in H_BOXES:
        in_h |= (centroid[:, 0] >= x0) & (centroid[:, 0] <= x1) & (centroid[:, 1] >= y0) & (centroid[:, 1] <= y1)
    if young.max() > young.min():  # a region's tets are selected by centroid: the H is where E is large
        in_h = young > np.sqrt(young.max() * young.min())
    parts = partition.max() + 1
    part_volume = np.bincount(partition, weights=volume, minlength=parts)
    stiff_share = np.bincount(partition, weights=volume * in_h, minlength=parts) / part_volume
    origins = frame.point_data["handle_origin"]
    sampled = tet_data["cubature_weight"] > 0
    return {"sampled": sampled, "volume": volume, "centroid": centroid, "partition": partition, "in_h": in_h, "parts": parts,
            "part_volume": part_volume, "stiff_share": stiff_share, "origins": points[origins >= 0],
            "E_stiff": float(young[in_h].max()), "E_soft": float(young[~in_h].max())}


def per_material(a):
    rows = []
    for material, mine, share in (("stiff", a["stiff_share"] > 0.5, a["stiff_share"]),
                                  ("soft", a["stiff_share"] <= 0.5, 1 - a["stiff_share"])):
        vols = a["part_volume"][mine]
        in_material = a["in_h"] if material == "stiff" else ~a["in_h"]
        rows.append({"material": material, "E": a["E_stiff"] if material == "stiff" else a["E_soft"],
                     "material_volume": float(a["volume"][in_material].sum()), "partitions": int(mine.sum()),
                     "mean_volume": float(vols.mean()) if len(vols) else float("nan"),
                     "median_volume": float(np.median(vols)) if len(vols) else float("nan"),
                     "purity": float(share[mine].mean()) if len(vols) else float("nan"),
                     # Fig. 12: the cubature points of the partitions this material owns.
                     "cubature_points": int(a["sampled"][mine[a["partition"]]].sum())})
    for r in rows:
        r["points_per_partition"] = r["cubature_points"] / r["partitions"] if r["partitions"] else float("nan")
        owned = a["part_volume"][(a["stiff_share"] > 0.5) if r["material"] == "stiff" else (a["stiff_share"] <= 0.5)]
        r["points_per_m3"] = r["cubature_points"] / owned.sum() if len(owned) else float("nan")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="20 x 20 x 2 cells")
    parser.add_argument("--runs", help="keep the simrun output folders here (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall-clock cap per simrun run [s]")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cells = (20, 20, 2) if args.quick else (40, 40, 4)

    failures, analyses, table = [], {}, []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.runs or tmp
        os.makedirs(work, exist_ok=True)
        runs = run(args, work, cells)
        for label, jump, control in RUNS:
            out, message = runs[label]
            if out is None:
                failures.append(f"{label}: {message}")
                continue
            analyses[label] = analyse(out)
            for row in per_material(analyses[label]):
                table.append({"run": label, "jump_penalty": jump, "tets": len(analyses[label]["volume"]),
                              "total_partitions": analyses[label]["parts"], **row})

    csv_path = os.path.join(args.out, "trusty_fig10_partitions.csv")
    keys = ["run", "jump_penalty", "tets", "total_partitions", "material", "E", "material_volume", "partitions",
            "mean_volume", "median_volume", "purity", "cubature_points", "points_per_partition", "points_per_m3"]
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(table)

    print(f"stiff H (E = 1e8) in a soft slab (E = 1e5), {cells[0]} x {cells[1]} x {cells[2]} cells, 24 initial "
          "k-means clusters; a partition belongs to the material filling most of it")
    print(f"{'run':<22} {'material':<8} {'E [Pa]':>7} {'vol [m3]':>9} | {'parts':>5} {'mean vol':>9} {'median':>9} "
          f"{'purity':>6} | {'stiff/soft mean':>15}")
    ratios = {}
    for label, _, _ in RUNS:
        rows = [r for r in table if r["run"] == label]
        if not rows:
            continue
        stiff, soft = rows
        ratios[label] = stiff["mean_volume"] / soft["mean_volume"] if stiff["partitions"] and soft["partitions"] else float("nan")
        for r in rows:
            name = "H region" if label == "homogeneous control" and r["material"] == "stiff" else r["material"]
            print(f"{label:<22} {name:<8} {r['E']:>7.0e} {r['material_volume']:>9.4f} | {r['partitions']:>5} "
                  f"{r['mean_volume']:>9.5f} {r['median_volume']:>9.5f} {r['purity']:>6.2f} | "
                  f"{(f'{ratios[label]:.2f}' if r['material'] == 'stiff' else ''):>15}")
    print("paper (Figs. 10 and 16, pictures only): larger partitions in the stiff regions, smaller in the soft ones; "
          "the jump penalty keeps partitions to the material boundaries")

    control = ratios.get("homogeneous control")
    for label, jump, is_control in RUNS:
        if is_control or label not in ratios or control is None:
            continue
        larger = ratios[label] > control
        print(f"  {'yes' if larger else 'NO '}  {label}: stiff partitions are larger than soft ones by x{ratios[label]:.2f}, "
              f"more than the homogeneous control's x{control:.2f}")
        if not larger:
            failures.append(f"{label}: stiff / soft mean partition volume {ratios[label]:.2f} not above the control's "
                            f"{control:.2f}")
    print(f"Fig. 12, the modal cubature: {'run':<22} {'material':<8} {'points':>7} {'per partition':>13} "
          f"{'per m3':>9}")
    point_ratio = {}
    for label, _, _ in RUNS:
        rows = [r for r in table if r["run"] == label]
        if len(rows) != 2:
            continue
        for r in rows:
            print(f"{'':<28}{label:<22} {r['material']:<8} {r['cubature_points']:>7} "
                  f"{r['points_per_partition']:>13.1f} {r['points_per_m3']:>9.0f}")
        point_ratio[label] = rows[0]["points_per_m3"] / rows[1]["points_per_m3"]
    if "homogeneous control" in point_ratio:
        for label in (x for x in point_ratio if x != "homogeneous control"):
            fewer = point_ratio[label] < point_ratio["homogeneous control"]
            print(f"  {'yes' if fewer else 'no '}  {label}: stiff / soft cubature points per m3 "
                  f"x{point_ratio[label]:.2f}, the homogeneous control's x{point_ratio['homogeneous control']:.2f} "
                  "(paper, Fig. 12: fewer points in stiff material)")
            if not fewer:
                failures.append(f"{label}: stiff / soft cubature density x{point_ratio[label]:.2f} not below the "
                                f"control's x{point_ratio['homogeneous control']:.2f}")
    purity = {label: [r["purity"] for r in table if r["run"] == label] for label in ratios}
    if "contrast, jump 0" in purity and "contrast, jump 0.25" in purity:
        print(f"  purity (stiff, soft): jump 0 {purity['contrast, jump 0'][0]:.2f}, {purity['contrast, jump 0'][1]:.2f}; "
              f"jump 0.25 {purity['contrast, jump 0.25'][0]:.2f}, {purity['contrast, jump 0.25'][1]:.2f}")
    for text in failures:
        print(f"  FAILED: {text}")

    plt = plotting.pyplot()
    if plt and analyses:
        fig, axes = plt.subplots(1, len(analyses), figsize=(4 * len(analyses), 4.2))
        axes = np.atleast_1d(axes)
        for ax, (label, a) in zip(axes, analyses.items()):
            top = a["centroid"][:, 2] > a["centroid"][:, 2].max() - 0.1 / cells[2]
            rng = np.random.default_rng(0)  # shuffle the colours so neighbouring labels differ
            colour = rng.permutation(a["parts"])[a["partition"][top]] % 20
            ax.scatter(a["centroid"][top, 0], a["centroid"][top, 1], c=colour, cmap="tab20", vmin=0, vmax=19,
                       s=6 if args.quick else 3, marker="s", linewidths=0)
            for (x0, y0), (x1, y1) in H_BOXES:
                ax.plot([x0, x1, x1, x0, x0], [y0, y0, y1, y1, y0], color="k", linewidth=0.6)
            ax.plot(a["origins"][:, 0], a["origins"][:, 1], "k+", markersize=6)
            ax.set_aspect("equal")
            ax.set_title(f"{label}: {a['parts']} partitions", fontsize=9)
            ax.set_xticks([])
            ax.set_yticks([])
        fig.suptitle("Stiffness-aware k-means partitions (top layer; + handle origins; the stiff H outlined)",
                     fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "trusty_fig10_partitions", args.format)
    print(f"wrote {csv_path}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
