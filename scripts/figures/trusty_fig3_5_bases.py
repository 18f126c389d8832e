#!/usr/bin/python3
"""Trusty et al. (multilevel sparse bases), Figs. 3-5: the SMS weights against the three
alternatives the paper compares them with, at equal DOFs in a pure subspace solve. The paper's
claims (the captions of Figs. 3-5; Sec. 2.1):
  Fig. 3, geometry awareness: a square with a thin cut dropped on a spike. The RBF supports span
    the cut, so the square cannot wrap around the spike; skinning eigenmodes, biharmonic
    coordinates and the SMS weights can.
  Fig. 4, material awareness: a square with stiff top and bottom layers (E = 1e11 Pa) and a soft
    middle (2e5 Pa) dropped on the ground. RBF and biharmonic coordinates lock (the soft layer
    does not bulge); eigenmodes and SMS bulge.
  Fig. 5, support: only RBF and SMS have compact support; eigenmodes are global, biharmonic
    coordinates decay without vanishing.
The paper shows pictures (2D) and no numbers; these are 3D stand-ins one voxel thick.

Bases (`"solver": {"basis": ...}`, docs/multilevel.md): sms (the paper's), rbf (Wendland C2 of
the Euclidean distance to each handle, normalised), biharmonic (global unweighted biharmonic
coordinates, Wang et al. 2015), eigenmodes (skinning eigenmodes of the stiffness-weighted
Laplacian). All four take their handles from the same stiffness-aware partition (16 asked), so
they have the same number of DOFs (12 per handle plus the affine level). `fine_iterations` 0:
the Newton directions stay in the span of the bases, which alone decide what the square can do.
Reference: the full space (`cholmod`). Backward Euler, dt = 10 ms, IPC contact (d_hat 1 mm),
Newton stopped by the direction rule |d| / h < 1e-4 m/s (l2 over |V|).

Fig. 3 scene (ours): a neo-Hookean square 1 x 1 m (E = 1e5 Pa, nu = 0.4, 1000 kg/m^3), one voxel
thick, with a cut one voxel wide from the middle of its bottom edge up to half its height; its
bottom 2 cm above the tip of a wedge (an obstacle mesh: 0.2 m wide base, 0.3 m high) under the
cut, a ground plane at the wedge's base; thrown down at 2 m/s. Measured: the cut's opening at
its mouth (largest over the run) and how far the spike gets into the cut (largest over the run
of the shallower lip's lowest point below the tip, in frames where the two lips straddle the
tip; 0 otherwise).
Fig. 4 scene: scenes/trusty_fig4_layers.json (a square 1 x 1 x 0.05 m, 21 x 21 x 1 cells, thirds
of 1e11 / 2e5 / 1e11 Pa, thrown down at 3 m/s from 0.52 m). Measured: the soft layer's bulge
(its largest width over the run minus 1 m) and its least thickness.
Fig. 5: per basis, the mean number of handles with a non-zero weight at a vertex over the
number of handles (frame point data `handle_count`), on the Fig. 4 square.

Must hold (exit 1 otherwise), the paper's claims with margins: Fig. 3, the full-space, SMS,
biharmonic and eigenmode squares wrap around the spike down to the ground (the spike's depth in
the cut at least 95 % of the wedge's height) and the RBF square does not; Fig. 4, the RBF and biharmonic bulges are below 1/4 of the full-space bulge and the SMS
and eigenmode bulges above 1/2 of it; Fig. 5, the RBF and SMS support fractions are below 0.5
and the biharmonic and eigenmode ones above 0.9. Every run must finish.

Writes OUT/trusty_fig3_5_bases.csv and .png (the cut squares' last frames over the wedge, the
soft layer's width over time, the support fractions), prints the table.

usage: scripts/figures/trusty_fig3_5_bases.py [--simrun PATH] [--out DIR] [--quick] [--runs DIR]
           [--timeout S] [--format png|pdf|svg[,...]]
Full mode: the cut square at 21 x 21 voxels (2,586 tets), 40 steps; the layers at 21 x 21
cells, 30 steps. --quick: 15 x 15 voxels, 25 steps; 15 x 15 cells, 20 steps.
"""
import argparse
import csv
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402
import voxel_meshes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS_SCENE = os.path.join(ROOT, "scenes", "trusty_fig4_layers.json")
BASES = ["sms", "rbf", "biharmonic", "eigenmodes"]
LABELS = {"full": "full space (CHOLMOD)", "sms": "SMS (ours in the paper)", "rbf": "compact RBF",
          "biharmonic": "biharmonic coordinates", "eigenmodes": "skinning eigenmodes"}
LIFT = 0.02          # m, the cut square's bottom above the spike's tip
CUT_HEIGHT = 0.5     # m
WEDGE = (0.2, 0.3)   # m, base width and height
failures = []


def check(claim, ok):
    print(f"  [{'ok' if ok else 'FAILED'}] {claim}")
    if not ok:
        failures.append(claim)


def cut_square_scene(work, voxels, steps):
    """The Fig. 3 mesh (slit.mesh), wedge (wedge.off) and scene (cut_square.json) in `work`."""
    cell = 1.0 / voxels

    def keep(cx, cy, cz):
        return ~((np.abs(cx) < cell / 2) & (cy < LIFT + CUT_HEIGHT))

    _, tets, _ = voxel_meshes.write_voxel_mesh(os.path.join(work, "slit.mesh"), (-0.5, LIFT, 0.0),
                                               (0.5, 1.0 + LIFT, cell), cell, keep)
    half, height = WEDGE[0] / 2, WEDGE[1]
    z0, z1 = -0.1, cell + 0.1  # longer than the square is thick
    corners = [(0, 0, z0), (-half, -height, z0), (half, -height, z0),
               (0, 0, z1), (-half, -height, z1), (half, -height, z1)]
    faces = [(0, 2, 1), (3, 4, 5), (0, 1, 4), (0, 4, 3), (0, 3, 5), (0, 5, 2), (1, 2, 5), (1, 5, 4)]
    voxel_meshes.write_off(os.path.join(work, "wedge.off"), corners, faces)
    scene = {
        "name": "trusty_fig3_cut_square", "format": 1,
        "time": {"dt": 0.01, "steps": steps},
        "objects": [{"name": "square", "mesh": {"file": "slit.mesh"},
                     "material": {"model": "neohookean", "E": 1e5, "nu": 0.4, "density": 1000},
                     "initial": {"velocity": [0, -2, 0]}}],
        "obstacles": [{"mesh": {"file": "wedge.off"}},
                      {"plane": {"point": [0, -height, 0], "normal": [0, 1, 0]}}],
        "gravity": [0, -9.81, 0], "mass": "lumped", "contact": {"dhat": 1e-3, "self": False},
        "integrator": {"type": "be", "newton": {"max_iterations": 200, "direction_tolerance": 1e-4}},
        "solver": {"type": "multilevel", "partitions": 16, "fine_iterations": 0},
        "output": {"every": 1, "frames": ["vtu"]},
    }
    path = os.path.join(work, "cut_square.json")
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
    return path, tets, cell


def points_for(base):
    """(label, {pointer: value}) per basis and the full-space reference."""
    points = [("full", {"/solver": {"type": "cholmod"}})]
    points += [(b, {"/solver": {"type": "multilevel", "partitions": 16, "fine_iterations": 0,
                                "basis": b}}) for b in BASES]
    return [(f"{base}:{label}", values) for label, values in points]


def frames(out):
    return [simrun.read_vtu(frame.path) for frame in simrun.read_run(out).frames]


def handles_of(out):
    """The multilevel solver's SMS handles (run.json counts), None without."""
    return simrun.read_run(out).counts.get("multilevel", {}).get("sms_handles")


def analyse_cut(out, cell):
    """Cut opening at the mouth and the spike's depth into the cut (largest over the run)."""
    meshes = frames(out)
    rest = meshes[0].points - meshes[0].point_data["displacement"]
    below_top = rest[:, 1] < LIFT + CUT_HEIGHT - 1e-9
    left = (np.abs(rest[:, 0] + cell / 2) < 1e-9) & below_top
    right = (np.abs(rest[:, 0] - cell / 2) < 1e-9) & below_top
    mouth = rest[:, 1] < LIFT + 1e-9
    opening = [m.points[right & mouth, 0].mean() - m.points[left & mouth, 0].mean() for m in meshes]
    # The spike is inside the cut while the two lips straddle its tip (x = 0); how deep: the
    # shallower lip's lowest point below the tip (a square that slid off one flank scores 0).
    depth = [max(0.0, -max(m.points[left & mouth, 1].min(), m.points[right & mouth, 1].min()))
             if m.points[left & mouth, 0].mean() < 0.0 < m.points[right & mouth, 0].mean() else 0.0
             for m in meshes]
    return {"opening": max(opening), "depth": max(depth), "last": meshes[-1], "rest": rest}


def analyse_layers(out):
    """The soft layer's bulge and least thickness, the support fraction, and width over time."""
    meshes = frames(out)
    rest = meshes[0].points - meshes[0].point_data["displacement"]
    bottom, top = rest[:, 1].min(), rest[:, 1].max()
    third = (top - bottom) / 3
    soft = (rest[:, 1] > bottom + third - 1e-6) & (rest[:, 1] < bottom + 2 * third + 1e-6)
    lower = np.abs(rest[:, 1] - (bottom + third)) < 1e-6
    upper = np.abs(rest[:, 1] - (bottom + 2 * third)) < 1e-6
    width = np.array([np.ptp(m.points[soft, 0]) for m in meshes])
    thickness = [m.points[upper, 1].mean() - m.points[lower, 1].mean() for m in meshes]
    counts = meshes[0].point_data.get("handle_count")
    return {"bulge": float(width.max() - np.ptp(rest[soft, 0])), "thickness": min(thickness),
            "rest_thickness": thickness[0], "width": width,
            "handle_count": None if counts is None else float(np.mean(counts))}


def plot(args, cut, layers, support, cell, dt):
    plt = plotting.pyplot()
    if plt is None:
        return []
    labels = ["full"] + BASES
    fig = plt.figure(figsize=(15, 7.5))
    grid = fig.add_gridspec(2, 5, height_ratios=[1.15, 1])
    half, height = WEDGE[0] / 2, WEDGE[1]
    for k, label in enumerate(labels):
        ax = fig.add_subplot(grid[0, k])
        r = cut[label]
        mesh, rest = r["last"], r["rest"]
        tets = mesh.tets
        front = np.abs(rest[:, 2]) < 1e-9
        faces = set()
        for t in tets:
            on = [v for v in t if front[v]]
            if len(on) == 3:
                faces.add(tuple(sorted(on)))
        faces = np.array(sorted(faces))
        ax.triplot(mesh.points[:, 0], mesh.points[:, 1], faces, lw=0.3, color="tab:blue")
        ax.fill([-half, 0, half], [-height, 0, -height], color="0.5")
        ax.axhline(-height, color="0.3", lw=1)
        ax.set_title(f"{LABELS[label]}\nspike depth {r['depth']:.3f} m", fontsize=9)
        ax.set_aspect("equal")
        ax.set_xlim(-0.8, 0.8)
        ax.set_ylim(-height - 0.05, 1.1)
        ax.tick_params(labelsize=7)
    ax = fig.add_subplot(grid[1, :3])
    for k, label in enumerate(labels):
        w = layers[label]["width"]
        ax.plot(np.arange(len(w)) * dt, w, label=LABELS[label], **plotting.curve_style(k, len(w)))
    ax.set_xlabel("t [s]")
    ax.set_ylabel("soft layer width [m]")
    ax.set_title("Fig. 4: the soft middle layer bulges unless the basis locks", fontsize=10)
    ax.legend(fontsize=8)
    ax = fig.add_subplot(grid[1, 3:])
    ax.bar(range(len(BASES)), [support[b] for b in BASES], color="tab:blue")
    ax.set_xticks(range(len(BASES)))
    ax.set_xticklabels([LABELS[b] for b in BASES], rotation=15, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("mean handles per vertex / handles")
    ax.set_title("Fig. 5: support fraction", fontsize=10)
    fig.suptitle("Trusty et al. Figs. 3-5: bases at equal DOFs, pure subspace solves "
                 f"(top: Fig. 3's cut square, last frame; voxel {cell * 1000:.0f} mm)")
    fig.tight_layout()
    return plotting.save_figure(fig, args.out, "trusty_fig3_5_bases", args.format)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="15 x 15 voxels and cells, fewer steps")
    parser.add_argument("--runs", help="keep the simrun output folders here (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=600.0, help="wall-clock cap per simrun run [s]")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    voxels, cut_steps, cells, layer_steps = (15, 25, 15, 20) if args.quick else (21, 40, 21, 30)

    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.abspath(args.runs or tmp)
        os.makedirs(work, exist_ok=True)
        cut_scene, cut_tets, cell = cut_square_scene(work, voxels, cut_steps)
        cut_runs = simrun.run_sweep(cut_scene, points_for("cut"), work, "fig3", time_limit=args.timeout,
                                    binary=args.simrun)
        layer_runs = simrun.run_sweep(
            LAYERS_SCENE, points_for("layers"), work, "fig4",
            fixed={"/time/steps": layer_steps, "/objects/0/mesh/box/cells": [cells, cells, 1]},
            time_limit=args.timeout, binary=args.simrun)
        labels = ["full"] + BASES
        cut = {label: analyse_cut(cut_runs[f"cut:{label}"]["dir"], cell) for label in labels}
        layers = {label: analyse_layers(layer_runs[f"layers:{label}"]["dir"]) for label in labels}
        handles = {b: handles_of(layer_runs[f"layers:{b}"]["dir"]) for b in BASES}
        support = {b: layers[b]["handle_count"] / handles[b] for b in BASES}
        walls = {label: (cut_runs[f"cut:{label}"]["wall_s"], layer_runs[f"layers:{label}"]["wall_s"])
                 for label in labels}

    print(f"Trusty Figs. 3-5: cut square {cut_tets} tets (voxel {cell * 1000:.1f} mm), "
          f"layers {cells} x {cells} x 1 cells; {handles['sms']} handles on the layers "
          f"(|U| = {12 * handles['sms']} + the affine level)")
    print(f"{'basis':24s} {'cut opening':>11s} {'spike depth':>11s} {'bulge':>8s} "
          f"{'soft min h':>10s} {'support':>8s} {'wall s (3 / 4)':>15s}")
    rows = []
    for label in labels:
        c, l = cut[label], layers[label]
        s = support.get(label)
        print(f"{LABELS[label]:24s} {c['opening']:11.4f} {c['depth']:11.4f} {l['bulge']:8.4f} "
              f"{l['thickness']:10.4f} {'' if s is None else f'{s:.3f}':>8s} "
              f"{walls[label][0]:7.2f} {walls[label][1]:7.2f}")
        rows.append({"basis": label, "cut_opening_m": c["opening"], "spike_depth_m": c["depth"],
                     "bulge_m": l["bulge"], "soft_min_thickness_m": l["thickness"],
                     "soft_rest_thickness_m": l["rest_thickness"],
                     "support_fraction": "" if s is None else s,
                     "wall_s_fig3": walls[label][0], "wall_s_fig4": walls[label][1]})
    with open(os.path.join(args.out, "trusty_fig3_5_bases.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    plot(args, cut, layers, support, cell, 0.01)
    print("wrote", os.path.join(args.out, "trusty_fig3_5_bases.csv"))

    full_bulge = layers["full"]["bulge"]
    wrapped = 0.95 * WEDGE[1]
    for label in ["full", "sms", "biharmonic", "eigenmodes"]:
        check(f"Fig. 3: the {label} square wraps around the spike down to the ground: depth "
              f"{cut[label]['depth']:.3f} m >= {wrapped:.3f} m", cut[label]["depth"] >= wrapped)
    check(f"Fig. 3: the RBF square does not: depth {cut['rbf']['depth']:.3f} m < {wrapped:.3f} m",
          cut["rbf"]["depth"] < wrapped)
    for b in ("rbf", "biharmonic"):
        check(f"Fig. 4: {b} locks: bulge {layers[b]['bulge']:.4f} m below 1/4 of the full space's "
              f"{full_bulge:.4f} m", layers[b]["bulge"] < 0.25 * full_bulge)
    for b in ("sms", "eigenmodes"):
        check(f"Fig. 4: {b} bulges: {layers[b]['bulge']:.4f} m above 1/2 of the full space's",
              layers[b]["bulge"] > 0.5 * full_bulge)
    for b in ("rbf", "sms"):
        check(f"Fig. 5: {b} is compact: support fraction {support[b]:.3f} < 0.5", support[b] < 0.5)
    for b in ("biharmonic", "eigenmodes"):
        check(f"Fig. 5: {b} is global: support fraction {support[b]:.3f} > 0.9", support[b] > 0.9)
    if failures:
        sys.exit(f"{len(failures)} claim(s) failed")


if __name__ == "__main__":
    main()
