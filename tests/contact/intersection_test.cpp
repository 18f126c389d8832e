// Exact intersection checks (contact/intersection.hpp) on constructed cases: crossing, touching at
// an edge or a corner, coplanar overlap and containment, disjoint (also just barely), shared
// vertices; the segment-triangle test on its own; and surfaces_intersect on two box meshes
// (apart, touching face to face, overlapping) and on one box folded through itself.
#include "contact/intersection.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "contact/collision_mesh_build.hpp"
#include "mesh/box.hpp"

namespace simrun {
namespace {

const Vec3 kA0(0, 0, 0), kA1(1, 0, 0), kA2(0, 1, 0);  // triangle in the plane z = 0

bool meets_a(const Vec3& b0, const Vec3& b1, const Vec3& b2) {
  // Symmetric in the two triangles and in the order of the corners.
  const bool r = triangles_intersect(kA0, kA1, kA2, b0, b1, b2);
  EXPECT_EQ(r, triangles_intersect(b0, b1, b2, kA0, kA1, kA2));
  EXPECT_EQ(r, triangles_intersect(kA2, kA0, kA1, b1, b2, b0));
  return r;
}

TEST(Orient3d, SignsAndExactZero) {
  EXPECT_EQ(orient3d_sign(kA0, kA1, kA2, Vec3(0.2, 0.2, 1)), 1);
  EXPECT_EQ(orient3d_sign(kA0, kA1, kA2, Vec3(0.2, 0.2, -1)), -1);
  EXPECT_EQ(orient3d_sign(kA0, kA1, kA2, Vec3(5, -3, 0)), 0);
  // Tiny but representable offsets are still resolved.
  EXPECT_EQ(orient3d_sign(kA0, kA1, kA2, Vec3(0.2, 0.2, 1e-300)), 1);
  // Points on a plane through rounded coordinates: 0.1 + 0.2 etc. are exactly coplanar here.
  const Vec3 a(0.1, 0.2, 0.3), b(1.1, 0.2, 0.3), c(0.1, 1.2, 0.3);
  EXPECT_EQ(orient3d_sign(a, b, c, Vec3(7.7, -3.3, 0.3)), 0);
}

TEST(TrianglesIntersect, CrossingTriangles) {
  // Pierces A through its interior.
  EXPECT_TRUE(meets_a(Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), Vec3(2, 2, 0.5)));
  // Two triangles crossing each other's edges (a "chain link").
  EXPECT_TRUE(meets_a(Vec3(0.25, -0.5, -0.5), Vec3(0.25, 0.5, -0.5), Vec3(0.25, 0.0, 0.5)));
}

TEST(TrianglesIntersect, TouchingAtAnEdgeOrCornerCounts) {
  // B's edge lies on A's edge x + y = 1 (a segment of it), B rises above A.
  EXPECT_TRUE(meets_a(Vec3(0.75, 0.25, 0), Vec3(0.25, 0.75, 0), Vec3(0.5, 0.5, 1)));
  // B's corner touches A's interior from above.
  EXPECT_TRUE(meets_a(Vec3(0.2, 0.2, 0), Vec3(1, 1, 1), Vec3(-1, 1, 1)));
  // B's corner touches A's corner (no shared vertex index: different objects).
  EXPECT_TRUE(meets_a(Vec3(1, 0, 0), Vec3(2, 0, 1), Vec3(2, 1, 1)));
}

TEST(TrianglesIntersect, CoplanarOverlapAndContainment) {
  EXPECT_TRUE(meets_a(Vec3(0.5, 0.5, 0), Vec3(-0.5, 0.5, 0), Vec3(0.5, -0.5, 0)));  // crossing
  EXPECT_TRUE(meets_a(Vec3(0.1, 0.1, 0), Vec3(0.3, 0.1, 0), Vec3(0.1, 0.3, 0)));    // inside A
  EXPECT_TRUE(meets_a(Vec3(-1, -1, 0), Vec3(3, -1, 0), Vec3(-1, 3, 0)));            // contains A
  // Coplanar and disjoint, just across A's hypotenuse.
  EXPECT_FALSE(meets_a(Vec3(0.51, 0.5, 0), Vec3(1, 1, 0), Vec3(0.5, 1, 0)));
  // Coplanar in the tilted plane x + y + z = 1 (dyadic coordinates: exactly coplanar), the
  // medial triangle inside the big one, and one poking out of its side.
  const Vec3 c0(1, 0, 0), c1(0, 1, 0), c2(0, 0, 1);
  EXPECT_TRUE(
      triangles_intersect(c0, c1, c2, Vec3(0.5, 0.5, 0), Vec3(0.5, 0, 0.5), Vec3(0, 0.5, 0.5)));
  EXPECT_TRUE(triangles_intersect(c0, c1, c2, Vec3(0.25, 0.25, 0.5), Vec3(1, 0.5, -0.5),
                                  Vec3(0.5, 1, -0.5)));
  EXPECT_FALSE(triangles_intersect(c0, c1, c2, Vec3(0.75, 0.75, -0.5), Vec3(1, 0.5, -0.5),
                                   Vec3(0.75, 1, -0.75)));
}

TEST(TrianglesIntersect, DisjointTriangles) {
  EXPECT_FALSE(meets_a(Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)));  // parallel, above
  // Crosses A's plane, but outside A (beyond its hypotenuse by 1e-12).
  const double e = 1e-12;
  EXPECT_FALSE(meets_a(Vec3(0.5 + e, 0.5, -1), Vec3(0.5 + e, 0.5, 1), Vec3(2, 2, 0)));
  // The same with the piercing edge just inside: intersects.
  EXPECT_TRUE(meets_a(Vec3(0.5 - e, 0.5, -1), Vec3(0.5 - e, 0.5, 1), Vec3(2, 2, 0)));
  // A gap of 1e-15 above A's corner.
  EXPECT_FALSE(meets_a(Vec3(0, 0, 1e-15), Vec3(1, 0, 1), Vec3(0, 1, 1)));
}

TEST(TrianglesIntersect, SharingAVertexIsAnIntersection) {
  // Adjacent faces meet at their shared corner; surfaces_intersect skips such pairs itself.
  EXPECT_TRUE(meets_a(kA1, Vec3(2, 0, 0), Vec3(2, 1, 0)));
  EXPECT_TRUE(meets_a(kA0, kA1, Vec3(0, -1, 0.3)));  // sharing an edge
}

TEST(SegmentTriangle, CrossingTouchingAndMissing) {
  EXPECT_TRUE(segment_intersects_triangle(Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), kA0, kA1, kA2));
  EXPECT_TRUE(segment_intersects_triangle(Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, 1), kA0, kA1, kA2));
  EXPECT_TRUE(segment_intersects_triangle(Vec3(0.5, 0.5, -1), Vec3(0.5, 0.5, 1), kA0, kA1, kA2));
  EXPECT_TRUE(segment_intersects_triangle(Vec3(-1, 0.5, 0), Vec3(2, 0.5, 0), kA0, kA1, kA2));
  EXPECT_FALSE(segment_intersects_triangle(Vec3(0.2, 0.2, 0.1), Vec3(0.2, 0.2, 1), kA0, kA1, kA2));
  EXPECT_FALSE(segment_intersects_triangle(Vec3(0.6, 0.6, -1), Vec3(0.6, 0.6, 1), kA0, kA1, kA2));
  EXPECT_FALSE(segment_intersects_triangle(Vec3(-1, 1.5, 0), Vec3(2, 1.5, 0), kA0, kA1, kA2));
}

/// Two unit boxes of 2^3 cubes, the second moved by `shift`; one collision mesh.
struct Boxes {
  CollisionMesh mesh;
  VecX x;
};
Boxes two_boxes(const Vec3& shift) {
  const TetMesh a = make_box(Vec3::Ones(), Eigen::Vector3i(2, 2, 2), 6);
  TetMesh both;
  const int nv = a.num_vertices(), nt = a.num_tets();
  both.vertices.resize(2 * nv, 3);
  both.tets.resize(2 * nt, 4);
  both.vertices.topRows(nv) = a.vertices;
  both.vertices.bottomRows(nv) = a.vertices.rowwise() + shift.transpose();
  both.tets.topRows(nt) = a.tets;
  both.tets.bottomRows(nt) = a.tets.array() + nv;
  std::vector<int> tet_object(static_cast<size_t>(nt), 0);
  tet_object.resize(static_cast<size_t>(2 * nt), 1);
  return {build_collision_mesh(both, tet_object, {true, true}), as_flat(both.vertices)};
}

TEST(SurfacesIntersect, TwoBoxes) {
  std::string which;
  EXPECT_FALSE(surfaces_intersect(two_boxes(Vec3(1.01, 0.3, 0.2)).mesh,
                                  two_boxes(Vec3(1.01, 0.3, 0.2)).x, &which));
  EXPECT_TRUE(which.empty());
  const Boxes touching = two_boxes(Vec3(1.0, 0.3, 0.2));
  EXPECT_TRUE(surfaces_intersect(touching.mesh, touching.x, &which));
  const Boxes overlapping = two_boxes(Vec3(0.7, 0.3, 0.2));
  const auto hit = first_face_intersection(overlapping.mesh, overlapping.x);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->object_a, 0);
  EXPECT_EQ(hit->object_b, 1);
  EXPECT_TRUE(surfaces_intersect(overlapping.mesh, overlapping.x, &which));
  EXPECT_NE(which.find("(object 0) and"), std::string::npos) << which;
  // One box alone (adjacent faces share vertices) never intersects itself.
  const Boxes far = two_boxes(Vec3(5, 0, 0));
  EXPECT_FALSE(surfaces_intersect(far.mesh, far.x));
}

TEST(SurfacesIntersect, ABoxFoldedThroughItselfIntersects) {
  // Push the top centre vertex of a 2^3 box down through the bottom face: its faces cross the
  // bottom's faces of the same object (not adjacent ones).
  Boxes b = two_boxes(Vec3(5, 0, 0));
  const int top_centre = 1 + 3 * (1 + 3 * 2);  // vertex (1, 1, 2)
  b.x[3 * top_centre + 2] = -0.5;
  std::string which;
  EXPECT_TRUE(surfaces_intersect(b.mesh, b.x, &which));
  EXPECT_NE(which.find("(object 0) and"), std::string::npos) << which;
  EXPECT_NE(which.find("(object 0)", which.find("and")), std::string::npos) << which;
}

}  // namespace
}  // namespace simrun
