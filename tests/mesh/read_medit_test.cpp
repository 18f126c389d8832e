#include "mesh/read_medit.hpp"

#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

TEST(ReadMedit, VerticesTetsAndRefsSkippingOtherSections) {
  const TetMesh mesh = read_medit(mesh_data("two_tets.mesh"));
  ASSERT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_tets(), 2);
  EXPECT_EQ(mesh.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));
  EXPECT_EQ(mesh.regions, (std::vector<int>{7, 9}));
  EXPECT_NEAR(test::total_volume(mesh), 0.5, 1e-15);  // exact data, see read_tetgen_test
}

TEST(ReadMedit, IndexOutOfRangeNamesFileAndLine) {
  const std::string msg = input_error_message([] { read_medit(mesh_data("bad_index.mesh")); });
  EXPECT_NE(msg.find("bad_index.mesh:11"), std::string::npos) << msg;
  EXPECT_NE(msg.find("vertex index 5 out of range"), std::string::npos) << msg;
}

TEST(ReadMedit, WrongFormatNamesFile) {
  const std::string msg = input_error_message([] { read_medit(mesh_data("two_tets.node")); });
  EXPECT_NE(msg.find("two_tets.node:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("MeshVersionFormatted"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simrun
