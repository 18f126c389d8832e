#include "mesh/transform.hpp"

#include "mesh/box.hpp"
#include "mesh_test_util.hpp"

namespace simrun {
namespace {

TEST(Transform, ScaleThenRotateThenTranslate) {
  MatX3 x(1, 3);
  x << 1, 0, 0;
  // scale x by 2 -> (2,0,0); rotate 90 deg about +z -> (0,2,0); translate -> (1,3,4).
  transform_vertices(x, Vec3(2, 1, 1), Vec3(0, 0, 5), 90.0, Vec3(1, 1, 4));
  // One rotation matrix product: error of a few ulps of 2.
  EXPECT_NEAR(x(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(x(0, 1), 3.0, 1e-15);
  EXPECT_NEAR(x(0, 2), 4.0, 1e-15);
}

TEST(Transform, MirrorReorientsEveryTet) {
  TetMesh mesh = make_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2), 6);
  const double volume = test::total_volume(mesh);
  EXPECT_EQ(transform_mesh(mesh, Vec3(-1, 2, 1), Vec3::UnitX(), 30.0, Vec3::Zero()),
            mesh.num_tets());
  EXPECT_GT(test::min_volume6(mesh), 0.0);
  EXPECT_NEAR(test::total_volume(mesh), 2 * volume, 1e-14);  // |det| = 2; exact-ish sums
  EXPECT_EQ(transform_mesh(mesh, Vec3(1, 1, 1), Vec3::UnitY(), 45.0, Vec3(1, 2, 3)), 0);
}

TEST(Transform, BadArguments) {
  MatX3 x = MatX3::Zero(2, 3);
  EXPECT_NE(test::input_error_message([&] {
              transform_vertices(x, Vec3(1, 0, 1), Vec3::UnitZ(), 0, Vec3::Zero());
            }).find("scale[1]"),
            std::string::npos);
  EXPECT_NE(test::input_error_message([&] {
              transform_vertices(x, Vec3::Ones(), Vec3::Zero(), 10, Vec3::Zero());
            }).find("rotate_axis"),
            std::string::npos);
}

}  // namespace
}  // namespace simrun
