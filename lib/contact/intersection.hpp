#pragma once
/// Independent intersection checks for IPC's guarantee (issue 14, the evidence list and the bad
/// input "objects that intersect at the start"): closed segment-triangle and triangle-triangle
/// tests built only from orientation signs, and the first intersecting face pair of a
/// CollisionMesh at positions x.
///
/// Robustness: every decision is the sign of an orientation determinant (orient3d, and orient2d
/// for coplanar cases) evaluated in long double together with a forward error bound
/// (Shewchuk's static bound, scaled to long double's epsilon). A sign larger than its bound is
/// certain; a value within it is taken as 0, i.e. the point lies on the plane / line. Near such
/// degeneracies (relative size ~1e-18) the tests therefore lean towards "touching", which counts
/// as intersecting: the check errs on the side of reporting a pair, never of missing a crossing
/// by more than that bound.
#include <optional>
#include <string>

#include "contact/collision_mesh.hpp"
#include "core/types.hpp"

namespace simrun {

/// Sign (-1, 0, +1) of det[b - a, c - a, d - a] (positive when d lies on the side of the plane
/// (a, b, c) that its normal (b - a) x (c - a) points to); 0 when within the error bound.
int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Does the closed segment (p, q) share a point with the closed triangle (a, b, c)? Touching (an
/// endpoint on the triangle, the segment through an edge or a corner, a coplanar overlap) counts.
bool segment_intersects_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                                 const Vec3& c);

/// Do the closed triangles (a0, a1, a2) and (b0, b1, b2) share a point? Two triangles meet iff an
/// edge of one meets the other (in the non-coplanar case the intersection segment's ends lie on
/// edges; in the coplanar case an edge crossing or a contained edge), so this is six
/// segment-triangle tests. Shared corners count as intersecting: callers skip adjacent faces.
bool triangles_intersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0,
                         const Vec3& b1, const Vec3& b2);

/// Two faces of a CollisionMesh that intersect.
struct FaceIntersection {
  int face_a = -1, face_b = -1;      ///< face indices, face_a < face_b
  int object_a = -1, object_b = -1;  ///< their objects (mesh.face_object)
};

/// The first intersecting pair (lowest face_a, then face_b) among the faces of `mesh` at x (full
/// flat positions), found with an AABB tree over the face boxes (no inflation: closed boxes, so
/// touching faces are candidates). Face pairs within one object that share a vertex (adjacent
/// faces) are skipped; all other pairs are tested, also within one object whatever its
/// self-contact setting.
std::optional<FaceIntersection> first_face_intersection(const CollisionMesh& mesh, const VecX& x);

/// True when first_face_intersection finds a pair; `which` (when given) then names it, e.g.
/// "faces 3 (object 0) and 41 (object 1)".
bool surfaces_intersect(const CollisionMesh& mesh, const VecX& x, std::string* which = nullptr);

}  // namespace simrun
