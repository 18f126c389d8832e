#include "contact/distance_mollifier.hpp"

#include "contact/distance_chain.hpp"

namespace simrun {

using distance_detail::cross_product_chain;

// With x(a, b) = |a x b|^2, a = ea1 - ea0, b = eb1 - eb0: dx/dn = 2 n and d2x/dn2 = 2 I for
// n = a x b, pushed to (a, b) by cross_product_chain. Then by the chain rule
//   grad m = m'(x) grad x,   hess m = m''(x) grad x grad x^T + m'(x) hess x,
// with m'(x) = 2 / eps_x - 2 x / eps_x^2 and m''(x) = -2 / eps_x^2 below eps_x.
Mollifier edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                              double eps_x, bool hessian) {
  Mollifier out;
  out.value = 1.0;
  out.gradient.setZero();
  out.hessian.setZero();
  const Vec3 a = ea1 - ea0;
  const Vec3 b = eb1 - eb0;
  const Vec3 n = a.cross(b);
  const double x = n.squaredNorm();
  if (!(eps_x > 0.0) || x >= eps_x) return out;
  const double inv_eps = 1.0 / eps_x;
  const double y = x * inv_eps;
  out.value = (2.0 - y) * y;
  const double dm = 2.0 * inv_eps * (1.0 - y);
  const double d2m = -2.0 * inv_eps * inv_eps;
  Eigen::Matrix<double, 6, 1> g_ab = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 6> H_ab = Eigen::Matrix<double, 6, 6>::Zero();
  cross_product_chain<6>(a, b, 2.0 * n, 2.0 * Mat3::Identity(), 0, hessian, g_ab, H_ab);
  // Coordinates: a = ea1 - ea0 (slots 0, 1), b = eb1 - eb0 (slots 2, 3).
  const Vec3 ga = g_ab.segment<3>(0), gb = g_ab.segment<3>(3);
  out.gradient << -dm * ga, dm * ga, -dm * gb, dm * gb;
  if (!hessian) return out;
  // Hessian in (a, b), then through the map x -> (a, b) = (C kron I) x, C = [-1 1 0 0; 0 0 -1 1].
  const Eigen::Matrix<double, 6, 6> H = d2m * g_ab * g_ab.transpose() + dm * H_ab;
  static constexpr double kC[2][4] = {{-1, 1, 0, 0}, {0, 0, -1, 1}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int k = i / 2, l = j / 2;  // the only nonzero C(k, i) and C(l, j)
      out.hessian.block<3, 3>(3 * i, 3 * j) = kC[k][i] * kC[l][j] * H.block<3, 3>(3 * k, 3 * l);
    }
  return out;
}

double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest,
                                     const Vec3& eb0_rest, const Vec3& eb1_rest) {
  return 1e-3 * (ea1_rest - ea0_rest).squaredNorm() * (eb1_rest - eb0_rest).squaredNorm();
}

}  // namespace simrun
