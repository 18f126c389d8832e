#!/usr/bin/python3
"""Survey (Ascher et al.) Figs. 8 and 9, Sec. 5: the contact barrier b(x; delta) for decreasing
delta (eq. 28) and the friction smoothing s(x; eps) for decreasing eps (eq. 32c), drawn from
simrun's own C++ functions: apps/contact_curves samples contact/barrier.hpp's barrier() and
contact/friction_pair.hpp's friction_f1()/friction_f0() and prints CSV; this script only plots
and checks what it prints.

How the code's functions relate to the survey's (Secs. 5.1-5.2):
- Barrier: simrun evaluates eq. (28) on squared distances, b(d^2, d_hat^2) =
  -(d^2 - d_hat^2)^2 ln(d^2 / d_hat^2) (IPC's form; x = d^2, delta = d_hat^2 in eq. 28), and
  the contact term multiplies it by kappa (docs/contact.md). Curves: d_hat = 1, 0.5, 0.25, 0.1 m
  (the paper gives no values; the function is scale-free, b = d_hat^4 beta(d / d_hat)).
- Friction: simrun's mollifier works on the tangential displacement over a step, y, with the
  threshold s = eps_v h (FrictionTerm::threshold(), h = the scene's dt):
  f1(y, s) = 2y/s - y^2/s^2 below s, 1 above. With y = v h this is the survey's
  s(v; eps_v) = 2v/eps_v - v^2/eps_v^2 exactly, so it is plotted against the speed v = y / h and
  does not depend on h. f0 (f0' = f1) is the lagged friction potential's profile. Curves:
  eps_v = 1e-2, 5e-3, 2.5e-3, 1e-3 m/s (1e-3 is IPC's and simrun's default), h = 0.01 s.

Checks (exit 1 if one fails; they can fail if the C++ functions change):
- barrier: b = 0 for every d >= d_hat; b > 0 and strictly decreasing on (0, d_hat), i.e. it
  grows as d -> 0, like -d_hat^4 ln(d^2 / d_hat^2) (ratio within 1 % at the smallest d); a
  smaller d_hat gives a smaller barrier everywhere (the curves are nested);
- friction: f1(0) = 0, f1 = 1 for v >= eps_v, f1 nondecreasing in [0, 1]; f1 tends to the
  Coulomb step function as eps_v -> 0: the gap int |1 - f1| dv equals eps_v / 3 (to 1 %) and
  shrinks with eps_v; f0' = f1 (difference quotients of the printed f0).

Writes OUT/survey_fig8_barrier.csv, OUT/survey_fig9_friction.csv (the tool's output) and
OUT/survey_fig8_barrier.png, OUT/survey_fig9_friction.png.

usage: scripts/figures/survey_fig8_9_contact.py [--contact-curves PATH] [--out DIR] [--quick]
                                                [--format png|pdf|svg[,...]]
(--quick: the same curves with 400 instead of 2000 samples; both take well under a second.)
"""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
from simrun import plotting  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DHATS = [1.0, 0.5, 0.25, 0.1]
EPSVS = [1e-2, 5e-3, 2.5e-3, 1e-3]
DT = 0.01


def curves(tool, args, out_path):
    """Runs contact_curves, saves its CSV and returns (header, columns as float lists)."""
    text = subprocess.run([tool] + args, check=True, stdout=subprocess.PIPE, text=True).stdout
    with open(out_path, "w") as f:
        f.write(text)
    table = simrun.read_csv(out_path)
    return table.columns, {h: column.tolist() for h, column in table.items()}


def check_barrier(data):
    d = data["d"]
    results = []
    for dhat in DHATS:
        b = data[f"b_dhat={dhat:g}"]
        outside = [bi for di, bi in zip(d, b) if di >= dhat]
        inside = [bi for di, bi in zip(d, b) if di < dhat]
        results.append((f"d_hat = {dhat:g}: b = 0 for d >= d_hat ({len(outside)} samples)",
                        len(outside) > 0 and all(bi == 0.0 for bi in outside)))
        results.append((f"d_hat = {dhat:g}: b > 0 and grows as d -> 0 on (0, d_hat) ({len(inside)} samples)",
                        len(inside) > 2 and all(bi > 0 for bi in inside)
                        and all(a > c for a, c in zip(inside, inside[1:]))))
        log_limit = -dhat ** 4 * math.log(d[0] ** 2 / dhat ** 2)
        results.append((f"d_hat = {dhat:g}: b(d_min) / (-d_hat^4 ln(d_min^2/d_hat^2)) = {b[0] / log_limit:.4f} "
                        "(log singularity, within 1 %)", abs(b[0] / log_limit - 1) < 0.01))
    nested = all(x >= y for big, small in zip(DHATS, DHATS[1:])
                 for x, y in zip(data[f"b_dhat={big:g}"], data[f"b_dhat={small:g}"]))
    results.append(("a smaller d_hat gives a smaller barrier at every d (nested curves)", nested))
    return results


def check_friction(data):
    v, y = data["v"], data["y"]
    results, gaps = [], []
    for eps in EPSVS:
        f1, f0 = data[f"f1_epsv={eps:g}"], data[f"f0_epsv={eps:g}"]
        shape = (f1[0] == 0.0 and all(fi == 1.0 for vi, fi in zip(v, f1) if vi >= eps)
                 and all(0.0 <= fi <= 1.0 for fi in f1) and all(a <= c for a, c in zip(f1, f1[1:])))
        results.append((f"eps_v = {eps:g}: f1(0) = 0, f1 = 1 for v >= eps_v, nondecreasing in [0, 1]", shape))
        gap = sum(0.5 * (2 - f1[i] - f1[i + 1]) * (v[i + 1] - v[i]) for i in range(len(v) - 1))
        gaps.append(gap)
        results.append((f"eps_v = {eps:g}: int |1 - f1| dv = {gap:.4e} vs eps_v/3 = {eps / 3:.4e} (1 %)",
                        abs(gap / (eps / 3) - 1) < 0.01))
        # (f0(b) - f0(a)) / (b - a) is the mean of f1 over [a, b]: trapezoid error <= dy^2 / (6 s^2).
        slope_error = max(abs((f0[i + 1] - f0[i]) / (y[i + 1] - y[i]) - 0.5 * (f1[i] + f1[i + 1]))
                          for i in range(len(y) - 1))
        bound = 1.01 * (y[1] - y[0]) ** 2 / (6 * (eps * DT) ** 2) + 1e-12
        results.append((f"eps_v = {eps:g}: f0' = f1 (max difference-quotient error {slope_error:.1e} <= {bound:.1e})",
                        slope_error <= bound))
    results.append(("f1 -> step function as eps_v -> 0: the gap shrinks with every smaller eps_v",
                    all(a > b for a, b in zip(gaps, gaps[1:]))))
    return results


def plot(plt, barrier, friction, args):
    d = barrier["d"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for i, dhat in enumerate(DHATS):
        b = barrier[f"b_dhat={dhat:g}"]
        style = plotting.curve_style(i, len(d), series=len(DHATS))
        label = rf"$\hat d = {dhat:g}$ m"
        axes[0].plot(d, [x / dhat ** 4 for x in b], color=f"C{i}", label=label, **style)
        axes[1].plot(d, b, color=f"C{i}", label=label, **style)
    axes[0].set_ylim(0, 8)
    axes[0].set_ylabel(r"$b(d^2, \hat d^2) / \hat d^4$")
    axes[0].set_title(r"$b = -(d^2 - \hat d^2)^2 \ln(d^2/\hat d^2)$ for $d < \hat d$, scaled by $\hat d^{-4}$",
                      fontsize=10)
    axes[1].set_yscale("log")
    axes[1].set_ylim(1e-8, None)
    axes[1].set_ylabel(r"$b(d^2, \hat d^2)$ [m$^4$]")
    axes[1].set_title("unscaled, logarithmic axis ($b = 0$ for $d \\geq \\hat d$)", fontsize=10)
    for ax in axes:
        ax.set_xlabel(r"distance $d$ [m]")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("Survey Fig. 8: simrun's barrier (contact/barrier.hpp) for decreasing $\\hat d$", fontsize=10)
    fig.tight_layout()
    plotting.save_figure(fig, args.out, "survey_fig8_barrier", args.format)

    v = [x * 1e3 for x in friction["v"]]  # mm/s
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    vmax = max(v)
    axes[0].plot([0, 0, vmax], [0, 1, 1], color="k", linewidth=1, linestyle=(0, (1, 1)), label="Coulomb (step)")
    for i, eps in enumerate(EPSVS):
        style = plotting.curve_style(i, len(v), series=len(EPSVS))
        label = rf"$\epsilon_v = {plotting.sci(eps)}$ m/s"
        axes[0].plot(v, friction[f"f1_epsv={eps:g}"], color=f"C{i}", label=label, **style)
        axes[1].plot(v, [1e3 * f / DT for f in friction[f"f0_epsv={eps:g}"]], color=f"C{i}", label=label, **style)
    axes[1].plot([0, vmax], [0, vmax], color="k", linewidth=1, linestyle=(0, (1, 1)), label=r"$|v|$ (Coulomb)")
    axes[0].set_ylabel(r"$f_1(v h,\ \epsilon_v h)$ = survey $s(v; \epsilon_v)$")
    axes[0].set_title("friction magnitude / $\\mu\\lambda$", fontsize=10)
    axes[1].set_ylabel(r"$f_0(v h,\ \epsilon_v h) / h$ [mm/s]")
    axes[1].set_title(r"lagged potential profile ($f_0' = f_1$)", fontsize=10)
    for ax in axes:
        ax.set_xlabel(r"tangential speed $v = y / h$ [mm/s]")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"Survey Fig. 9: simrun's friction mollifier (contact/friction_pair.hpp), $h = {DT:g}$ s",
                 fontsize=10)
    fig.tight_layout()
    plotting.save_figure(fig, args.out, "survey_fig9_friction", args.format)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--contact-curves",
                        default=os.path.join(ROOT, "build", "apps", "contact_curves", "contact_curves"))
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "figures"))
    parser.add_argument("--quick", action="store_true", help="400 samples per curve instead of 2000")
    plotting.add_format_argument(parser)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    points = "400" if args.quick else "2000"
    barrier_csv = os.path.join(args.out, "survey_fig8_barrier.csv")
    friction_csv = os.path.join(args.out, "survey_fig9_friction.csv")
    _, barrier = curves(args.contact_curves, ["barrier", "--points", points] + [f"{x:g}" for x in DHATS],
                        barrier_csv)
    _, friction = curves(args.contact_curves, ["friction", "--points", points, "--dt", f"{DT:g}"]
                         + [f"{x:g}" for x in EPSVS], friction_csv)

    print("Survey Fig. 8: b(d^2, d_hat^2) at a few distances (from contact_curves)")
    probes = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0]
    print(f"{'d [m]':>8} " + " ".join(f"{'d_hat=' + format(dh, 'g'):>12}" for dh in DHATS))
    for p in probes:
        i = min(range(len(barrier["d"])), key=lambda k: abs(barrier["d"][k] - p))
        print(f"{barrier['d'][i]:>8.4g} " + " ".join(f"{barrier[f'b_dhat={dh:g}'][i]:>12.4e}" for dh in DHATS))
    print("Survey Fig. 9: f1 at a few speeds (h = 0.01 s, s = eps_v h)")
    print(f"{'v [m/s]':>8} " + " ".join(f"{'eps_v=' + format(e, 'g'):>13}" for e in EPSVS))
    for p in [0.0, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2]:
        i = min(range(len(friction["v"])), key=lambda k: abs(friction["v"][k] - p))
        print(f"{friction['v'][i]:>8.4g} " + " ".join(f"{friction[f'f1_epsv={e:g}'][i]:>13.4f}" for e in EPSVS))

    results = check_barrier(barrier) + check_friction(friction)
    for text, ok in results:
        print(f"  {'yes' if ok else 'NO '}  {text}")
    plt = plotting.pyplot()
    if plt:
        plot(plt, barrier, friction, args)
    print(f"wrote {barrier_csv}")
    print(f"wrote {friction_csv}")
    if not all(ok for _, ok in results):
        sys.exit("a check failed")


if __name__ == "__main__":
    main()
