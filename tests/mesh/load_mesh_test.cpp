#include "mesh/load_mesh.hpp"

#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

TEST(LoadMesh, DispatchesOnExtension) {
  EXPECT_EQ(load_mesh_file(mesh_data("two_tets.node"), 2, 0, 0).num_tets(), 2);
  EXPECT_EQ(load_mesh_file(mesh_data("two_tets.mesh"), 2, 0, 0).num_tets(), 2);
  EXPECT_EQ(load_mesh_file(mesh_data("two_tets_v41.msh"), 2, 0, 0).num_tets(), 2);
  const TetMesh cube = load_mesh_file(mesh_data("cube.obj"), 1.5, 0, 100);
  EXPECT_GE(cube.num_tets(), 100);                   // max_volume = 1/100 bounds each tet
  EXPECT_NEAR(test::total_volume(cube), 1.0, 1e-9);  // round-off over ~100s of tets
}

TEST(LoadMesh, ReportsFlippedCount) {
  int flipped = -1;
  load_mesh_file(mesh_data("inverted.ele"), 2, 0, 0, &flipped);
  EXPECT_EQ(flipped, 1);
  load_mesh_file(mesh_data("cube.off"), 0, 0, 0, &flipped);
  EXPECT_EQ(flipped, 0);
}

TEST(LoadMesh, MissingFileAndUnknownExtensionNameThePath) {
  std::string msg = input_error_message([] { load_mesh_file(mesh_data("nope.msh"), 2, 0, 0); });
  EXPECT_NE(msg.find("nope.msh"), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not exist"), std::string::npos) << msg;
  msg = input_error_message([] {
    load_mesh_file(std::filesystem::path(SIMRUN_TEST_DATA) / ".." / "CMakeLists.txt", 2, 0, 0);
  });
  EXPECT_NE(msg.find("CMakeLists.txt"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown extension '.txt'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simrun
