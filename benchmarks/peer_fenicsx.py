#!/usr/bin/python3
"""simrun against FEniCSx (dolfinx 0.5.2, Debian's python3-dolfinx) on the same cantilever.

The scene is benchmarks/scenes/peer_cantilever.json: box [3, 0.5, 0.5] m, cells [72, 12, 12]
split 5 (51,840 tets), clamped at -x, gravity, E = 1e5, nu = 0.3, rho = 1000, consistent mass,
h = 0.01. FEniCSx reads simrun's nodes and tets (benchmarks/peer/fenicsx_cantilever.py), steps
the same equations and solves with PETSc's MUMPS Cholesky (KSP preonly). Workloads:

  linear      300 steps, simrun `si` = backward Euler for a linear material
  neohookean  8 steps of backward Euler (Newton; FEniCSx with its exact-Jacobian NewtonSolver)

Each cell is timed as whole-process wall time, FEniCSx and simrun alternating (A B A B ...,
`--repeats` each), on 1 thread (FEniCSx: 1 rank, simrun --threads 1, BLAS/OpenMP limited to 1)
and 2 threads (FEniCSx: 2 MPI ranks of 1 thread, simrun --threads 2). Prints the medians, the
ratio FEniCSx time / simrun time (above 1: simrun is faster), the Newton iterations, the peak
resident memory (FEniCSx: the sum over its ranks), and how far the two final displacements are
apart (max |du| / max |u|). Without python3-dolfinx it says so and exits 0.

    benchmarks/peer_fenicsx.py [--simrun build/apps/simrun/simrun] [--repeats 2] [--quick]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "benchmarks", "peer")
SCENE = os.path.join(ROOT, "benchmarks", "scenes", "peer_cantilever.json")
sys.path.insert(0, os.path.join(ROOT, "python"))
import simrun  # noqa: E402


def have_dolfinx():
    probe = subprocess.run(["/usr/bin/python3", "-c", "import dolfinx"], capture_output=True)
    return probe.returncode == 0


def timed(cmd, env):
    """(wall seconds, peak RSS MiB, stdout) of cmd under /usr/bin/time."""
    result = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, env=env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{result.stdout}\n{result.stderr}")
    line = [l for l in result.stderr.splitlines() if l.startswith("TIME ")][-1].split()
    return float(line[1]), float(line[2]) / 1024.0, result.stdout + result.stderr


def simrun_args(model, steps, threads, out, cells):
    """The `simrun run` arguments of one workload."""
    sets = {"/output": {"frames": ["vtu"], "every": 1000000}}
    if cells:
        sets["/objects/0/mesh/box/cells"] = cells
    if model == "neohookean":
        sets.update({"/objects/0/material/model": "neohookean", "/integrator/type": "be"})
    return simrun.run_arguments(SCENE, out, sets, steps=steps, threads=threads, force=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--simrun", help="the simrun binary (default: $SIMRUN_BINARY, else build/apps/simrun/simrun)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="a 12x2x2 mesh (checks the setup)")
    args = parser.parse_args()
    if not have_dolfinx():
        print("peer_fenicsx: skipped: python3-dolfinx is not installed "
              "(apt-get install python3-dolfinx to run the FEniCSx comparison)")
        return 0
    import numpy as np

    cells = [12, 2, 2] if args.quick else None
    work = tempfile.mkdtemp(prefix="simrun_peer_")
    mesh_run = os.path.join(work, "mesh")
    simrun.call(simrun_args("linear", 0, 1, mesh_run, cells), binary=args.simrun, check=True)
    mesh_vtu = os.path.join(mesh_run, "frames", "000000.vtu")
    one = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", OMP_THREAD_LIMIT="1")
    fenicsx = ["/usr/bin/python3", os.path.join(PEER, "fenicsx_cantilever.py"), mesh_vtu]
    # Warm FEniCSx's form compiler cache (its first run compiles C code).
    for model in ("linear", "neohookean"):
        subprocess.run(fenicsx + [model, "1", os.path.join(work, "warm.npy")], env=one,
                       check=True, capture_output=True)

    workloads = [("linear", 300), ("neohookean", 8)]
    rows = []
    for model, steps in workloads:
        for threads in (1, 2):
            fx_cmd = fenicsx + [model, str(steps), os.path.join(work, f"{model}.npy")]
            if threads > 1:
                fx_cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", str(threads),
                          "-x", "OMP_NUM_THREADS", "-x", "OPENBLAS_NUM_THREADS"] + fx_cmd
            out = os.path.join(work, f"simrun_{model}_{threads}")
            # Timed under /usr/bin/time (its peak RSS) like FEniCSx, hence no simrun.call here.
            sr_cmd = [simrun.find_binary(args.simrun)] + simrun_args(model, steps, threads, out, cells)
            fx_times, sr_times, fx_mem, sr_mem, fx_text = [], [], [], [], ""
            for _ in range(args.repeats):
                t, m, fx_text = timed(fx_cmd, one)
                fx_times.append(t)
                fx_mem.append(m)
                t, m, _ = timed(sr_cmd, dict(os.environ))
                sr_times.append(t)
                sr_mem.append(m)
            newton_fx = fx_text.split("newton_iterations ")[1].split(",")[0]
            # Peak memory of all FEniCSx ranks together (the ranks report their own peaks).
            fx_mem = [float(fx_text.split("rss_total_mib ")[1].split()[0])]
            result = simrun.read_run(out)
            newton_sr = sum(int(n) for n in result.stats["newton_iters"].tolist())
            use = result.record["thread_use"]
            u_sr = simrun.read_vtu(result.path("frames", f"{steps:06d}.vtu")).point_data["displacement"]
            u_fx = np.load(os.path.join(work, f"{model}.npy"))
            difference = np.abs(u_sr - u_fx).max() / np.abs(u_sr).max()
            fx, sr = statistics.median(fx_times), statistics.median(sr_times)
            rows.append((model, steps, threads, fx, sr, fx / sr, newton_fx, newton_sr,
                         max(fx_mem), max(sr_mem), difference, use))
    print(f"{'workload':12s} {'steps':>5s} {'thr':>3s} {'FEniCSx s':>9s} {'simrun s':>9s} "
          f"{'ratio':>6s} {'Newton FX/SR':>12s} {'RSS FX/SR MiB':>14s} {'max|du|/max|u|':>14s}")
    for model, steps, threads, fx, sr, ratio, nfx, nsr, mfx, msr, diff, use in rows:
        newton = f"{nfx}/{nsr}" if model != "linear" else "-"
        print(f"{model:12s} {steps:5d} {threads:3d} {fx:9.2f} {sr:9.2f} {ratio:6.2f} "
              f"{newton:>12s} {mfx:6.0f}/{msr:<7.0f} {diff:14.2e}")
    print("simrun thread use (run.json, last run of each cell): " +
          "; ".join(f"{r[0]} {r[2]}: blas {r[11]['blas']}, openmp {r[11]['openmp']}, "
                    f"alive {r[11]['alive']}" for r in rows))
    print("FEniCSx: PETSc KSP preonly + MUMPS Cholesky; 1 thread = 1 rank with OMP/OpenBLAS "
          "limited to 1, 2 threads = mpirun -n 2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
