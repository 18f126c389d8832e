#!/usr/bin/python3
"""IPC contact evidence scenes (issue 14): the scene types Trusty et al. (multilevel sparse bases)
show qualitatively (a soft ball dropped on the ground, two balls colliding at 20 m/s, a stable
stack, a ball falling on a spike, Fig. 11, and the stressball, Fig. 18), run with simrun's IPC
barrier contact. Trusty et al. report no numbers for these beyond Table 1's parameters; the
claims checked are the qualitative ones: IPC stays intersection-free (Ascher survey Sec. 5.1: a
log barrier "to enforce strict positivity on d", after Li et al.'s "Intersection- and
inversion-free" IPC), balls bounce, stacks stay put (Sec. 5.2: smoothed friction "yields
sufficient sticking (though not absolute)").

Scenes (all `be`, `dhat` 1e-3 of the bounding-box diagonal, automatic kappa, lumped mass, Newton
cap 100 iterations per step: with the default 20 the first contact steps of four of the five
fail, exit 2; sizes chosen by us so each runs in < 60 s on one thread):
- scenes/ipc_ball_drop.json: neo-Hookean ball (r = 0.1 m, E 5e5, nu 0.4, 4757 tets) dropped from
  0.2 m on the plane y = 0, h = 2 ms, 0.8 s. Also run with `bdf2` (full mode).
- scenes/ipc_two_balls.json: two such balls (E 1e6, 2256 tets each) at +-10 m/s, offset 3 cm
  across, no gravity, h = 1 ms, 0.1 s.
- scenes/ipc_box_stack.json: three 0.1 m boxes (E 1e6, 4x4x4 cells x 5 tets), the middle one
  shifted 1 cm in x, the top one 1 cm in z, 0.5 mm gaps, on the plane, mu 0.5, eps_v 1e-4 m/s,
  h = 5 ms, 4 s. Also run with IPC's usual eps_v = 1e-3 m/s (full mode).
- scenes/ipc_ball_on_spike.json: the ball (E 1e5, 4757 tets) at 2 m/s onto a fixed 16-sided
  pyramid (scenes/meshes/spike_cone.off, 0.12 m high, base radius 0.05 m, every vertex held by
  Dirichlet) standing on the plane, h = 2 ms, 0.3 s.
- scenes/ipc_stressball.json: a ball with a stiff shell (E 1e8) and a soft core (E 4e5: the tets
  whose centroid lies within 0.08 m of the centre), thrown at 10 m/s (3 m/s sideways) onto the
  plane, mu 0.5, h = 1 ms (Trusty's dt), 0.1 s. A solid stand-in: Trusty's stressball has
  "cells" (a lattice) and 539k tets; ours is the icosphere with 4757 tets. Also run with `bdf2`
  (Trusty's integrator for it; full mode).

Measured per scene: steps, max/mean Newton iterations per step, the smallest distance over the
run (stats.csv min_distance, the smallest over every Newton iterate), penetration (min_distance
<= 0 at any step, or any frame with a vertex on the wrong side of a plane or inside the spike,
from the VTU frames), energy lost (total at t = 0 minus total at the end; total includes the
barrier energy, BE also dissipates in free flight), the first impact's energy loss (% of the
kinetic energy before it) and restitution (normal momentum out / in), and for the stack the top
box's centre-of-mass drift (lumped masses from the frames): over the whole run and over the
second half, horizontal, relative to the box size. Also the largest compression of the (first)
ball: 1 - smallest/rest extent, vertical on the plane, along the approach for the pair; on the
spike the indentation (R - |centre - apex|) / R (Trusty Fig. 11 shows the compression).

Must hold (exit 1 otherwise): every run finishes, no penetration, the dropped/thrown balls
bounce, the two balls separate, the stack stands (the top box moves < 1 % of its size sideways
and sinks < 5 %; full mode also: horizontal drift over the second half < 1e-4 of the size for
the scene's eps_v).

Writes OUT/ipc_contact.csv (the table), OUT/ipc_contact_<scene>.csv (per step: energies,
min_distance, contacts, newton_iters, friction_work), OUT/ipc_contact_box_stack_drift.csv (top
box position per frame) and OUT/ipc_contact_<scene>.png (energies, min distance per step, and
the stack's drift or a slice of the balls at rest and at their largest compression).

usage: scripts/figures/ipc_contact.py [--simrun PATH] [--out DIR] [--quick] [--runs DIR]
                                      [--format png|pdf|svg[,...]]
  --quick: coarse meshes (320-466-tet balls, 2x2x2-cell boxes) and a few steps around the first
  impact (< 10 s in total), same checks (the stack: stands, not the 1e-4 drift).
"""
import argparse
import csv
import math
import os
import shlex
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "scenes")


def coarse_ball(i):  # 320 tets, no TetGen quality refinement
    return [(f"/objects/{i}/mesh/tetgen/target_tets", 100), (f"/objects/{i}/mesh/tetgen/quality", 0)]


# key, scene file, full-mode settings, quick-mode settings (None: full mode only), kind; settings
# are (JSON pointer, value) pairs. Full mode writes frames every 1-2 steps on the balls so the
# peak compression is caught.
RUNS = [
    ("ball_drop", "ipc_ball_drop.json", [("/output/every", 2)],
     coarse_ball(0) + [("/objects/0/mesh/transform/translate", [0, 0.12, 0]),
                       ("/objects/0/initial/velocity", [0, -2, 0]), ("/time/steps", 40)], "bounce"),
    ("ball_drop_bdf2", "ipc_ball_drop.json", [("/integrator/type", "bdf2"), ("/output/every", 2)], None, "bounce"),
    ("two_balls", "ipc_two_balls.json", [("/output/every", 1)],
     coarse_ball(0) + coarse_ball(1) + [("/time/steps", 20)], "pair"),
    ("box_stack", "ipc_box_stack.json", [],
     [(f"/objects/{i}/mesh/box/cells", [2, 2, 2]) for i in range(3)] + [("/time/steps", 100), ("/output/every", 10)],
     "stack"),
    ("box_stack_epsv1e-3", "ipc_box_stack.json", [("/contact/epsv", 1e-3)], None, "stack"),
    ("ball_on_spike", "ipc_ball_on_spike.json", [("/output/every", 2)],
     coarse_ball(0) + [("/objects/0/mesh/transform/translate", [0, 0.225, 0]), ("/time/steps", 40)],
     "bounce"),
    # quick: 466 tets, enough to have both a shell and a core (the 320-tet ball has only
    # surface-to-centre tets, all in the core)
    ("stressball", "ipc_stressball.json", [],
     [("/objects/0/mesh/tetgen/target_tets", 100), ("/objects/0/mesh/tetgen/quality", 1.6), ("/time/steps", 12)],
     "bounce"),
    ("stressball_bdf2", "ipc_stressball.json", [("/integrator/type", "bdf2")], None, "bounce"),
]
STACK_DRIFT_LIMIT = 1e-4  # of the box size, full mode, second half of the run


# ---- VTU frames ----
def read_frames(result):
    """Times, positions (frames x n x 3), velocities, vertex masses, vertex object ids, tets."""
    times, pos, vel = [], [], []
    for frame in result.frames:
        data = simrun.read_vtu(frame.path)
        times.append(frame.time)
        pos.append(data.points)
        vel.append(data.point_data["velocity"])
    first = result.frame(0)
    tet_data = first.cell_data_of("tetra")
    rest = first.points - first.point_data["displacement"]
    tets = first.tets
    e = rest[tets[:, 1:]] - rest[tets[:, :1]]
    volume = np.abs(np.einsum("ij,ij->i", e[:, 0], np.cross(e[:, 1], e[:, 2]))) / 6.0
    mass = np.zeros(len(rest))
    obj = np.zeros(len(rest), dtype=int)
    for k in range(4):
        np.add.at(mass, tets[:, k], volume * tet_data["density"] / 4.0)
        obj[tets[:, k]] = tet_data["object"]
    return {"t": np.array(times), "x": np.array(pos), "v": np.array(vel), "mass": mass, "object": obj,
            "n_tets": len(tets), "E": tet_data["E"], "tet_object": tet_data["object"]}


def centre(frames, object_id, what="x"):
    sel = frames["object"] == object_id
    m = frames["mass"][sel]
    return np.einsum("i,fij->fj", m, frames[what][:, sel]) / m.sum()


# ---- runs ----
def run(binary, key, scene, extra, runs_dir, cap):
    out = os.path.join(runs_dir, key)
    process = simrun.call(simrun.run_arguments(os.path.join(SCENES, scene), out, extra, threads=1), binary=binary,
                          timeout=cap)
    if process.timed_out:
        rc, message = None, f"> {cap} s (capped)"
    else:
        rc, message = process.returncode, (process.output.strip().splitlines()[-1:] or [""])[0]
    r = {"key": key, "cmd": shlex.join(process.command), "rc": rc, "message": message, "wall": process.wall_seconds,
         "dir": out}
    if rc is None or not os.path.exists(os.path.join(out, "stats.csv")):
        return r
    result = simrun.read_run(out)
    r["energy"] = result.energy.rows()
    r["stats"] = result.stats.rows()
    r["record"] = result.record
    r["frames"] = read_frames(result)
    return r


def plane_violation(r):
    """Smallest signed distance of any vertex to any plane obstacle over the frames."""
    worst = math.inf
    for o in r["record"]["scene"].get("obstacles", []):
        if "plane" in o:
            p, n = np.array(o["plane"]["point"]), np.array(o["plane"]["normal"], float)
            worst = min(worst, float(((r["frames"]["x"] - p) @ (n / np.linalg.norm(n))).min()))
    return worst


def spike_violation(r):
    """Ball vertices inside the (convex) spike pyramid over the frames: the largest depth inside
    (negative: the closest approach from outside), from the .off faces and the scene transform."""
    scene = r["record"]["scene"]
    spike = next(o for o in scene["objects"] if o["name"] == "spike")
    path = spike["mesh"]["file"]
    path = path if os.path.isabs(path) else os.path.join(SCENES, path)
    with open(path) as f:
        words = " ".join(l for l in f if not l.startswith("#")).split()
    nv, nf = int(words[1]), int(words[2])
    v = np.array(words[4:4 + 3 * nv], float).reshape(-1, 3) + np.array(spike["mesh"]["transform"]["translate"])
    faces = np.array(words[4 + 3 * nv:4 + 3 * nv + 4 * nf], int).reshape(-1, 4)[:, 1:]
    normals = np.cross(v[faces[:, 1]] - v[faces[:, 0]], v[faces[:, 2]] - v[faces[:, 0]])
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    offsets = np.einsum("ij,ij->i", normals, v[faces[:, 0]])
    ball = r["frames"]["x"][:, r["frames"]["object"] == 0]
    signed = ball @ normals.T - offsets  # > 0 outside that face; inside the pyramid iff all <= 0
    return float((-signed.max(axis=2)).max())


def compression(r, kind):
    """Largest compression of ball 0 over the frames, relative: the spike's indentation
    (R - |centre - apex|) / R; otherwise 1 - extent / rest extent, vertically on a plane, along
    x (the approach) for the pair."""
    fr = r["frames"]
    ball = fr["x"][:, fr["object"] == 0]
    if kind == "stack":
        return None
    if r["key"].startswith("ball_on_spike"):
        spike = fr["x"][0, fr["object"] == 1]
        apex = spike[spike[:, 1].argmax()]
        radius = np.linalg.norm(ball[0] - centre(fr, 0)[0], axis=1).max()
        depth = (radius - np.linalg.norm(centre(fr, 0) - apex, axis=1)) / radius
        r["peak_frame"] = int(depth.argmax())
        return float(depth.max())
    axis = 0 if kind == "pair" else 1
    extent = np.ptp(ball[:, :, axis], axis=1)
    r["peak_frame"] = int(extent.argmin())
    return float(1.0 - extent.min() / extent[0])


def analyse(r, kind, quick):
    st, en, fr = r["stats"], r["energy"], r["frames"]
    md = [s["min_distance"] for s in st]
    iters = [int(s["newton_iters"]) for s in st]
    r.update(steps=len(st), planned=r["record"]["counts"]["steps_requested"], max_newton=max(iters),
             mean_newton=sum(iters) / len(iters), min_distance=min(md), n_tets=fr["n_tets"],
             energy_lost=en[0]["total"] - en[-1]["total"], friction_work=sum(s["friction_work"] for s in st))
    bad = [int(s["step"]) for s in st if s["min_distance"] <= 0]
    r["plane_gap"] = plane_violation(r)
    r["spike_depth"] = spike_violation(r) if r["key"].startswith("ball_on_spike") else None
    r["penetration"] = (f"step {bad[0]}" if bad else "plane" if r["plane_gap"] <= 0
                        else "spike" if (r["spike_depth"] or -1) >= 0 else "none")
    r["checks"] = [("no penetration", r["penetration"] == "none")]
    r["compression"] = compression(r, kind)
    contact = [int(s["contacts"]) > 0 for s in st]
    r["restitution"] = r["impact_loss"] = r["drift"] = None
    if kind == "bounce" and any(contact):
        k0 = contact.index(True)  # stats row k0 is step k0 + 1; energy row k0 is the state before it
        k1 = next((k for k in range(k0, len(st)) if not contact[k]), None)
        if k1 is not None:
            py_in, py_out = en[k0]["py"], en[k1 + 1]["py"]
            r["restitution"] = -py_out / py_in
            r["impact_loss"] = (en[k0]["total"] - en[k1 + 1]["total"]) / en[k0]["kinetic"]
        r["checks"].append(("bounced (vertical momentum turns positive)", max(e["py"] for e in en[k0:]) > 0))
    if kind == "pair":
        c0, c1 = centre(fr, 0), centre(fr, 1)
        dv = centre(fr, 1, "v") - centre(fr, 0, "v")
        n = (c1 - c0) / np.linalg.norm(c1 - c0, axis=1)[:, None]
        approach = np.einsum("ij,ij->i", dv, n)
        r["restitution"] = -approach[-1] / approach[0]
        r["impact_loss"] = r["energy_lost"] / en[0]["kinetic"]
        p = [math.hypot(math.hypot(e["px"], e["py"]), e["pz"]) for e in en]
        r["momentum_drift"] = max(p)
        r["checks"].append(("balls separate (normal relative velocity reversed, no contact at the end)",
                            approach[-1] > 0 and not contact[-1]))
    if kind == "stack":
        size = r["record"]["scene"]["objects"][2]["mesh"]["box"]["size"][0]
        top = centre(fr, 2)
        t = fr["t"]
        half = int(np.searchsorted(t, t[-1] / 2))
        r["top"] = top
        r["drift_total"] = float(np.linalg.norm((top[-1] - top[0])[[0, 2]])) / size
        r["drift_vertical"] = float(top[-1][1] - top[0][1]) / size
        r["drift"] = float(np.linalg.norm((top[-1] - top[half])[[0, 2]])) / size
        r["drift_vertical_half"] = float(top[-1][1] - top[half][1]) / size
        # creep rate over the second half (least squares on the horizontal distance from T/2)
        dist = np.linalg.norm((top[half:] - top[half])[:, [0, 2]], axis=1)
        r["creep"] = float(np.polyfit(t[half:], dist, 1)[0])
        r["epsv"] = r["record"]["scene"]["contact"]["epsv"]
        # Standing: the top box neither slides off (horizontal) nor falls (it would drop by a whole
        # size); it does sink by the closed 0.5 mm gaps and the compression, ~1 % of its size.
        r["checks"].append(("stack stands (top box moves < 1 % of its size sideways, sinks < 5 %)",
                            r["drift_total"] < 1e-2 and r["drift_vertical"] > -0.05))
        if not quick and r["key"] == "box_stack":
            r["checks"].append((f"top box horizontal drift over the second half < {STACK_DRIFT_LIMIT:g} of its size",
                                r["drift"] < STACK_DRIFT_LIMIT))
    return r


def write_csvs(runs, out):
    for r in runs:
        if "stats" not in r:
            continue
        path = os.path.join(out, f"ipc_contact_{r['key']}.csv")
        cols = ["kinetic", "elastic", "gravity", "contact", "friction", "total"]
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["step", "t"] + cols + ["min_distance", "contacts", "newton_iters", "friction_work"])
            for e, s in zip(r["energy"][1:], r["stats"]):
                w.writerow([int(e["step"]), e["t"]] + [e.get(c, 0.0) for c in cols] +
                           [s["min_distance"], int(s["contacts"]), int(s["newton_iters"]), s["friction_work"]])
        if "top" in r:
            with open(os.path.join(out, f"ipc_contact_{r['key']}_drift.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["t", "top_x", "top_y", "top_z"])
                for t, x in zip(r["frames"]["t"], r["top"]):
                    w.writerow([t, *x])


def plot(runs, out, formats):
    plt = plotting.pyplot()
    if not plt:
        return
    for r in runs:
        if "stats" not in r:
            continue
        stack = "top" in r
        fig, axes = plt.subplots(1, 3, figsize=(11.5, 3.5))
        t = [e["t"] for e in r["energy"]]
        cols = [c for c in ("kinetic", "elastic", "gravity", "contact", "friction", "total") if c in r["energy"][0]]
        for i, c in enumerate(cols):
            axes[0].plot(t, [e[c] for e in r["energy"]], label=c, **plotting.curve_style(i, len(t), len(cols)))
        axes[0].set_xlabel(r"$t$ [s]")
        axes[0].set_ylabel("energy [J]")
        axes[0].legend(fontsize=7)
        axes[0].grid(True, alpha=0.3)
        ts = [s["t"] for s in r["stats"]]
        axes[1].semilogy(ts, [s["min_distance"] for s in r["stats"]], "k.-", markersize=2)
        axes[1].set_xlabel(r"$t$ [s]")
        axes[1].set_ylabel("min distance [m]")
        axes[1].set_title(r"smallest distance in the step ($\hat d$: no pair closer)", fontsize=8)
        axes[1].grid(True, which="both", alpha=0.3)
        if stack:
            # The landing moves the top box by ~3e-3 of its size (elastic tilt of the offset stack);
            # the drift is what follows: displacement from its position at T/2, from T/4 on.
            size = r["record"]["scene"]["objects"][2]["mesh"]["box"]["size"][0]
            t = r["frames"]["t"]
            half, quarter = np.searchsorted(t, t[-1] / 2), np.searchsorted(t, t[-1] / 4)
            d = (r["top"] - r["top"][half]) / size
            for i, (j, name) in enumerate(((0, "x"), (2, "z"))):
                axes[2].plot(t[quarter:], d[quarter:, j], label=f"top box ${name}$",
                             **plotting.curve_style(i, len(t) - quarter, 2))
            for y in (-STACK_DRIFT_LIMIT, STACK_DRIFT_LIMIT):
                axes[2].axhline(y, color="0.5", linestyle=":", linewidth=1)
            axes[2].set_xlabel(r"$t$ [s]")
            axes[2].set_ylabel(r"(position $-$ position at $T/2$) / box size")
            axes[2].set_title(f"top box drift (dotted: $\\pm {plotting.sci(STACK_DRIFT_LIMIT)}$)", fontsize=8)
            axes[2].legend(fontsize=7)
            axes[2].grid(True, alpha=0.3)
        else:
            section(axes[2], r)
        fig.suptitle(f"{r['key']}: {r['n_tets']} tets, {r['steps']} steps", fontsize=10)
        fig.tight_layout()
        plotting.save_figure(fig, out, f"ipc_contact_{r['key']}", formats)


def section(ax, r):
    """Vertices in a slab |z - z_c| < 0.1 R around ball 0's centre: rest (grey) and the frame of
    the largest compression (black), with the plane and the spike's outline."""
    fr = r["frames"]
    k = r.get("peak_frame", 0)
    moving = fr["object"] != (1 if r["key"].startswith("ball_on_spike") else -1)
    ball = fr["x"][0, fr["object"] == 0]
    radius = np.ptp(ball[:, 0]) / 2
    zc = centre(fr, 0)[0][2]
    for frame, style, label in ((0, dict(color="0.7"), "$t = 0$"),
                                (k, dict(color="k"), f"$t = {fr['t'][k]:.3g}$ s (peak)")):
        x = fr["x"][frame][moving]
        band = np.abs(x[:, 2] - zc) < 0.1 * radius
        ax.plot(x[band, 0], x[band, 1], ".", markersize=2, label=label, **style)
    if r["plane_gap"] < math.inf:
        ax.axhline(0.0, color="C0", linewidth=1)
    if r["key"].startswith("ball_on_spike"):
        spike = fr["x"][0, fr["object"] == 1]
        apex = spike[spike[:, 1].argmax()]
        base = spike[:, 1].min()
        half = np.abs(spike[:, 0]).max()
        ax.plot([-half, apex[0], half], [base, apex[1], base], "C3-", linewidth=1, label="spike")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(r"$x$ [m]")
    ax.set_ylabel(r"$y$ [m]")
    ax.set_title(r"vertices with $|z - z_c| < 0.1\,R$", fontsize=8)
    ax.legend(fontsize=7, markerscale=4)


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="coarse meshes, a few steps (< 10 s)")
    parser.add_argument("--runs", help="keep the run folders (frames, stats) under this folder "
                        "(default: a temporary folder, removed at the end; full mode writes ~100 MB of frames)")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cap = 60 if args.quick else 300
    runs = []
    with tempfile.TemporaryDirectory() as work:
        runs_dir = args.runs or work
        for key, scene, full, quick, kind in RUNS:
            if args.quick and quick is None:
                continue
            r = run(args.simrun, key, scene, quick if args.quick else full, runs_dir, cap)
            if "stats" in r:
                analyse(r, kind, args.quick)
            runs.append(r)

    write_csvs(runs, args.out)
    header = ["scene", "tets", "steps", "status", "newton max/mean", "min distance [m]", "penetration",
              "E lost [J]", "1st impact loss", "restitution", "max compression", "drift 2nd half / size",
              "wall [s]"]
    rows = []
    for r in runs:
        if "stats" not in r:
            rows.append([r["key"], "-", "-", r["message"]] + ["-"] * 9)
            continue
        status = r["record"]["status"] + ("" if r["rc"] == 0 else f" (exit {r['rc']})")
        rows.append([r["key"], r["n_tets"], f"{r['steps']}/{r['planned']}", status,
                     f"{r['max_newton']}/{r['mean_newton']:.1f}", f"{r['min_distance']:.3g}", r["penetration"],
                     f"{r['energy_lost']:.4g}", fmt(r["impact_loss"] and 100 * r["impact_loss"], ".1f") +
                     ("%" if r["impact_loss"] is not None else ""), fmt(r["restitution"], ".3f"),
                     fmt(r["compression"] and 100 * r["compression"], ".1f") + ("%" if r["compression"] else ""),
                     fmt(r["drift"], ".2e"), f"{r['wall']:.1f}"])
    with open(os.path.join(args.out, "ipc_contact.csv"), "w", newline="") as f:
        csv.writer(f).writerows([header] + rows)
    print(f"IPC contact scenes ({'quick' if args.quick else 'full'} mode), simrun be unless named, --threads 1")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")

    failed = []
    for r in runs:
        if r["rc"] != 0:
            failed.append(f"{r['key']}: {r['message']} (rerun: {r['cmd']})")
            continue
        extra = []
        if r["plane_gap"] < math.inf:
            extra.append(f"lowest vertex {r['plane_gap']:.3g} m above the plane over {len(r['frames']['t'])} frames")
        if r["spike_depth"] is not None:
            extra.append(f"ball vertices stay {-r['spike_depth']:.3g} m or more outside the spike")
        if "momentum_drift" in r:
            extra.append(f"|total momentum| <= {r['momentum_drift']:.2g} kg m/s")
        ball_E = r["frames"]["E"][r["frames"]["tet_object"] == 0]
        if len(np.unique(ball_E)) > 1:  # the stressball's core (sphere region)
            extra.append(f"{int((ball_E < ball_E.max()).sum())} of {len(ball_E)} tets in the core "
                         f"(E {ball_E.min():g}), the rest E {ball_E.max():g}")
        if r["friction_work"]:
            extra.append(f"friction work {r['friction_work']:.4g} J")
        if "drift_total" in r:
            extra.append(f"top box over the run: horizontal {r['drift_total']:.2e}, vertical "
                         f"{r['drift_vertical']:.2e} of its size; second half: horizontal {r['drift']:.2e}, "
                         f"vertical {r['drift_vertical_half']:.2e}; creep rate {r['creep']:.3g} m/s = "
                         f"{r['creep'] / r['epsv']:.3g} eps_v")
        print(f"{r['key']}: " + "; ".join(extra))
        for name, ok in r["checks"]:
            print(f"  {'ok ' if ok else 'FAIL'} {name}")
            if not ok:
                failed.append(f"{r['key']}: {name} (rerun: {r['cmd']})")
    plot(runs, args.out, args.format)
    print(f"wrote {os.path.join(args.out, 'ipc_contact.csv')}")
    if failed:
        sys.exit("failed:\n  " + "\n  ".join(failed))


if __name__ == "__main__":
    main()
