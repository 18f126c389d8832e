#!/usr/bin/python3
"""Kharevych thesis Figs. 3.6-3.10: time adaptivity (Sec. 3.3-3.4) on Skeel's spring, a
pendulum and three masses with three springs: naive vs symplectic vs reversible adaptation.

Fig. 3.6  scenes/kharevych_skeel_spring.json: verlet, sigma = 1e-3 + 1/(W/1 J + 1) at q_k (the
          step shrinks at both turning points, twice a period): naive vs symplectic.
Fig. 3.7  scenes/kharevych_adaptive_pendulum.json (a 1 kg bob on a stiff 1e4 N/m spring, 60
          degrees; the thesis' pendulum is a rigid rod): equispaced poses, sigma at q_k ("non-
          adapted explicit") and at q_k+1 ("non-adapted implicit"), naive, vs symplectic.
Fig. 3.8  the same pendulum over one period: constant, equispaced poses, phase-space points,
          acceleration (symplectic, variational_midpoint, sigma at the midpoint): steps, h range.
Fig. 3.9  scenes/kharevych_three_masses.json (variational_midpoint): sigma = c/(W/10+1) with
          c = 1 (c, d, e) and 2 (f, g, h, b): naive at q_k, symplectic at q_k, reversible
          (midpoint), symplectic at the midpoint (b), and (a) a constant step = the largest step
          of the others.
Fig. 3.10 the same, c = 1, naive at q_k: midpoint Lagrangian vs W(3 q_k/4 + q_k+1/4).
A run that simrun stops (exit 2 diverged: energy 1000x its scale; or a failed Newton) is
reported with its blow-up time.

Writes OUT/kharevych_adaptive_fig3_N.csv (run, t, total, h, lambda) and .png.
usage: scripts/figures/kharevych_adaptive.py [--simrun PATH] [--out DIR] [--quick] [--format ...]
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "scenes")


def run(binary, work, name, scene, points):
    """[(label, settings)] on one scene -> one result per point, in order: one `simrun sweep`."""
    done = simrun.run_sweep(os.path.join(SCENES, scene), points, work, name,
                            fixed={"/output/frames": [], "/output/every": 1},
                            accept=("finished", "diverged", "failed"), binary=binary)
    results = []
    for label, _ in points:
        rows = simrun.read_run(done[label]["dir"]).energy.rows()
        results.append({"label": label, "rows": rows, "status": done[label]["status"],
                        "t_end": rows[-1]["t"], "steps": len(rows) - 1})
    return results


def drift(r, scale, part):
    """Max |E - E0| / scale over the first (0) or last (3) quarter of the run."""
    rows = r["rows"]
    n = len(rows)
    seg = rows[part * n // 4:(part + 1) * n // 4] or rows
    return max(abs(x["total"] - rows[0]["total"]) for x in seg) / scale


def describe(r, scale):
    h = [x["h"] for x in r["rows"][1:]]
    text = (f"{r['label']:34s} {r['steps']:7d} steps, h {min(h):.2e}..{max(h):.2e}, "
            f"|dE|/scale first quarter {drift(r, scale, 0):.2e}, last {drift(r, scale, 3):.2e}")
    if r["status"] != "finished":
        text += f"  -- {r['status']} at t = {r['t_end']:.3f} s"
    return text


def write(out, stem, runs):
    with open(os.path.join(out, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "total", "h", "lambda"])
        for r in runs:
            for x in r["rows"]:
                w.writerow([r["label"], x["t"], x["total"], x["h"], x["lambda"]])


def plot(args, stem, title, runs, scale, ylabel):
    plt = plotting.pyplot()
    if not plt:
        return
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    for i, r in enumerate(runs):
        t = [x["t"] for x in r["rows"]]
        style = plotting.curve_style(i, len(t))
        ax1.plot(t, [(x["total"] - r["rows"][0]["total"]) / scale for x in r["rows"]],
                 label=r["label"], **style)
        ax2.plot(t[1:], [x["h"] for x in r["rows"][1:]], label=r["label"], **style)
    ax1.set_xlabel("t [s]")
    ax1.set_ylabel(ylabel)
    ax1.set_title(title)
    ax1.legend(fontsize=7)
    ax2.set_xlabel("t [s]")
    ax2.set_ylabel("real step h [s]")
    ax2.set_yscale("log")
    fig.tight_layout()
    plotting.save_figure(fig, args.out, stem, args.format)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="shorter runs (same checks)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    q = args.quick
    checks = []
    with tempfile.TemporaryDirectory() as work:
        # Fig. 3.6: Skeel's spring.
        end = 20 if q else 400
        skeel = run(args.simrun, work, "fig3_6", "kharevych_skeel_spring.json",
                    [(f"{s} verlet", {"/time/end": end, "/time/adaptive/scheme": s})
                     for s in ("naive", "symplectic")])
        print(f"Fig. 3.6 Skeel's spring (E0 = 0.5 J), {end} s; thesis: naive energy grows "
              "(nonlinearly), proposed stays bounded")
        for r in skeel:
            print("   ", describe(r, 0.5))
        naive, symp = skeel
        checks.append(("3.6 naive energy error grows (last quarter > 1.5x first)",
                       drift(naive, 0.5, 3) > 1.5 * drift(naive, 0.5, 0)))
        checks.append(("3.6 symplectic bounded (last quarter <= 1.1x first)",
                       symp["status"] == "finished"
                       and drift(symp, 0.5, 3) <= 1.1 * drift(symp, 0.5, 0)))
        write(args.out, "kharevych_adaptive_fig3_6", skeel)
        plot(args, "kharevych_adaptive_fig3_6", "Fig. 3.6: Skeel's spring", skeel, 0.5,
             r"$(E - E_0) / E_0$")

        # Fig. 3.7: pendulum, naive explicit / implicit sigma vs symplectic.
        end = 10 if q else 100
        swing = 9.81 * 0.5  # m g L (1 - cos 60): the swing's energy scale [J]
        pend = run(args.simrun, work, "fig3_7", "kharevych_adaptive_pendulum.json",
                   [(label, {"/time/end": end, "/time/adaptive/scheme": scheme,
                             "/time/adaptive/sigma_at": at})
                    for label, scheme, at in (("naive, sigma(q_k)", "naive", "start"),
                                              ("naive, sigma(q_k+1)", "naive", "end"),
                                              ("symplectic, sigma(q_k)", "symplectic", "start"))])
        print(f"Fig. 3.7 pendulum (swing energy {swing:.2f} J), {end} s; thesis: naive drifts "
              "(decay or growth), proposed has no drift")
        for r in pend:
            print("   ", describe(r, swing))
        checks.append(("3.7 symplectic finishes without drift (last quarter <= 1.5x first)",
                       pend[2]["status"] == "finished"
                       and drift(pend[2], swing, 3) <= 1.5 * drift(pend[2], swing, 0)))
        write(args.out, "kharevych_adaptive_fig3_7", pend)
        plot(args, "kharevych_adaptive_fig3_7", "Fig. 3.7: pendulum", pend, swing,
             r"$(E - E_0) / (m g L (1 - \cos 60°))$")

        # Fig. 3.8: one period (~2.15 s at 60 degrees) with each rule.
        rules = (("constant", {"/time/adaptive/rule": "constant", "/time/dt": 0.005}),
                 ("equispaced poses", {"/time/adaptive/rule": "equispaced_poses"}),
                 ("phase-space points", {"/time/adaptive/rule": "equispaced_phase_space",
                                         "/time/dt": 0.2}),
                 ("acceleration", {"/time/adaptive/rule": "acceleration", "/time/dt": 0.5}))
        period = run(args.simrun, work, "fig3_8", "kharevych_adaptive_pendulum.json",
                     [(label, dict(sets, **{"/time/end": 2.15,
                                            "/integrator/type": "variational_midpoint",
                                            "/time/adaptive/sigma_at": "midpoint"}))
                      for label, sets in rules])
        print("Fig. 3.8 pendulum, one period, symplectic midpoint; thesis: plots only")
        for r in period:
            print("   ", describe(r, swing))
        write(args.out, "kharevych_adaptive_fig3_8", period)
        plot(args, "kharevych_adaptive_fig3_8", "Fig. 3.8: sigma rules", period, swing,
             r"$(E - E_0) / E_{swing}$")

        # Fig. 3.9: three masses, midpoint Lagrangian.
        end = 5 if q else 100
        scene = "kharevych_three_masses.json"
        variants = []
        for c, letters in ((1, "cde"), (2, "fgh")):
            for letter, scheme, at in zip(letters, ("naive", "symplectic", "reversible"),
                                          ("start", "start", "midpoint")):
                variants.append((f"({letter}) {scheme} c={c}", {"/time/adaptive/c": c,
                                 "/time/adaptive/scheme": scheme, "/time/adaptive/sigma_at": at}))
        variants.append(("(b) symplectic midpoint c=2", {"/time/adaptive/c": 2,
                         "/time/adaptive/scheme": "symplectic", "/time/adaptive/sigma_at": "midpoint"}))
        masses = run(args.simrun, work, "fig3_9", scene,
                     [(label, dict(sets, **{"/time/end": end})) for label, sets in variants])
        h_max = max(max(x["h"] for x in r["rows"][1:]) for r in masses)
        masses.insert(0, run(args.simrun, work, "fig3_9_constant", scene,
                             [(f"(a) constant h={h_max:.4f}",
                               {"/time/end": end, "/time/adaptive/rule": "constant",
                                "/time/dt": h_max})])[0])
        scale = masses[0]["rows"][0]["total"]
        print(f"Fig. 3.9 three masses (E0 = {scale:.2f} J), {end} s, dt (fictitious) 0.004; "
              "thesis: symplectic adaptive blows up at c = 2, reversible stays stable, constant "
              "step reasonable and cheaper")
        for r in masses:
            print("   ", describe(r, scale))
        by = {r["label"][:3]: r for r in masses}
        checks.append(("3.9 reversible (e), (h) finish", by["(e)"]["status"] == "finished"
                       and by["(h)"]["status"] == "finished"))
        write(args.out, "kharevych_adaptive_fig3_9", masses)
        plot(args, "kharevych_adaptive_fig3_9", "Fig. 3.9: three masses", masses, scale,
             r"$(E - E_0) / E_0$")

        # Fig. 3.10: naive, symmetric vs non-symmetric Lagrangian.
        asym = run(args.simrun, work, "fig3_10", scene,
                   [(label, dict(sets, **{"/time/end": end, "/time/adaptive/scheme": "naive"}))
                    for label, sets in (("(a) midpoint W((q_k+q_k+1)/2)", {}),
                                        ("(b) W(3q_k/4+q_k+1/4)",
                                         {"/integrator/type": "variational_alpha",
                                          "/integrator/alpha": 0.25}))])
        print("Fig. 3.10 three masses, naive, c = 1; thesis: symmetric drifts slightly, "
              "non-symmetric blows up fast")
        for r in asym:
            print("   ", describe(r, scale))
        checks.append(("3.10 non-symmetric error above symmetric",
                       asym[1]["status"] != "finished"
                       or drift(asym[1], scale, 3) > drift(asym[0], scale, 3)))
        write(args.out, "kharevych_adaptive_fig3_10", asym)
        plot(args, "kharevych_adaptive_fig3_10", "Fig. 3.10: symmetric vs not", asym, scale,
             r"$(E - E_0) / E_0$")
    for name, ok in checks:
        print(f"  {'yes' if ok else 'NO '}  {name}")
    failed = [name for name, ok in checks if not ok]
    if failed:
        sys.exit(f"failed: {failed}")


if __name__ == "__main__":
    main()
