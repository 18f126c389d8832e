#pragma once
/// Squared distances between the collision primitives of IPC contact (issue 14 part 2), with
/// gradients and Hessians over the 12 coordinates of the four points, for the barrier
/// b(d^2, d_hat^2) (Li et al. 2020, used by Trusty et al.; Ascher et al. survey Eq. 28). Each
/// function picks the closest-feature type (distance_types.hpp) and evaluates the matching
/// formula of distance_primitives.hpp, so the result is the true (unsigned) squared distance
/// between the point and the triangle / the two segments; it is C^1 across type switches and its
/// Hessian is that of the active formula (it may jump there). No heap allocation; with
/// hessian == false the Hessian is not computed (left zero).
#include "contact/distance_mollifier.hpp"
#include "contact/distance_primitives.hpp"
#include "contact/distance_types.hpp"

namespace simrun {

/// Unsigned squared distance between point p and triangle (t0, t1, t2): the closest feature by
/// type, then the matching point-point / point-edge / point-plane formula. Order: p, t0, t1, t2.
/// A degenerate triangle (zero area, or |a x b|^2 <= kParallelSin2 |a|^2 |b|^2 for its edge
/// vectors a, b from t0) is treated as its three edge segments: the distance to the nearest
/// (finite; a zero-length edge is its endpoint, so all-coincident corners give |p - t0|^2).
DistanceDerivatives point_triangle_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, bool hessian);

/// Between segments (ea0, ea1) and (eb0, eb1); parallel (or nearly parallel, sin^2 of the angle
/// <= kParallelSin2) segments fall back to the endpoint types, whose minimum is then the exact
/// segment distance for exactly parallel ones and overestimates it by at most
/// kParallelSin2 * max length^2 otherwise. A zero-length edge is a point (its first endpoint's
/// types). Order: ea0, ea1, eb0, eb1.
DistanceDerivatives edge_edge_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, bool hessian);

/// The same with the type already known (from point_triangle_type / edge_edge_type, e.g. kept
/// fixed over a Newton iteration). The formula of `type` is evaluated whatever the geometry.
DistanceDerivatives point_triangle_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, PointTriangleType type, bool hessian);
DistanceDerivatives edge_edge_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, EdgeEdgeType type, bool hessian);

}  // namespace simrun
