// The embedding's nearest-tet fallback for points outside the mesh, against a scan of every tet
// (the implementation finds the near tets through a bounding-box tree): the chosen tet is within
// the near-tie window of the true nearest distance, no tet in that window extrapolates with a
// smaller gain, and the outside count and largest distance are the scan's.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <random>

#include "mesh/box.hpp"
#include "mesh/embedding.hpp"

namespace simrun {
namespace {

/// Barycentric coordinates of p in tet t (any sign).
Eigen::Vector4d barycentric_in(const TetMesh& mesh, int t, const Vec3& p) {
  const Vec3 d = mesh.vertices.row(mesh.tets(t, 3));
  Mat3 T;
  for (int a = 0; a < 3; ++a) T.col(a) = mesh.vertices.row(mesh.tets(t, a)).transpose() - d;
  const Vec3 l = T.inverse() * (p - d);
  return {l[0], l[1], l[2], 1.0 - l.sum()};
}

TEST(EmbeddingOutside, NearestTetFallbackMatchesAScanOfEveryTet) {
  // A jittered box (tets of many shapes and sizes) and points scattered around and inside it.
  TetMesh mesh = make_box(Vec3(1.0, 0.4, 0.3), Eigen::Vector3i(10, 4, 3), 6);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.012, 0.012);
  for (int v = 0; v < mesh.num_vertices(); ++v)
    for (int k = 0; k < 3; ++k) mesh.vertices(v, k) += jitter(rng);
  std::uniform_real_distribution<double> x(-0.3, 1.3), y(-0.2, 0.6), z(-0.2, 0.5);
  MatX3 points(400, 3);
  for (int i = 0; i < points.rows(); ++i) points.row(i) << x(rng), y(rng), z(rng);

  const Embedding e = embed_points(mesh, points);
  int outside = 0;
  double farthest = 0.0;
  for (int i = 0; i < points.rows(); ++i) {
    const Vec3 p = points.row(i).transpose();
    std::vector<double> distance(static_cast<size_t>(mesh.num_tets()));
    double nearest = std::numeric_limits<double>::infinity();
    for (int t = 0; t < mesh.num_tets(); ++t) {
      const auto v = [&](int a) { return Vec3(mesh.vertices.row(mesh.tets(t, a)).transpose()); };
      distance[static_cast<size_t>(t)] = point_tet_distance(p, v(0), v(1), v(2), v(3));
      nearest = std::min(nearest, distance[static_cast<size_t>(t)]);
    }
    const int chosen = e.tet[static_cast<size_t>(i)];
    ASSERT_GE(chosen, 0);
    if (nearest == 0.0) continue;  // inside: the containing tet (other tests)
    ++outside;
    farthest = std::max(farthest, distance[static_cast<size_t>(chosen)]);
    const double window = nearest * (1.0 + kTieFraction);
    EXPECT_LE(distance[static_cast<size_t>(chosen)], window * (1 + 1e-12)) << "point " << i;
    const double chosen_gain = barycentric_in(mesh, chosen, p).cwiseAbs().sum();
    if (chosen_gain > kMaxExtrapolationGain) continue;  // clamped: weights differ by design
    EXPECT_NEAR((e.weights.row(i).transpose() - barycentric_in(mesh, chosen, p)).norm(), 0.0,
                1e-12);
    for (int t = 0; t < mesh.num_tets(); ++t) {
      if (distance[static_cast<size_t>(t)] > window * (1 - 1e-12)) continue;
      EXPECT_GE(barycentric_in(mesh, t, p).cwiseAbs().sum(), chosen_gain * (1 - 1e-12))
          << "point " << i << ": tet " << t << " is as near and extrapolates less";
    }
  }
  EXPECT_GT(outside, 200);
  EXPECT_EQ(e.num_outside, outside);
  EXPECT_NEAR(e.max_outside_distance, farthest, 1e-15);
}

}  // namespace
}  // namespace simrun
