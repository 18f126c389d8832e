#!/usr/bin/python3
"""Kharevych thesis Ch. 4 (issue 9): the static error of numerical coarsening in L2 and H1
against the coarse element size, with the measured slopes (the issue expects orders ~2 and ~1).

Scene: scenes/kharevych_crack_bar.json, a 1 x 0.2 x 0.2 m linear cantilever (E = 1e7 Pa, a soft
slice E = 1e5 Pa at 0.40 <= x <= 0.45) sagging under gravity, run to rest by backward Euler (dt =
0.5 s, mass damping 50 /s) on a fixed fine reference mesh and on a series of coarse meshes of
n x n/5 x n/5 cubes, as one `simrun sweep` (simrun.run_sweep, python/simrun). Two materials: the
bar with the slice ("slice") and without it ("homogeneous"); two coarse methods: "harmonic"
(the thesis' tensors, the fine mesh driven through its display map, Eqs. 4.6-4.7) and "none"
(plain FEM with the coarse mesh's own E per tet, driven by barycentric interpolation).

The error is measured on the fine mesh at the last frame, between the fine run's displacement u_f
and the coarse run's on the fine vertices u_c (OUT/embedded/frames, OUT/reference/frames), both
P1 on the fine tets: |e|_L2 = (integral |u_c - u_f|^2)^1/2 (exact for P1) and the H1 seminorm
|grad (u_c - u_f)|_L2, each relative to the same norm of u_f. The slope is the least-squares
slope of log(error) against log(h), h = 1 m / n.

`--load axial` turns the same gravity along +x instead (the bar hangs from its clamp: tension, no
bending) and `--nu 0` removes the lateral contraction that the clamped face stops (an edge
singularity of the stress along the clamp's rim): the controls that tell which of bending
locking and the clamp's singularity caps the measured orders.

The heterogeneous material ("slice" in the table) is the scene's soft slice, or with `--slice X0
X1` a soft slice at X0 <= x <= X1 (X1 = 0.45 and X0 = 0.4333: one fine cell thick, inside one
coarse cell at every n, with stiff material on both sides), or with `--layers` ("layers") a
periodic layering thinner than every coarse cell: soft slabs (E = 1e5 Pa) one fine cell thick
every second fine cell along the whole bar, on a fine mesh twice as fine along x (120 x 12 x 12
in full mode: period 1/60 m, 2 to 12 periods per coarse cell; harmonic only: plain coarse FEM
cannot represent layers thinner than its tets). With `--load axial --nu 0` these
measure the method's own convergence where an interface cuts coarse cells (docs/coarsening.md).

Besides the errors on the fine mesh the table gives, per run, the coarse run's own error (max over
the coarse vertices of |u_c - u_f| against max |u_f|: the coarse solution before any map to the
fine mesh) and the coarse cell (along x) holding the largest share of the squared H1 error.

Writes OUT/kharevych_static_orders.csv and .png (with _axial, _nuV, _sliceX0-X1 and _layers
appended for those options) and prints the table with the slopes. Exit 1 if the errors of the
harmonic coarsening do not fall with every refinement of the coarse mesh, on the homogeneous bar
and, in the default configuration (the scene's slice in bending), on the slice; elsewhere (where
an interface cuts coarse cells) a non-monotone series is printed as a note, since it is what
those configurations measure.

usage: scripts/figures/kharevych_static_orders.py [--simrun PATH] [--out DIR] [--quick]
                                                 [--load bending|axial] [--nu V]
                                                 [--slice X0 X1 | --layers]
                                                 [--format png|pdf|svg[,...]]
(--quick: fine 20 x 4 x 4, coarse n = 5, 10; full: fine 60 x 12 x 12 (120 x 12 x 12 with
--layers), n = 5, 10, 15, 20, 30.)
"""
import argparse
import csv
import math
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "kharevych_crack_bar.json")
STEPS = 60
SOFT = 1e5  # the scene's slice
METHODS = ["harmonic", "none"]


def slab(x0, x1):
    """A soft region over x0 <= x <= x1 (fine tets selected by centroid)."""
    return {"select": {"box": {"min": [x0, -1, -1], "max": [x1, 1, 1]}}, "E": SOFT}


def materials(args, fine_cells_x):
    """{name: /objects/0/regions} of the heterogeneous and the homogeneous bar (None: the
    scene's own regions)."""
    if args.layers:
        d = 1.0 / fine_cells_x  # soft slabs one fine cell thick, centroids strictly inside
        layers = [slab((2 * k + 0.1) * d, (2 * k + 0.9) * d) for k in range(fine_cells_x // 2)]
        return {"layers": layers, "homogeneous": []}
    if args.slice:
        return {"slice": [slab(*args.slice)], "homogeneous": []}
    return {"slice": None, "homogeneous": []}


def last_frame(folder):
    frames = sorted(f for f in os.listdir(folder) if f.endswith(".vtu"))
    return simrun.read_vtu(os.path.join(folder, frames[-1]))


def p1_norms_per_tet(points, tets, u):
    """Per tet, the squared H1 seminorm of the P1 field u."""
    x = points[tets]
    dm = np.stack([x[:, i] - x[:, 0] for i in (1, 2, 3)], axis=2)
    ue = u[tets]
    grad = np.stack([ue[:, i] - ue[:, 0] for i in (1, 2, 3)], axis=2) @ np.linalg.inv(dm)
    return np.abs(np.linalg.det(dm)) / 6 * np.sum(grad ** 2, axis=(1, 2))


def p1_norms(points, tets, u):
    """(L2, H1 seminorm) of the P1 field u (n x 3) on the tets at `points` (rest positions)."""
    x = points[tets]                                   # t x 4 x 3
    dm = np.stack([x[:, i] - x[:, 0] for i in (1, 2, 3)], axis=2)
    volume = np.abs(np.linalg.det(dm)) / 6
    ue = u[tets]                                       # t x 4 x 3
    du = np.stack([ue[:, i] - ue[:, 0] for i in (1, 2, 3)], axis=2)
    grad = du @ np.linalg.inv(dm)                      # t x 3 x 3
    # The P1 mass matrix of a tet: integral of |u|^2 = V/20 (sum_i |u_i|^2 + |sum_i u_i|^2).
    l2 = np.sum(volume / 20 * (np.sum(ue ** 2, axis=(1, 2)) + np.sum(ue.sum(axis=1) ** 2, axis=1)))
    h1 = np.sum(volume * np.sum(grad ** 2, axis=(1, 2)))
    return math.sqrt(l2), math.sqrt(h1)


def coarse_vertex_error(rest, u_f, coarse):
    """max |u_c - u_f| over the coarse vertices, relative to max |u_f|; NaN unless every coarse
    vertex is a fine vertex (true for the meshes here: n divides the fine cells)."""
    u_c = coarse.point_data["displacement"]
    key = {tuple(p): i for i, p in enumerate(np.round(rest, 9))}
    at = [key.get(tuple(p)) for p in np.round(coarse.points - u_c, 9)]
    if any(i is None for i in at):
        return float("nan")
    return float(np.linalg.norm(u_c - u_f[at], axis=1).max() / np.linalg.norm(u_f, axis=1).max())


def errors(folder, load, n):
    fine = last_frame(os.path.join(folder, "reference", "frames"))
    embedded = last_frame(os.path.join(folder, "embedded", "frames"))
    tets = fine.tets
    rest = fine.points - fine.point_data["displacement"]
    u_f = fine.point_data["displacement"]
    u_c = embedded.point_data["displacement"]
    l2_f, h1_f = p1_norms(rest, tets, u_f)
    l2_e, h1_e = p1_norms(rest, tets, u_c - u_f)
    # The squared H1 error per coarse cell along x (fine tets by centroid; the bar is 1 m long).
    cell = np.minimum((rest[tets].mean(axis=1)[:, 0] * n).astype(int), n - 1)
    share = np.bincount(cell, weights=p1_norms_per_tet(rest, tets, u_c - u_f), minlength=n)
    share /= share.sum()
    worst = int(np.argmax(share))
    return {"l2": l2_e / l2_f, "h1": h1_e / h1_f,
            "coarse_vertex_err": coarse_vertex_error(rest, u_f, last_frame(os.path.join(folder, "frames"))),
            "worst_cell_x0": worst / n, "worst_cell_h1_share": float(share[worst]),
            "fine_sag": float(np.abs(u_f[:, 0 if load == "axial" else 1]).max())}


def slope(hs, es):
    lh, le = np.log(hs), np.log(es)
    return float(np.polyfit(lh, le, 1)[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="fine 20 x 4 x 4, coarse n = 5, 10")
    parser.add_argument("--load", choices=["bending", "axial"], default="bending",
                        help="gravity along -y (the scene's sag) or along +x (tension)")
    parser.add_argument("--nu", type=float, default=None,
                        help="Poisson's ratio instead of the scene's 0.3 (0: the clamp no longer "
                             "stops a lateral contraction, whose edge singularity caps the orders)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--slice", type=float, nargs=2, metavar=("X0", "X1"),
                       help="the soft slice at X0 <= x <= X1 instead of the scene's 0.40-0.45")
    where.add_argument("--layers", action="store_true",
                       help="a periodic soft layering, one fine cell thick every second fine cell, "
                            "on a fine mesh twice as fine along x")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    fine, ns = ([20, 4, 4], [5, 10]) if args.quick else ([60, 12, 12], [5, 10, 15, 20, 30])
    if args.layers:
        fine = [2 * fine[0]] + fine[1:]
    material_regions = materials(args, fine[0])
    default = args.load == "bending" and not args.slice and not args.layers
    # Plain coarse FEM takes E from its own tet centroids, which miss some of the thin layers
    # (a region selecting no tet is bad input), and it cannot represent them anyway.
    methods = ["harmonic"] if args.layers else METHODS

    points = []
    for material, regions in material_regions.items():
        for method in methods:
            for n in ns:
                sets = {"/objects/0/mesh/box/cells": [n, n // 5, n // 5],
                        "/objects/0/coarsening/method": method}
                if regions is not None:
                    sets["/objects/0/regions"] = regions
                points.append(((material, method, n), sets))
    fixed = {"/objects/0/reference/mesh/box/cells": fine, "/time/steps": STEPS, "/output/every": STEPS,
             "/output/frames": ["vtu"], "/reference/track": [0]}
    if args.load == "axial":
        fixed["/gravity"] = [9.81, 0.0, 0.0]
    if args.nu is not None:
        fixed["/objects/0/material/nu"] = args.nu
    stem = ("kharevych_static_orders" + ("_axial" if args.load == "axial" else "")
            + (f"_nu{args.nu:g}" if args.nu is not None else "")
            + (f"_slice{args.slice[0]:g}-{args.slice[1]:g}" if args.slice else "")
            + ("_layers" if args.layers else ""))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        runs = simrun.run_sweep(SCENE, points, work, "orders", fixed=fixed, binary=args.simrun)
        for (material, method, n), _ in points:
            rows.append({"material": material, "method": method, "n": n, "h": 1.0 / n,
                         **errors(runs[(material, method, n)]["dir"], args.load, n)})

    path = os.path.join(args.out, stem + ".csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"static {'stretch' if args.load == 'axial' else 'sag'} of the crack bar, fine {fine[0]}x{fine[1]}x{fine[2]} cubes x 5 tets, coarse n x n/5 x n/5, "
          f"{STEPS} BE steps; relative errors on the fine mesh")
    print(f"{'material':>12} {'method':>9} " + " ".join(f"{'n=' + str(n):>17}" for n in ns) +
          f" {'L2 slope':>9} {'H1 slope':>9}")
    slopes = {}
    for material in material_regions:
        for method in methods:
            sel = [r for r in rows if r["material"] == material and r["method"] == method]
            hs = [r["h"] for r in sel]
            s2, s1 = slope(hs, [r["l2"] for r in sel]), slope(hs, [r["h1"] for r in sel])
            slopes[(material, method)] = (s2, s1)
            cells = " ".join(f"{r['l2']:8.2e}/{r['h1']:8.2e}" for r in sel)
            print(f"{material:>12} {method:>9} {cells} {s2:9.2f} {s1:9.2f}")
    print("(cells: L2 / H1 relative error; the issue expects slopes ~2 and ~1)")
    print(f"{'material':>12} {'method':>9} " + " ".join(f"{'n=' + str(n):>24}" for n in ns))
    for material in material_regions:
        for method in methods:
            sel = [r for r in rows if r["material"] == material and r["method"] == method]
            cells = " ".join(f"{r['coarse_vertex_err']:8.2e} {r['worst_cell_x0']:5.3f} {100 * r['worst_cell_h1_share']:4.0f}%"
                             for r in sel)
            print(f"{material:>12} {method:>9} {cells}")
    print("(cells: the coarse run's own error at its vertices, max |u_c - u_f| / max |u_f|; the "
          "coarse cell x0 <= x <= x0 + h holding the largest share of the squared H1 error, and "
          "that share)")
    # Checked: the harmonic coarsening converges to the fine solution as the coarse mesh refines
    # (each refinement lowers both errors) on the homogeneous bar, and on the slice in the
    # default configuration. Where an interface cuts coarse cells the error depends on where it
    # cuts them (docs/coarsening.md), so a non-monotone series there is a result, not a failure.
    failures, notes = [], []
    for material in material_regions:
        sel = [r for r in rows if r["material"] == material and r["method"] == "harmonic"]
        for norm in ("l2", "h1"):
            if not all(b[norm] < a[norm] for a, b in zip(sel, sel[1:])):
                text = f"{material}, harmonic: the {norm} error does not fall as n grows"
                (failures if material == "homogeneous" or default else notes).append(text)

    plt = plotting.pyplot()
    if plt:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        i = 0
        for material in material_regions:
            for method in methods:
                sel = [r for r in rows if r["material"] == material and r["method"] == method]
                s2, s1 = slopes[(material, method)]
                style = plotting.curve_style(i, len(sel), marks=len(sel))
                axes[0].loglog([r["h"] for r in sel], [r["l2"] for r in sel],
                               label=f"{material}, {method} (slope {s2:.2f})", **style)
                axes[1].loglog([r["h"] for r in sel], [r["h1"] for r in sel],
                               label=f"{material}, {method} (slope {s1:.2f})", **style)
                i += 1
        for ax, name in zip(axes, (r"$L^2$", r"$H^1$ seminorm")):
            ax.set_xlabel(r"coarse element size $h$ [m]")
            ax.set_ylabel(f"relative {name} error")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("Static error of the coarse runs on the fine mesh (crack bar"
                     + (", soft layers" if args.layers else "")
                     + (f", slice {args.slice[0]:g}-{args.slice[1]:g}" if args.slice else "") + ", "
                     + ("hanging: tension)" if args.load == "axial" else "sagging: bending)"))
        fig.tight_layout()
        plotting.save_figure(fig, args.out, stem, args.format)
    print(f"wrote {path}")
    for text in notes:
        print("note:", text)
    for text in failures:
        print("FAILED:", text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
