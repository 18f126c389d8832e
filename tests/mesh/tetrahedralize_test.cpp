#include "mesh/tetrahedralize.hpp"

#include <array>
#include <map>
#include <vector>

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

/// A closed cube surface with every face split into n x n squares of two triangles, outward.
SurfaceMesh subdivided_cube(const Vec3& origin, int n) {
  std::vector<Vec3> points;
  std::map<std::array<long, 3>, int> index;  // grid coordinates (in 1/n) -> vertex
  const auto vertex = [&](const std::array<long, 3>& g) {
    const auto [it, added] = index.emplace(g, static_cast<int>(points.size()));
    if (added) points.push_back(origin + Vec3(g[0], g[1], g[2]) / n);
    return it->second;
  };
  std::vector<std::array<int, 3>> faces;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;  // (u, w, axis) right-handed
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const auto corner = [&](int a, int b) {
            std::array<long, 3> g{};
            g[axis] = side * n;
            g[u] = a;
            g[w] = b;
            return vertex(g);
          };
          const int p = corner(i, j), q = corner(i + 1, j), r = corner(i + 1, j + 1),
                    t = corner(i, j + 1);
          if (side == 1) {  // normal +axis
            faces.push_back({p, q, r});
            faces.push_back({p, r, t});
          } else {
            faces.push_back({p, r, q});
            faces.push_back({p, t, r});
          }
        }
  }
  SurfaceMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (size_t v = 0; v < points.size(); ++v)
    mesh.vertices.row(static_cast<Eigen::Index>(v)) = points[v].transpose();
  mesh.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (size_t f = 0; f < faces.size(); ++f)
    for (int c = 0; c < 3; ++c) mesh.faces(static_cast<Eigen::Index>(f), c) = faces[f][c];
  return mesh;
}

TEST(Tetrahedralize, OverlappingFinelyTriangulatedCubesAreAnErrorNotAnAbort) {
  // TetGen 1.5.0 meshes these two overlapping closed cubes (4 x 4 squares per face) into a
  // failed assertion in fillregion() (an abort) unless its intersection detection runs first.
  const SurfaceMesh a = subdivided_cube(Vec3::Zero(), 4),
                    b = subdivided_cube(Vec3(0.5, 0.3, 0.2), 4);
  SurfaceMesh both;
  both.vertices.resize(a.num_vertices() + b.num_vertices(), 3);
  both.vertices << a.vertices, b.vertices;
  both.faces.resize(a.num_faces() + b.num_faces(), 3);
  both.faces << a.faces, (b.faces.array() + a.num_vertices()).matrix();
  const std::string msg =
      input_error_message([&] { tetrahedralize(both, 2.0, 0.0, 0, "two_cubes.off"); });
  EXPECT_NE(msg.find("two_cubes.off: TetGen failed to tetrahedralize the surface: the surface "
                     "intersects itself (88 of its triangles cross others)"),
            std::string::npos)
      << msg;
  // One of them alone meshes.
  EXPECT_GT(tetrahedralize(a, 2.0, 0.0, 0, "cube.off").num_tets(), 0);
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
