/// Elastic energy / gradient / Hessian assembly on a ~49k-tet bar, linear material, and one
/// Newton-iteration's worth of neo-Hookean assembly. items_per_second = tets per second.
#include <benchmark/benchmark.h>

#include "bench_model.hpp"
#include "core/parallel.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun::bench {
namespace {

struct AssemblyFixture {
  Bar bar = make_bar();
  std::unique_ptr<ElasticEnergy> energy = make_elastic(bar);
  std::unique_ptr<ElasticEnergy> neohookean =
      make_elastic(bar, std::shared_ptr<const Material>(make_material("neohookean")));
  DofMap dofs{bar.mesh.num_vertices(), {}};
  SpMat pattern;
  VecX x;

  AssemblyFixture() {
    pattern = build_tet_pattern(bar.mesh.tets, dofs);
    energy->bind(pattern, dofs);
    neohookean->bind(pattern, dofs);
    // A small smooth deformation so the state is not exactly the rest state.
    x = as_flat(bar.mesh.vertices);
    for (int i = 0; i < bar.mesh.num_vertices(); ++i) {
      const double s = bar.mesh.vertices(i, 0);
      x(3 * i + 1) += 0.01 * s * s;
    }
  }
};

AssemblyFixture& fixture() {
  static AssemblyFixture f;
  return f;
}

void BM_ElasticEnergy(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.energy->energy(f.x));
  state.SetItemsProcessed(state.iterations() * f.bar.mesh.num_tets());
}

void BM_ElasticGradient(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(static_cast<int>(state.range(0)));
  VecX g(f.x.size());
  for (auto _ : state) {
    g.setZero();
    f.energy->add_gradient(f.x, g);
    benchmark::DoNotOptimize(g.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * f.bar.mesh.num_tets());
}

void BM_ElasticHessian(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(static_cast<int>(state.range(0)));
  SpMat K = f.pattern;
  Eigen::Map<VecX> values(K.valuePtr(), K.nonZeros());
  for (auto _ : state) {
    values.setZero();
    f.energy->add_hessian(f.x, K.valuePtr(), /*project_psd=*/false);
    benchmark::DoNotOptimize(K.valuePtr());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * f.bar.mesh.num_tets());
  state.counters["tets"] = f.bar.mesh.num_tets();
}

/// Energy + gradient + PSD-projected Hessian of the neo-Hookean bar (what one projected Newton
/// iteration assembles). Target: >= 300k tets/s on one thread.
void BM_NeoHookeanEnergyGradientHessianPsd(benchmark::State& state) {
  auto& f = fixture();
  set_thread_count(static_cast<int>(state.range(0)));
  VecX g(f.x.size());
  SpMat K = f.pattern;
  Eigen::Map<VecX> values(K.valuePtr(), K.nonZeros());
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.neohookean->energy(f.x));
    g.setZero();
    f.neohookean->add_gradient(f.x, g);
    values.setZero();
    f.neohookean->add_hessian(f.x, K.valuePtr(), /*project_psd=*/true);
    benchmark::DoNotOptimize(g.data());
    benchmark::DoNotOptimize(K.valuePtr());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * f.bar.mesh.num_tets());
}

}  // namespace

BENCHMARK(BM_NeoHookeanEnergyGradientHessianPsd)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ElasticEnergy)
    ->ArgName("threads")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ElasticGradient)
    ->ArgName("threads")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ElasticHessian)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace simrun::bench
