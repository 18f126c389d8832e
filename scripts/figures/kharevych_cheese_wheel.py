#!/usr/bin/python3
"""Kharevych thesis Fig. 4.8 (issue 9): a cheese wheel with holes in one half, coarsened from a
fine mesh of ~31k tets to a coarse mesh of a few hundred, with the per-side deformation of fine,
homogenized (harmonic), averaged-Lame and plain coarse meshes, and the speed-up (thesis: about
150x). The thesis' wheel, material and load are not given: this stand-in is ours.

Wheel: a cylinder of radius 0.1 m and height 0.1 m (axis y, bottom at y = 0), linear material
E = 2e4 Pa, nu = 0.3, 1000 kg/m^3, with 18 spherical voids (radius 14 mm, two layers) packed
into its +x half (voxel_meshes.py; about 13 % of that half's volume). Fine mesh: voxels of
8.3 mm x 6 tets (30,156 tets). Coarse mesh: TetGen on the plain cylinder (a 24-sided prism
around the voxels), target 200 tets (592 in practice). The plane x = 0 is clamped on both meshes; gravity -y makes both halves droop like
cantilevers. Static: backward Euler, dt = 0.5 s, mass damping 50 /s, 30 steps (as for the crack
bar of kharevych_coarsening.py). Per side, the droop of the top rim vertex (x = +-0.1, y = 0.1,
z = 0) of the fine mesh: from the fine run, and from each coarse run through the barycentric
map (error.csv's tracked columns).

Speed-up: the fine mesh alone vs the coarse harmonic mesh alone (no reference run), the same
30 steps, one thread; run.json's stepping seconds and the whole process (the coarse one
including the coarsening precomputation: six harmonic solves, overlaps, tensors).

Checked claims (exit 1 when one fails): the fine wheel's holey side droops more than its solid
side; the harmonic coarse mesh reproduces that asymmetry (its droop ratio +x / -x) closer to
the fine one than the plain coarse mesh, which does not see the holes. The averaged-Lame
ratio is reported as measured.

--quick (ctest): voxels of 12.5 mm (9,588 tets; 12 voids, some merged into larger cavities),
10 steps, no speed-up runs.

usage: scripts/figures/kharevych_cheese_wheel.py [--simrun PATH] [--out DIR] [--quick]
                                                 [--format png|pdf|svg[,...]]
"""
import argparse
import csv
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402
import voxel_meshes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RADIUS, HEIGHT, VOID_RADIUS = 0.1, 0.1, 0.014
METHODS = ["harmonic", "average_lame", "none"]
TIMEOUT = 900  # s, per simrun call
THESIS_SPEEDUP = 150
failures = []


def check(claim, ok):
    print(f"  [{'ok' if ok else 'FAILED'}] {claim}")
    if not ok:
        failures.append(claim)


def scene(coarse_off, fine_mesh, steps, track):
    clamp = {"select": {"box": {"min": [-1e-3, -1, -1], "max": [1e-3, 1, 1]}}}
    return {
        "name": "cheese_wheel", "format": 1,
        "time": {"dt": 0.5, "steps": steps},
        "objects": [{
            "name": "wheel",
            "mesh": {"file": coarse_off, "tetgen": {"target_tets": 200}},
            "reference": {"mesh": {"file": fine_mesh}},
            "coarsening": {"method": "harmonic"},
            "material": {"model": "linear", "E": 2e4, "nu": 0.3, "density": 1000},
            "dirichlet": [clamp],
        }],
        "gravity": [0, -9.81, 0], "mass": "lumped", "damping": {"mass": 50},
        "integrator": {"type": "be"},
        "reference": {"run": True, "track": track},
        "output": {"dir": "out/cheese_wheel", "every": steps, "frames": []},
    }


def rim_vertices(vertices):
    """Fine vertices on the top rim at z = 0: the most negative and most positive x."""
    top = np.flatnonzero((np.abs(vertices[:, 1] - HEIGHT) < 1e-9) & (np.abs(vertices[:, 2]) < 1e-9))
    xs = vertices[top, 0]
    return int(top[np.argmin(xs)]), int(top[np.argmax(xs)])


def timed_run(args, scene_file, out, sets, cache):
    """One `simrun run` without the reference run, the coarsening cache in folder `cache`
    (docs/coarsening.md); sets: (pointer, value) pairs: (stepping s, whole process s, run.json)."""
    process = simrun.call(simrun.run_arguments(scene_file, out, [("/reference/run", False)] + sets, threads=1),
                          binary=args.simrun, timeout=TIMEOUT, env={"SIMRUN_CACHE_DIR": cache})
    simrun.raise_for_status(process, out)
    record = simrun.read_run(out).record
    return record["wall_seconds"]["stepping"], process.wall_seconds, record


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="coarser fine mesh, 10 steps, no timing (CI)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    plt = plotting.pyplot()
    start = time.monotonic()
    cell = RADIUS / 8 if args.quick else RADIUS / 12
    steps = 10 if args.quick else 30
    with tempfile.TemporaryDirectory() as work:
        voids = voxel_meshes.place_voids(RADIUS, HEIGHT, VOID_RADIUS, 0.0, cell)
        fine_mesh = os.path.join(work, "wheel_fine.mesh")
        vertices, fine_tets = voxel_meshes.write_wheel_mesh(fine_mesh, RADIUS, HEIGHT, cell, voids,
                                                                 VOID_RADIUS)
        coarse_off = os.path.join(work, "wheel_coarse.off")
        # Around the voxels' staircase, which reaches c / sqrt(2) beyond the radius.
        voxel_meshes.write_cylinder_off(coarse_off, RADIUS + 0.75 * cell, HEIGHT, 24)
        solid_rim, holey_rim = rim_vertices(vertices)
        scene_file = os.path.join(work, "cheese_wheel.json")
        with open(scene_file, "w") as f:
            json.dump(scene(coarse_off, fine_mesh, steps, [solid_rim, holey_rim]), f, indent=1)
        print(f"== Fig. 4.8 stand-in: wheel r = {RADIUS} m, h = {HEIGHT} m, {len(voids)} voids of r = "
              f"{VOID_RADIUS} m in the +x half; fine {fine_tets} tets ({cell * 1e3:.1f} mm voxels), coarse: "
              f"TetGen target 200 tets; clamped at x = 0, gravity -y, static BE ({steps} steps)")
        os.environ["SIMRUN_CACHE_DIR"] = os.path.join(work, "cache")  # no runs of other scripts
        runs = simrun.run_sweep(scene_file, [(m, {"/objects/0/coarsening/method": m}) for m in METHODS], work,
                                "wheel", time_limit=TIMEOUT, binary=args.simrun)
        results = {}
        for m in METHODS:
            result = simrun.read_run(runs[m]["dir"])
            err = result.table("error").rows()
            last = err[-1]
            results[m] = dict(err=err, solid=HEIGHT - last[f"y_{solid_rim}"], holey=HEIGHT - last[f"y_{holey_rim}"],
                              ref_solid=HEIGHT - last[f"ref_y_{solid_rim}"],
                              ref_holey=HEIGHT - last[f"ref_y_{holey_rim}"], mean_err=last["mean_pos_err"],
                              coarse_tets=result.counts.get("tets"))
        fine = results["harmonic"]
        fine_ratio = fine["ref_holey"] / fine["ref_solid"]
        print(f"{'run':>13} {'droop solid -x [mm]':>20} {'droop holey +x [mm]':>20} {'ratio +x/-x':>12} "
              f"{'mean map err [mm]':>18}")
        print(f"{'fine':>13} {fine['ref_solid'] * 1e3:>20.3f} {fine['ref_holey'] * 1e3:>20.3f} {fine_ratio:>12.3f} "
              f"{'':>18}")
        rows = [["fine", fine["ref_solid"], fine["ref_holey"], fine_ratio, ""]]
        for m in METHODS:
            r = results[m]
            ratio = r["holey"] / r["solid"]
            r["ratio"] = ratio
            print(f"{m:>13} {r['solid'] * 1e3:>20.3f} {r['holey'] * 1e3:>20.3f} {ratio:>12.3f} "
                  f"{r['mean_err'] * 1e3:>18.3f}")
            rows.append([m, r["solid"], r["holey"], ratio, r["mean_err"]])
        with open(os.path.join(args.out, "kharevych_cheese_wheel.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["run", "droop_solid_m", "droop_holey_m", "ratio_holey_over_solid", "map_mean_err_m"])
            w.writerows(rows)
        print("thesis: the holey side behaves softer, and the coarsened wheel shows it")
        check(f"fine: the holey side droops more ({fine['ref_holey']:.4g} > {fine['ref_solid']:.4g} m)",
              fine["ref_holey"] > fine["ref_solid"])
        h, n = results["harmonic"]["ratio"], results["none"]["ratio"]
        check(f"harmonic's droop ratio {h:.3f} is closer to the fine {fine_ratio:.3f} than plain coarse's {n:.3f}",
              abs(h - fine_ratio) < abs(n - fine_ratio))

        speed = None
        if not args.quick:
            cache = os.path.join(work, "timing_cache")  # empty: the first coarse run coarsens
            fine_step, fine_wall, _ = timed_run(args, scene_file, os.path.join(work, "time_fine"),
                                                [("/objects/0/mesh", {"file": fine_mesh}),
                                                 ("/objects/0/coarsening/method", "none")], cache)
            coarse_step, coarse_wall, _ = timed_run(args, scene_file, os.path.join(work, "time_coarse"), [],
                                                    cache)
            _, cached_wall, _ = timed_run(args, scene_file, os.path.join(work, "time_cached"), [], cache)
            speed = dict(fine_step=fine_step, coarse_step=coarse_step, fine_wall=fine_wall,
                         coarse_wall=coarse_wall, coarse_cached_wall=cached_wall)
            print(f"speed-up ({steps} steps, one thread): stepping fine {fine_step:.3f} s / coarse {coarse_step:.4f} s = "
                  f"{fine_step / coarse_step:.0f}x (thesis ~{THESIS_SPEEDUP}x); whole process fine {fine_wall:.2f} s / "
                  f"coarse {coarse_wall:.2f} s with the coarsening = {fine_wall / coarse_wall:.1f}x, "
                  f"/ {cached_wall:.2f} s with cached tensors = {fine_wall / cached_wall:.1f}x")
            with open(os.path.join(args.out, "kharevych_cheese_wheel_speed.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(list(speed))
                w.writerow(list(speed.values()))

        if plt:
            fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 3.8))
            t = [e["t"] for e in fine["err"]]
            ax.plot(t, [(HEIGHT - e[f"ref_y_{holey_rim}"]) * 1e3 for e in fine["err"]], "k-", lw=2,
                    label="fine, holey side (+x)")
            ax.plot(t, [(HEIGHT - e[f"ref_y_{solid_rim}"]) * 1e3 for e in fine["err"]], "k--", lw=2,
                    label="fine, solid side (-x)")
            for i, m in enumerate(METHODS):
                err = results[m]["err"]
                style = dict(plotting.curve_style(i, len(t), series=len(METHODS)), color=f"C{i}")
                ax.plot(t, [(HEIGHT - e[f"y_{holey_rim}"]) * 1e3 for e in err], label=f"{m}, +x", **style)
                style["linestyle"] = ":"
                ax.plot(t, [(HEIGHT - e[f"y_{solid_rim}"]) * 1e3 for e in err], label=f"{m}, -x", **style)
            ax.set_xlabel("$t$ [s] (damped BE, $h$ = 0.5 s: converges to the static state)")
            ax.set_ylabel("rim droop [mm]")
            ax.set_title("cheese wheel (holes in +x): rim droop per side", fontsize=10)
            ax.legend(fontsize=6)
            ax.grid(True, alpha=0.3)
            labels = ["fine"] + METHODS
            bx.bar(labels, [fine_ratio] + [results[m]["ratio"] for m in METHODS], color="0.6")
            bx.axhline(fine_ratio, color="k", lw=1, label="fine")
            ratios = [fine_ratio] + [results[m]["ratio"] for m in METHODS]
            bx.set_ylim(0.9 * min(ratios), 1.05 * max(ratios))
            bx.set_ylabel("droop +x / droop -x")
            title = "asymmetry of the two sides"
            if speed:
                title += f"; coarse stepping {speed['fine_step'] / speed['coarse_step']:.0f}x faster"
            bx.set_title(title, fontsize=10)
            bx.grid(True, axis="y", alpha=0.3)
            fig.tight_layout()
            plotting.save_figure(fig, args.out, "kharevych_cheese_wheel", args.format)
    print(f"\nwall time {time.monotonic() - start:.1f} s")
    if failures:
        sys.exit("failed: " + "; ".join(failures))


if __name__ == "__main__":
    main()
