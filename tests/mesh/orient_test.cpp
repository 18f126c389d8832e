#include "mesh/orient.hpp"

#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;

TetMesh two_tets() {
  TetMesh m;
  m.vertices.resize(5, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  m.tets.resize(2, 4);
  m.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  return m;
}

TEST(OrientTets, FlipsOnlyNegativeTets) {
  TetMesh m = two_tets();
  m.tets.row(1) << 2, 1, 3, 4;
  EXPECT_EQ(orient_tets(m), 1);
  EXPECT_GT(signed_volume6(m, 1), 0.0);
  EXPECT_EQ(m.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));  // positive tet untouched
  EXPECT_EQ(orient_tets(m), 0);                              // idempotent
}

TEST(OrientTets, DegenerateRepeatedAndOutOfRangeNameTheElement) {
  TetMesh flat = two_tets();
  flat.vertices.row(4) << 0.5, 0.5, 1e-14;  // 6V = 1e-14 against 1e-12 * (~1.1)^3
  flat.tets.row(1) << 0, 1, 2, 4;
  std::string msg = input_error_message([&] { orient_tets(flat, "flat.node"); });
  EXPECT_NE(msg.find("flat.node: tetrahedron 1 (0-based) with vertices [0, 1, 2, 4]"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("degenerate"), std::string::npos) << msg;

  TetMesh repeated = two_tets();
  repeated.tets.row(0) << 0, 1, 1, 3;
  msg = input_error_message([&] { orient_tets(repeated); });
  EXPECT_NE(msg.find("tetrahedron 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("vertex 1 is repeated"), std::string::npos) << msg;

  TetMesh out_of_range = two_tets();
  out_of_range.tets.row(1) << 1, 2, 3, 5;
  msg = input_error_message([&] { orient_tets(out_of_range); });
  EXPECT_NE(msg.find("tetrahedron 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("index 5 is out of range, expected 0..4"), std::string::npos) << msg;
}

TEST(OrientTets, SmallButWellShapedTetIsAccepted) {
  // The degeneracy test is relative to edge length: a 1e-5 m tet is fine.
  TetMesh m = two_tets();
  m.vertices *= 1e-5;
  EXPECT_EQ(orient_tets(m), 0);
}

}  // namespace
}  // namespace simrun
