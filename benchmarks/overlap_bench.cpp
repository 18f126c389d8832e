/// Tet-tet overlap volumes for numerical coarsening (issue 9; Kharevych thesis Ch. 4,
/// Sec. 4.3.7). A fine box mesh of ~197k tets (2 x 1 x 1 m, 64 x 32 x 16 cubes x 6) against a
/// coarse mesh of 640 tets (8 x 4 x 4 cubes x 5) of a 5 % larger box turned by 7 degrees about an
/// oblique axis through the centre: non-conforming, each sticking out of the other in places.
/// - BM_TetIntersectionVolume: tet_intersection_volume() over every pair with a nonzero overlap
///   (fine tet clipped by the coarse one, as tet_overlaps() calls it), one thread; target
///   >= 1e6 pairs/s. BM_TetIntersectionVolumeClipped: only the pairs where the fine tet crosses
///   a coarse face (the ones that need clipping), for information.
/// - BM_TetOverlaps: the whole tet_overlaps() (grid build, queries, clipping, sorting).
#include <benchmark/benchmark.h>

#include "coarsen/tet_overlap.hpp"
#include "core/parallel.hpp"
#include "mesh/box.hpp"
#include "mesh/transform.hpp"

namespace simrun::bench {
namespace {

struct MeshPair {
  TetMesh fine, coarse;
  std::vector<std::array<Vec3, 4>> pair_fine, pair_coarse;  ///< every overlapping pair
  std::vector<std::array<Vec3, 4>> cut_fine, cut_coarse;    ///< those that need clipping
};

const MeshPair& mesh_pair() {
  static const MeshPair pair = [] {
    MeshPair m;
    const Vec3 size(2.0, 1.0, 1.0);
    m.fine = make_box(size, Eigen::Vector3i(64, 32, 16), 6);
    m.coarse = make_box(size, Eigen::Vector3i(8, 4, 4), 5);
    transform_mesh(m.coarse, Vec3::Constant(1.05), Vec3::Zero(), 0.0, -0.525 * size);
    transform_mesh(m.coarse, Vec3::Ones(), Vec3(1, 2, 3), 7.0, 0.5 * size);
    set_thread_count(1);
    const TetOverlaps o = tet_overlaps(m.fine, m.coarse);
    for (int i = 0; i < o.size(); ++i) {
      const auto p = tet_corners(m.fine, o.fine[static_cast<size_t>(i)]);
      const auto q = tet_corners(m.coarse, o.coarse[static_cast<size_t>(i)]);
      m.pair_fine.push_back(p);
      m.pair_coarse.push_back(q);
      if (o.volume[static_cast<size_t>(i)] <
          (1 - 1e-9) * std::abs(signed_tet_volume(p[0], p[1], p[2], p[3]))) {
        m.cut_fine.push_back(p);
        m.cut_coarse.push_back(q);
      }
    }
    return m;
  }();
  return pair;
}

void run_pairs(benchmark::State& state, const std::vector<std::array<Vec3, 4>>& a,
               const std::vector<std::array<Vec3, 4>>& b) {
  double sum = 0.0;
  for (auto _ : state) {
    for (size_t i = 0; i < a.size(); ++i) sum += tet_intersection_volume(a[i], b[i]);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(a.size()));
  state.counters["pairs"] = static_cast<double>(a.size());
}

void BM_TetIntersectionVolume(benchmark::State& state) {
  const MeshPair& m = mesh_pair();
  run_pairs(state, m.pair_fine, m.pair_coarse);
}

void BM_TetIntersectionVolumeClipped(benchmark::State& state) {
  const MeshPair& m = mesh_pair();
  run_pairs(state, m.cut_fine, m.cut_coarse);
}

void BM_TetOverlaps(benchmark::State& state) {
  const MeshPair& m = mesh_pair();
  set_thread_count(static_cast<int>(state.range(0)));
  int entries = 0;
  for (auto _ : state) {
    const TetOverlaps o = tet_overlaps(m.fine, m.coarse);
    entries = o.size();
    benchmark::DoNotOptimize(o.volume.data());
  }
  state.counters["fine_tets"] = m.fine.num_tets();
  state.counters["coarse_tets"] = m.coarse.num_tets();
  state.counters["entries"] = entries;
}

}  // namespace

BENCHMARK(BM_TetIntersectionVolume)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TetIntersectionVolumeClipped)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TetOverlaps)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace simrun::bench
