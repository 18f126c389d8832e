/// Broad phase + conservative CCD rate (issue 14, part 5; contact/broad_phase.hpp, ccd.hpp).
/// Two boxes of 1 x 1 x 1.05 m, 20 x 20 x 21 cubes x 6 = 50,400 tets each, B 1 cm above A and
/// shifted sideways by (0.31, 0.17) m so the grids do not line up; the step moves B down by
/// 2 cm (it would sink 1 cm into A) with a small shear, so many pairs come into contact.
/// - BM_BroadPhaseAndCcd: the whole collision_free_step() (swept boxes, two AABB trees, the
///   queries with the collision filters, sorting, ACCD on every candidate pair); items/s =
///   candidate pairs per second.
/// - BM_Ccd: ACCD alone over the same candidate list (pairs per second).
/// - BM_StaticCandidates: the barrier's active-set query (static boxes grown by d_hat = 1e-3 of
///   the scene's bounding-box diagonal) at x + 0.45 dx (1 mm apart), for information.
/// Argument: thread count. Report medians:
///   contact_ccd_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "contact/broad_phase.hpp"
#include "contact/ccd.hpp"
#include "contact/collision_mesh_build.hpp"
#include "core/parallel.hpp"
#include "mesh/box.hpp"

namespace simrun::bench {
namespace {

struct ApproachingBoxes {
  CollisionMesh mesh;
  VecX x, dx;
  VecX x_near;  ///< x + 0.45 dx: 1 mm apart, inside d_hat
  ContactCandidates swept;
  int num_tets = 0;
};

const ApproachingBoxes& approaching_boxes() {
  static const ApproachingBoxes boxes = [] {
    ApproachingBoxes b;
    const TetMesh one = make_box(Vec3(1.0, 1.0, 1.05), Eigen::Vector3i(20, 20, 21), 6);
    const int nv = one.num_vertices(), nt = one.num_tets();
    TetMesh two;
    two.vertices.resize(2 * nv, 3);
    two.tets.resize(2 * nt, 4);
    two.vertices.topRows(nv) = one.vertices;
    two.vertices.bottomRows(nv) =
        one.vertices.rowwise() + Eigen::RowVector3d(0.31, 0.17, 1.05 + 0.01);
    two.tets.topRows(nt) = one.tets;
    two.tets.bottomRows(nt) = one.tets.array() + nv;
    std::vector<int> tet_object(static_cast<size_t>(nt), 0);
    tet_object.resize(static_cast<size_t>(2 * nt), 1);
    b.mesh = build_collision_mesh(two, tet_object, {false, false});
    b.num_tets = 2 * nt;
    b.x = as_flat(two.vertices);
    b.dx = VecX::Zero(b.x.size());
    for (int v = nv; v < 2 * nv; ++v) {
      b.dx[3 * v + 2] = -0.02;
      b.dx[3 * v + 0] = 0.002 * (b.x[3 * v + 2] - 1.06);  // slight shear
    }
    b.x_near = b.x + 0.45 * b.dx;
    set_thread_count(1);
    b.swept = find_candidates(b.mesh, b.x, b.dx, 0.0);
    return b;
  }();
  return boxes;
}

Vec3 at(const VecX& x, int v) { return x.segment<3>(3 * v); }

void BM_BroadPhaseAndCcd(benchmark::State& state) {
  const ApproachingBoxes& b = approaching_boxes();
  set_thread_count(static_cast<int>(state.range(0)));
  CollisionFreeStep r;
  for (auto _ : state) {
    r = collision_free_step(b.mesh, b.x, b.dx, 0.0);
    benchmark::DoNotOptimize(r.step);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(r.num_candidates));
  state.counters["candidates"] = static_cast<double>(r.num_candidates);
  state.counters["step"] = r.step;
  state.counters["tets"] = b.num_tets;
  state.counters["surface_faces"] = b.mesh.num_faces();
}

void BM_Ccd(benchmark::State& state) {
  const ApproachingBoxes& b = approaching_boxes();
  const CollisionMesh& m = b.mesh;
  const VecX &x = b.x, &dx = b.dx;
  double step = 1.0;
  for (auto _ : state) {
    step = 1.0;
    for (const auto& [entry, f] : b.swept.vertex_face) {
      const int v = m.vertices[static_cast<size_t>(entry)];
      const int p = m.faces(f, 0), q = m.faces(f, 1), r = m.faces(f, 2);
      step = std::min(step, point_triangle_ccd(at(x, v), at(x, p), at(x, q), at(x, r), at(dx, v),
                                               at(dx, p), at(dx, q), at(dx, r), 0.0));
    }
    for (const auto& [ea, eb] : b.swept.edge_edge) {
      const auto& p = m.edges[static_cast<size_t>(ea)];
      const auto& q = m.edges[static_cast<size_t>(eb)];
      step = std::min(
          step, edge_edge_ccd(at(x, p[0]), at(x, p[1]), at(x, q[0]), at(x, q[1]), at(dx, p[0]),
                              at(dx, p[1]), at(dx, q[0]), at(dx, q[1]), 0.0));
    }
    benchmark::DoNotOptimize(step);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b.swept.size()));
  state.counters["vertex_face"] = static_cast<double>(b.swept.vertex_face.size());
  state.counters["edge_edge"] = static_cast<double>(b.swept.edge_edge.size());
  state.counters["step"] = step;
}

void BM_StaticCandidates(benchmark::State& state) {
  const ApproachingBoxes& b = approaching_boxes();
  set_thread_count(static_cast<int>(state.range(0)));
  const double d_hat = 1e-3 * std::sqrt(1.31 * 1.31 + 1.17 * 1.17 + 2.11 * 2.11);
  size_t n = 0;
  for (auto _ : state) {
    const ContactCandidates c = find_candidates(b.mesh, b.x_near, d_hat);
    n = c.size();
    benchmark::DoNotOptimize(c.vertex_face.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
  state.counters["candidates"] = static_cast<double>(n);
}

BENCHMARK(BM_BroadPhaseAndCcd)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ccd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StaticCandidates)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace simrun::bench
