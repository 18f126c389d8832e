#include "contact/distance_primitives.hpp"

#include "contact/distance_chain.hpp"

namespace simrun {
namespace {

using distance_detail::cross_matrix;
using distance_detail::cross_product_chain;
using distance_detail::pull_back;
using distance_detail::to_slots;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// f(r, a, b) = (r . n)^2 / |n|^2 with n = a x b: the squared distance from the point r (taken
/// from a point of the plane) to the plane through the origin spanned by a and b. With s = r.n,
/// m = n.n (derived by hand):
///   df/dr = 2 s n / m,                df/dn = g_n = 2 s r / m - 2 s^2 n / m^2,
///   d2f/dr2 = 2 n n^T / m,            d2f/dr dn = 2 (n r^T + s I) / m - 4 s n n^T / m^2,
///   d2f/dn2 = 2 r r^T / m - 4 s (r n^T + n r^T) / m^2 - 2 s^2 I / m^2 + 8 s^2 n n^T / m^3,
/// and n's dependence on (a, b) goes through cross_product_chain. Requires n != 0.
void plane_kernel(const Vec3& r, const Vec3& a, const Vec3& b, bool hessian, double& value, Vec9& g,
                  Mat9& H) {
  const Vec3 n = a.cross(b);
  const double m = n.squaredNorm();
  const double s = r.dot(n);
  const double inv_m = 1.0 / m;
  value = s * s * inv_m;
  g.setZero();
  H.setZero();
  g.segment<3>(0) = (2.0 * s * inv_m) * n;
  const Vec3 g_n = (2.0 * s * inv_m) * r - (2.0 * s * s * inv_m * inv_m) * n;
  Mat3 H_nn = Mat3::Zero();
  if (hessian) {
    const double inv_m2 = inv_m * inv_m;
    const Mat3 rn = r * n.transpose();
    H_nn = (2.0 * inv_m) * r * r.transpose() - (4.0 * s * inv_m2) * (rn + rn.transpose()) -
           (2.0 * s * s * inv_m2) * Mat3::Identity() +
           (8.0 * s * s * inv_m2 * inv_m) * n * n.transpose();
    const Mat3 H_rn = (2.0 * inv_m) * (rn.transpose() + s * Mat3::Identity()) -
                      (4.0 * s * inv_m2) * n * n.transpose();
    H.block<3, 3>(0, 0) = (2.0 * inv_m) * n * n.transpose();
    const Mat3 H_ra = H_rn * -cross_matrix(b);  // dn/da = -[b]_x
    const Mat3 H_rb = H_rn * cross_matrix(a);   // dn/db = [a]_x
    H.block<3, 3>(0, 3) = H_ra;
    H.block<3, 3>(3, 0) = H_ra.transpose();
    H.block<3, 3>(0, 6) = H_rb;
    H.block<3, 3>(6, 0) = H_rb.transpose();
  }
  cross_product_chain<9>(a, b, g_n, H_nn, 3, hessian, g, H);
}

}  // namespace

// |p - q|^2: gradient 2 (p - q) and -2 (p - q); Hessian 2 [I -I; -I I].
DistanceDerivatives point_point_distance2(const Vec3& p, const Vec3& q, bool hessian) {
  DistanceDerivatives out;
  const Vec3 d = p - q;
  out.value = d.squaredNorm();
  out.gradient.setZero();
  out.gradient.segment<3>(0) = 2.0 * d;
  out.gradient.segment<3>(3) = -2.0 * d;
  out.hessian.setZero();
  if (hessian) {
    const Mat3 I2 = 2.0 * Mat3::Identity();
    out.hessian.block<3, 3>(0, 0) = I2;
    out.hessian.block<3, 3>(3, 3) = I2;
    out.hessian.block<3, 3>(0, 3) = -I2;
    out.hessian.block<3, 3>(3, 0) = -I2;
  }
  return out;
}

// f(r, u) = |r|^2 - (r.u)^2 / c, r = p - e0, u = e1 - e0, c = u.u, a = r.u (derived by hand):
//   df/dr = g_r = 2 (r - (a/c) u)  (twice the perpendicular part of r),   df/du = -(a/c) g_r,
//   d2f/dr2 = 2 I - 2 u u^T / c,
//   d2f/dr du = -2 (u r^T + a I) / c + 4 a u u^T / c^2,
//   d2f/du2 = -2 r r^T / c + 4 a (r u^T + u r^T) / c^2 + 2 a^2 I / c^2 - 8 a^2 u u^T / c^3.
// The value is evaluated as |r x u|^2 / c, which has no cancellation for a far point.
DistanceDerivatives point_edge_distance2(const Vec3& p, const Vec3& e0, const Vec3& e1,
                                         bool hessian) {
  const Vec3 r = p - e0;
  const Vec3 u = e1 - e0;
  const double c = u.squaredNorm();
  if (c <= 0.0) return point_point_distance2(p, e0, hessian);
  const double a = r.dot(u);
  const double inv_c = 1.0 / c;
  const double ratio = a * inv_c;
  Vec6 g_v;
  g_v.segment<3>(0) = 2.0 * (r - ratio * u);
  g_v.segment<3>(3) = -ratio * g_v.segment<3>(0);
  Mat6 H_v;
  if (hessian) {
    const Mat3 I = Mat3::Identity();
    const Mat3 uu = u * u.transpose();
    const Mat3 ur = u * r.transpose();
    H_v.block<3, 3>(0, 0) = 2.0 * I - 2.0 * inv_c * uu;
    H_v.block<3, 3>(0, 3) = -2.0 * inv_c * (ur + a * I) + 4.0 * a * inv_c * inv_c * uu;
    H_v.block<3, 3>(3, 0) = H_v.block<3, 3>(0, 3).transpose();
    H_v.block<3, 3>(3, 3) =
        -2.0 * inv_c * r * r.transpose() + 4.0 * a * inv_c * inv_c * (ur + ur.transpose()) +
        2.0 * a * a * inv_c * inv_c * I - 8.0 * a * a * inv_c * inv_c * inv_c * uu;
  }
  Eigen::Matrix<double, 2, 3> C;
  C << 1, -1, 0,  // r = p - e0
      0, -1, 1;   // u = e1 - e0
  DistanceDerivatives out;
  pull_back<2, 3>(C, r.cross(u).squaredNorm() * inv_c, g_v, H_v, hessian, out);
  return out;
}

// (n . (p - o))^2: gradient 2 (n . (p - o)) n, Hessian 2 n n^T (n unit, fixed).
DistanceDerivatives point_plane_distance2(const Vec3& p, const Vec3& origin, const Vec3& normal,
                                          bool hessian) {
  DistanceDerivatives out;
  const double h = normal.dot(p - origin);
  out.value = h * h;
  out.gradient.setZero();
  out.gradient.segment<3>(0) = 2.0 * h * normal;
  out.hessian.setZero();
  if (hessian) out.hessian.block<3, 3>(0, 0) = 2.0 * normal * normal.transpose();
  return out;
}

DistanceDerivatives point_triangle_plane_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                   const Vec3& t2, bool hessian) {
  const Vec3 a = t1 - t0;
  const Vec3 b = t2 - t0;
  if (a.cross(b).squaredNorm() <= 0.0) {
    // No plane: the line of the longest edge (slots: p, then the edge's two corners).
    const double l0 = a.squaredNorm(), l1 = (t2 - t1).squaredNorm(), l2 = b.squaredNorm();
    if (l0 >= l1 && l0 >= l2)
      return to_slots<3>(point_edge_distance2(p, t0, t1, hessian), {0, 1, 2}, hessian);
    if (l1 >= l2) return to_slots<3>(point_edge_distance2(p, t1, t2, hessian), {0, 2, 3}, hessian);
    return to_slots<3>(point_edge_distance2(p, t2, t0, hessian), {0, 3, 1}, hessian);
  }
  double value;
  Vec9 g_v;
  Mat9 H_v;
  plane_kernel(p - t0, a, b, hessian, value, g_v, H_v);
  Eigen::Matrix<double, 3, 4> C;
  C << 1, -1, 0, 0,  // r = p - t0
      0, -1, 1, 0,   // a = t1 - t0
      0, -1, 0, 1;   // b = t2 - t0
  DistanceDerivatives out;
  pull_back<3, 4>(C, value, g_v, H_v, hessian, out);
  return out;
}

DistanceDerivatives line_line_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, bool hessian) {
  const Vec3 a = ea1 - ea0;
  const Vec3 b = eb1 - eb0;
  if (a.cross(b).squaredNorm() <= 0.0)
    return to_slots<3>(point_edge_distance2(eb0, ea0, ea1, hessian), {2, 0, 1}, hessian);
  double value;
  Vec9 g_v;
  Mat9 H_v;
  plane_kernel(eb0 - ea0, a, b, hessian, value, g_v, H_v);
  Eigen::Matrix<double, 3, 4> C;
  C << -1, 0, 1, 0,  // r = eb0 - ea0
      -1, 1, 0, 0,   // a = ea1 - ea0
      0, 0, -1, 1;   // b = eb1 - eb0
  DistanceDerivatives out;
  pull_back<3, 4>(C, value, g_v, H_v, hessian, out);
  return out;
}

}  // namespace simrun
