/// The IPC distance kernels (lib/contact/distance.hpp) on 1024 random configurations each, one
/// thread: point_triangle_distance2 and edge_edge_distance2 with and without the Hessian
/// (classification included), and the edge-edge mollifier with its Hessian. Items/s are kernel
/// calls per second.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "contact/distance.hpp"

namespace simrun::bench {
namespace {

const std::vector<Vec12>& configurations() {
  static const std::vector<Vec12> configs = [] {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Vec12> out(1024);
    for (Vec12& x : out)
      for (int i = 0; i < 12; ++i) x[i] = unit(rng);
    return out;
  }();
  return configs;
}

template <bool kHessian>
void BM_PointTriangleDistance2(benchmark::State& state) {
  const auto& configs = configurations();
  for (auto _ : state)
    for (const Vec12& x : configs) {
      const DistanceDerivatives d = point_triangle_distance2(
          x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), kHessian);
      benchmark::DoNotOptimize(d);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(configs.size()));
}
BENCHMARK(BM_PointTriangleDistance2<false>)->Name("BM_PointTriangleDistance2/gradient");
BENCHMARK(BM_PointTriangleDistance2<true>)->Name("BM_PointTriangleDistance2/hessian");

template <bool kHessian>
void BM_EdgeEdgeDistance2(benchmark::State& state) {
  const auto& configs = configurations();
  for (auto _ : state)
    for (const Vec12& x : configs) {
      const DistanceDerivatives d = edge_edge_distance2(x.segment<3>(0), x.segment<3>(3),
                                                        x.segment<3>(6), x.segment<3>(9), kHessian);
      benchmark::DoNotOptimize(d);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(configs.size()));
}
BENCHMARK(BM_EdgeEdgeDistance2<false>)->Name("BM_EdgeEdgeDistance2/gradient");
BENCHMARK(BM_EdgeEdgeDistance2<true>)->Name("BM_EdgeEdgeDistance2/hessian");

void BM_EdgeEdgeMollifier(benchmark::State& state) {
  const auto& configs = configurations();
  for (auto _ : state)
    for (const Vec12& x : configs) {
      // eps_x = 1 keeps every pair inside the mollified band (x = |a x b|^2 <= 64 here, mostly
      // below 1), so the derivatives are computed.
      const Mollifier m = edge_edge_mollifier(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6),
                                              x.segment<3>(9), 1.0, true);
      benchmark::DoNotOptimize(m);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(configs.size()));
}
BENCHMARK(BM_EdgeEdgeMollifier);

}  // namespace
}  // namespace simrun::bench
