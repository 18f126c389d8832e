#include "contact/intersection.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <vector>

#include "mesh/aabb_tree.hpp"

namespace simrun {

namespace {

using Real = long double;
/// Unit roundoff of long double.
constexpr Real kUnit = LDBL_EPSILON / 2;
/// Forward error bounds of the determinants below relative to their permanents (Shewchuk 1997,
/// "Adaptive precision floating-point arithmetic", Sec. 4.3: (7 + 56u)u for orient3d and
/// (3 + 16u)u for orient2d), doubled for the rounding of the permanent itself.
constexpr Real kOrient3dBound = 16 * kUnit;
constexpr Real kOrient2dBound = 8 * kUnit;

int sign_with_bound(Real det, Real permanent, Real bound) {
  if (det > bound * permanent) return 1;
  if (det < -bound * permanent) return -1;
  return 0;
}

/// A point of the coplanar case, projected to 2D by dropping one axis.
struct Point2 {
  Real x, y;
};

Point2 project(const Vec3& p, int drop) {
  const int i = drop == 0 ? 1 : 0;
  const int j = drop == 2 ? 1 : 2;
  return {static_cast<Real>(p[i]), static_cast<Real>(p[j])};
}

/// Sign of (b - a) x (c - a) in 2D; 0 within the error bound.
int orient2d_sign(const Point2& a, const Point2& b, const Point2& c) {
  const Real ux = b.x - a.x, uy = b.y - a.y, vx = c.x - a.x, vy = c.y - a.y;
  const Real l = ux * vy, r = uy * vx;
  return sign_with_bound(l - r, std::fabs(l) + std::fabs(r), kOrient2dBound);
}

/// Is c, known to be collinear with (a, b), on the closed segment (a, b)? Exact comparisons.
bool on_segment(const Point2& a, const Point2& b, const Point2& c) {
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
         c.y <= std::max(a.y, b.y);
}

/// Closed 2D segments (p, q) and (a, b) share a point: proper crossing, or an endpoint of one
/// on the other (collinear overlaps included).
bool segments_intersect_2d(const Point2& p, const Point2& q, const Point2& a, const Point2& b) {
  const int o1 = orient2d_sign(p, q, a), o2 = orient2d_sign(p, q, b);
  const int o3 = orient2d_sign(a, b, p), o4 = orient2d_sign(a, b, q);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && on_segment(p, q, a)) || (o2 == 0 && on_segment(p, q, b)) ||
         (o3 == 0 && on_segment(a, b, p)) || (o4 == 0 && on_segment(a, b, q));
}

/// Closed 2D triangle (a, b, c) contains p: the three edge orientations never disagree.
bool triangle_contains_2d(const Point2& a, const Point2& b, const Point2& c, const Point2& p) {
  const int s0 = orient2d_sign(a, b, p), s1 = orient2d_sign(b, c, p), s2 = orient2d_sign(c, a, p);
  const bool has_negative = s0 < 0 || s1 < 0 || s2 < 0;
  const bool has_positive = s0 > 0 || s1 > 0 || s2 > 0;
  return !(has_negative && has_positive);
}

/// The coplanar case: the segment meets the triangle iff an endpoint is inside it or the segment
/// meets one of its edges. Projected along the axis of the normal's largest component, an affine
/// bijection of the plane, so the orientation signs keep their meaning (up to one global flip).
bool coplanar_segment_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                               const Vec3& c) {
  const Vec3 normal = (b - a).cross(c - a);
  int drop = 0;
  normal.cwiseAbs().maxCoeff(&drop);
  const Point2 p2 = project(p, drop), q2 = project(q, drop);
  const Point2 a2 = project(a, drop), b2 = project(b, drop), c2 = project(c, drop);
  return triangle_contains_2d(a2, b2, c2, p2) || triangle_contains_2d(a2, b2, c2, q2) ||
         segments_intersect_2d(p2, q2, a2, b2) || segments_intersect_2d(p2, q2, b2, c2) ||
         segments_intersect_2d(p2, q2, c2, a2);
}

Vec3 position(const VecX& x, int v) { return x.segment<3>(3 * static_cast<Eigen::Index>(v)); }

bool faces_share_vertex(const CollisionMesh& mesh, int f, int g) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (mesh.faces(f, i) == mesh.faces(g, j)) return true;
  return false;
}

}  // namespace

int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Real ux = Real(b.x()) - a.x(), uy = Real(b.y()) - a.y(), uz = Real(b.z()) - a.z();
  const Real vx = Real(c.x()) - a.x(), vy = Real(c.y()) - a.y(), vz = Real(c.z()) - a.z();
  const Real wx = Real(d.x()) - a.x(), wy = Real(d.y()) - a.y(), wz = Real(d.z()) - a.z();
  // det = w . (u x v), and its permanent (the same sum with every product made absolute).
  const Real det = wx * (uy * vz - uz * vy) + wy * (uz * vx - ux * vz) + wz * (ux * vy - uy * vx);
  const Real permanent = std::fabs(wx) * (std::fabs(uy * vz) + std::fabs(uz * vy)) +
                         std::fabs(wy) * (std::fabs(uz * vx) + std::fabs(ux * vz)) +
                         std::fabs(wz) * (std::fabs(ux * vy) + std::fabs(uy * vx));
  return sign_with_bound(det, permanent, kOrient3dBound);
}

// Non-coplanar: the segment reaches the triangle's plane (its ends not strictly on one side),
// and the line through it passes through the closed triangle: the three orientations of the
// triangle's edges against the line (p, q) never disagree.
bool segment_intersects_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                                 const Vec3& c) {
  const int sp = orient3d_sign(a, b, c, p), sq = orient3d_sign(a, b, c, q);
  if (sp * sq > 0) return false;
  if (sp == 0 && sq == 0) return coplanar_segment_triangle(p, q, a, b, c);
  const int s0 = orient3d_sign(p, q, a, b), s1 = orient3d_sign(p, q, b, c),
            s2 = orient3d_sign(p, q, c, a);
  const bool has_negative = s0 < 0 || s1 < 0 || s2 < 0;
  const bool has_positive = s0 > 0 || s1 > 0 || s2 > 0;
  return !(has_negative && has_positive);
}

bool triangles_intersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0,
                         const Vec3& b1, const Vec3& b2) {
  return segment_intersects_triangle(a0, a1, b0, b1, b2) ||
         segment_intersects_triangle(a1, a2, b0, b1, b2) ||
         segment_intersects_triangle(a2, a0, b0, b1, b2) ||
         segment_intersects_triangle(b0, b1, a0, a1, a2) ||
         segment_intersects_triangle(b1, b2, a0, a1, a2) ||
         segment_intersects_triangle(b2, b0, a0, a1, a2);
}

std::optional<FaceIntersection> first_face_intersection(const CollisionMesh& mesh, const VecX& x) {
  const int n = mesh.num_faces();
  std::vector<Aabb> boxes(static_cast<size_t>(n));
  for (int f = 0; f < n; ++f)
    for (int k = 0; k < 3; ++k) boxes[static_cast<size_t>(f)].extend(position(x, mesh.faces(f, k)));
  const AabbTree tree(boxes);
  std::vector<int> overlapping;
  for (int f = 0; f < n; ++f) {
    tree.overlapping(boxes[static_cast<size_t>(f)], overlapping);  // ascending
    const int object_f = mesh.face_object[static_cast<size_t>(f)];
    for (int g : overlapping) {
      if (g <= f) continue;
      const int object_g = mesh.face_object[static_cast<size_t>(g)];
      if (object_f == object_g && faces_share_vertex(mesh, f, g)) continue;
      if (triangles_intersect(position(x, mesh.faces(f, 0)), position(x, mesh.faces(f, 1)),
                              position(x, mesh.faces(f, 2)), position(x, mesh.faces(g, 0)),
                              position(x, mesh.faces(g, 1)), position(x, mesh.faces(g, 2))))
        return FaceIntersection{f, g, object_f, object_g};
    }
  }
  return std::nullopt;
}

bool surfaces_intersect(const CollisionMesh& mesh, const VecX& x, std::string* which) {
  const auto hit = first_face_intersection(mesh, x);
  if (hit && which)
    *which = "faces " + std::to_string(hit->face_a) + " (object " + std::to_string(hit->object_a) +
             ") and " + std::to_string(hit->face_b) + " (object " + std::to_string(hit->object_b) +
             ")";
  return hit.has_value();
}

}  // namespace simrun
