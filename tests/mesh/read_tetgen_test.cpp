#include "mesh/read_tetgen.hpp"

#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(ReadTetgen, ZeroBasedWithAttributesAndMarkers) {
  int flipped = -1;
  const TetMesh mesh = read_tetgen(mesh_data("two_tets.ele"), &flipped);  // .ele finds .node
  EXPECT_EQ(flipped, 0);
  ASSERT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_tets(), 2);
  EXPECT_EQ(mesh.vertices.row(4), Vec3(1, 1, 1).transpose());
  EXPECT_EQ(mesh.tets.row(1), Eigen::RowVector4i(1, 2, 3, 4));
  EXPECT_EQ(mesh.regions, (std::vector<int>{7, 9}));
  // 1/6 + 1/3 = 1/2 (see the file); sums of a few exact products, so 1e-15.
  EXPECT_NEAR(test::total_volume(mesh), 0.5, 1e-15);
}

TEST(ReadTetgen, OneBasedReferenceBar) {
  const TetMesh mesh = read_tetgen(mesh_data("bar_10x2x2_split5.node"));
  EXPECT_EQ(mesh.num_vertices(), 99);
  EXPECT_EQ(mesh.num_tets(), 200);
  EXPECT_TRUE(mesh.regions.empty());
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 11, 33));  // "1 1 2 12 34"
  EXPECT_NEAR(test::total_volume(mesh), 0.005, 1e-15);
}

TEST(ReadTetgen, InvertedTetIsFlippedAndCounted) {
  int flipped = 0;
  const TetMesh mesh = read_tetgen(mesh_data("inverted.node"), &flipped);
  EXPECT_EQ(flipped, 1);
  EXPECT_GT(test::min_volume6(mesh), 0.0);
}

TEST(ReadTetgen, DegenerateTetNamesElement) {
  const std::string msg = input_error_message([] { read_tetgen(mesh_data("degenerate.ele")); });
  EXPECT_TRUE(contains(msg, "degenerate.ele")) << msg;
  EXPECT_TRUE(contains(msg, "tetrahedron 1")) << msg;
  EXPECT_TRUE(contains(msg, "[0, 1, 2, 5]")) << msg;
  EXPECT_TRUE(contains(msg, "degenerate")) << msg;
}

TEST(ReadTetgen, TruncatedFileNamesLine) {
  const std::string msg = input_error_message([] { read_tetgen(mesh_data("truncated.node")); });
  EXPECT_TRUE(contains(msg, "truncated.node:5")) << msg;  // last line read
  EXPECT_TRUE(contains(msg, "point 4 of 5")) << msg;
  EXPECT_TRUE(contains(msg, "end of file")) << msg;
}

TEST(ReadTetgen, MissingFileNamesPath) {
  const std::string msg = input_error_message([] { read_tetgen(mesh_data("no_such.node")); });
  EXPECT_TRUE(contains(msg, "no_such.node")) << msg;
  EXPECT_TRUE(contains(msg, "does not exist")) << msg;
}

}  // namespace
}  // namespace simrun
