#!/usr/bin/python3
"""Trusty et al. (multilevel sparse bases), Fig. 13 and issue 10 part 7: one time step from a
shared high-contact state with two solvers, and the per-vertex error field between them.

The paper's metric (Sec. 4.1, "Solution Quality", and Fig. 13): run a scene to a frame with
many contacts, take ONE step from that same state with IPC (a direct solver) and with the
multilevel solver, and measure per vertex e_v = |x_a - x_b| / L, with L the scene's bounding-box
diagonal. Paper: max e_v = 1e-2 on the kooshball (the worst scene), smaller on the others;
"visually indistinguishable". We also report the mean and RMS of e_v and the relative
displacement error |dx_a - dx_b|_2 / |dx_b|_2 with dx = x^{t+1} - x^t over all coordinates.

This is the reusable "single step with two solvers" tool (trusty_fig8_handles.py imports it):
- the state: a scene, a step K and --set overrides (--set-common, for the state run and both
  steps alike); the state run uses CHOLMOD with the scene's own Newton settings, writes a
  checkpoint and the frame at step K;
- solver b (the reference, default cholmod) and solver a (default multilevel), each with its own
  overrides (--set-a, --set-b) and the overrides of both steps (--set-both, default the paper's
  Newton stop |d|/(h|V|) < 1e-3 m/s, "direction_tolerance": 1e-3, applied to both solvers as the
  brief asks; with cholmod d is the full Newton direction, with multilevel the subspace part d_s);
- a third step, "converged", with solver b and the scene's own Newton stop (1e-6 m/s, no
  direction stop): a and b are also compared with it, which separates the solver's error from
  the error of the loose stop itself.
Each step is `simrun run SCENE --start-from STATE --steps K+1` writing frame K+1 (VTU Points are
the current positions). L is the diagonal of the axis-aligned box around all vertices at step K
(fixed obstacle meshes included; analytic planes are not vertices). e_v, its max, mean and RMS
are over all vertices (fixed ones have e_v = 0: 34 of 1,320 on the spike scene).

Default cases (the paper's scenes are 168k-875k tets; ours are stand-ins of a few thousand):
- scenes/ipc_ball_on_spike.json (Fig. 11's setup: a ball, E = 1e5, 2 m/s onto a fixed spike,
  be, h = 2 ms), state K = 20 (122 contact pairs; the compression phase);
- scenes/ipc_stressball.json (Fig. 18 stand-in: shell 1e8 / core 4e5, 10 m/s onto a plane,
  friction 0.5, be, h = 1 ms), state K = 3 (19 contact pairs; step 4 is the hardest step), with
  the paper's jump penalty for this scene, 0.25 (without it the 16 initial partitions end as 2
  handles: the heat distances inside the stiff shell are tiny).
Both at TetGen target_tets 1000 (4,757 tets in the ball). Multilevel settings (all explicit):
16 initial partitions (the log's final handle count is reported), fine_iterations 20 (the
paper's value but for the kooshball), matrix-free block-Jacobi PCG subspace solves at relative
tolerance 1e-4 without deflation (the paper's plain PCG), jump penalty 0, seed 1. Not in the paper and
chosen by us: mesh sizes, K, be
instead of BDF2 (simrun's scenes), the Newton predictor (simrun's default "acceleration").

Writes OUT/trusty_one_step_error.csv (one row per case and compared pair), for each case
OUT/trusty_one_step_error_<scene>.vtu (the frame of the reference step with point data "error"
= e_v of a vs b, "error_converged" = e_v of a vs the converged step, and "step_displacement" =
dx of b), and a PNG (histogram of e_v per case); prints the table.

Must hold (exit 1 otherwise): every step finishes; max e_v (a vs b) below 1e-2 on every case
(the paper's worst value).

usage: scripts/figures/trusty_one_step_error.py [--simrun PATH] [--out DIR] [--quick]
           [--case SCENE:K ...] [--target-tets N] [--set-common P=V ...] [--solver-a NAME]
           [--solver-b NAME] [--set-a P=V ...] [--set-b P=V ...] [--set-both P=V ...]
           [--runs DIR] [--timeout S] [--format png|pdf|svg[,...]]
--quick: the spike scene at target_tets 150 (~1.5k tets), K = 12 (< 10 s).
Example (another pair): --solver-a pcg --set-a /solver/tolerance=1e-4 --case scenes/ipc_two_balls.json:40
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
# SCENE:K[:P=V,P=V...], the third part: overrides of solver a in this case only (the stressball:
# the paper's jump penalty for it, 0.25, Sec. 3.6.2; without it 16 partitions end as 2 handles).
DEFAULT_CASES = ["scenes/ipc_ball_on_spike.json:20", "scenes/ipc_stressball.json:3:/solver/jump_penalty=0.25"]
QUICK_CASES = ["scenes/ipc_ball_on_spike.json:12"]
PAPER_MAX = 1e-2  # Fig. 13: the largest per-vertex error over the paper's scenes (kooshball)
# The paper's multilevel settings, explicit so later default changes do not move the numbers.
MULTILEVEL = ["/solver/partitions=16", "/solver/fine_iterations=20", "/solver/subspace_products=matrix_free",
              "/solver/subspace_tolerance=1e-4", "/solver/sms_deflation=none", "/solver/sms_ritz_vectors=0",
              "/solver/jump_penalty=0",
              "/solver/seed=1"]
PAPER_STOP = ["/integrator/newton/direction_tolerance=1e-3", "/integrator/newton/direction_norm=l2_over_V"]
STAT_KEYS = ["newton_iters", "cg_iters", "ml_affine_iters", "ml_sms_iters", "ml_fine_iters", "wall_s",
             "contacts", "min_distance"]


def sets(pairs):
    """['/a=1', ...] (P=V texts, as the command line takes them) -> ['--set', '/a=1', ...]"""
    out = []
    for p in pairs:
        out += ["--set", p]
    return out


def last_row(path):
    """The last row of a CSV file, its cells as written ({} when there is none)."""
    if not os.path.exists(path):
        return {}
    rows = simrun.read_csv(path, as_text=True).rows()
    return rows[-1] if rows else {}


def counts(folder):
    """run.json's counts of a run folder ({} without run.json)."""
    return simrun.read_run(folder).counts if os.path.exists(os.path.join(folder, "run.json")) else {}


def run_handles(folder):
    """SMS handles of the multilevel solver (run.json counts), or None."""
    return counts(folder).get("multilevel", {}).get("sms_handles")


def run_tets(folder):
    """Tets of the first object (run.json counts), or None."""
    objects = counts(folder).get("objects", [])
    return objects[0]["tets"] if objects else None


def frame(folder, step):
    return os.path.join(folder, "frames", f"{step:06d}.vtu")


def flat_points(path):
    """A frame's point coordinates as one flat tuple x0, y0, z0, x1, ..."""
    return tuple(simrun.read_vtu(path).points.ravel().tolist())


class Stepper:
    """Runs the state and the single steps of one case (scene, K, common overrides)."""

    def __init__(self, binary, scene, step, common, work, timeout):
        self.binary, self.scene, self.step, self.common = binary, scene, step, common
        self.work, self.timeout = work, timeout
        self.stem = os.path.splitext(os.path.basename(scene))[0]
        self.state = os.path.join(work, f"{self.stem}_K{step}_state")

    def run(self, out, overrides, steps, start_from=None, extra=()):
        """simrun run with the common and then these P=V overrides; (exit code or None on
        timeout, output)."""
        command = simrun.run_arguments(self.scene, out, steps=steps, threads=1, start_from=start_from,
                                       extra=sets(self.common) + sets(overrides) + list(extra))
        process = simrun.call(command, binary=self.binary, timeout=self.timeout)
        if process.timed_out:
            return None, f"> {self.timeout:g} s"
        return process.returncode, process.output.strip()

    def make_state(self):
        """CHOLMOD with the scene's Newton settings to step K; checkpoint and frame K."""
        rc, message = self.run(self.state, ["/solver/type=cholmod", f"/output/every={self.step}",
                                             "/output/frames=[\"vtu\"]"],
                               self.step, extra=["--checkpoint-every", str(self.step)])
        if rc != 0:
            sys.exit(f"{self.stem}: the state run to step {self.step} failed ({rc}): {message}")
        self.x0 = flat_points(frame(self.state, self.step))
        self.state_stats = last_row(os.path.join(self.state, "stats.csv"))
        lo = [min(self.x0[c::3]) for c in range(3)]
        hi = [max(self.x0[c::3]) for c in range(3)]
        self.diagonal = math.dist(lo, hi)
        self.tets = run_tets(self.state)

    def take_step(self, name, overrides):
        """Step K + 1 from the state; a dict with rc, message, folder, stats, handles, x."""
        out = os.path.join(self.work, f"{self.stem}_K{self.step}_{name}")
        rc, message = self.run(out, ["/output/every=1", "/output/frames=[\"vtu\"]"] + overrides, self.step + 1,
                               start_from=self.state)
        stats = last_row(os.path.join(out, "stats.csv"))
        ok = rc == 0 and stats and int(stats["step"]) == self.step + 1 and os.path.exists(frame(out, self.step + 1))
        result = {"name": name, "rc": rc, "message": message, "folder": out, "ok": bool(ok),
                  "handles": run_handles(out), "stats": stats,
                  "energy": last_row(os.path.join(out, "energy.csv"))}
        if ok:
            result["x"] = flat_points(frame(out, self.step + 1))
        return result


def compare(x0, xa, xb, diagonal):
    """Per-vertex e_v = |xa - xb| / diagonal and the summary: max, mean, RMS of e_v and the
    relative displacement error |dxa - dxb| / |dxb| (dx = x^{t+1} - x^t)."""
    n = len(x0) // 3
    err = [math.dist(xa[3 * i:3 * i + 3], xb[3 * i:3 * i + 3]) / diagonal for i in range(n)]
    diff2 = sum((a - b) ** 2 for a, b in zip(xa, xb))
    dxb2 = sum((b - o) ** 2 for b, o in zip(xb, x0))
    return err, {"max": max(err), "mean": sum(err) / n, "rms": math.sqrt(sum(e * e for e in err) / n),
                 "rel_disp": math.sqrt(diff2 / dxb2) if dxb2 > 0 else float("nan"),
                 "max_vertex": err.index(max(err))}


def write_error_vtu(reference_frame, fields, path):
    """The reference step's frame with extra point data (name -> list of per-vertex values)."""
    import meshio
    import numpy
    mesh = meshio.read(reference_frame)
    for name, values in fields.items():
        mesh.point_data[name] = numpy.asarray(values, dtype=float)
    meshio.write(path, mesh)


def add_arguments(parser):
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--runs", help="keep the simrun output folders here (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall-clock cap per simrun run [s]")
    parser.add_argument("--target-tets", type=int, help="TetGen target_tets of object 0 (default cases: 1000, quick 150; "
                             "with --case: the scene's own unless given)")
    parser.add_argument("--set-common", action="append", default=[], metavar="P=V",
                        help="override for the state run and every step (repeatable)")
    plotting.add_format_argument(parser)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    parser.add_argument("--quick", action="store_true", help="the spike scene at target_tets 150, K = 12")
    parser.add_argument("--case", action="append", metavar="SCENE:K",
                        help="scene (relative to the repo root or absolute), state step K and optionally "
                             "overrides of solver a for this case, SCENE:K:P=V,P=V (repeatable)")
    parser.add_argument("--solver-a", default="multilevel", help="the solver under test (default multilevel)")
    parser.add_argument("--solver-b", default="cholmod", help="the reference solver (default cholmod)")
    parser.add_argument("--set-a", action="append", metavar="P=V",
                        help="overrides of solver a's step (default: the paper's multilevel settings when a is multilevel)")
    parser.add_argument("--set-b", action="append", default=[], metavar="P=V", help="overrides of solver b's step")
    parser.add_argument("--set-both", action="append", metavar="P=V",
                        help="overrides of both steps (default: direction_tolerance 1e-3, l2_over_V)")
    args = parser.parse_args()
    cases = args.case or (QUICK_CASES if args.quick else DEFAULT_CASES)
    tets = args.target_tets or (None if args.case else 150 if args.quick else 1000)
    common = ([f"/objects/0/mesh/tetgen/target_tets={tets}"] if tets else []) + args.set_common
    set_a = args.set_a if args.set_a is not None else (MULTILEVEL if args.solver_a == "multilevel" else [])
    both = args.set_both if args.set_both is not None else PAPER_STOP
    os.makedirs(args.out, exist_ok=True)

    rows, failures, histograms = [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        work = args.runs or tmp
        os.makedirs(work, exist_ok=True)
        for case in cases:
            scene, k, case_a = (case.split(":", 2) + [""])[:3]
            scene = scene if os.path.isabs(scene) else os.path.join(ROOT, scene)
            stepper = Stepper(args.simrun, scene, int(k), common, work, args.timeout)
            stepper.make_state()
            extra_a = [p for p in case_a.split(",") if p]
            a = stepper.take_step("a", [f"/solver/type={args.solver_a}"] + set_a + extra_a + both)
            b = stepper.take_step("b", [f"/solver/type={args.solver_b}"] + args.set_b + both)
            c = stepper.take_step("converged", [f"/solver/type={args.solver_b}"] + args.set_b)
            for s in (a, b, c):
                if not s["ok"]:
                    failures.append(f"{stepper.stem}: step {s['name']} did not finish ({s['rc']}): "
                                    f"{s['message'].splitlines()[-1] if s['message'] else ''}")
            fields = {}
            for label, x, y in (("a vs b", a, b), ("a vs converged", a, c), ("b vs converged", b, c)):
                if not (x["ok"] and y["ok"]):
                    continue
                err, summary = compare(stepper.x0, x["x"], y["x"], stepper.diagonal)
                if label == "a vs b":
                    fields["error"] = err
                    histograms[stepper.stem] = err
                elif label == "a vs converged":
                    fields["error_converged"] = err
                rows.append({"scene": stepper.stem, "tets": stepper.tets, "K": stepper.step,
                             "state_contacts": stepper.state_stats.get("contacts"),
                             "diagonal": stepper.diagonal, "pair": label, **summary,
                             "case_overrides_a": " ".join(extra_a),
                             "handles": a["handles"],
                             **{f"a_{key}": a["stats"].get(key) for key in STAT_KEYS},
                             **{f"b_{key}": b["stats"].get(key) for key in STAT_KEYS},
                             **{f"conv_{key}": c["stats"].get(key) for key in STAT_KEYS}})
            if b["ok"] and fields:
                x0 = stepper.x0
                fields["step_displacement"] = [math.dist(b["x"][3 * i:3 * i + 3], x0[3 * i:3 * i + 3])
                                               for i in range(len(x0) // 3)]
                path = os.path.join(args.out, f"trusty_one_step_error_{stepper.stem}.vtu")
                write_error_vtu(frame(b["folder"], stepper.step + 1), fields, path)
                print(f"wrote {path}")

    csv_path = os.path.join(args.out, "trusty_one_step_error.csv")
    keys = list(rows[0].keys()) if rows else []
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)

    print(f"one step from a shared state: a = {args.solver_a} {' '.join(set_a)}; b = {args.solver_b} "
          f"{' '.join(args.set_b)}; both: {' '.join(both) or '-'}; converged = b with the scene's Newton stop")
    print(f"{'scene':>18} {'tets':>5} {'K':>3} {'pairs':>5} {'handles':>7} {'pair':>15} | {'max e_v':>8} "
          f"{'mean e_v':>8} {'RMS e_v':>8} {'|ddx|/|dx|':>10} | {'newton a/b/conv':>15} {'wall a/b [s]':>12}")
    for r in rows:
        print(f"{r['scene']:>18} {r['tets'] or '-':>5} {r['K']:>3} {r['state_contacts']:>5} {r['handles'] or '-':>7} "
              f"{r['pair']:>15} | {r['max']:>8.1e} {r['mean']:>8.1e} {r['rms']:>8.1e} {r['rel_disp']:>10.2e} | "
              f"{r['a_newton_iters']:>4}/{r['b_newton_iters']}/{r['conv_newton_iters']:<6} "
              f"{float(r['a_wall_s']):>5.2f}/{float(r['b_wall_s']):<5.2f}")
    for r in rows:
        if r["pair"] == "a vs b" and r["case_overrides_a"]:
            print(f"  {r['scene']}: solver a also {r['case_overrides_a']} (this case's overrides, applied last)")
    print(f"paper (Fig. 13): max e_v = {PAPER_MAX:g} on the kooshball, smaller on the basketball and the shoe")
    for r in rows:
        if r["pair"] == "a vs b":
            below = r["max"] < PAPER_MAX
            print(f"  {'yes' if below else 'NO '}  {r['scene']}: max e_v {r['max']:.1e} < {PAPER_MAX:g}")
            if not below:
                failures.append(f"{r['scene']}: max e_v {r['max']:.1e} >= {PAPER_MAX:g}")

    plt = plotting.pyplot()
    if plt and histograms:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        floor = 1e-12
        for i, (stem, err) in enumerate(histograms.items()):
            values = [max(e, floor) for e in err]
            lo = math.floor(math.log10(min(v for v in values)))
            bins = [10 ** (lo + j / 4) for j in range(4 * (1 - lo) + 1)]
            ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=stem)
        ax.axvline(PAPER_MAX, color="k", linestyle="--", linewidth=1, label="paper's max (kooshball)")
        ax.set_xscale("log")
        ax.set_xlabel(r"$e_v = |x_a - x_b| / L_\mathrm{bbox}$")
        ax.set_ylabel("vertices")
        ax.set_title(f"one step, {args.solver_a} vs {args.solver_b}", fontsize=10)
        ax.legend(fontsize=8)
        fig.tight_layout()
        plotting.save_figure(fig, args.out, "trusty_one_step_error", args.format)
    print(f"wrote {csv_path}")
    for text in failures:
        print(f"  FAILED: {text}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
