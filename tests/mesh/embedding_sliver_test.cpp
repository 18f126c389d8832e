// The embedding's nearest-tet fallback next to a sliver (review item (e) of issue 7): a fine
// vertex just outside a coarse surface where a sliver sits must not be extrapolated from the
// sliver, whose barycentric coordinates grow like distance / sliver height.
#include <gtest/gtest.h>

#include "mesh/box.hpp"
#include "mesh/embedding.hpp"

namespace simrun {
namespace {

constexpr double kSliverHeight = 0.01;

/// The unit cube in 6 tets, and on its top face a sliver: (0,0,1), (1,1,1) and (1,0,1+h),
/// (0,1,1+h), whose two diagonals cross at heights 1 and 1 + h (volume h/3, quality ~ h).
/// `with_cube` false: the sliver alone.
TetMesh cube_with_sliver(bool with_cube = true) {
  TetMesh cube = make_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1), 6);
  TetMesh mesh;
  const int nc = with_cube ? cube.num_vertices() : 0;
  mesh.vertices.resize(nc + 4, 3);
  if (with_cube) mesh.vertices.topRows(nc) = cube.vertices;
  mesh.vertices.row(nc + 0) << 0, 0, 1;
  mesh.vertices.row(nc + 1) << 1, 1, 1;
  mesh.vertices.row(nc + 2) << 1, 0, 1 + kSliverHeight;
  mesh.vertices.row(nc + 3) << 0, 1, 1 + kSliverHeight;
  const int nt = with_cube ? cube.num_tets() : 0;
  mesh.tets.resize(nt + 1, 4);
  if (with_cube) mesh.tets.topRows(nt) = cube.tets;
  mesh.tets.row(nt) << nc + 0, nc + 1, nc + 2, nc + 3;
  return mesh;
}

/// The largest amplification of the vertex values, sum_a |w_a|, over the points.
double gain(const Embedding& e, int i) { return e.weights.row(i).cwiseAbs().sum(); }

TEST(EmbeddingSliver, NearTiesPreferTheWellShapedTetOverASliver) {
  const TetMesh mesh = cube_with_sliver();
  const int sliver = mesh.num_tets() - 1;
  // 5 cm above the sliver's middle: the sliver is the nearest tet (~0.055 m), the cube's
  // top tets are 0.06 m away: a near-tie.
  MatX3 points(1, 3);
  points << 0.5, 0.45, 1.0 + kSliverHeight + 0.05;
  const auto v = [&](int t, int a) { return Vec3(mesh.vertices.row(mesh.tets(t, a)).transpose()); };
  const Vec3 p = points.row(0).transpose();
  const double to_sliver =
      point_tet_distance(p, v(sliver, 0), v(sliver, 1), v(sliver, 2), v(sliver, 3));
  double to_cube = 1e9;
  for (int t = 0; t < sliver; ++t)
    to_cube = std::min(to_cube, point_tet_distance(p, v(t, 0), v(t, 1), v(t, 2), v(t, 3)));
  ASSERT_LT(to_sliver, to_cube);                       // the sliver is the nearest
  ASSERT_LT(to_cube, (1 + kTieFraction) * to_sliver);  // the cube ties with it

  const Embedding e = embed_points(mesh, points);
  EXPECT_EQ(e.num_outside, 1);
  EXPECT_EQ(e.num_clamped, 0);
  EXPECT_NE(e.tet[0], sliver);
  EXPECT_NEAR(e.max_outside_distance, to_cube, 1e-12);
  // A cube tet extrapolates 6 cm with gain ~1.1; the sliver's would be ~10.
  EXPECT_LT(gain(e, 0), 1.5);
  // Still an affine extrapolation: exact for affine fields.
  Mat3 B;
  B << 0.3, -1.2, 0.5, 2.0, 0.1, -0.7, 0.4, 0.9, 1.1;
  MatX3 field(mesh.num_vertices(), 3);
  for (int i = 0; i < mesh.num_vertices(); ++i)
    field.row(i) = (B * mesh.vertices.row(i).transpose()).transpose();
  EXPECT_LT((e.interpolate(mesh, field).row(0).transpose() - B * p).norm(), 1e-12);
}

TEST(EmbeddingSliver, APointOnlyASliverIsNearIsClampedAndReported) {
  const TetMesh mesh = cube_with_sliver(/*with_cube=*/false);
  MatX3 points(2, 3);
  points << 0.5, 0.45, 1.0 + kSliverHeight + 0.05,  // above the sliver: extrapolation gain ~10
      0.5, 0.5, 1.0 + 0.5 * kSliverHeight;          // inside it
  const Embedding e = embed_points(mesh, points);
  EXPECT_EQ(e.num_outside, 1);
  EXPECT_EQ(e.num_clamped, 1);
  EXPECT_GT(e.max_extrapolation_gain, kMaxExtrapolationGain);
  // Clamped: weights in [0, 1], the point held at the sliver's closest point.
  EXPECT_GE(e.weights.row(0).minCoeff(), 0.0);
  EXPECT_NEAR(gain(e, 0), 1.0, 1e-12);
  const MatX3 at = e.interpolate(mesh, mesh.vertices);
  const Vec3 p = points.row(0).transpose();
  const auto v = [&](int a) { return Vec3(mesh.vertices.row(mesh.tets(0, a)).transpose()); };
  EXPECT_LT((at.row(0).transpose() - closest_point_on_tet(p, v(0), v(1), v(2), v(3))).norm(),
            1e-12);
  EXPECT_NEAR((at.row(0).transpose() - p).norm(), e.max_outside_distance, 1e-12);
  // The inside point interpolates as before.
  EXPECT_LT((at.row(1) - points.row(1)).norm(), 1e-12);
}

}  // namespace
}  // namespace simrun
