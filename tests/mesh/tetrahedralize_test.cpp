#include "mesh/tetrahedralize.hpp"

#include "mesh/boundary.hpp"
#include "mesh/read_surface.hpp"
#include "mesh_test_util.hpp"

// TetGen 1.5.0 leaks the work arrays of constrainedfacets() when it stops on an error (the
// self-intersection test below). That is TetGen's, not ours: keep LeakSanitizer quiet about it
// in SIMRUN_SANITIZE builds. (A sanitizer runtime hook; unused otherwise.)
extern "C" const char* __lsan_default_suppressions() { return "leak:libtet.so\n"; }

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

TEST(Tetrahedralize, CubeWithTargetCount) {
  const SurfaceMesh cube = read_surface(mesh_data("cube.off"));
  const TetMesh mesh = tetrahedralize(cube, 1.414, 0.0, 500, "cube.off");
  // max_volume = 1/500 bounds every tet, so at least 500; TetGen usually lands within ~3x.
  EXPECT_GE(mesh.num_tets(), 500);
  EXPECT_LT(mesh.num_tets(), 5000);
  EXPECT_GT(test::min_volume6(mesh), 0.0);
  // The tets tile the cube exactly up to round-off of a few thousand 6V terms: 1e-9 is ample.
  EXPECT_NEAR(test::total_volume(mesh), 1.0, 1e-9);
  // All vertices inside the closed cube (TetGen adds Steiner points, but not outside).
  EXPECT_GE(mesh.vertices.minCoeff(), -1e-12);
  EXPECT_LE(mesh.vertices.maxCoeff(), 1 + 1e-12);
  ASSERT_EQ(mesh.regions.size(), static_cast<std::size_t>(mesh.num_tets()));  // A switch
  EXPECT_EQ(*std::min_element(mesh.regions.begin(), mesh.regions.end()),
            *std::max_element(mesh.regions.begin(), mesh.regions.end()));  // one region
}

TEST(Tetrahedralize, WithoutRefinementKeepsTheCorners) {
  const SurfaceMesh cube = read_surface(mesh_data("cube.stl"));
  const TetMesh mesh = tetrahedralize(cube, 0.0, 0.0, 0, "cube.stl");
  EXPECT_EQ(mesh.num_vertices(), 8);
  EXPECT_GE(mesh.num_tets(), 5);
  EXPECT_NEAR(test::total_volume(mesh), 1.0, 1e-12);
  EXPECT_EQ(boundary_faces(mesh).rows(), 12);
}

TEST(Tetrahedralize, OpenSurfaceNamesFileAndEdge) {
  const SurfaceMesh open = read_surface(mesh_data("open_cube.off"));
  const std::string msg =
      input_error_message([&] { tetrahedralize(open, 2.0, 0.0, 100, "open_cube.off"); });
  EXPECT_NE(msg.find("open_cube.off"), std::string::npos) << msg;
  EXPECT_NE(msg.find("edge ("), std::string::npos) << msg;
  EXPECT_NE(msg.find("4 bad edge(s)"), std::string::npos) << msg;
}

TEST(Tetrahedralize, SelfIntersectionBecomesInputError) {
  // Two unit cubes overlapping by half: closed and manifold, but self-intersecting.
  const SurfaceMesh a = read_surface(mesh_data("cube.off"));
  SurfaceMesh both;
  both.vertices.resize(16, 3);
  both.vertices << a.vertices, (a.vertices.rowwise() + Eigen::RowVector3d(0.5, 0.25, 0.25));
  both.faces.resize(24, 3);
  both.faces << a.faces, (a.faces.array() + 8).matrix();
  const std::string msg =
      input_error_message([&] { tetrahedralize(both, 2.0, 0.0, 0, "overlap.off"); });
  EXPECT_NE(msg.find("overlap.off: TetGen failed"), std::string::npos) << msg;
}

TEST(Tetrahedralize, BadOptions) {
  const SurfaceMesh cube = read_surface(mesh_data("cube.off"));
  std::string msg = input_error_message([&] { tetrahedralize(cube, 0.5, 0.0, 0, "cube.off"); });
  EXPECT_NE(msg.find("quality"), std::string::npos) << msg;
  msg = input_error_message([&] { tetrahedralize(cube, 2.0, -1.0, 0, "cube.off"); });
  EXPECT_NE(msg.find("max_volume"), std::string::npos) << msg;
}

}  // namespace
}  // namespace simrun
