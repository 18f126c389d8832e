// Quadric edge-collapse decimation (mesh/decimate.hpp) of a finely tessellated sphere: the result
// stays a closed, consistently oriented 2-manifold of genus 0 near the original surface, with
// the volume kept, and TetGen meshes it.
#include "mesh/decimate.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <map>
#include <numbers>

#include "mesh/tetrahedralize.hpp"

namespace simrun {
namespace {

/// A UV sphere of radius r: `rings` latitude bands, `segments` around, outward oriented.
SurfaceMesh uv_sphere(double r, int rings, int segments) {
  SurfaceMesh s;
  const int n = 2 + (rings - 1) * segments;
  s.vertices.resize(n, 3);
  s.vertices.row(0) << 0, 0, r;
  s.vertices.row(n - 1) << 0, 0, -r;
  for (int i = 1; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const double th = std::numbers::pi * i / rings, ph = 2 * std::numbers::pi * j / segments;
      s.vertices.row(1 + (i - 1) * segments + j) << r * std::sin(th) * std::cos(ph),
          r * std::sin(th) * std::sin(ph), r * std::cos(th);
    }
  std::vector<Eigen::Vector3i> faces;
  const auto ring = [&](int i, int j) { return 1 + (i - 1) * segments + (j % segments); };
  for (int j = 0; j < segments; ++j) {
    faces.emplace_back(0, ring(1, j), ring(1, j + 1));
    faces.emplace_back(n - 1, ring(rings - 1, j + 1), ring(rings - 1, j));
    for (int i = 1; i + 1 < rings; ++i) {
      faces.emplace_back(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1));
      faces.emplace_back(ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
    }
  }
  s.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (size_t f = 0; f < faces.size(); ++f) s.faces.row(static_cast<Eigen::Index>(f)) = faces[f];
  return s;
}

double enclosed_volume(const SurfaceMesh& s) {
  double v = 0;
  for (int f = 0; f < s.num_faces(); ++f)
    v += Vec3(s.vertices.row(s.faces(f, 0)))
             .dot(Vec3(s.vertices.row(s.faces(f, 1))).cross(Vec3(s.vertices.row(s.faces(f, 2))))) /
         6.0;
  return v;
}

/// Every directed edge once and its reverse once: closed and consistently oriented.
void expect_closed_oriented_manifold(const SurfaceMesh& s) {
  std::map<std::pair<int, int>, int> directed;
  for (int f = 0; f < s.num_faces(); ++f)
    for (int k = 0; k < 3; ++k) ++directed[{s.faces(f, k), s.faces(f, (k + 1) % 3)}];
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << edge.first << "-" << edge.second;
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << edge.first << "-" << edge.second;
  }
  const long E = static_cast<long>(directed.size()) / 2;
  EXPECT_EQ(s.num_vertices() - E + s.num_faces(), 2);  // genus 0
}

TEST(Decimate, SphereStaysAClosedManifoldNearTheSurface) {
  const double r = 0.1;
  const SurfaceMesh fine = uv_sphere(r, 40, 80);
  expect_closed_oriented_manifold(fine);
  const DecimationResult d = decimate_surface(fine, 400);
  EXPECT_LE(d.surface.num_faces(), 400);
  EXPECT_GE(d.surface.num_faces(), 300);
  expect_closed_oriented_manifold(d.surface);
  for (int v = 0; v < d.surface.num_vertices(); ++v)
    EXPECT_NEAR(d.surface.vertices.row(v).norm(), r, 0.03 * r) << "vertex " << v;
  const double exact = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  EXPECT_NEAR(enclosed_volume(d.surface), exact, 0.04 * exact);
  EXPECT_NEAR(enclosed_volume(fine), exact, 0.01 * exact);
  // TetGen accepts it.
  const TetMesh tets = tetrahedralize(d.surface, 2.0, 0.0, 0, "decimated sphere");
  EXPECT_GT(tets.num_tets(), 100);
}

TEST(Decimate, TargetAboveTheFaceCountChangesNothing) {
  const SurfaceMesh fine = uv_sphere(1.0, 6, 8);
  const DecimationResult d = decimate_surface(fine, 1000);
  EXPECT_EQ(d.collapses, 0);
  EXPECT_EQ(d.surface.num_faces(), fine.num_faces());
  EXPECT_EQ(d.surface.vertices, fine.vertices);
}

}  // namespace
}  // namespace simrun
