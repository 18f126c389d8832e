#pragma once
/// The squared-distance formulas behind the IPC contact kernels (issue 14 part 2; IPC barriers
/// act on squared distances, as in ipc-toolkit), each with its gradient and, when `hessian` is
/// true, its Hessian (otherwise the Hessian is left zero). Derivatives are with respect to the
/// stacked coordinates of the points in argument order; unused trailing coordinates are zero.
/// These are the formulas for one closest-feature pair; point_triangle_distance2 and
/// edge_edge_distance2 (distance.hpp) pick the right one.
#include "contact/distance_types.hpp"

namespace simrun {

/// |p - q|^2 (first 6 coordinates).
DistanceDerivatives point_point_distance2(const Vec3& p, const Vec3& q, bool hessian);

/// Squared distance from p to the infinite line through e0, e1 (first 9 coordinates):
/// |r x u|^2 / |u|^2 = |r|^2 - (r.u)^2 / |u|^2 with r = p - e0, u = e1 - e0.
/// A zero-length edge (e0 == e1) returns the point-point distance |p - e0|^2 instead.
DistanceDerivatives point_edge_distance2(const Vec3& p, const Vec3& e0, const Vec3& e1,
                                         bool hessian);

/// (n . (p - origin))^2 for a unit normal n: the squared signed distance to a fixed plane, with
/// derivatives in p only (first 3 coordinates; the plane is not a variable).
DistanceDerivatives point_plane_distance2(const Vec3& p, const Vec3& origin, const Vec3& normal,
                                          bool hessian);

/// Squared distance from p to the plane of triangle (t0, t1, t2), all four points variable
/// (12 coordinates): (r . n)^2 / |n|^2, r = p - t0, n = (t1 - t0) x (t2 - t0).
/// A triangle with n == 0 exactly has no plane: returns the point-edge distance to the line of
/// its longest edge (finite; point_triangle_distance2 never calls this for such a triangle).
DistanceDerivatives point_triangle_plane_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                   const Vec3& t2, bool hessian);

/// Squared distance between the infinite lines through (ea0, ea1) and (eb0, eb1) (12
/// coordinates): (r . n)^2 / |n|^2, r = eb0 - ea0, n = (ea1 - ea0) x (eb1 - eb0).
/// Exactly parallel lines (n == 0) return the point-line distance from eb0 to line a instead.
DistanceDerivatives line_line_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, bool hessian);

}  // namespace simrun
