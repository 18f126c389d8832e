/// Linear solves, the SI step and modes on the ~49k-tet bar fixed at its -x end, linear material.
/// SI system A = M + h D + h^2 K with h = 0.01, lumped mass, D = beta K_rest (beta = 0.01).
#include <benchmark/benchmark.h>

#include "bench_model.hpp"
#include "core/parallel.hpp"
#include "integrate/integrator.hpp"
#include "material/material.hpp"
#include "solve/eigen_solver.hpp"
#include "solve/linear_solver.hpp"

namespace simrun::bench {
namespace {

constexpr double kStep = 0.01;
constexpr double kBeta = 0.01;

struct SolverFixture {
  Bar bar = make_bar();
  std::unique_ptr<Model> model = make_bar_model(bar, kBeta);
  VecX q0;
  SpMat K;  ///< rest stiffness (free DOFs)
  SpMat A;  ///< M + h D + h^2 K

  SolverFixture() {
    set_thread_count(1);
    q0 = model->restrict_vector(model->rest_positions());
    model->stiffness(q0, K, /*project_psd=*/false);
    SpMat D;
    model->damping_matrix(K, D);
    A = model->mass() + kStep * D + kStep * kStep * K;
    A.makeCompressed();
  }
};

SolverFixture& fixture() {
  static SolverFixture f;
  return f;
}

VecX test_rhs(int n) {
  VecX b(n);
  for (int i = 0; i < n; ++i) b(i) = 1.0 + 0.001 * (i % 97);
  return b;
}

void BM_CholmodFactorize(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.A) != Status::kSuccess) state.SkipWithError("factorize failed");
  for (auto _ : state) benchmark::DoNotOptimize(solver->factorize(f.A));
  state.counters["dofs"] = f.A.rows();
}

void BM_CholmodFactorizeK(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.K) != Status::kSuccess) state.SkipWithError("factorize failed");
  for (auto _ : state) benchmark::DoNotOptimize(solver->factorize(f.K));
}

void BM_CholmodSolve(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.A) != Status::kSuccess) state.SkipWithError("factorize failed");
  const VecX b = test_rhs(static_cast<int>(f.A.rows()));
  VecX x(b.size());
  for (auto _ : state) {
    solver->solve(b, x);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
}

/// The pieces of an SI step besides the back-solve, for attributing its cost.
void BM_ModelGradient(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  VecX q = f.q0 + 0.001 * test_rhs(static_cast<int>(f.q0.size()));
  VecX g;
  for (auto _ : state) {
    f.model->potential_gradient(q, g);
    benchmark::DoNotOptimize(g.data());
    benchmark::ClobberMemory();
  }
}

void BM_SpMV(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  const VecX v = test_rhs(static_cast<int>(f.A.rows()));
  VecX y(v.size());
  for (auto _ : state) {
    y.noalias() = f.A * v;
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
}

void BM_SiStep(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  auto integrator = make_integrator("si", {});
  State s;
  s.q = f.q0;
  s.v = VecX::Zero(f.q0.size());
  for (int i = 1; i < s.v.size(); i += 3) s.v(i) = 0.01;  // gentle transverse motion
  StepStats warm;
  if (integrator->step(*f.model, s, kStep, warm) != Status::kSuccess) {
    state.SkipWithError("warm-up step failed");
  }
  int factorizations = 0;
  for (auto _ : state) {
    StepStats st;
    if (integrator->step(*f.model, s, kStep, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    factorizations += st.factorizations;
  }
  state.counters["factorizations"] = factorizations;  // 0: the factor is reused
}

/// SI with a material whose stiffness changes every step (neo-Hookean): K(q) is assembled and
/// M + hD + h^2 K refactored every step. Compared with BM_CholmodFactorize + BM_CholmodSolve.
void BM_SiStepNeoHookean(benchmark::State& state) {
  auto& f = fixture();
  static const auto model = make_bar_model(f.bar, kBeta, make_material("neohookean"));
  set_thread_count(static_cast<int>(state.range(0)));
  auto integrator = make_integrator("si", {});
  State s;
  s.q = f.q0;
  s.v = VecX::Zero(f.q0.size());
  for (int i = 1; i < s.v.size(); i += 3) s.v(i) = 0.01;
  StepStats warm;
  if (integrator->step(*model, s, kStep, warm) != Status::kSuccess) state.SkipWithError("warm-up");
  int factorizations = 0;
  for (auto _ : state) {
    StepStats st;
    if (integrator->step(*model, s, kStep, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    factorizations += st.factorizations;
  }
  state.counters["factorizations_per_step"] =
      benchmark::Counter(factorizations, benchmark::Counter::kAvgIterations);
  set_thread_count(1);
}

/// modes -n 10 with the eigensolver's symbolic analysis reused (as SIERE and EigenFit reuse it
/// every step, and a second `modes` call would): numeric factorization of K - sigma M, Lanczos
/// from a fixed start vector (no warm start: the subspace is forgotten every time), and the
/// Rayleigh-Ritz step. Compared with BM_CholmodFactorizeK.
void BM_Modes10(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  GeneralizedEigenSolver solver;
  solver.compute(f.K, f.model->mass(), 10);  // the symbolic analysis
  for (auto _ : state) {
    solver.forget_subspace();
    auto r = solver.compute(f.K, f.model->mass(), 10);
    if (r.status != Status::kSuccess) {
      state.SkipWithError("eigen solve failed");
      break;
    }
    state.counters["lambda0"] = r.values(0);
    state.counters["spectra_iterations"] = r.iterations;
    state.counters["back_solves"] = r.operator_products;
  }
}

/// The same, including the symbolic analysis (a one-off `simrun modes`).
void BM_Modes10Cold(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(1);
  for (auto _ : state) {
    auto r = smallest_generalized_eigenpairs(f.K, f.model->mass(), 10);
    if (r.status != Status::kSuccess) {
      state.SkipWithError("eigen solve failed");
      break;
    }
  }
}

}  // namespace

BENCHMARK(BM_CholmodFactorize)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_CholmodFactorizeK)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_CholmodSolve)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_ModelGradient)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_SpMV)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_SiStep)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_SiStepNeoHookean)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);
BENCHMARK(BM_Modes10Cold)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Modes10)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace simrun::bench
