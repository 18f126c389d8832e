#!/usr/bin/python3
"""Trusty et al. (multilevel sparse bases), Figs. 8/22 (error of one high-speed impact step vs the
number of SMS handles, pure subspace and with the full-space polish) and Figs. 15/11 (the polish
iteration count: 0, 10, 20, 40 at a fixed handle count: Newton iterations, time, error).

Paper's claims (Figs. 8, 11, 15 and 22; Secs. 3.7.2 and 4.2): the displacement error of a
single high-speed step against the full-space solution decreases monotonically with the handle
count (Fig. 8, up to 192 handles "nearly indistinguishable"; Fig. 22, 15/47/118 handles); without
the polish a sphere hitting a spike (64 handles) compresses much less (Fig. 11); with only 10
polish iterations the kooshball needs more Newton iterations and is slower than with 40 (Fig. 15,
Table 2: 7180 s vs 1882 s).

Uses trusty_one_step_error.py (the "single step with two solvers" tool): a CHOLMOD run to the
state step K with a checkpoint, then step K + 1 from it with each solver; per vertex
e_v = |x_ml - x_ref| / L (L the bounding-box diagonal at step K) and the relative displacement
error |dx_ml - dx_ref|_2 / |dx_ref|_2, dx = x^{K+1} - x^K. References: "ref" = CHOLMOD with the
paper's Newton stop (|d|/(h|V|) < 1e-3 m/s, l2_over_V), the same stop as the multilevel runs, and
"conv" = CHOLMOD with the scene's Newton stop (1e-6 m/s), the converged step.

Scenes (chosen by us; the paper's Fig. 8 is a 2D soft square onto a fixed square, Fig. 22 a 3D
jello under a stiff anvil, Fig. 11 a sphere on a spike):
- scenes/trusty_fig8_impact.json: a soft block (0.2 x 0.1 x 0.2 m, 12 x 6 x 12 cubes, 4,320 tets,
  neo-Hookean E = 1e5, nu = 0.4) at 10 m/s onto a fixed stiff anvil block (0.06 x 0.04 x 0.06 m,
  E = 1e9, all vertices fixed), be, h = 2 ms, IPC contact d_hat = 1e-3 of the diagonal, no
  friction. Step 1 closes the gap to 0.6 mm (state K = 1, no contact yet); step 2 is the impact:
  the block's bottom is stopped while its top moves on by up to 2 cm.
- Figs. 15/11 also on scenes/ipc_ball_on_spike.json (4,757 tets at target_tets 1000; a ball,
  E = 1e5, 2 m/s onto a fixed spike), state K = 20 (122 contact pairs, the compression phase);
  "compression" is read two ways: the elastic energy after the step, E_el(ml) / E_el(ref), and
  the step displacement |dx_ml|_2 / |dx_ref|_2 (below 1: the body is stopped more).
Multilevel settings: matrix-free block-Jacobi PCG subspace solves at 1e-4 (the paper's), jump
penalty 0, seed 1; "partitions" is the initial k-means count, the handle count is the log's.
Not the paper's: 3D stand-ins of a few thousand tets, be (the paper: BDF2), handle counts.

Must hold (exit 1 otherwise): every step finishes; at every handle count 20 polish iterations give
a smaller max e_v (vs ref) than none. --quick also requires that the pure-subspace error (vs conv)
at the most handles is below the one at the fewest. Reported, not forced: monotonicity in the
handle count, Newton iterations with 10 vs 40 polish iterations, the compression ratio.

Writes OUT/trusty_fig8_handles.csv (one row per scene, partitions, polish) and .png (error vs
handles; Newton iterations and error vs polish iterations), prints the tables.

usage: scripts/figures/trusty_fig8_handles.py [--simrun PATH] [--out DIR] [--quick] [--runs DIR]
           [--timeout S] [--partitions 4,8,...] [--fixed-partitions N] [--format png|pdf|svg[,...]]
Full mode: partitions 4, 8, 16, 32, 64, 128 with polish 0 and 20; polish 0, 10, 20, 40 at 64
partitions on both scenes.
--quick: the impact block at 6 x 3 x 6 cubes, partitions 4 and 32, polish 0 and 20 (< 10 s).
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from simrun import plotting  # noqa: E402
from trusty_one_step_error import PAPER_STOP, ROOT, Stepper, compare  # noqa: E402

IMPACT = (os.path.join(ROOT, "scenes", "trusty_fig8_impact.json"), 1)
SPIKE = (os.path.join(ROOT, "scenes", "ipc_ball_on_spike.json"), 20)
ML = ["/solver/type=multilevel", "/solver/subspace_products=matrix_free", "/solver/subspace_tolerance=1e-4",
      "/solver/sms_deflation=none", "/solver/sms_ritz_vectors=0", "/solver/jump_penalty=0", "/solver/seed=1"]


class Case:
    """One scene and state: the reference steps, and multilevel steps on demand (cached)."""

    def __init__(self, args, scene, step, common, work):
        self.stepper = Stepper(args.simrun, scene, step, common, work, args.timeout)
        self.stepper.make_state()
        self.ref = self.stepper.take_step("ref", ["/solver/type=cholmod"] + PAPER_STOP)
        self.conv = self.stepper.take_step("conv", ["/solver/type=cholmod"])
        self.rows = {}
        for s in (self.ref, self.conv):
            if not s["ok"]:
                sys.exit(f"{self.stepper.stem}: the CHOLMOD step '{s['name']}' failed ({s['rc']}): {s['message']}")

    def multilevel(self, partitions, fine):
        key = (partitions, fine)
        if key in self.rows:
            return self.rows[key]
        s = self.stepper.take_step(f"ml_p{partitions}_f{fine}", ML + [f"/solver/partitions={partitions}",
                                                                      f"/solver/fine_iterations={fine}"] + PAPER_STOP)
        row = {"scene": self.stepper.stem, "tets": self.stepper.tets, "K": self.stepper.step,
               "partitions": partitions, "fine": fine, "handles": s["handles"], "ok": s["ok"], "rc": s["rc"],
               "message": s["message"].splitlines()[-1] if s["message"] else "",
               "ref_newton": int(self.ref["stats"]["newton_iters"]), "conv_newton": int(self.conv["stats"]["newton_iters"]),
               "ref_wall_s": float(self.ref["stats"]["wall_s"])}
        if s["ok"]:
            st = s["stats"]
            row.update(newton=int(st["newton_iters"]), wall_s=float(st["wall_s"]), cg_iters=int(st["cg_iters"]),
                       sms_iters=int(st["ml_sms_iters"]), fine_iters=int(st["ml_fine_iters"]))
            x0, d = self.stepper.x0, self.stepper.diagonal
            _, vs_ref = compare(x0, s["x"], self.ref["x"], d)
            _, vs_conv = compare(x0, s["x"], self.conv["x"], d)
            row.update({f"ref_{k}": v for k, v in vs_ref.items() if k != "max_vertex"})
            row.update({f"conv_{k}": v for k, v in vs_conv.items() if k != "max_vertex"})
            e_ref = float(self.ref["energy"]["elastic"])
            row["elastic_ratio"] = float(s["energy"]["elastic"]) / e_ref if e_ref else float("nan")
            # |dx_ml| / |dx_ref| over all coordinates: below 1 when the body is stopped more
            row["disp_ratio"] = (sum((a - o) ** 2 for a, o in zip(s["x"], x0)) /
                                 sum((b - o) ** 2 for b, o in zip(self.ref["x"], x0))) ** 0.5
        self.rows[key] = row
        return row


def fmt(row, key, spec):
    if not row["ok"]:
        return "> cap" if row["rc"] is None else f"exit {row['rc']}"
    return format(row[key], spec)


def print_rows(rows):
    print(f"{'scene':>18} {'tets':>5} {'part.':>5} {'handles':>7} {'polish':>6} | {'newton':>6} {'wall [s]':>8} | "
          f"{'max e_v':>8} {'RMS e_v':>8} {'|ddx|/|dx|':>10} | {'max e_v':>8} {'|ddx|/|dx|':>10} | {'E_el/ref':>8} "
          f"{'|dx|/ref':>9}")
    print(f"{'':>55} | {'vs ref (CHOLMOD, same stop)':^30} | {'vs conv (converged)':^19} |")
    for r in rows:
        print(f"{r['scene']:>18} {r['tets']:>5} {r['partitions']:>5} {r['handles'] or '-':>7} {r['fine']:>6} | "
              f"{fmt(r, 'newton', 'd'):>6} {fmt(r, 'wall_s', '.2f'):>8} | {fmt(r, 'ref_max', '.2e'):>8} "
              f"{fmt(r, 'ref_rms', '.2e'):>8} {fmt(r, 'ref_rel_disp', '.3e'):>10} | {fmt(r, 'conv_max', '.2e'):>8} "
              f"{fmt(r, 'conv_rel_disp', '.3e'):>10} | {fmt(r, 'elastic_ratio', '.3f'):>8} {fmt(r, 'disp_ratio', '.4f'):>9}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="6 x 3 x 6 cubes, partitions 4 and 32, polish 0 and 20")
    parser.add_argument("--runs", help="keep the simrun output folders here (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall-clock cap per simrun run [s]")
    parser.add_argument("--partitions", type=lambda s: [int(v) for v in s.split(",")],
                        help="initial k-means partitions of the handle sweep (default 4,8,16,32,64,128; quick 4,32)")
    parser.add_argument("--fixed-partitions", type=int, default=64, help="partitions of the polish sweep (Fig. 11: 64)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.quick:
        partitions, polish_sweep = args.partitions or [4, 32], []
        impact_common = ["/objects/0/mesh/box/cells=[6,3,6]"]
    else:
        partitions, polish_sweep = args.partitions or [4, 8, 16, 32, 64, 128], [0, 10, 20, 40]
        impact_common = []

    failures, quick_failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.runs or tmp
        os.makedirs(work, exist_ok=True)
        impact = Case(args, *IMPACT, impact_common, work)
        sweep = [impact.multilevel(p, f) for f in (0, 20) for p in partitions]
        cases = [impact]
        if polish_sweep:
            cases.append(Case(args, *SPIKE, ["/objects/0/mesh/tetgen/target_tets=1000"], work))
        polish = [c.multilevel(args.fixed_partitions, f) for c in cases for f in polish_sweep]
    rows = list({id(r): r for r in sweep + polish}.values())

    csv_path = os.path.join(args.out, "trusty_fig8_handles.csv")
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)

    ref = impact.ref["stats"]
    print(f"Figs. 8/22: one impact step (K = {impact.stepper.step} -> {impact.stepper.step + 1}) of "
          f"{impact.stepper.stem}, Newton stop |d|/(h|V|) < 1e-3 m/s for ml and ref; ref: CHOLMOD "
          f"{ref['newton_iters']} Newton iterations, {float(ref['wall_s']):.2f} s; conv: CHOLMOD "
          f"{impact.conv['stats']['newton_iters']} iterations")
    print_rows(sweep)
    if polish:
        print(f"Figs. 15/11: polish iterations at {args.fixed_partitions} partitions")
        print_rows(polish)
    for r in rows:
        if not r["ok"]:
            failures.append(f"{r['scene']} partitions {r['partitions']} polish {r['fine']}: {r['message']}")

    print("paper: error decreases monotonically with handles (Fig. 8); polish needed for compression (Fig. 11); "
          "10 polish iterations need more Newton iterations than 40 (Fig. 15)")
    for fine in (0, 20):
        done = [r for r in sweep if r["fine"] == fine and r["ok"]]
        if len(done) >= 2:
            done.sort(key=lambda r: r["handles"] or 0)
            errors = [r["conv_rel_disp"] for r in done]
            mono = all(b <= a for a, b in zip(errors, errors[1:]))
            print(f"  {'yes' if mono else 'NO '}  polish {fine}: |ddx|/|dx| vs conv decreases monotonically with handles "
                  f"({' > '.join(f'{e:.3g}' for e in errors)} for {', '.join(str(r['handles']) for r in done)} handles)")
            if fine == 0 and not errors[-1] < errors[0]:
                quick_failures.append(f"pure subspace: {done[-1]['handles']} handles not more accurate than "
                                      f"{done[0]['handles']} ({errors[-1]:.3g} vs {errors[0]:.3g})")
    for p in partitions:
        a, b = impact.rows[(p, 0)], impact.rows[(p, 20)]
        if a["ok"] and b["ok"]:
            better = b["ref_max"] < a["ref_max"]
            print(f"  {'yes' if better else 'NO '}  {p} partitions: max e_v with 20 polish iterations "
                  f"{b['ref_max']:.2e} < without {a['ref_max']:.2e}")
            if not better:
                failures.append(f"{p} partitions: the polish does not lower max e_v")
    for c in cases:
        r10, r40 = c.rows.get((args.fixed_partitions, 10)), c.rows.get((args.fixed_partitions, 40))
        if r10 and r40 and r10["ok"] and r40["ok"]:
            more = r10["newton"] > r40["newton"]
            print(f"  {'yes' if more else 'NO '}  {c.stepper.stem}: 10 polish iterations take more Newton iterations "
                  f"than 40 ({r10['newton']} vs {r40['newton']}; wall {r10['wall_s']:.2f} vs {r40['wall_s']:.2f} s)")
        r0, r20 = c.rows.get((args.fixed_partitions, 0)), c.rows.get((args.fixed_partitions, 20))
        if r0 and r20 and r0["ok"] and r20["ok"]:
            print(f"  {c.stepper.stem}: elastic energy after the step / ref: {r0['elastic_ratio']:.3f} without polish, "
                  f"{r20['elastic_ratio']:.3f} with 20; step displacement |dx| / ref: {r0['disp_ratio']:.4f} and "
                  f"{r20['disp_ratio']:.4f} (Fig. 11: less compression without)")

    plt = plotting.pyplot()
    if plt:
        n = 2 if polish else 1
        fig, axes = plt.subplots(1, n, figsize=(5.5 * n, 3.8), squeeze=False)
        ax = axes[0][0]
        for i, fine in enumerate((0, 20)):
            done = sorted([r for r in sweep if r["fine"] == fine and r["ok"]], key=lambda r: r["handles"] or 0)
            style = plotting.curve_style(i, len(done), series=2)
            style["markevery"] = 1
            ax.plot([r["handles"] for r in done], [r["conv_rel_disp"] for r in done],
                    label=f"{fine} polish iterations", **style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("SMS handles")
        ax.set_ylabel(r"$|\Delta x_\mathrm{ml} - \Delta x_\mathrm{conv}| / |\Delta x_\mathrm{conv}|$")
        ax.set_title("one impact step (Figs. 8/22)", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        if polish:
            ax = axes[0][1]
            for i, c in enumerate(cases):
                done = [c.rows[(args.fixed_partitions, f)] for f in polish_sweep if c.rows[(args.fixed_partitions, f)]["ok"]]
                style = plotting.curve_style(i, len(done), series=len(cases))
                style["markevery"] = 1
                ax.plot([r["fine"] for r in done], [r["newton"] for r in done], label=f"{c.stepper.stem}: Newton", **style)
            ax.set_xlabel("polish (fine Jacobi-PCG) iterations")
            ax.set_ylabel("Newton iterations of the step")
            ax.set_title(f"{args.fixed_partitions} partitions (Figs. 15/11)", fontsize=10)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "trusty_fig8_handles", args.format)
    print(f"wrote {csv_path}")
    if args.quick:
        failures += quick_failures
    for text in failures:
        print(f"  FAILED: {text}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
