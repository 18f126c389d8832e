/// Linear solves, the SI step and modes on the ~49k-tet bar fixed at its -x end, linear material.
/// SI system A = M + h D + h^2 K with h = 0.01, lumped mass, D = beta K_rest (beta = 0.01).
#include <benchmark/benchmark.h>

#include <chrono>

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
    use_threads(1);
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
  use_threads(1);
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.A) != Status::kSuccess) state.SkipWithError("factorize failed");
  for (auto _ : state) benchmark::DoNotOptimize(solver->factorize(f.A));
  state.counters["dofs"] = f.A.rows();
}

void BM_CholmodFactorizeK(benchmark::State& state) {
  auto& f = fixture();
  use_threads(1);
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.K) != Status::kSuccess) state.SkipWithError("factorize failed");
  for (auto _ : state) benchmark::DoNotOptimize(solver->factorize(f.K));
}

void BM_CholmodSolve(benchmark::State& state) {
  auto& f = fixture();
  use_threads(1);
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
  use_threads(1);
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
  use_threads(1);
  const VecX v = test_rhs(static_cast<int>(f.A.rows()));
  VecX y(v.size());
  for (auto _ : state) {
    y.noalias() = f.A * v;
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
}

/// One SI step of the linear bar (constant matrix: force from one product with K, one
/// back-solve). Each iteration also times a bare back-solve with the same factorization, right
/// after the step: the counter step_per_solve is their ratio over the run, immune to the drift
/// of a shared machine between separately timed benchmarks.
void BM_SiStep(benchmark::State& state) {
  auto& f = fixture();
  use_threads(1);
  auto integrator = make_integrator("si", {});
  State s;
  s.q = f.q0;
  s.v = VecX::Zero(f.q0.size());
  for (int i = 1; i < s.v.size(); i += 3) s.v(i) = 0.01;  // gentle transverse motion
  StepStats warm;
  if (integrator->step(*f.model, s, kStep, warm) != Status::kSuccess) {
    state.SkipWithError("warm-up step failed");
  }
  auto solver = make_cholmod_solver();
  if (solver->factorize(f.A) != Status::kSuccess) state.SkipWithError("factorize failed");
  const VecX b = test_rhs(static_cast<int>(f.A.rows()));
  VecX x(b.size());
  int factorizations = 0;
  double step_seconds = 0.0, solve_seconds = 0.0;
  using clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto t0 = clock::now();
    StepStats st;
    if (integrator->step(*f.model, s, kStep, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    const auto t1 = clock::now();
    state.PauseTiming();
    const auto t2 = clock::now();
    solver->solve(b, x);
    benchmark::DoNotOptimize(x.data());
    const auto t3 = clock::now();
    state.ResumeTiming();
    step_seconds += std::chrono::duration<double>(t1 - t0).count();
    solve_seconds += std::chrono::duration<double>(t3 - t2).count();
    factorizations += st.factorizations;
  }
  state.counters["factorizations"] = factorizations;  // 0: the factor is reused
  if (solve_seconds > 0.0) state.counters["step_per_solve"] = step_seconds / solve_seconds;
}

/// One backward-Euler step of the neo-Hookean bar from a fixed moving state (Newton to the
/// default tolerance), with the factorization reused within the step (the scene default) or
/// exact Newton (range 0). Compared with (exact Newton iterations) x (factorization + solve).
void BM_BeStepNeoHookean(benchmark::State& state) {
  auto& f = fixture();
  static const auto model = make_bar_model(f.bar, kBeta, make_material("neohookean"));
  use_threads(1);
  IntegratorSettings settings;
  settings.newton.reuse_contraction = state.range(0) ? 0.25 : 0.0;
  auto integrator = make_integrator("be", settings);
  State start;
  start.q = f.q0;
  start.v = VecX::Zero(f.q0.size());
  for (int i = 1; i < start.v.size(); i += 3) start.v(i) = 0.05;
  double newton = 0, factorizations = 0;
  for (auto _ : state) {
    State s = start;
    StepStats st;
    if (integrator->step(*model, s, kStep, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    newton += st.newton_iters;
    factorizations += st.factorizations;
  }
  state.counters["newton_iters"] = benchmark::Counter(newton, benchmark::Counter::kAvgIterations);
  state.counters["factorizations"] =
      benchmark::Counter(factorizations, benchmark::Counter::kAvgIterations);
}

/// SI with a material whose stiffness changes every step (neo-Hookean): K(q) is assembled and
/// M + hD + h^2 K refactored every step. Compared with BM_CholmodFactorize + BM_CholmodSolve.
void BM_SiStepNeoHookean(benchmark::State& state) {
  auto& f = fixture();
  static const auto model = make_bar_model(f.bar, kBeta, make_material("neohookean"));
  use_threads(static_cast<int>(state.range(0)));
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
  use_threads(1);
}

/// modes -n 10 with the eigensolver's symbolic analysis reused (as SIERE and EigenFit reuse it
/// every step, and a second `modes` call would): numeric factorization of K - sigma M, Lanczos
/// from a fixed start vector (no warm start: the subspace is forgotten every time), and the
/// Rayleigh-Ritz step. Compared with BM_CholmodFactorizeK.
void BM_Modes10(benchmark::State& state) {
  auto& f = fixture();
  use_threads(1);
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
  use_threads(1);
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
BENCHMARK(BM_BeStepNeoHookean)
    ->ArgName("reuse")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);
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
