#include "mesh/box.hpp"

#include <set>

#include "mesh/read_tetgen.hpp"
#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::face_use;

struct FaceCounts {
  int boundary = 0, interior = 0, other = 0;
};

FaceCounts count_faces(const TetMesh& mesh) {
  FaceCounts c;
  for (const auto& [face, n] : face_use(mesh))
    (n == 1 ? c.boundary : n == 2 ? c.interior : c.other)++;
  return c;
}

class BoxSplit : public ::testing::TestWithParam<int> {};

TEST_P(BoxSplit, CountsVolumeOrientationConformity) {
  const int split = GetParam();
  const Vec3 size(0.5, 0.1, 0.1);
  const TetMesh mesh = make_box(size, Eigen::Vector3i(10, 2, 2), split);
  EXPECT_EQ(mesh.num_vertices(), 11 * 3 * 3);
  EXPECT_EQ(mesh.num_tets(), 40 * split);
  EXPECT_TRUE(mesh.regions.empty());
  // Positive orientation with a margin far above round-off (a cell tet has 6V >= 1e-3 * 0.05^2).
  EXPECT_GT(test::min_volume6(mesh), 1e-6);
  // Sum of cell volumes; each term is exact to ~1e-17, so 1e-14 absolute is generous.
  EXPECT_NEAR(test::total_volume(mesh), 0.5 * 0.1 * 0.1, 1e-14);
  const FaceCounts c = count_faces(mesh);
  EXPECT_EQ(c.other, 0);
  // Each cube face on the boundary is 2 triangles: 2 * (2 * (10*2 + 10*2 + 2*2)) = 176. A
  // non-conforming split would leave unmatched interior triangles counted here too.
  EXPECT_EQ(c.boundary, 2 * (2 * (10 * 2 + 10 * 2 + 2 * 2)));
  EXPECT_EQ(4 * mesh.num_tets(), c.boundary + 2 * c.interior);
}

INSTANTIATE_TEST_SUITE_P(FiveAndSix, BoxSplit, ::testing::Values(5, 6));

TEST(Box, VertexOrderAndCoordinates) {
  const TetMesh mesh = make_box(Vec3(2, 3, 4), Eigen::Vector3i(2, 3, 4), 6);
  const int i = 1, j = 2, k = 3;
  const int v = i + 3 * (j + 4 * k);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 1), 2.0);
  EXPECT_DOUBLE_EQ(mesh.vertices(v, 2), 3.0);
  EXPECT_DOUBLE_EQ(mesh.vertices(mesh.num_vertices() - 1, 2), 4.0);
}

// The five-split bar must be the same tets as the reference mesh used for the CalculiX modes
// (bar_10x2x2_split5, copied from ../shared/reference/calculix_bar).
TEST(Box, FiveSplitMatchesReferenceBar) {
  const TetMesh ours = make_box(Vec3(0.5, 0.1, 0.1), Eigen::Vector3i(10, 2, 2), 5);
  const TetMesh ref = read_tetgen(test::mesh_data("bar_10x2x2_split5.node"));
  ASSERT_EQ(ref.num_vertices(), 99);
  ASSERT_EQ(ref.num_tets(), 200);
  // Same vertex numbering; coordinates printed with 17 digits, so agreement to 1e-15.
  EXPECT_LT((ours.vertices - ref.vertices).cwiseAbs().maxCoeff(), 1e-15);
  auto tet_set = [](const TetMesh& m) {
    std::set<std::array<int, 4>> s;
    for (int t = 0; t < m.num_tets(); ++t) {
      std::array<int, 4> a{m.tets(t, 0), m.tets(t, 1), m.tets(t, 2), m.tets(t, 3)};
      std::sort(a.begin(), a.end());
      s.insert(a);
    }
    return s;
  };
  EXPECT_EQ(tet_set(ours), tet_set(ref));
}

TEST(Box, InvalidArgumentsThrow) {
  EXPECT_NE(test::input_error_message([] {
              make_box(Vec3(1, 0, 1), Eigen::Vector3i(1, 1, 1), 6);
            }).find("size[1]"),
            std::string::npos);
  EXPECT_NE(test::input_error_message([] {
              make_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 0, 1), 6);
            }).find("cells[1]"),
            std::string::npos);
  EXPECT_NE(test::input_error_message([] {
              make_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1), 4);
            }).find("found 4"),
            std::string::npos);
}

}  // namespace
}  // namespace simrun
