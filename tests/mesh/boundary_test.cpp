#include "mesh/boundary.hpp"

#include <Eigen/Geometry>
#include <algorithm>

#include "mesh/box.hpp"
#include "mesh_test_util.hpp"

namespace simrun {
namespace {

class BoundaryOfBox : public ::testing::TestWithParam<int> {};

TEST_P(BoundaryOfBox, CountAndOutwardNormals) {
  const Vec3 size(0.5, 0.1, 0.2);
  const TetMesh mesh = make_box(size, Eigen::Vector3i(5, 2, 3), GetParam());
  const MatX3i faces = boundary_faces(mesh);
  EXPECT_EQ(faces.rows(), 2 * 2 * (5 * 2 + 5 * 3 + 2 * 3));  // 2 triangles per cube face
  const Vec3 centroid = size / 2;
  Vec3 area_normal_sum = Vec3::Zero();
  double area = 0;
  for (int f = 0; f < faces.rows(); ++f) {
    const Vec3 a = mesh.vertices.row(faces(f, 0)), b = mesh.vertices.row(faces(f, 1)),
               c = mesh.vertices.row(faces(f, 2));
    const Vec3 n2 = (b - a).cross(c - a);  // twice the area-weighted normal
    area_normal_sum += n2;
    area += n2.norm() / 2;
    // Convex box: an outward normal points away from the centroid.
    EXPECT_GT(n2.dot((a + b + c) / 3 - centroid), 0.0) << "face " << f;
  }
  // Closed surface: sum of area vectors vanishes; terms are O(1e-3), so 1e-15 is round-off.
  EXPECT_LT(area_normal_sum.norm(), 1e-15);
  EXPECT_NEAR(area, 2 * (0.5 * 0.1 + 0.5 * 0.2 + 0.1 * 0.2), 1e-14);
  // Every vertex of this box is on its boundary except the interior grid ones.
  EXPECT_EQ(boundary_vertices(mesh).size(), static_cast<std::size_t>(6 * 3 * 4 - 4 * 1 * 2));
}

TEST_P(BoundaryOfBox, VertexAreasSumToTheSurfaceAndLeaveTheInteriorOut) {
  const Vec3 size(0.5, 0.1, 0.2);
  const TetMesh mesh = make_box(size, Eigen::Vector3i(5, 2, 3), GetParam());
  const VecX area = boundary_vertex_areas(mesh);
  ASSERT_EQ(area.size(), mesh.num_vertices());
  EXPECT_NEAR(area.sum(), 2 * (0.5 * 0.1 + 0.5 * 0.2 + 0.1 * 0.2), 1e-14);
  const std::vector<int> boundary = boundary_vertices(mesh);
  for (int v = 0; v < mesh.num_vertices(); ++v)
    EXPECT_EQ(area[v] > 0.0, std::binary_search(boundary.begin(), boundary.end(), v)) << v;
  // The bottom face (y = 0, 0.5 x 0.2 m) holds its own area, whatever the split: a pressure on
  // it sums to the same force on any mesh.
  double bottom = 0.0;
  for (int v = 0; v < mesh.num_vertices(); ++v)
    if (mesh.vertices(v, 1) == 0.0) bottom += area[v];
  // Its edge vertices also carry a share of the side faces: 0.1 m tall sides, 1 cell of 0.05 m
  // each, a third of each triangle touching the edge. Only bound it: between the face's area and
  // that plus the sides' first row of cells.
  EXPECT_GT(bottom, 0.5 * 0.2 - 1e-14);
  EXPECT_LT(bottom, 0.5 * 0.2 + 2 * (0.5 + 0.2) * 0.05);
}

INSTANTIATE_TEST_SUITE_P(FiveAndSix, BoundaryOfBox, ::testing::Values(5, 6));

}  // namespace
}  // namespace simrun
