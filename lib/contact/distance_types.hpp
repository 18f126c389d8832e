#pragma once
/// The result type of the IPC distance kernels and the closest-feature classification of
/// point-triangle and edge-edge pairs (issue 14 part 2; the IPC barrier of Li et al. 2020, which
/// Trusty et al. use, is evaluated on squared distances d^2 between surface primitives).
///
/// Classification (derived here from the Voronoi regions of the features, not copied):
/// - point-triangle: if the point's projection onto the triangle's plane lies inside the
///   triangle (barycentric coordinates all >= 0), the closest feature is the face (kP_T);
///   otherwise the closest point lies on the boundary, and the nearest of the three edge
///   segments decides: its interior (kP_E*) or one of its endpoints (kP_T*). Edge k joins
///   t_k and t_{(k+1) mod 3}: E0 = (t0, t1), E1 = (t1, t2), E2 = (t2, t0).
/// - edge-edge: the squared distance |ea(s) - eb(t)|^2 is a convex quadratic in (s, t) on
///   [0,1]^2. If the lines are not (nearly) parallel and its unconstrained minimizer lies inside
///   the square, the closest feature pair is the two edge interiors (kEA_EB); otherwise the
///   minimum is on the square's boundary, i.e. the nearest of the four endpoint-vs-segment pairs
///   (kEA*_EB, kEA_EB*, or an endpoint pair kEA*_EB*).
/// Ties (a point exactly on a region boundary) may go either way: the squared distance and its
/// gradient agree there (C^1), only the Hessian jumps.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/types.hpp"

namespace simrun {

/// Squared distance and its derivatives with respect to the 12 coordinates of four points
/// (unused trailing points get zero rows/columns).
struct DistanceDerivatives {
  double value = 0.0;                     ///< squared distance d^2 [m^2]
  Eigen::Matrix<double, 12, 1> gradient;  ///< d(d^2)/dx
  Eigen::Matrix<double, 12, 12> hessian;  ///< d2(d^2)/dx2 (only if asked; else left zero)
};

enum class PointTriangleType { kP_T0, kP_T1, kP_T2, kP_E0, kP_E1, kP_E2, kP_T };
enum class EdgeEdgeType {
  kEA0_EB0,
  kEA0_EB1,
  kEA1_EB0,
  kEA1_EB1,
  kEA_EB0,
  kEA_EB1,
  kEA0_EB,
  kEA1_EB,
  kEA_EB
};

/// Below this value of sin^2 of the angle between two edge directions (|a x b|^2 <= k |a|^2
/// |b|^2) the edges count as parallel and the edge-edge classification uses the endpoint types;
/// the same bound marks a triangle as degenerate (its two edge vectors from t0 "parallel"),
/// which then never gets kP_T. Chosen so that the line-line formula's rounding error (relative
/// eps / sin(angle) ~ 1e-10 in the normal's direction) stays small while the endpoint fallback
/// overestimates an interior minimum by at most (sin(angle) * edge length)^2 = 1e-12 L^2.
inline constexpr double kParallelSin2 = 1e-12;

PointTriangleType point_triangle_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                      const Vec3& t2);
EdgeEdgeType edge_edge_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

/// Short names ("P_T0", "EA_EB", ...) for messages and test output.
const char* type_name(PointTriangleType type);
const char* type_name(EdgeEdgeType type);

}  // namespace simrun
