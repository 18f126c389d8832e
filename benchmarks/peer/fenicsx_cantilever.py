#!/usr/bin/python3
"""The peer benchmark's FEniCSx side (dolfinx 0.5.2, Debian's python3-dolfinx).

Runs the cantilever of benchmarks/scenes/peer_cantilever.json on the same nodes and tets as
simrun (read from simrun's step-0 VTU frame), with the same time stepping, and writes the final
displacement per node (ordered like the VTU's points) for the comparison:

  linear:     semi-implicit (= backward) Euler, simrun's `si`:
              (M + h^2 K) dv = h (f - K u - h K v),  v += dv,  u += h v;
              M + h^2 K factorized once, one K mat-vec and one solve per step.
  neohookean: backward Euler, u_{n+1} solving
              M (u_{n+1} - u_n - h v_n) / h^2 + f_int(u_{n+1}) - f_ext = 0
              by dolfinx's NewtonSolver with the exact Jacobian.

Linear solver: PETSc KSP 'preonly' with a direct factorization, MUMPS Cholesky (the SPD systems
here), which also runs on several MPI ranks.

usage: fenicsx_cantilever.py MESH.vtu MODEL STEPS OUT.npy
"""
import os
import resource
import sys
import time

import numpy as np
import ufl
from dolfinx import fem, mesh, nls
from dolfinx.fem.petsc import NonlinearProblem, assemble_matrix, assemble_vector, set_bc
from mpi4py import MPI
from petsc4py import PETSc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402

E, NU, RHO, DT, GRAVITY = 1e5, 0.3, 1000.0, 0.01, 9.81


def main():
    vtu, model, steps, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    comm = MPI.COMM_WORLD
    start = time.perf_counter()
    mesh_data = simrun.read_vtu(vtu) if comm.rank == 0 else None
    points, tets = (mesh_data.points, mesh_data.tets) if mesh_data else (np.zeros((0, 3)), np.zeros((0, 4), np.int64))
    domain = ufl.Mesh(ufl.VectorElement("Lagrange", ufl.tetrahedron, 1))
    msh = mesh.create_mesh(comm, tets, points, domain)
    V = fem.VectorFunctionSpace(msh, ("Lagrange", 1))
    x_min = comm.allreduce(points[:, 0].min() if len(points) else np.inf, op=MPI.MIN)
    clamped = fem.locate_dofs_geometrical(V, lambda x: np.isclose(x[0], x_min))
    bc = fem.dirichletbc(np.zeros(3, dtype=PETSc.ScalarType), clamped, V)

    mu, lmbda = E / (2 * (1 + NU)), E * NU / ((1 + NU) * (1 - 2 * NU))
    w, du = ufl.TestFunction(V), ufl.TrialFunction(V)
    g = fem.Constant(msh, PETSc.ScalarType((0.0, -GRAVITY, 0.0)))
    u, v = fem.Function(V), fem.Function(V)
    solve_seconds = 0.0

    if model == "linear":
        eps = lambda a: ufl.sym(ufl.grad(a))
        sigma = lambda a: 2 * mu * eps(a) + lmbda * ufl.tr(eps(a)) * ufl.Identity(3)
        k_form = fem.form(ufl.inner(sigma(du), eps(w)) * ufl.dx)
        a_form = fem.form(RHO * ufl.inner(du, w) * ufl.dx + DT * DT * ufl.inner(sigma(du), eps(w)) * ufl.dx)
        f_form = fem.form(RHO * ufl.inner(g, w) * ufl.dx)
        A = assemble_matrix(a_form, bcs=[bc])
        A.assemble()
        K = assemble_matrix(k_form, bcs=[bc], diagonal=0.0)
        K.assemble()
        f = assemble_vector(f_form)
        f.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
        ksp = PETSc.KSP().create(comm)
        ksp.setOperators(A)
        ksp.setType("preonly")
        ksp.getPC().setType("cholesky")
        ksp.getPC().setFactorSolverType("mumps")
        rhs, dv, work = A.createVecRight(), A.createVecRight(), A.createVecRight()
        for _ in range(steps):
            t0 = time.perf_counter()
            # rhs = h (f - K (u + h v))
            work.waxpy(DT, v.vector, u.vector)
            K.mult(work, rhs)
            rhs.aypx(-1.0, f)
            rhs.scale(DT)
            set_bc(rhs, [bc], scale=0.0)
            ksp.solve(rhs, dv)
            v.vector.axpy(1.0, dv)
            u.vector.axpy(DT, v.vector)
            solve_seconds += time.perf_counter() - t0
        newton_iterations = 0
    else:
        u_n, v_n = fem.Function(V), fem.Function(V)
        F = ufl.variable(ufl.Identity(3) + ufl.grad(u))
        J = ufl.det(F)
        psi = mu / 2 * (ufl.tr(F.T * F) - 3) - mu * ufl.ln(J) + lmbda / 2 * ufl.ln(J) ** 2
        P = ufl.diff(psi, F)
        residual = (RHO / DT ** 2 * ufl.inner(u - u_n - DT * v_n, w) * ufl.dx
                    + ufl.inner(P, ufl.grad(w)) * ufl.dx - RHO * ufl.inner(g, w) * ufl.dx)
        problem = NonlinearProblem(residual, u, bcs=[bc])
        solver = nls.petsc.NewtonSolver(comm, problem)
        solver.convergence_criterion = "incremental"
        solver.rtol = 1e-8
        solver.atol = 1e-10
        solver.max_it = 50
        ksp = solver.krylov_solver
        ksp.setType("preonly")
        ksp.getPC().setType("cholesky")
        ksp.getPC().setFactorSolverType("mumps")
        newton_iterations = 0
        for _ in range(steps):
            t0 = time.perf_counter()
            u_n.x.array[:] = u.x.array
            v_n.x.array[:] = v.x.array
            u.x.array[:] = u_n.x.array + DT * v_n.x.array  # predictor: constant velocity
            iterations, converged = solver.solve(u)
            assert converged
            newton_iterations += iterations
            v.x.array[:] = (u.x.array - u_n.x.array) / DT
            u.x.scatter_forward()
            solve_seconds += time.perf_counter() - t0

    # Final displacement per original node: dof coordinates matched to the VTU points.
    coords = V.tabulate_dof_coordinates()
    n_owned = V.dofmap.index_map.size_local
    values = u.x.array.reshape(-1, 3)[:n_owned]
    rss_total = comm.reduce(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, op=MPI.SUM, root=0)
    gathered_coords = comm.gather(coords[:n_owned], root=0)
    gathered_values = comm.gather(values, root=0)
    if comm.rank == 0:
        coords, values = np.vstack(gathered_coords), np.vstack(gathered_values)
        spacing = np.array([np.diff(np.unique(points[:, i]))[0] for i in range(3)])
        key = lambda c: tuple(np.rint((c - points.min(axis=0)) / spacing).astype(np.int64).T)
        index = {k: i for i, k in enumerate(zip(*key(points)))}
        result = np.zeros_like(points)
        for k, value in zip(zip(*key(coords)), values):
            result[index[k]] = value
        np.save(out, result)
        print(f"fenicsx: {model} {steps} steps, {len(tets)} tets, ranks {comm.size}, "
              f"newton_iterations {newton_iterations}, stepping {solve_seconds:.3f} s, "
              f"total {time.perf_counter() - start:.3f} s, rss_total_mib {rss_total / 1024:.0f}")


if __name__ == "__main__":
    main()
