#!/usr/bin/python3
"""Chen thesis Table 4.1 / Fig. 4.2 (and Fig. 4.1): the number of Krylov expv substeps tau that
one ERE step (h = 1/30) takes on a neo-Hookean cylinder held at a strain along its axis, as the
stiffness-density ratio k/m = E/rho and the strain vary; Fig. 4.1: tau and the step time
against the system size N for several k/m at small strain.

Scene: scenes/chen_table41_cylinder.json, a cylinder of length 1 m and radius 0.25 m along z (the
thesis gives no size), surface scenes/meshes/chen_cylinder.off (20 segments around, 10 along, 2
cap rings; written by this script with --write-mesh, deterministic) tetrahedralized by TetGen
(quality 2, target_tets 900, which gives 2,363 tets: with quality refinement TetGen makes about
2.6x the target here); thesis: 2,383 tets. Neo-Hookean, nu = 0.48, rho = 1000, lumped mass,
Rayleigh alpha = beta = 0.01 on the rest stiffness (thesis Sec. 4.2), no gravity; expv with
m = 30, tol = 1e-7 (the thesis' Expokit settings). The script sets E = (k/m) * rho.

The strained state (not specified by the thesis, which shows a cylinder being compressed and
stretched): both end caps are held (two glued plates) and every vertex starts at the
volume-preserving affine map of the rest shape that changes the axial length by the strain eps
and the x width by 1/(1 + eps) (y unchanged), built from the scene's `initial` stretch and
compress keys. A uniaxial map with unchanged width (`initial` stretch or compress alone) puts a
nu = 0.48 body under a hydrostatic stress of ~ lambda * eps that makes K strongly indefinite, and
ERE then blows up within its first step (20 % compression at k/m = 1e3 already); the isochoric
map avoids most of that.
Strains: -50, -20, -2 % (compression), +2, +20, +50, +100 % (stretch), and a no-strain case
(caps held, gravity 9.81 sideways). tau is stats.csv's krylov_substeps of step 1 (the prescribed
state; later steps relax it); krylov_vectors and the step's wall time are reported too. Full mode
also repeats +2 % without the stiffness-proportional damping (beta = 0) to show which part of
J = [[0, I], [-M^-1 K, -M^-1 D]] sets tau.
Substeps are capped (integrator/krylov/max_substeps, 5000 in full mode; at k/m = 1e6 only +-2 %
is run, it hits the cap): a capped cell is
printed "> cap" (simrun exits 2 with "not_converging"), a diverged step as "div".

Writes OUT/chen_table41_expv.csv (strain, k/m, tau, vectors, step seconds, status, thesis tau),
OUT/chen_fig41_expv.csv (N, k/m, tau, seconds) and OUT/chen_table41_expv.png.
Exit 1 if a run fails for a reason other than divergence or the cap, or if tau does not grow
with k/m at +-2 % strain.

usage: scripts/figures/chen_table41_expv.py [--simrun PATH] [--out DIR] [--quick] [--write-mesh]
                                             [--format png|pdf|svg[,...]]
(--quick: a 180-tet cylinder, k/m = 1e2, 1e3, 1e4 at -2, +2 and -50 % strain, no Fig. 4.1.)
"""
import argparse
import csv
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENE = os.path.join(ROOT, "scenes", "chen_table41_cylinder.json")
MESH = os.path.join(ROOT, "scenes", "meshes", "chen_cylinder.off")
RADIUS, LENGTH = 0.25, 1.0
SURFACE = (20, 10, 2)  # segments around, along, cap rings of the committed surface
DENSITY = 1000.0
# Thesis Table 4.1: tau per k/m at 2 %, 50 %, 100 % strain (compression has no 100 % column).
THESIS = {(-0.02, 1e3): 2, (-0.02, 1e4): 5, (-0.02, 1e5): 12, (-0.02, 1e6): 48,
          (-0.5, 1e3): 3, (-0.5, 1e4): 7, (-0.5, 1e5): 23, (-0.5, 1e6): 123,
          (0.02, 1e3): 2, (0.02, 1e4): 4, (0.02, 1e5): 12, (0.02, 1e6): 47,
          (0.5, 1e3): 2, (0.5, 1e4): 4, (0.5, 1e5): 12, (0.5, 1e6): 51,
          (1.0, 1e3): 2, (1.0, 1e4): 5, (1.0, 1e5): 13, (1.0, 1e6): 58}


def cylinder_off(n_around, n_along, n_cap, radius=RADIUS, length=LENGTH):
    """Closed, outward-oriented triangulated cylinder along z from 0 to length: n_along rings
    of n_around vertices on the side, each cap n_cap concentric rings and a center vertex."""
    verts, faces = [], []

    def ring(r, z):
        start = len(verts)
        verts.extend((r * math.cos(2 * math.pi * k / n_around), r * math.sin(2 * math.pi * k / n_around), z)
                     for k in range(n_around))
        return start

    def band(a, b, flip):  # quads between rings a and b, two triangles each
        for k in range(n_around):
            k1 = (k + 1) % n_around
            for t in ((a + k, a + k1, b + k1), (a + k, b + k1, b + k)):
                faces.append(t[::-1] if flip else t)

    side = [ring(radius, length * i / n_along) for i in range(n_along + 1)]
    for i in range(n_along):
        band(side[i], side[i + 1], False)
    for z, outer, flip in ((0.0, side[0], True), (length, side[-1], False)):
        rings = [outer] + [ring(radius * (n_cap - j) / n_cap, z) for j in range(1, n_cap)]
        for a, b in zip(rings, rings[1:]):
            band(a, b, flip)
        center = len(verts)
        verts.append((0.0, 0.0, z))
        for k in range(n_around):
            t = (rings[-1] + k, rings[-1] + (k + 1) % n_around, center)
            faces.append(t[::-1] if flip else t)
    lines = ["OFF", f"# cylinder r = {radius} m, length {length} m along z, {n_around} x {n_along} x {n_cap} "
             "(scripts/figures/chen_table41_expv.py)", f"{len(verts)} {len(faces)} 0"]
    lines += ["%.9f %.9f %.9f" % tuple(0.0 if abs(c) < 1e-15 else c for c in v) for v in verts]
    lines += ["3 %d %d %d" % f for f in faces]
    return "\n".join(lines) + "\n"


def strain_sets(eps):
    """Scene settings for the held, volume-preserving state at axial strain eps (0: gravity)."""
    if eps == 0:
        return {"/objects/0/initial": {}, "/gravity": [0, -9.81, 0]}
    if eps > 0:
        init = {"stretch": {"axis": "z", "amount": eps}, "compress": {"axis": "x", "amount": eps / (1 + eps)}}
    else:
        init = {"compress": {"axis": "z", "amount": -eps}, "stretch": {"axis": "x", "amount": -eps / (1 + eps)}}
    return {"/objects/0/initial": init}


def run(binary, work, name, points, cap, fixed=None):
    """One step per point [(key, settings)], as one `simrun sweep` capped at 600 s a run:
    {key: result} with tau, Krylov vectors, step time, the mesh size and a status (ok, cap: the
    expv substep cap was reached, div, error)."""
    fixed = dict(fixed or {}, **{"/output/frames": [], "/time/steps": 1,
                                 "/integrator/krylov/max_substeps": cap})
    done = simrun.run_sweep(SCENE, points, work, name, fixed=fixed, time_limit=600,
                            accept=("finished", "diverged", "failed", "interrupted"), binary=binary)
    results = {}
    for key, _ in points:
        r = done[key]
        result = {"status": None, "message": r["message"], "wall": r["wall_s"] or math.nan,
                  "tau": None, "vectors": None, "step_s": None}
        outcome = simrun.read_run(r["dir"]) if os.path.exists(os.path.join(r["dir"], "run.json")) else None
        counts = outcome.counts if outcome else {}
        result["tets"], result["free_dofs"] = counts.get("tets"), counts.get("free_dofs")
        if r["status"] == "finished":
            row = outcome.stats.rows()[0]
            result.update(tau=int(row["krylov_substeps"]), vectors=int(row["krylov_vectors"]),
                          step_s=row["wall_s"], status="ok")
        elif r["status"] in ("diverged", "failed") and "max_substeps" in (r["message"] or ""):
            result["status"] = "cap"
        elif r["status"] == "diverged":
            result["status"] = "div"
        else:
            result["status"] = "error"
        results[key] = result
    return results


def cell(r, cap):
    if r["status"] == "ok":
        return str(r["tau"])
    return f"> {cap}" if r["status"] == "cap" else r["status"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="180-tet cylinder, 3 x 3 runs, no Fig. 4.1")
    parser.add_argument("--write-mesh", action="store_true", help=f"(re)write {os.path.relpath(MESH, ROOT)}")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.write_mesh:
        with open(MESH, "w") as f:
            f.write(cylinder_off(*SURFACE))
        print(f"wrote {MESH}")
    with open(MESH) as f:
        if f.read() != cylinder_off(*SURFACE):
            sys.exit(f"{MESH} differs from cylinder_off{SURFACE}: rerun with --write-mesh")

    if args.quick:
        kms, strains, cap = [1e2, 1e3, 1e4], [-0.5, -0.02, 0.02], 2000
    else:
        kms, strains, cap = [1e1, 1e2, 1e3, 1e4, 1e5, 1e6], [-0.5, -0.2, -0.02, 0, 0.02, 0.2, 0.5, 1.0], 5000
    fig41 = []
    with tempfile.TemporaryDirectory() as work:
        mesh_sets = {}
        if args.quick:  # a coarser surface, meshed by TetGen without a volume bound
            coarse = os.path.join(work, "cylinder_12x6x1.off")
            with open(coarse, "w") as f:
                f.write(cylinder_off(12, 6, 1))
            mesh_sets = {"/objects/0/mesh/file": coarse, "/objects/0/mesh/tetgen/target_tets": 0}
        # tau > the cap at every strain for k/m = 1e6: +-2 % shows it, the rest would cost ~40 s each
        points = [((eps, km), {"/objects/0/material/E": km * DENSITY, **strain_sets(eps)})
                  for km in kms for eps in strains if km < 1e6 or abs(eps) == 0.02]
        results = run(args.simrun, work, "table41", points, cap, fixed=mesh_sets)
        for (eps, km), r in results.items():
            print(f"  k/m = {km:g}, strain {eps:+.0%}: {cell(r, cap)} substeps ({r['wall']:.1f} s)")
            if r["status"] == "error":
                sys.exit(f"simrun failed ({r['message']})")
        tets = next(r["tets"] for r in results.values() if r["tets"])
        undamped = {}
        if not args.quick:  # +2 % with beta = 0: tau from the oscillatory part of J alone
            undamped = run(args.simrun, work, "beta0",
                           [(km, {"/objects/0/material/E": km * DENSITY, **strain_sets(0.02)})
                            for km in kms[:-1]], cap, fixed={"/damping/stiffness": 0})
            for km, r in undamped.items():
                print(f"  beta = 0, k/m = {km:g}, strain +2%: {cell(r, cap)} substeps")
        if not args.quick:  # Fig. 4.1: tau and step time against N at +2 % strain
            sizes = [((12, 6, 1), 0), ((16, 8, 2), 0), ((20, 10, 2), 0), ((20, 10, 2), 900), ((20, 10, 2), 2000)]
            points = []
            for (surface, target) in sizes:
                path = os.path.join(work, "cylinder_%dx%dx%d.off" % surface)
                with open(path, "w") as f:
                    f.write(cylinder_off(*surface))
                points += [((surface, target, km), {"/objects/0/mesh/file": path,
                                                    "/objects/0/mesh/tetgen/target_tets": target,
                                                    "/objects/0/material/E": km * DENSITY, **strain_sets(0.02)})
                           for km in [1e2, 1e3, 1e4]]
            for (surface, target, km), r in run(args.simrun, work, "fig41", points, cap).items():
                r.update(km=km, N=2 * r["free_dofs"])
                fig41.append(r)
                print(f"  Fig. 4.1: {r['tets']} tets, N = {r['N']}, k/m = {km:g}: {cell(r, cap)} substeps, "
                      f"step {r['step_s'] or float('nan'):.2f} s")

    csv_path = os.path.join(args.out, "chen_table41_expv.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["strain", "k_over_m", "tau", "krylov_vectors", "step_seconds", "status", "tau_thesis"])
        for (eps, km), r in sorted(results.items()):
            w.writerow([eps, km, r["tau"] if r["tau"] is not None else "", r["vectors"] or "",
                        r["step_s"] or "", r["status"] if r["status"] != "cap" else f"cap {cap}",
                        THESIS.get((eps, km), "")])
        for km, r in undamped.items():
            w.writerow([0.02, km, r["tau"] if r["tau"] is not None else "", r["vectors"] or "", r["step_s"] or "",
                        ("beta=0 " + r["status"]) if r["status"] != "cap" else f"beta=0 cap {cap}", ""])
    if fig41:
        with open(os.path.join(args.out, "chen_fig41_expv.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["tets", "N", "k_over_m", "tau", "krylov_vectors", "step_seconds", "status"])
            for r in fig41:
                w.writerow([r["tets"], r["N"], r["km"], r["tau"] or "", r["vectors"] or "", r["step_s"] or "", r["status"]])

    print(f"\nTable 4.1: expv substeps tau in the first ERE step, h = 1/30, m = 30, tol = 1e-7; cylinder "
          f"1 m x r 0.25 m, {tets} tets (thesis: 2383), caps held, isochoric strain; simrun (thesis)")
    print(f"{'k/m':>8} " + " ".join(f"{e:>+12.0%}" for e in strains))
    for km in kms:
        cells = []
        for eps in strains:
            t = THESIS.get((eps, km))
            r = results.get((eps, km))
            cells.append((cell(r, cap) if r else "-") + (f" ({t})" if t is not None else ""))
        print(f"{km:>8g} " + " ".join(f"{c:>12}" for c in cells))
    if undamped:
        print(f"{'+2 %, beta = 0:':>17} " + ", ".join(f"k/m = {km:g}: {cell(r, cap)}" for km, r in undamped.items()))
    print("(0 %: no strain, caps held, gravity sideways; 'div': the ERE step diverged (non-finite state or energy "
          f"blow-up); '> {cap}': the substep cap was hit; '-': not run)")

    ok = True
    for eps in (-0.02, 0.02):  # a capped cell counts as larger than every finished one
        seq = [(results[(eps, km)]["tau"] if results[(eps, km)]["status"] == "ok" else math.inf)
               for km in kms if (eps, km) in results and results[(eps, km)]["status"] in ("ok", "cap")]
        grows = sum(math.isfinite(t) for t in seq) >= 2 and all(b > a or b == a == math.inf for a, b in zip(seq, seq[1:]))
        print(f"tau grows with k/m at {eps:+.0%} strain: {'yes' if grows else 'NO'} ({seq})")
        ok = ok and grows
    for eps, small in ((-0.5, -0.02), (-0.2, -0.02), (0.2, 0.02), (0.5, 0.02), (1.0, 0.02)):
        ratios = [f"{km:g}: {results[(eps, km)]['tau'] / results[(small, km)]['tau']:.2f}" for km in kms
                  if (eps, km) in results and results[(eps, km)]["status"] == "ok" and results[(small, km)]["status"] == "ok"]
        if ratios:
            print(f"tau({eps:+.0%}) / tau({small:+.0%}) per k/m: " + ", ".join(ratios))
    print("thesis: tau(-50%)/tau(-2%) < 3 (1.4-2.6), tau(+100%)/tau(+2%) < 2 (1.0-1.25)")
    steps = [f"{kms[i]:g}->{kms[i + 1]:g}: {results[(0.02, kms[i + 1])]['tau'] / results[(0.02, kms[i])]['tau']:.2f}"
             for i in range(len(kms) - 1)
             if results[(0.02, kms[i])]["status"] == "ok" and results[(0.02, kms[i + 1])]["status"] == "ok"]
    print("tau growth per decade of k/m at +2%: " + ", ".join(steps) + " (thesis 1e3->1e6: 2, 3, 3.9; "
          "sqrt(10) = 3.16 if the fastest undamped mode sets tau, 10 if the Rayleigh beta K0 term does)")
    ok_b0 = [km for km in undamped if undamped[km]["status"] == "ok"]
    if len(ok_b0) > 1:
        print("  with beta = 0: " + ", ".join(f"{a:g}->{b:g}: {undamped[b]['tau'] / undamped[a]['tau']:.2f}"
                                              for a, b in zip(ok_b0, ok_b0[1:])))

    plt = plotting.pyplot()
    if plt:
        panels = 3 if fig41 else 1
        fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.8), squeeze=False)
        ax = axes[0][0]
        # Strains of equal size lie close together (-2 % and +2 %): a marker and dash per strain.
        for i, eps in enumerate(strains):
            pts = [(km, results[(eps, km)]["tau"]) for km in kms
                   if (eps, km) in results and results[(eps, km)]["status"] == "ok"]
            if pts:
                ax.loglog(*zip(*pts), color=f"C{i}", label=f"{eps:+.0%}", **plotting.curve_style(i, len(pts)))
            for km, t in ((km, THESIS.get((eps, km))) for km in kms):
                if t is not None:
                    ax.loglog(km, t, "x", color=f"C{i}")
        pts = [(km, r["tau"]) for km, r in undamped.items() if r["status"] == "ok"]
        if pts:
            ax.loglog(*zip(*pts), "k--", label=r"+2 %, $\beta = 0$")
        ax.set_xlabel(r"$k/m = E/\rho$ [m$^2$/s$^2$]")
        ax.set_ylabel(r"expv substeps $\tau$ (step 1)")
        ax.set_title(f"Table 4.1: cylinder, {tets} tets, $h = 1/30$ s (x: thesis)", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, title="axial strain", title_fontsize=7)
        if fig41:
            for j, km in enumerate(sorted({r["km"] for r in fig41})):
                pts = sorted((r["N"], r["tau"], r["step_s"]) for r in fig41 if r["km"] == km and r["status"] == "ok")
                if pts:
                    style = plotting.curve_style(j, len(pts))
                    axes[0][1].plot([p[0] for p in pts], [p[1] for p in pts], color=f"C{j}", label=f"$k/m = {km:g}$",
                                    **style)
                    axes[0][2].plot([p[0] for p in pts], [p[2] for p in pts], color=f"C{j}", label=f"$k/m = {km:g}$",
                                    **style)
            axes[0][1].set_ylabel(r"expv substeps $\tau$")
            axes[0][2].set_ylabel("ERE step wall time [s]")
            for a in axes[0][1:]:
                a.set_xlabel(r"$N = 2 \times$ free DOFs")
                a.set_yscale("log")
                a.grid(True, which="both", alpha=0.3)
                a.legend(fontsize=7)
            axes[0][1].set_title(r"Fig. 4.1a: $\tau$ vs $N$, +2 % strain", fontsize=9)
            axes[0][2].set_title(r"Fig. 4.1b: step time vs $N$ (1 thread)", fontsize=9)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "chen_table41_expv", args.format)
    print(f"wrote {csv_path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
