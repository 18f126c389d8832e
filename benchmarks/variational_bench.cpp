/// Issue 8's speed targets for the variational integrators (Kharevych thesis Ch. 3):
/// - a variational-midpoint step on a linear body costs at most 2x one back-solve of its
///   prefactored matrix M + h D/2 + h^2/4 K (the ~49k-tet bar of bench_model.hpp, beta = 0.01);
/// - a Verlet step on the thesis' 160-tet rod (Figs. 3.3-3.4; 1 x 0.1 x 0.1 m, 8 x 2 x 2 cubes x
///   5 tets, neo-Hookean) costs at most 2x one elastic gradient evaluation.
/// Each benchmark times its reference operation interleaved with the step, inside the same
/// iteration, and reports their ratio as a counter (immune to a shared machine's drift).
#include <benchmark/benchmark.h>

#include <chrono>

#include "bench_model.hpp"
#include "integrate/integrator.hpp"
#include "solve/linear_solver.hpp"

namespace simrun::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void BM_VariationalMidpointLinearStep(benchmark::State& state) {
  constexpr double h = 0.01, beta = 0.01;
  static const Bar bar = make_bar();
  static const auto model = make_bar_model(bar, beta);
  use_threads(1);
  auto integrator = make_integrator("variational_midpoint", {});
  State s;
  s.q = model->restrict_vector(model->rest_positions());
  s.v = VecX::Zero(s.q.size());
  for (int i = 1; i < s.v.size(); i += 3) s.v(i) = 0.01;  // gentle transverse motion
  StepStats warm;
  if (integrator->step(*model, s, h, warm) != Status::kSuccess) state.SkipWithError("warm-up");
  // The same matrix the step factorized: M + (h/2) D + (h^2/4) K, D = beta K.
  SpMat K;
  model->stiffness(s.q, K, false);
  const SpMat A = model->mass() + (0.5 * h * beta + 0.25 * h * h) * K;
  auto solver = make_cholmod_solver();
  if (solver->factorize(A) != Status::kSuccess) state.SkipWithError("factorize failed");
  const VecX b = VecX::LinSpaced(A.rows(), -1.0, 1.0);
  VecX x(b.size());
  double step_s = 0.0, solve_s = 0.0;
  int factorizations = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    StepStats st;
    if (integrator->step(*model, s, h, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    const auto t1 = Clock::now();
    state.PauseTiming();
    const auto t2 = Clock::now();
    solver->solve(b, x);
    benchmark::DoNotOptimize(x.data());
    const auto t3 = Clock::now();
    state.ResumeTiming();
    step_s += seconds(t0, t1);
    solve_s += seconds(t2, t3);
    factorizations += st.factorizations;
  }
  state.counters["factorizations"] = factorizations;  // 0: prefactored
  if (solve_s > 0.0) state.counters["step_per_solve"] = step_s / solve_s;
}
BENCHMARK(BM_VariationalMidpointLinearStep)->Unit(benchmark::kMillisecond)->MinTime(2.0);

/// The thesis' 160-tet rod: free, neo-Hookean E = 1e5 Pa, nu = 0.3, lumped mass, undamped.
std::unique_ptr<Model> make_rod_model() {
  const TetMesh mesh = make_box(Vec3(1.0, 0.1, 0.1), Eigen::Vector3i(8, 2, 2), 5);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      elements, std::shared_ptr<const Material>(make_material("neohookean")),
      std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3)),
      mesh.num_vertices()));
  return std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), kDensity),
                                 true, DofMap(mesh.num_vertices(), {}), std::move(terms),
                                 RayleighDamping{});
}

void BM_VerletStepRod160(benchmark::State& state) {
  static const auto model = make_rod_model();
  use_threads(1);
  auto integrator = make_integrator("verlet", {});
  State s;
  s.q = model->rest_positions();
  s.v = VecX::Zero(s.q.size());
  for (int i = 0; i < s.v.size(); i += 3) s.v(i + 1) = 0.5 * s.q(i);  // bending swing
  VecX g(s.q.size());
  double step_s = 0.0, gradient_s = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    StepStats st;
    if (integrator->step(*model, s, 1e-4, st) != Status::kSuccess) {
      state.SkipWithError("step failed");
      break;
    }
    const auto t1 = Clock::now();
    g.setZero();
    model->potential_gradient(s.q, g);
    benchmark::DoNotOptimize(g.data());
    const auto t2 = Clock::now();
    step_s += seconds(t0, t1);
    gradient_s += seconds(t1, t2);
  }
  if (gradient_s > 0.0) state.counters["step_per_gradient"] = step_s / gradient_s;
}
BENCHMARK(BM_VerletStepRod160)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace simrun::bench
