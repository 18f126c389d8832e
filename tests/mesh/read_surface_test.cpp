#include "mesh/read_surface.hpp"

#include <unistd.h>

#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>

#include "mesh/surface_check.hpp"
#include "mesh_test_util.hpp"

namespace simrun {
namespace {

using test::input_error_message;
using test::mesh_data;

class CubeSurface : public ::testing::TestWithParam<const char*> {};

TEST_P(CubeSurface, EightVerticesTwelveOutwardTriangles) {
  const SurfaceMesh s = read_surface(mesh_data(GetParam()));
  EXPECT_EQ(s.num_vertices(), 8);  // STL: corners merged exactly
  EXPECT_EQ(s.num_faces(), 12);    // OFF/OBJ: quads fan-triangulated
  EXPECT_NO_THROW(require_closed_manifold(s, GetParam()));
  EXPECT_NEAR(enclosed_volume(s), 1.0, 1e-15);  // integer coordinates: exact
  // Outward orientation preserved: the signed divergence-theorem volume is positive.
  double vol6 = 0;
  for (int f = 0; f < s.num_faces(); ++f) {
    const Vec3 a = s.vertices.row(s.faces(f, 0)), b = s.vertices.row(s.faces(f, 1)),
               c = s.vertices.row(s.faces(f, 2));
    vol6 += a.dot(b.cross(c));
  }
  EXPECT_NEAR(vol6, 6.0, 1e-14);
}

INSTANTIATE_TEST_SUITE_P(Formats, CubeSurface,
                         ::testing::Values("cube.off", "cube.obj", "cube.stl", "cube_binary.stl"));

TEST(ReadSurface, OpenSurfaceNamesAnEdgeAndCount) {
  const SurfaceMesh s = read_surface(mesh_data("open_cube.off"));
  const std::string msg = input_error_message([&] { require_closed_manifold(s, "open_cube.off"); });
  EXPECT_NE(msg.find("open_cube.off"), std::string::npos) << msg;
  EXPECT_NE(msg.find("found 4 bad edge(s)"), std::string::npos) << msg;  // rim of the missing face
  EXPECT_NE(msg.find("edge (0, 1)"), std::string::npos) << msg;
}

TEST(ReadSurface, AFlippedFaceIsNamedNotAcceptedSilently) {
  SurfaceMesh s = read_surface(mesh_data("cube.off"));
  std::swap(s.faces(0, 0), s.faces(0, 1));  // one face turned inside out
  const std::string msg = input_error_message([&] { require_closed_manifold(s, "flipped.off"); });
  EXPECT_NE(msg.find("flipped.off"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not consistently oriented"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 edge(s)"), std::string::npos) << msg;  // the flipped face's three edges
}

TEST(ReadSurface, UnknownExtensionAndMissingFile) {
  std::string msg = input_error_message([] { read_surface(mesh_data("two_tets.mesh")); });
  EXPECT_NE(msg.find("two_tets.mesh"), std::string::npos) << msg;
  EXPECT_NE(msg.find(".off, .obj or .stl"), std::string::npos) << msg;
  msg = input_error_message([] { read_surface(mesh_data("missing.stl")); });
  EXPECT_NE(msg.find("missing.stl"), std::string::npos) << msg;
}

TEST(ReadSurface, BadOffIndexNamesLine) {
  // truncated.node is not an OFF file: the header check fires on its first non-comment line.
  const std::string msg = input_error_message([] { read_off(mesh_data("truncated.node")); });
  EXPECT_NE(msg.find("truncated.node:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'OFF'"), std::string::npos) << msg;
}

TEST(ReadSurface, ObjFaceCornersWithNonIntegerReferencesAreRefusedNamingTheLine) {
  // "4/1/x" read as vertex 4: everything after the first '/' was ignored.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("simrun_obj_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string vertices = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
  std::ofstream(dir / "bad.obj") << vertices << "f 1 3 2\nf 2 3 4/1/x\n";
  const std::string msg = input_error_message([&] { read_obj(dir / "bad.obj"); });
  EXPECT_NE(msg.find("bad.obj:6: expected a face corner"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'4/1/x'"), std::string::npos) << msg;
  // The valid forms are read (as a closed tetrahedron).
  std::ofstream(dir / "good.obj")
      << vertices << "vt 0 0\nvn 0 0 1\n"
      << "f 1 3 2\nf 1/1 2/1 4/1\nf 2//1 3//1 4//1\nf 1/1/1 4/1/1 3/-1/-1\n";
  EXPECT_EQ(read_obj(dir / "good.obj").faces.rows(), 4);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace simrun
