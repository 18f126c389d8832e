#pragma once
/// Chain-rule helpers shared by the distance kernels (internal to lib/contact/distance*.cpp).
///
/// Every kernel is a function f(v_1..v_K) of K difference vectors v_k = sum_j C(k, j) x_j of the
/// P stencil points x_j (C holds -1, 0, 1). With g_v and H_v its derivatives in the v's,
///   df/dx_j = sum_k C(k, j) g_v_k,   d2f/dx_i dx_j = sum_{k,l} C(k, i) H_v_kl C(l, j),
/// i.e. the pull-back through the linear map (C kron I3). Fixed sizes: no heap allocation.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "contact/distance_types.hpp"

namespace simrun::distance_detail {

/// [v]_x, the matrix with [v]_x w = v x w.
inline Mat3 cross_matrix(const Vec3& v) {
  Mat3 m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

/// Writes the pull-back of (value, g_v, H_v) into the first 3P coordinates of `out` (the rest
/// zero). H_v is read only when `hessian`; otherwise out.hessian is zeroed.
template <int K, int P>
void pull_back(const Eigen::Matrix<double, K, P>& C, double value,
               const Eigen::Matrix<double, 3 * K, 1>& g_v,
               const Eigen::Matrix<double, 3 * K, 3 * K>& H_v, bool hessian,
               DistanceDerivatives& out) {
  out.value = value;
  out.gradient.setZero();
  out.hessian.setZero();
  for (int j = 0; j < P; ++j)
    for (int k = 0; k < K; ++k)
      if (C(k, j) != 0.0)
        out.gradient.template segment<3>(3 * j) += C(k, j) * g_v.template segment<3>(3 * k);
  if (!hessian) return;
  // T = (C kron I)^T H_v, (3P x 3K), then out = T (C kron I).
  Eigen::Matrix<double, 3 * P, 3 * K> T = Eigen::Matrix<double, 3 * P, 3 * K>::Zero();
  for (int i = 0; i < P; ++i)
    for (int k = 0; k < K; ++k)
      if (C(k, i) != 0.0)
        T.template middleRows<3>(3 * i) += C(k, i) * H_v.template middleRows<3>(3 * k);
  for (int j = 0; j < P; ++j)
    for (int l = 0; l < K; ++l)
      if (C(l, j) != 0.0)
        out.hessian.template block<3 * P, 3>(0, 3 * j) += C(l, j) * T.template middleCols<3>(3 * l);
}

/// Derivatives of a function h(n) of the cross product n = a x b, given g_n = dh/dn and
/// H_nn = d2h/dn2, with respect to (a, b) (6 coordinates): dn = -[b]_x da + [a]_x db, so
///   dh/da = b x g_n,   dh/db = g_n x a,
///   d2h = J^T H_nn J + the bilinear part of n: d2(g_n . (a x b))/da db = -[g_n]_x (and its
///   transpose [g_n]_x in the (b, a) block), with J = [-[b]_x, [a]_x].
/// The Hessian blocks are added to H (rows/cols offset..offset+5) only when `hessian`.
template <int N>
void cross_product_chain(const Vec3& a, const Vec3& b, const Vec3& g_n, const Mat3& H_nn,
                         int offset, bool hessian, Eigen::Matrix<double, N, 1>& g,
                         Eigen::Matrix<double, N, N>& H) {
  g.template segment<3>(offset) += b.cross(g_n);
  g.template segment<3>(offset + 3) += g_n.cross(a);
  if (!hessian) return;
  const Mat3 Ja = -cross_matrix(b);
  const Mat3 Jb = cross_matrix(a);
  const Mat3 G = cross_matrix(g_n);
  H.template block<3, 3>(offset, offset) += Ja.transpose() * H_nn * Ja;
  H.template block<3, 3>(offset, offset + 3) += Ja.transpose() * H_nn * Jb - G;
  H.template block<3, 3>(offset + 3, offset) += Jb.transpose() * H_nn * Ja + G;
  H.template block<3, 3>(offset + 3, offset + 3) += Jb.transpose() * H_nn * Jb;
}

}  // namespace simrun::distance_detail

namespace simrun::distance_detail {

/// Moves the derivatives of a kernel over P points (coordinates 0..3P-1 of `local`) to the
/// point slots `slot[0..P-1]` of the 12 coordinates (the other rows/columns zero).
template <int P>
DistanceDerivatives to_slots(const DistanceDerivatives& local, const int (&slot)[P], bool hessian) {
  DistanceDerivatives out;
  out.value = local.value;
  out.gradient.setZero();
  out.hessian.setZero();
  for (int i = 0; i < P; ++i) {
    out.gradient.segment<3>(3 * slot[i]) = local.gradient.segment<3>(3 * i);
    if (!hessian) continue;
    for (int j = 0; j < P; ++j)
      out.hessian.block<3, 3>(3 * slot[i], 3 * slot[j]) = local.hessian.block<3, 3>(3 * i, 3 * j);
  }
  return out;
}

}  // namespace simrun::distance_detail
