#include "mesh/read_gmsh.hpp"

#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

// Both files hold the same two tets with node tags 10..50 and an unused node 60.
void expect_two_tets(const TetMesh& mesh) {
  ASSERT_EQ(mesh.num_vertices(), 5);  // node 60 is used by no tet and dropped
  ASSERT_EQ(mesh.num_tets(), 2);
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));
  EXPECT_EQ(mesh.tets.row(1), Eigen::RowVector4i(1, 2, 3, 4));
  EXPECT_EQ(mesh.vertices.row(4), Vec3(1, 1, 1).transpose());
  EXPECT_NEAR(test::total_volume(mesh), 0.5, 1e-15);  // exact data
}

TEST(ReadGmsh, Version22PhysicalTags) {
  const TetMesh mesh = read_gmsh(mesh_data("two_tets_v22.msh"));
  expect_two_tets(mesh);
  EXPECT_EQ(mesh.regions, (std::vector<int>{7, 9}));
}

TEST(ReadGmsh, Version41PhysicalGroupElseEntityTag) {
  const TetMesh mesh = read_gmsh(mesh_data("two_tets_v41.msh"));
  expect_two_tets(mesh);
  // Volume 1 has physical group 7; volume 2 has none, so its entity tag.
  EXPECT_EQ(mesh.regions, (std::vector<int>{7, 2}));
}

TEST(ReadGmsh, BinaryIsRejected) {
  const std::string msg = input_error_message([] { read_gmsh(mesh_data("binary.msh")); });
  EXPECT_NE(msg.find("binary.msh:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("only ASCII"), std::string::npos) << msg;
}

TEST(ReadGmsh, NotAGmshFile) {
  const std::string msg = input_error_message([] { read_gmsh(mesh_data("cube.off")); });
  EXPECT_NE(msg.find("cube.off:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("$MeshFormat"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simrun
