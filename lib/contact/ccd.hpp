#pragma once
/// Conservative continuous collision detection (CCD) for linear trajectories x(t) = x0 + t dx,
/// t in [0, 1], by Additive CCD (ACCD; Li, Kaufman, Jiang, "Codimensional incremental potential
/// contact", 2021, as in Trusty et al. Sec. 3.9): the line search's largest step that keeps two
/// surface primitives apart (issue 14, part 5).
///
/// Guarantee of every *_ccd function below, with xi = max(min_distance, 0), d(t) the unsigned
/// distance between the two moving primitives, d0 = d(0) and s = kAccdShrink:
///   - if d0 <= xi the pair is already in contact and 0 is returned at once;
///   - otherwise, for every t in [0, t*]:  d(t) >= xi + s (d0 - xi)   (up to the rounding of
///     the distance evaluations), so with s = 0.1 at least 10% of the initial gap above xi is
///     kept over the whole interval, not only at t*;
///   - t* = 1 when that bound holds over the whole step (no contact within the step);
///   - after kAccdMaxIterations iterations the t reached so far is returned (still conservative).
#include "core/types.hpp"

namespace simrun {

/// Fraction of the initial gap d0 - xi that the CCD keeps (ACCD's usual rescaling 0.9: >= 10%).
inline constexpr double kAccdShrink = 0.1;
/// ACCD stops once the gap is within 10% of the margin and a step would advance t by less than
/// this fraction of t (ccd.cpp explains why both).
inline constexpr double kAccdMinProgress = 0.01;
/// Iteration cap: ACCD takes ~l_p / (s (1 - s) (d0 - xi)) iterations, which explodes for fast
/// tangential motion at a tiny gap; past the cap it returns the conservative t reached so far.
inline constexpr int kAccdMaxIterations = 100000;

/// Point p moving by dp against triangle (t0, t1, t2) moving by (dt0, dt1, dt2).
double point_triangle_ccd(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                          const Vec3& dp, const Vec3& dt0, const Vec3& dt1, const Vec3& dt2,
                          double min_distance, int max_iterations = kAccdMaxIterations);

/// Segment (ea0, ea1) moving by (dea0, dea1) against segment (eb0, eb1) moving by (deb0, deb1).
double edge_edge_ccd(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                     const Vec3& dea0, const Vec3& dea1, const Vec3& deb0, const Vec3& deb1,
                     double min_distance, int max_iterations = kAccdMaxIterations);

/// Point p moving by dp against the static half-space {y : normal . (y - origin) >= 0} (normal
/// need not be unit). Exact: d(t) = n . (p + t dp - origin) is linear in t, so t* is the time
/// where d reaches xi + s (d0 - xi) (1 if it never does). Here d is the signed distance; a point
/// already below xi gives 0.
double point_plane_ccd(const Vec3& p, const Vec3& dp, const Vec3& origin, const Vec3& normal,
                       double min_distance);

/// Unsigned distances the CCD evaluates (values only; the differentiable versions used by the
/// barrier live in distance.hpp). Exposed for tests.
namespace ccd_distance {
/// Distance from p to the closed segment [a, b] (a point when a == b).
double point_segment(const Vec3& p, const Vec3& a, const Vec3& b);
/// Distance from p to the closed triangle (a, b, c); degenerate triangles act as their edges.
double point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);
/// Distance between the closed segments [a0, a1] and [b0, b1] (parallel ones included).
double segment_segment(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1);
}  // namespace ccd_distance

}  // namespace simrun
