#!/usr/bin/python3
"""Kharevych thesis Ch. 4 (numerical coarsening, issue 9): Figs. 4.2, 4.3, 4.4/4.7, 4.5 and the
lowest eigenfrequencies of fine, homogenized and averaged meshes, with box-mesh stand-ins of
our own (the thesis' meshes are not available; its 2D figures 4.4/4.7 become 3D bars).

Parts (--parts 1,2,3,4,5; default all; --quick runs 1 and 3 on smaller fine meshes):
1. Fig. 4.2. Left: scenes/kharevych_rigid_soft_rigid_bar.json, a 1 x 0.2 x 0.2 m bar, nu = 0,
   E_rigid = 1e7 Pa at both ends, a soft middle third (E_soft swept 1e7 ... 1e4), fine 30 x 4 x 4
   cubes x 5 tets, coarse ONE cube (5 tets). Effective axial stiffness = volume-weighted mean of
   the coarse C11_11 (what the coarse mesh answers to a uniform axial strain) next to the
   harmonic mean (series springs, the exact 1D answer) and the arithmetic mean of E.
   Right: scenes/kharevych_layered_cube.json, a 0.2 m cube of 8 layers normal to z (E 1e7 and
   1e5 alternating, nu = 0.3), fine 8 x 8 x 16 cubes, coarse 2 x 2 x 2 cubes (40 tets). The
   volume-weighted mean coarse tensor is printed next to the exact laminate tensor (Backus
   average of the layers).
2. Fig. 4.3: the six harmonic displacement fields (simrun coarsen's <name>_harmonic.vtu) of the
   homogeneous and the layered cube, copied to OUT; the homogeneous cube must coarsen to its own
   tensor (the thesis' sanity check); a PNG of |h_33| and |h_11| on the mid slice y = 0.1.
3. Figs. 4.4 / 4.7: scenes/kharevych_crack_bar.json, the 1 x 0.2 x 0.2 bar fixed at x = 0, E 1e7
   with a full-section soft slice (E 1e5, x in [0.4, 0.45]), gravity -y, coarse 10 x 2 x 2
   cubes (200 tets), fine 40 x 8 x 8 (12800 tets). Static: backward Euler with dt = 0.5 s and
   mass damping 50 /s, 30 steps (the tip converges to 1e-9 m). Tip drop of the end-face centre
   for fine, harmonic, average_lame, galerkin (P^T K_f P, linear only) and none (plain coarse
   FEM); error.csv's final max / mean
   vertex error of the barycentric map against the fine run, and for harmonic the mean error of
   the display map (Eqs. 4.6-4.7, error.csv map_mean_pos_err) that re-injects the fine detail. Linear and
   corotated; full mode adds the harmonic tensors on a 6-tet (Kuhn) coarse split, on a 20x4x4
   coarse mesh, and with mixed harmonic problems (the clamped vertices held, thesis Sec. 4.3.9).
4. Fig. 4.5: the layered cube hung from its top face (+z fixed), gravity -z, released from rest,
   undamped implicit midpoint, dt = 1 ms, 300 steps (~5 periods of the axial mode). Extent
   (top z - lowest bottom-face z, 5 tracked fine vertices) vs t, max extension, for fine,
   harmonic, average_lame, galerkin and none (the thesis' four methods: fine, coarsened,
   averaged coefficients, averaged stiffness; none is our extra control).
5. The lowest ten eigenfrequencies (simrun modes, lumped mass) of the crack bar: fine,
   harmonic, average_lame, galerkin, none.
The thesis gives no material values, sizes or loads for these figures: all of the above are
our choices. The thesis' "averaged stiffness" baseline is `galerkin`, K_c = P^T K_f P with P
the barycentric interpolation (docs/coarsening.md); it needs a linear material, so part 3's
corotated rows leave it out. Fig. 4.8 is scripts/figures/kharevych_cheese_wheel.py.

Writes OUT/kharevych_coarsening_*.csv, .png (and the Fig. 4.3 VTUs), prints the tables; exits
non-zero when a checked claim fails: C33_33 < C11_11 for the layered cube, the homogeneous cube
coarsens to its own tensor (part 2), harmonic's tip drop is closer to the fine one than
average_lame's and galerkin's (part 3, linear).

usage: scripts/figures/kharevych_coarsening.py [--simrun PATH] [--out DIR] [--quick]
                                               [--parts 1,2,3,4,5] [--format png|pdf|svg[,...]]
"""
import argparse
import csv
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "scenes")
BAR = os.path.join(SCENES, "kharevych_rigid_soft_rigid_bar.json")
CUBE = os.path.join(SCENES, "kharevych_layered_cube.json")
CRACK = os.path.join(SCENES, "kharevych_crack_bar.json")
VOIGT = ["11", "22", "33", "23", "13", "12"]
METHODS = ["harmonic", "average_lame", "galerkin", "none"]
LINEAR_ONLY = {"galerkin"}  # P^T K_f P is a constant matrix: linear elasticity only
TIMEOUT = 300  # s, per simrun call
failures = []


def check(claim, ok):
    print(f"  [{'ok' if ok else 'FAILED'}] {claim}")
    if not ok:
        failures.append(claim)


def simrun_call(args, cmd, scene, out, sets=()):
    """Runs `simrun CMD SCENE -o OUT --quiet --threads 1 --set ...` (sets: (pointer, value)
    pairs); returns (rc, text, wall s)."""
    process = simrun.call([cmd, scene, "-o", out, "--quiet", "--threads", "1"] + simrun.set_arguments(sets),
                          binary=args.simrun, timeout=TIMEOUT)
    rc, text = (None, f"> {TIMEOUT} s (capped)") if process.timed_out else (process.returncode, process.output)
    if rc not in (0, 2):
        print(f"simrun {cmd} {os.path.basename(scene)} {' '.join(simrun.set_arguments(sets)[1::2])}: exit {rc}\n{text}")
    return rc, text, process.wall_seconds


def sweep(args, scene, name, work, points, fixed=None):
    """`simrun run` over points [(key, {pointer: value})] as one `simrun sweep` (frames off,
    each run capped at TIMEOUT): {key: (exit-code-like 0 when finished else the status, folder,
    wall s)}."""
    runs = simrun.run_sweep(scene, points, work, name, fixed=dict(fixed or {}, **{"/output/frames": []}),
                            time_limit=TIMEOUT, accept=("finished", "diverged", "failed", "interrupted"),
                            binary=args.simrun)
    out = {}
    for key, _ in points:
        r = runs[key]
        ok = r["status"] == "finished"
        if not ok:
            print(f"simrun run {os.path.basename(scene)} ({key}): {r['status']}: {r['message']}")
        out[key] = (0 if ok else r["status"], r["dir"], r["wall_s"])
    return out


def box_set(cells):
    return ("/objects/0/reference/mesh/box/cells", cells)


def vertex(cells, i, j, k):
    """Index of box vertex (i, j, k) (lib/mesh/box.cpp: i + nx (j + ny k))."""
    return i + (cells[0] + 1) * (j + (cells[1] + 1) * k)


def read_tensors(path):
    """The 6x6 Voigt tensors of <name>_tensors.csv, one per coarse tet, and the rows."""
    table = simrun.read_csv(path)
    tensors = np.zeros((table.num_rows, 6, 6))
    for a in range(6):
        for b in range(a, 6):
            tensors[:, a, b] = tensors[:, b, a] = table[f"C{VOIGT[a]}_{VOIGT[b]}"]
    return tensors, table.rows()


def tet_volumes(vtu):
    mesh = simrun.read_vtu(vtu)
    x, tets = mesh.points, mesh.tets
    a, b, c, d = (x[tets[:, i]] for i in range(4))
    return np.abs(np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a))) / 6


def coarsen(args, scene, out, sets=()):
    """simrun coarsen; returns (volume-weighted mean tensor, per-tet tensors, rows, volumes)."""
    rc, text, _ = simrun_call(args, "coarsen", scene, out, sets)
    if rc != 0:
        raise SystemExit(f"simrun coarsen failed on {scene}")
    name = json.load(open(scene))["objects"][0]["name"]
    tensors, rows = read_tensors(os.path.join(out, f"{name}_tensors.csv"))
    vol = tet_volumes(os.path.join(out, f"{name}_coarse.vtu"))
    return np.einsum("q,qab->ab", vol / vol.sum(), tensors), tensors, rows, vol


def iso_voigt(E, nu):
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    C = np.zeros((6, 6))
    C[:3, :3] = lam
    C[range(3), range(3)] = lam + 2 * mu
    C[range(3, 6), range(3, 6)] = mu
    return C


def backus(layers):
    """Exact effective tensor of a laminate normal to z, layers = [(fraction, E, nu)]."""
    f = np.array([l[0] for l in layers])
    lam = np.array([l[1] * l[2] / ((1 + l[2]) * (1 - 2 * l[2])) for l in layers])
    mu = np.array([l[1] / (2 * (1 + l[2])) for l in layers])
    M = lam + 2 * mu
    avg = lambda v: float(np.dot(f, v))
    C = np.zeros((6, 6))
    C[2, 2] = 1 / avg(1 / M)
    C[0, 2] = C[1, 2] = C[2, 0] = C[2, 1] = avg(lam / M) * C[2, 2]
    C[0, 0] = C[1, 1] = avg(4 * mu * (lam + mu) / M) + avg(lam / M) ** 2 * C[2, 2]
    C[5, 5] = avg(mu)
    C[0, 1] = C[1, 0] = C[0, 0] - 2 * C[5, 5]
    C[3, 3] = C[4, 4] = 1 / avg(1 / mu)
    return C


def print_tensor(title, C):
    print(title)
    for a in range(6):
        print("   " + " ".join(f"{C[a, b] / 1e6:9.4f}" for b in range(6)))


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path}")


# ---------------------------------------------------------------------------------------------
def part1(args, work, plt):
    print("\n== Fig. 4.2 left: rigid-soft-rigid bar, 1-cube coarse mesh, nu = 0, E_rigid = 1e7 Pa")
    scene = json.load(open(BAR))
    E_rigid = scene["objects"][0]["material"]["E"]
    softs = [1e7, 1e5] if args.quick else [1e7, 1e6, 1e5, 1e4]
    fine = [15, 2, 2] if args.quick else [30, 4, 4]
    rows = []
    print(f"{'E_soft':>8} {'coarse C11_11':>14} {'harmonic mean':>14} {'arithmetic':>12} "
          f"{'coarse/harmonic':>16} {'coarse C22_22':>14}")
    for Es in softs:
        mean, tensors, _, _ = coarsen(args, BAR, os.path.join(work, f"bar_{Es:g}"),
                                      [("/objects/0/regions/0/E", Es), box_set(fine)])
        harm = 1 / (2 / 3 / E_rigid + 1 / 3 / Es)
        arith = 2 / 3 * E_rigid + 1 / 3 * Es
        rows.append([Es, mean[0, 0], harm, arith, mean[0, 0] / harm, mean[1, 1], tensors[:, 0, 0].min(),
                     tensors[:, 0, 0].max()])
        print(f"{Es:>8.0e} {mean[0, 0]:>14.4g} {harm:>14.4g} {arith:>12.4g} {mean[0, 0] / harm:>16.3f} "
              f"{mean[1, 1]:>14.4g}")
    write_csv(os.path.join(args.out, "kharevych_coarsening_fig42_bar.csv"),
              ["E_soft", "coarse_C11_11_mean", "harmonic_mean", "arithmetic_mean", "coarse_over_harmonic",
               "coarse_C22_22_mean", "coarse_C11_11_min", "coarse_C11_11_max"], rows)
    bar_rows = rows
    worst = max(abs(r[4] - 1) for r in rows)
    check(f"the coarse axial stiffness follows the harmonic mean, not the arithmetic one (worst "
          f"|coarse/harmonic - 1| = {worst:.3f} < 0.25)", worst < 0.25)

    print("\n== Fig. 4.2 right: layered cube (8 layers normal to z, E 1e7 / 1e5, nu = 0.3), coarse 2x2x2 cubes")
    cube = json.load(open(CUBE))
    mat = cube["objects"][0]["material"]
    soft = cube["objects"][0]["regions"][0]["E"]
    fine = [4, 4, 16] if args.quick else [8, 8, 16]
    mean, tensors, trows, _ = coarsen(args, CUBE, os.path.join(work, "cube_layered"), [box_set(fine)])
    exact = backus([(0.5, mat["E"], mat["nu"]), (0.5, soft, mat["nu"])])
    print_tensor("volume-weighted mean coarse tensor [MPa] (Voigt 11 22 33 23 13 12, engineering shear):", mean)
    print_tensor("laminate (Backus) tensor [MPa]:", exact)
    M = [iso_voigt(mat["E"], mat["nu"])[0, 0], iso_voigt(soft, mat["nu"])[0, 0]]
    print(f"  Voigt bound <lambda+2mu> = {np.mean(M) / 1e6:.4f} MPa, Reuss bound 1/<1/(lambda+2mu)> = "
          f"{1 / np.mean([1 / m for m in M]) / 1e6:.4f} MPa")
    print(f"  per coarse tet: C11_11 in [{tensors[:, 0, 0].min() / 1e6:.3g}, {tensors[:, 0, 0].max() / 1e6:.3g}] MPa, "
          f"C33_33 in [{tensors[:, 2, 2].min() / 1e6:.3g}, {tensors[:, 2, 2].max() / 1e6:.3g}] MPa, max cond G_q "
          f"{max(float(r['condition']) for r in trows):.3g}")
    rows = [[f"C{VOIGT[a]}_{VOIGT[b]}", mean[a, b], exact[a, b]] for a in range(6) for b in range(a, 6)]
    write_csv(os.path.join(args.out, "kharevych_coarsening_fig42_cube.csv"),
              ["entry", "coarse_mean_Pa", "laminate_Pa"], rows)
    check(f"layers normal to z: C33_33 << C11_11 ({mean[2, 2] / 1e6:.3g} vs {mean[0, 0] / 1e6:.3g} MPa)",
          mean[2, 2] < 0.1 * mean[0, 0])
    if plt:
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 3.8))
        r = np.array(bar_rows, dtype=float)
        ratio = E_rigid / r[:, 0]
        for i, (col, lab) in enumerate([(1, r"coarse $\overline{C_{11,11}}$"), (2, "harmonic mean"),
                                        (3, "arithmetic mean")]):
            ax.loglog(ratio, r[:, col], label=lab, **plotting.curve_style(i, len(ratio), series=3))
        ax.set_xlabel(r"$E_\mathrm{rigid} / E_\mathrm{soft}$")
        ax.set_ylabel("effective axial stiffness [Pa]")
        ax.set_title("rigid-soft-rigid bar, 1-cube coarse mesh", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        labels = [f"C{VOIGT[a]}_{VOIGT[a]}" for a in range(6)]
        x = np.arange(6)
        bx.bar(x - 0.2, [mean[a, a] for a in range(6)], 0.4, label="coarse (mean)")
        bx.bar(x + 0.2, [exact[a, a] for a in range(6)], 0.4, label="laminate (Backus)", hatch="//")
        bx.set_yscale("log")
        bx.set_xticks(x, labels, fontsize=8)
        bx.set_ylabel("[Pa]")
        bx.set_title("layered cube (layers normal to z): diagonal of the tensor", fontsize=10)
        bx.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_coarsening_fig42", args.format)


# ---------------------------------------------------------------------------------------------
def part2(args, work, plt):
    print("\n== Fig. 4.3: harmonic displacements of the homogeneous and the layered cube")
    cube = json.load(open(CUBE))
    mat = cube["objects"][0]["material"]
    fields = {}
    for label, sets in (("homogeneous", [("/objects/0/regions", [])]), ("layered", [])):
        out = os.path.join(work, f"fig43_{label}")
        mean, tensors, rows, _ = coarsen(args, CUBE, out, sets)
        src = os.path.join(out, "cube_harmonic.vtu")
        dst = os.path.join(args.out, f"kharevych_coarsening_fig43_{label}_harmonic.vtu")
        shutil.copyfile(src, dst)
        print(f"wrote {dst}")
        fields[label] = dst
        if label == "homogeneous":
            C = iso_voigt(mat["E"], mat["nu"])
            inside = [q for q, r in enumerate(rows) if float(r["covered_fraction"]) > 1 - 1e-12]
            err = max(np.abs(tensors[q] - C).max() for q in inside) / np.abs(C).max()
            check(f"homogeneous cube coarsens to its own tensor (max relative entry error {err:.2e} over "
                  f"{len(inside)} covered coarse tets < 1e-6)", err < 1e-6)
    check("both harmonic VTUs exist with the six fields",
          all(os.path.getsize(p) > 0 and all(f'Name="h_{v}"' in open(p).read() for v in VOIGT)
              for p in fields.values()))
    if plt:
        fig, axes = plt.subplots(2, 2, figsize=(7, 6.4))
        for row, (label, path) in enumerate(fields.items()):
            fields_vtu = simrun.read_vtu(path)
            x = fields_vtu.points
            mid = np.abs(x[:, 1] - 0.1) < 1e-9
            for col, name in enumerate(("h_11", "h_33")):
                h = fields_vtu.point_data[name]
                ax = axes[row, col]
                sc = ax.tricontourf(x[mid, 0], x[mid, 2], np.linalg.norm(h[mid], axis=1), 20)
                fig.colorbar(sc, ax=ax, label=f"$|{name.replace('_', '_{')}}}|$ [m/Pa]")
                ax.set_aspect("equal")
                ax.set_title(f"{label} cube, slice $y = 0.1$", fontsize=9)
                ax.set_xlabel("$x$ [m]")
                ax.set_ylabel("$z$ [m]")
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_coarsening_fig43", args.format)


# ---------------------------------------------------------------------------------------------
def read_error(out):
    return simrun.read_run(out).table("error").rows()


def part3(args, work, plt):
    fine = [20, 4, 4] if args.quick else [40, 8, 8]
    tip = vertex(fine, fine[0], fine[1] // 2, fine[2] // 2)
    steps = 20 if args.quick else 30
    print(f"\n== Figs. 4.4/4.7: crack bar under gravity, coarse 10x2x2 cubes, fine {fine[0]}x{fine[1]}x{fine[2]}, "
          f"static (BE, dt = 0.5 s, mass damping 50 /s, {steps} steps)")
    # (method, material, coarse split, variant): variant "" is the crack bar on the 10x2x2 coarse
    # mesh; "no slice" the homogeneous bar (the coarse P1 mesh's own bending error); "20x4x4" a
    # finer coarse mesh; "mixed" the harmonic problems with the clamped vertices held.
    variants = [(m, mat, 5, "") for mat in ("linear", "corotated") for m in METHODS
                if mat == "linear" or m not in LINEAR_ONLY]
    variants.append(("none", "linear", 5, "no slice"))
    if not args.quick:
        variants += [("harmonic", "linear", 6, ""), ("harmonic", "linear", 5, "20x4x4"),
                     ("average_lame", "linear", 5, "20x4x4"), ("harmonic", "linear", 5, "mixed")]
    points = []
    for method, mat, split, variant in variants:
        sets = {"/objects/0/coarsening/method": method, "/objects/0/material/model": mat,
                "/objects/0/mesh/box/split": split}
        if variant == "no slice":
            sets["/objects/0/regions"] = []
        elif variant == "mixed":
            sets["/objects/0/coarsening/boundary"] = "mixed"
        elif variant:
            sets["/objects/0/mesh/box/cells"] = [int(c) for c in variant.split("x")]
        points.append(((method, mat, split, variant), sets))
    runs = sweep(args, CRACK, "crack", work, points,
                 fixed={"/objects/0/reference/mesh/box/cells": fine, "/reference/track": [tip],
                        "/time/steps": steps})
    results = []
    for method, mat, split, variant in variants:
        rc, out, wall = runs[(method, mat, split, variant)]
        split = f"{split}-tet" + (f", {variant}" if variant else "")
        if rc != 0:
            results.append(dict(method=method, mat=mat, split=split, rc=rc))
            continue
        err = read_error(out)
        last = err[-1]
        results.append(dict(method=method, mat=mat, split=split, rc=rc, wall=wall, err=err,
                            tip=0.1 - last[f"y_{tip}"], ref_tip=0.1 - last[f"ref_y_{tip}"],
                            max_err=last["max_pos_err"], mean_err=last["mean_pos_err"],
                            display_err=last.get("map_mean_pos_err", float("nan")),
                            conv=abs(err[-1][f"y_{tip}"] - err[-2][f"y_{tip}"])))
    print(f"{'material':>9} {'coarse split, variant':>20} {'method':>13} {'tip drop [m]':>12} {'fine [m]':>9} "
          f"{'ratio':>6} {'map max err [m]':>15} {'mean err [m]':>12} {'mean/fine tip':>13} "
          f"{'display map mean [m]':>20}")
    rows = []
    for r in results:
        if r["rc"] != 0:
            print(f"{r['mat']:>9} {r['split']:>20} {r['method']:>13}  simrun exit {r['rc']}")
            rows.append([r["mat"], r["split"], r["method"], r["rc"]] + [""] * 6)
            continue
        print(f"{r['mat']:>9} {r['split']:>20} {r['method']:>13} {r['tip']:>12.4f} {r['ref_tip']:>9.4f} "
              f"{r['tip'] / r['ref_tip']:>6.3f} {r['max_err']:>15.4f} {r['mean_err']:>12.4f} "
              f"{r['mean_err'] / r['ref_tip']:>13.3f} {r['display_err']:>20.4f}")
        rows.append([r["mat"], r["split"], r["method"], r["rc"], r["tip"], r["ref_tip"], r["max_err"],
                     r["mean_err"], r["display_err"], r["conv"]])
    write_csv(os.path.join(args.out, "kharevych_coarsening_fig44.csv"),
              ["material", "coarse_mesh", "method", "exit", "tip_drop_m", "fine_tip_drop_m", "map_max_err_m",
               "map_mean_err_m", "display_map_mean_err_m", "tip_change_last_step_m"], rows)
    by = {(r["method"], r["mat"], r["split"]): r for r in results if r["rc"] == 0}
    print("thesis: the homogenized coarse bar bends like the fine one, averaged coefficients 'fail to bend'")
    for mat, baseline in (("linear", "average_lame"), ("linear", "galerkin"), ("corotated", "average_lame")):
        h, a = by.get(("harmonic", mat, "5-tet")), by.get((baseline, mat, "5-tet"))
        if h and a:
            claim = (f"{mat}: harmonic tip drop closer to fine than {baseline}'s "
                     f"(|{h['tip']:.4f} - {h['ref_tip']:.4f}| < |{a['tip']:.4f} - {a['ref_tip']:.4f}|)")
            ok = abs(h["tip"] - h["ref_tip"]) < abs(a["tip"] - a["ref_tip"])
            if mat == "linear":
                check(claim, ok)
            else:
                print(f"  [{'yes' if ok else 'no'}] {claim}")
        elif mat == "linear":
            check(f"{mat}: harmonic and {baseline} runs finished", False)
    if plt and by:
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 3.8))
        shown = [r for r in results if r["rc"] == 0]
        for i, r in enumerate(shown):
            t = [e["t"] for e in r["err"]]
            style = plotting.curve_style(i, len(t), series=len(shown) + 1)
            ax.plot(t, [0.1 - e[f"y_{tip}"] for e in r["err"]], label=f"{r['method']} ({r['mat']}, {r['split']})",
                    **style)
            bx.semilogy(t[1:], [e["mean_pos_err"] for e in r["err"][1:]],
                        label=f"{r['method']} ({r['mat']}, {r['split']})", **style)
        for mat, ls in (("linear", "-"), ("corotated", "--")):
            ref = next((r for r in shown if r["mat"] == mat), None)
            if ref:
                ax.plot([e["t"] for e in ref["err"]], [0.1 - e[f"ref_y_{tip}"] for e in ref["err"]], "k", ls=ls,
                        lw=2, label=f"fine ({mat})")
        ax.set_xlabel("$t$ [s] (damped BE, $h = 0.5$ s: converges to the static state)")
        ax.set_ylabel("tip drop [m]")
        ax.set_title("crack bar under gravity: tip", fontsize=10)
        ax.legend(fontsize=6)
        ax.grid(True, alpha=0.3)
        bx.set_xlabel("$t$ [s]")
        bx.set_ylabel("mean fine-vertex error of the map [m]")
        bx.set_title("coarse-to-fine map vs the fine run (Fig. 4.7)", fontsize=10)
        bx.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_coarsening_fig44", args.format)


# ---------------------------------------------------------------------------------------------
def part4(args, work, plt):
    cube = json.load(open(CUBE))
    track = cube["reference"]["track"]
    L = cube["objects"][0]["mesh"]["box"]["size"][2]
    print(f"\n== Fig. 4.5: layered cube hung from its top face, gravity -z, undamped implicit midpoint "
          f"(dt = {cube['time']['dt']} s, {cube['time']['steps']} steps); extent = top z - lowest tracked bottom z")
    curves, walls = {}, {}
    runs = sweep(args, CUBE, "cube", work, [(m, {"/objects/0/coarsening/method": m}) for m in METHODS])
    for method in METHODS:
        rc, out, wall = runs[method]
        if rc != 0:
            print(f"  {method}: {rc}")
            continue
        err = read_error(out)
        curves[method] = [L - min(e[f"z_{v}"] for v in track) for e in err]
        curves["fine"] = [L - min(e[f"ref_z_{v}"] for v in track) for e in err]
        curves["t"] = [e["t"] for e in err]
        walls[method] = wall
    names = ["fine"] + [m for m in METHODS if m in curves]
    print(f"{'method':>13} {'max extension [mm]':>19} {'at t [s]':>9} {'mean extension [mm]':>20} {'/ fine':>7}")
    fine_max = max(curves["fine"]) - L
    for m in names:
        ext = np.array(curves[m]) - L
        i = int(np.argmax(ext))
        print(f"{m:>13} {1e3 * ext[i]:>19.4f} {curves['t'][i]:>9.3f} {1e3 * ext.mean():>20.4f} "
              f"{ext[i] / fine_max:>7.3f}")
    write_csv(os.path.join(args.out, "kharevych_coarsening_fig45.csv"), ["t"] + [f"extent_{m}_m" for m in names],
              [[curves["t"][i]] + [curves[m][i] for m in names] for i in range(len(curves["t"]))])
    print("thesis: the homogenized cube stretches like the fine one; averaged coefficients are too stiff")
    if plt:
        fig, ax = plt.subplots(figsize=(6, 3.8))
        for i, m in enumerate(names):
            ax.plot(curves["t"], 1e3 * (np.array(curves[m]) - L), label=m,
                    **plotting.curve_style(i, len(curves["t"]), series=len(names)))
        ax.set_xlabel("$t$ [s]")
        ax.set_ylabel("extension (extent - 0.2 m) [mm]")
        ax.set_title("layered cube hung from its top face (Fig. 4.5 stand-in)", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_coarsening_fig45", args.format)


# ---------------------------------------------------------------------------------------------
def part5(args, work, plt):
    scene = json.load(open(CRACK))
    fine_mesh = scene["objects"][0]["reference"]["mesh"]
    print("\n== lowest ten eigenfrequencies [Hz] of the crack bar (lumped mass, x = 0 fixed)")
    variants = [("fine", [("/objects/0/mesh", fine_mesh), ("/objects/0/coarsening/method", "none")])]
    variants += [(m, [("/objects/0/coarsening/method", m)]) for m in METHODS]
    freqs = {}
    for label, sets in variants:
        out = os.path.join(work, f"modes_{label}")
        rc, text, wall = simrun_call(args, "modes", CRACK, out, [("/reference/run", False)] + sets)
        if rc != 0:
            continue
        freqs[label] = simrun.read_csv(os.path.join(out, "modes.csv"))["frequency_hz"].tolist()
    names = list(freqs)
    print(f"{'mode':>4} " + " ".join(f"{n:>13}" for n in names))
    n = min(len(v) for v in freqs.values())
    for i in range(n):
        print(f"{i + 1:>4} " + " ".join(f"{freqs[m][i]:>13.4f}" for m in names))
    if "fine" in freqs:
        for m in names[1:]:
            rel = [freqs[m][i] / freqs["fine"][i] for i in range(n)]
            print(f"  {m}: f/f_fine from {min(rel):.3f} to {max(rel):.3f}, mode 1: {rel[0]:.3f}")
    write_csv(os.path.join(args.out, "kharevych_coarsening_modes.csv"), ["mode"] + [f"{m}_hz" for m in names],
              [[i + 1] + [freqs[m][i] for m in names] for i in range(n)])
    if plt:
        fig, ax = plt.subplots(figsize=(6, 3.8))
        for i, m in enumerate(names):
            ax.semilogy(range(1, n + 1), freqs[m][:n], label=m, **plotting.curve_style(i, n, series=len(names)))
        ax.set_xlabel("mode")
        ax.set_ylabel("frequency [Hz]")
        ax.set_title("crack bar: lowest eigenfrequencies", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "kharevych_coarsening_modes", args.format)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="parts 1 and 3 on smaller fine meshes (CI)")
    parser.add_argument("--parts", default=None, help="comma-separated subset of 1,2,3,4,5 (default: all, quick: 1,3)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    parts = [int(p) for p in (args.parts or ("1,3" if args.quick else "1,2,3,4,5")).split(",")]
    os.makedirs(args.out, exist_ok=True)
    plt = plotting.pyplot()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        for p in parts:
            {1: part1, 2: part2, 3: part3, 4: part4, 5: part5}[p](args, work, plt)
    print(f"\nwall time {time.monotonic() - start:.1f} s")
    if failures:
        sys.exit("failed: " + "; ".join(failures))


if __name__ == "__main__":
    main()
