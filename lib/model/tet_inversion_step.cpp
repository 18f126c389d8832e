#include "model/tet_inversion_step.hpp"

#include <Eigen/Geometry>  // cross
#include <algorithm>
#include <array>
#include <cmath>

namespace simrun {

namespace {

/// Below this many tets the loop runs on one thread.
constexpr int kParallelTetThreshold = 4000;
/// Bisection steps on a bracketing monotone piece of [0, 1]: 2^-60 is below double resolution.
constexpr int kBisections = 60;

double det3(const Vec3& a, const Vec3& b, const Vec3& c) { return a.dot(b.cross(c)); }

double cubic(const Eigen::Vector4d& c, double t) {
  return c[0] + t * (c[1] + t * (c[2] + t * c[3]));
}

/// Roots in (0, 1) of a t^2 + b t + c (a, b may vanish), ascending; the numerically stable
/// form q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q.
int unit_quadratic_roots(double a, double b, double c, std::array<double, 2>& roots) {
  int n = 0;
  auto keep = [&](double r) {
    if (r > 0.0 && r < 1.0 && std::isfinite(r)) roots[static_cast<size_t>(n++)] = r;
  };
  if (a == 0.0) {
    if (b != 0.0) keep(-c / b);
  } else {
    const double disc = b * b - 4.0 * a * c;
    if (disc >= 0.0) {
      const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
      if (q != 0.0) {
        keep(q / a);
        keep(c / q);
      } else {
        keep(0.0);  // b = c = 0: the double root 0 is not inside (0, 1)
      }
    }
  }
  if (n == 2 && roots[0] > roots[1]) std::swap(roots[0], roots[1]);
  return n;
}

}  // namespace

Eigen::Vector4d determinant_cubic(const Mat3& D, const Mat3& E) {
  const Vec3 d0 = D.col(0), d1 = D.col(1), d2 = D.col(2);
  const Vec3 e0 = E.col(0), e1 = E.col(1), e2 = E.col(2);
  return {det3(d0, d1, d2), det3(e0, d1, d2) + det3(d0, e1, d2) + det3(d0, d1, e2),
          det3(d0, e1, e2) + det3(e0, d1, e2) + det3(e0, e1, d2), det3(e0, e1, e2)};
}

double tet_volume_step(const Mat3& D, const Mat3& E, double keep) {
  Eigen::Vector4d c = determinant_cubic(D, E);
  if (!(c[0] > 0.0)) return 1.0;
  c[0] *= 1.0 - keep;  // q(t) = det(D + t E) - keep det(D)
  // Fast path: q(t) >= c0 - |c1| - |c2| - |c3| on [0, 1].
  if (c[0] > std::abs(c[1]) + std::abs(c[2]) + std::abs(c[3])) return 1.0;
  // Break points: 0, the roots of q' = c1 + 2 c2 t + 3 c3 t^2 inside (0, 1), 1.
  std::array<double, 2> critical{};
  const int n = unit_quadratic_roots(3.0 * c[3], 2.0 * c[2], c[1], critical);
  std::array<double, 4> points{0.0, 1.0, 1.0, 1.0};
  for (int i = 0; i < n; ++i) points[static_cast<size_t>(i + 1)] = critical[static_cast<size_t>(i)];
  for (int i = 0; i < n + 1; ++i) {
    double lo = points[static_cast<size_t>(i)], hi = points[static_cast<size_t>(i + 1)];
    if (cubic(c, hi) > 0.0) continue;  // q > 0 on this monotone piece (both ends positive)
    for (int k = 0; k < kBisections && hi - lo > 0.0; ++k) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (cubic(c, mid) > 0.0 ? lo : hi) = mid;
    }
    return lo;
  }
  return 1.0;
}

double max_inversion_free_step(const TetElements& elements, const VecX& x, const VecX& dx,
                               double keep) {
  const int n = elements.size();
  double step = 1.0;
#pragma omp parallel for reduction(min : step) schedule(static) if (n >= kParallelTetThreshold)
  for (int e = 0; e < n; ++e)
    step = std::min(
        step, tet_volume_step(edge_matrix(elements, e, x), edge_matrix(elements, e, dx), keep));
  return step;
}

}  // namespace simrun
