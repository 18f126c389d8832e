#include "contact/ccd.hpp"

#include <Eigen/Geometry>  // cross
#include <algorithm>
#include <cmath>

namespace simrun {

namespace ccd_distance {

// Closest point of a segment: the projection parameter of p onto the line, clamped to [0, 1].
double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = e.squaredNorm();
  const double u = ee > 0.0 ? std::clamp(e.dot(p - a) / ee, 0.0, 1.0) : 0.0;
  return (p - (a + u * e)).norm();
}

// If the projection of p onto the triangle's plane lies inside the triangle (all barycentric
// coordinates >= 0), the distance is the distance to the plane; otherwise the closest point is
// on the boundary, so it is the smallest of the three point-segment distances.
double point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double nn = n.squaredNorm();
  const double scale =
      std::max({(b - a).squaredNorm(), (c - a).squaredNorm(), (c - b).squaredNorm()});
  if (nn > 1e-24 * scale * scale) {
    // Barycentric coordinates of the projection: signed sub-triangle areas over the full one
    // (the normal component of p cancels in each triple product).
    const double la = n.dot((b - p).cross(c - p));
    const double lb = n.dot((c - p).cross(a - p));
    const double lc = n.dot((a - p).cross(b - p));
    if (la >= 0.0 && lb >= 0.0 && lc >= 0.0) return std::abs(n.dot(p - a)) / std::sqrt(nn);
  }
  return std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
}

// |r + u d - v e|^2 over (u, v) in [0, 1]^2 is a convex quadratic: its minimum is the interior
// stationary point when that lies in the square, else on the square's boundary, where one
// parameter is 0 or 1, i.e. one of the four endpoint-to-segment distances. Every candidate is
// the distance of an actual pair of points, so rounding in the (ill-conditioned, nearly
// parallel) stationary point can only over-estimate that candidate, never the minimum of all.
double segment_segment(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  double best = std::min({point_segment(a0, b0, b1), point_segment(a1, b0, b1),
                          point_segment(b0, a0, a1), point_segment(b1, a0, a1)});
  const Vec3 d = a1 - a0, e = b1 - b0, r = a0 - b0;
  const double dd = d.squaredNorm(), de = d.dot(e), ee = e.squaredNorm();
  const double det = dd * ee - de * de;  // = |d x e|^2
  if (det > 1e-14 * dd * ee) {
    const double dr = d.dot(r), er = e.dot(r);
    const double u = (de * er - ee * dr) / det;
    const double v = (dd * er - de * dr) / det;
    if (u >= 0.0 && u <= 1.0 && v >= 0.0 && v <= 1.0)
      best = std::min(best, (r + u * d - v * e).norm());
  }
  return best;
}

}  // namespace ccd_distance

namespace {

/// The ACCD loop (CIPC 2021, Sec. 4 "additive CCD"), shared by both primitive pairs.
///
/// Conservativeness. Subtracting one common displacement c from all vertices' displacements is
/// a rigid translation of both primitives at every t, which leaves d(t) unchanged; with c so
/// chosen, every point of primitive A is a convex combination of A's vertices, so between
/// t and t + tau it moves at most tau max_i |dA_i - c|, and likewise for B. The distance between
/// the two sets therefore changes by at most tau l_p, l_p = max_i |dA_i - c| + max_j |dB_j - c|:
///     d(t') >= d(t_k) - (t' - t_k) l_p   for t' >= t_k.                        (Lipschitz)
/// From t_k we advance by tau_k = (d(t_k) - target) / l_p with target = xi + s (d0 - xi), so
/// (Lipschitz) gives d(t') >= target on [t_k, t_k + tau_k]; chaining the intervals gives the
/// guarantee of ccd.hpp on [0, t*]. This is the paper's step (1 - s) d / l_p measured above the
/// target rather than above xi: a head-on approach at speed l_p then stops at exactly
/// (1 - s) of the time of impact, and the bound needs no second margin.
///
/// Termination. We stop (returning the reached t, which the argument covers) when both
///   (a) the gap above the target has fallen below s (d0 - target), and
///   (b) the next step would advance t by less than kAccdMinProgress t.
/// (a) alone (the paper's rule) stops for good at a graze that dips to ~0.19 d0 and recovers,
/// long before a later contact; (b) lets it run on past such a dip while the steps are still
/// worth taking, and in a true approach to the target (steps shrinking geometrically) fires
/// after a few iterations. Iterations: while (a) fails each step is >= s (1 - s)(d0 - xi) / l_p;
/// while (b) fails t grows by a factor >= 1 + kAccdMinProgress. So at most about
/// l_p / (s (1 - s)(d0 - xi)) + ln(l_p / ((1 - s)(d0 - xi))) / kAccdMinProgress iterations run;
/// the cap bounds the first term for fast tangential motion at a tiny gap.
template <class DistanceAt>
double additive_ccd(const DistanceAt& distance_at, double l_p, double min_distance,
                    int max_iterations) {
  const double xi = std::max(min_distance, 0.0);
  const double d0 = distance_at(0.0);
  if (!(d0 > xi)) return 0.0;    // touching (or closer than xi) already: no progress possible
  if (!(l_p > 0.0)) return 1.0;  // rigid common translation: d(t) = d0 for all t
  const double target = xi + kAccdShrink * (d0 - xi);
  const double stop_excess = kAccdShrink * (d0 - target);
  double t = 0.0, d = d0;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    const double step = (d - target) / l_p;
    if (!(step > 0.0)) return t;  // on the target (head-on approach), or below by rounding
    if (t + step >= 1.0) return 1.0;
    if (d - target < stop_excess && step < kAccdMinProgress * t) return t;
    t += step;
    d = distance_at(t);
  }
  return t;
}

}  // namespace

double point_triangle_ccd(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                          const Vec3& dp, const Vec3& dt0, const Vec3& dt1, const Vec3& dt2,
                          double min_distance, int max_iterations) {
  const Vec3 c = 0.25 * (dp + dt0 + dt1 + dt2);  // common translation, removed from l_p
  const double l_p =
      (dp - c).norm() + std::max({(dt0 - c).norm(), (dt1 - c).norm(), (dt2 - c).norm()});
  const auto distance_at = [&](double t) {
    return ccd_distance::point_triangle(p + t * dp, t0 + t * dt0, t1 + t * dt1, t2 + t * dt2);
  };
  return additive_ccd(distance_at, l_p, min_distance, max_iterations);
}

double edge_edge_ccd(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                     const Vec3& dea0, const Vec3& dea1, const Vec3& deb0, const Vec3& deb1,
                     double min_distance, int max_iterations) {
  const Vec3 c = 0.25 * (dea0 + dea1 + deb0 + deb1);
  const double l_p = std::max((dea0 - c).norm(), (dea1 - c).norm()) +
                     std::max((deb0 - c).norm(), (deb1 - c).norm());
  const auto distance_at = [&](double t) {
    return ccd_distance::segment_segment(ea0 + t * dea0, ea1 + t * dea1, eb0 + t * deb0,
                                         eb1 + t * deb1);
  };
  return additive_ccd(distance_at, l_p, min_distance, max_iterations);
}

// d(t) = n . (p - origin) / |n| + t n . dp / |n| is linear: the first t where it reaches the
// target xi + s (d0 - xi) is (d0 - target) / (-rate) = (1 - s)(d0 - xi) / (-rate).
double point_plane_ccd(const Vec3& p, const Vec3& dp, const Vec3& origin, const Vec3& normal,
                       double min_distance) {
  const double xi = std::max(min_distance, 0.0);
  const double length = normal.norm();
  const double d0 = normal.dot(p - origin) / length;
  if (!(d0 > xi)) return 0.0;
  const double rate = normal.dot(dp) / length;
  if (rate >= 0.0) return 1.0;
  return std::min(1.0, (1.0 - kAccdShrink) * (d0 - xi) / -rate);
}

}  // namespace simrun
