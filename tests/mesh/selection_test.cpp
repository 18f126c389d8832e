#include "mesh/selection.hpp"

#include "mesh/box.hpp"
#include "mesh_test_util.hpp"

namespace simrun {
namespace {

// 2 x 1 x 1 cells on [0,2]x[0,1]x[0,1]: vertex (i,j,k) = i + 3 (j + 2 k).
TetMesh bar() { return make_box(Vec3(2, 1, 1), Eigen::Vector3i(2, 1, 1), 6); }

TEST(Selection, SideWithTolerance) {
  TetMesh mesh = bar();
  mesh.vertices(3, 0) = 1e-7;  // vertex (0,1,0) slightly off the -x face
  Selection s;
  s.kind = Selection::Kind::kSide;
  s.side = "-x";
  s.tol = 1e-6;
  EXPECT_EQ(select_vertices(mesh.vertices, s), (std::vector<int>{0, 3, 6, 9}));
  s.tol = 1e-8;
  EXPECT_EQ(select_vertices(mesh.vertices, s), (std::vector<int>{0, 6, 9}));
  s.side = "+x";
  EXPECT_EQ(select_vertices(mesh.vertices, s), (std::vector<int>{2, 5, 8, 11}));
  EXPECT_TRUE(select_tets(mesh, s).empty());  // no tet has all four vertices on a face
}

TEST(Selection, BoxAndSphereUseCentroidsForTets) {
  const TetMesh mesh = bar();
  Selection box;
  box.kind = Selection::Kind::kBox;
  box.min = Vec3(1, 0, 0);
  box.max = Vec3(2, 1, 1);  // inclusive: the x = 1 plane counts
  EXPECT_EQ(select_vertices(mesh.vertices, box), (std::vector<int>{1, 2, 4, 5, 7, 8, 10, 11}));
  EXPECT_EQ(select_tets(mesh, box), (std::vector<int>{6, 7, 8, 9, 10, 11}));  // second cube
  Selection ball;
  ball.kind = Selection::Kind::kSphere;
  ball.center = Vec3(0, 0, 0);
  ball.radius = 1.0;  // inclusive: (1,0,0), (0,1,0), (0,0,1) are on the sphere
  EXPECT_EQ(select_vertices(mesh.vertices, ball), (std::vector<int>{0, 1, 3, 6}));
  ball.radius = 1.0 - 1e-9;
  EXPECT_EQ(select_vertices(mesh.vertices, ball), (std::vector<int>{0}));
  Selection all;
  EXPECT_EQ(select_tets(mesh, all).size(), 12u);
}

TEST(Selection, VertexListSortedUniqueAndRangeChecked) {
  const TetMesh mesh = bar();
  Selection s;
  s.kind = Selection::Kind::kVertices;
  s.vertices = {5, 0, 5, 2};
  EXPECT_EQ(select_vertices(mesh.vertices, s), (std::vector<int>{0, 2, 5}));
  s.vertices = {0, 12};
  const std::string msg = test::input_error_message([&] { select_vertices(mesh.vertices, s); });
  EXPECT_NE(msg.find("vertices[1]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("12 is out of range, expected 0..11"), std::string::npos) << msg;
}

TEST(Selection, UnknownSideNamed) {
  Selection s;
  s.kind = Selection::Kind::kSide;
  s.side = "x-";
  const std::string msg = test::input_error_message([&] { select_vertices(bar().vertices, s); });
  EXPECT_NE(msg.find("'x-'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simrun
