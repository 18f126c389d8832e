#include "contact/friction_pair.hpp"

#include <algorithm>
#include <cmath>

#include "contact/barrier.hpp"
#include "contact/distance_mollifier.hpp"
#include "contact/distance_types.hpp"

namespace simrun {

namespace {
Vec3 point(const VecX& x, int v) { return x.segment<3>(3 * v); }

/// Parameter of the point of segment (a, b) closest to p, in [0, 1] (0 for a zero-length one).
double segment_parameter(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = e.squaredNorm();
  if (!(ee > 0.0)) return 0.0;
  return std::clamp((p - a).dot(e) / ee, 0.0, 1.0);
}
}  // namespace

// IPC's f0, f1 (f1 = f0' = Ascher et al. Eq. 32c, C^1 at s; f1' jumps from 0 to 0, so f0 is C^2).
double friction_f0(double y, double s) {
  if (y >= s) return y;
  return -y * y * y / (3.0 * s * s) + y * y / s + s / 3.0;
}

double friction_f1(double y, double s) {
  if (y >= s) return 1.0;
  return 2.0 * y / s - y * y / (s * s);
}

double friction_f1_derivative(double y, double s) {
  if (y >= s) return 0.0;
  return 2.0 / s - 2.0 * y / (s * s);
}

Eigen::Vector4d vertex_face_weights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  const Vec3 corners[3] = {t0, t1, t2};
  Eigen::Vector4d w(1.0, 0.0, 0.0, 0.0);
  const PointTriangleType type = point_triangle_type(p, t0, t1, t2);
  switch (type) {
    case PointTriangleType::kP_T0:
    case PointTriangleType::kP_T1:
    case PointTriangleType::kP_T2:
      w[1 + static_cast<int>(type) - static_cast<int>(PointTriangleType::kP_T0)] = -1.0;
      return w;
    case PointTriangleType::kP_E0:
    case PointTriangleType::kP_E1:
    case PointTriangleType::kP_E2: {
      const int k = static_cast<int>(type) - static_cast<int>(PointTriangleType::kP_E0);
      const int l = (k + 1) % 3;
      const double a = segment_parameter(p, corners[k], corners[l]);
      w[1 + k] = -(1.0 - a);
      w[1 + l] = -a;
      return w;
    }
    case PointTriangleType::kP_T:
      break;
  }
  // Projection onto the plane: minimize |p - t0 - b1 e1 - b2 e2|^2 (normal equations, 2x2).
  const Vec3 e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
  Eigen::Matrix2d m;
  m << e1.dot(e1), e1.dot(e2), e1.dot(e2), e2.dot(e2);
  const Eigen::Vector2d b = m.inverse() * Eigen::Vector2d(e1.dot(r), e2.dot(r));
  w << 1.0, -(1.0 - b[0] - b[1]), -b[0], -b[1];
  return w;
}

Eigen::Vector4d edge_edge_weights(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                  const Vec3& eb1) {
  double a = 0.0, b = 0.0;  // closest points ea0 + a (ea1 - ea0), eb0 + b (eb1 - eb0)
  switch (edge_edge_type(ea0, ea1, eb0, eb1)) {
    case EdgeEdgeType::kEA0_EB0:
      break;
    case EdgeEdgeType::kEA0_EB1:
      b = 1.0;
      break;
    case EdgeEdgeType::kEA1_EB0:
      a = 1.0;
      break;
    case EdgeEdgeType::kEA1_EB1:
      a = b = 1.0;
      break;
    case EdgeEdgeType::kEA_EB0:
      a = segment_parameter(eb0, ea0, ea1);
      break;
    case EdgeEdgeType::kEA_EB1:
      a = segment_parameter(eb1, ea0, ea1);
      b = 1.0;
      break;
    case EdgeEdgeType::kEA0_EB:
      b = segment_parameter(ea0, eb0, eb1);
      break;
    case EdgeEdgeType::kEA1_EB:
      a = 1.0;
      b = segment_parameter(ea1, eb0, eb1);
      break;
    case EdgeEdgeType::kEA_EB: {
      // Stationary point of |ea0 + a u - eb0 - b v|^2 (lines not parallel for this type).
      const Vec3 u = ea1 - ea0, v = eb1 - eb0, r = eb0 - ea0;
      Eigen::Matrix2d m;
      m << u.dot(u), -u.dot(v), -u.dot(v), v.dot(v);
      const Eigen::Vector2d ab = m.inverse() * Eigen::Vector2d(u.dot(r), -v.dot(r));
      a = std::clamp(ab[0], 0.0, 1.0);
      b = std::clamp(ab[1], 0.0, 1.0);
      break;
    }
  }
  return Eigen::Vector4d(1.0 - a, a, -(1.0 - b), -b);
}

Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n) {
  // Cross with the coordinate axis least aligned with n (well conditioned for any n).
  Eigen::Index axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  const Vec3 t0 = n.cross(Vec3::Unit(axis)).normalized();
  Eigen::Matrix<double, 3, 2> t;
  t.col(0) = t0;
  t.col(1) = n.cross(t0);
  return t;
}

FrictionPair lagged_friction_pair(const ContactBarrier::Pair& pair, const VecX& x_n,
                                  const std::vector<ContactPlane>& planes, double kappa,
                                  double dhat) {
  using Kind = ContactBarrier::Pair::Kind;
  FrictionPair out;
  out.vertices = pair.vertices;
  out.tangent.setZero();
  Vec3 p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = pair.vertices[i] >= 0 ? point(x_n, pair.vertices[i]) : Vec3::Zero();
  Eigen::Vector4d w(1.0, 0.0, 0.0, 0.0);
  Vec3 normal;
  double d = 0.0;
  double mollifier = 1.0;
  if (pair.kind == Kind::kVertexPlane) {
    const ContactPlane& plane = planes[static_cast<size_t>(pair.plane)];
    normal = plane.normal;
    d = normal.dot(p[0] - plane.point);
  } else {
    w = pair.kind == Kind::kVertexFace ? vertex_face_weights(p[0], p[1], p[2], p[3])
                                       : edge_edge_weights(p[0], p[1], p[2], p[3]);
    const Vec3 r = w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + w[3] * p[3];
    d = r.norm();
    normal = d > 0.0 ? Vec3(r / d) : Vec3::Zero();
    if (pair.kind == Kind::kEdgeEdge && pair.eps_x > 0.0)
      mollifier = edge_edge_mollifier(p[0], p[1], p[2], p[3], pair.eps_x, false).value;
  }
  if (!(d > 0.0)) return out;  // no normal, and the barrier is infinite there anyway
  // lambda = |d(kappa m b(d^2))/dd| = -kappa m b'(d^2) 2 d (b' <= 0 inside d_hat).
  out.normal_force = -kappa * mollifier * barrier_first_derivative(d * d, dhat * dhat) * 2.0 * d;
  const Eigen::Matrix<double, 3, 2> t = tangent_basis(normal);
  for (int i = 0; i < 4; ++i) out.tangent.block<2, 3>(0, 3 * i) = w[i] * t.transpose();
  return out;
}

double friction_pair_energy(const FrictionPair& pair, const FrictionVec12& dx, double mu, double s,
                            FrictionVec12* gradient, FrictionMat12* hessian, bool project_psd) {
  const double scale = mu * pair.normal_force;
  const Eigen::Vector2d u = pair.tangent * dx;
  const double y = u.norm();
  if (gradient) {
    // grad = mu lambda f1(y) A^T u / y; f1(y)/y -> 2/s as y -> 0.
    const double f1_over_y = y > 0.0 ? friction_f1(y, s) / y : 2.0 / s;
    *gradient = scale * f1_over_y * (pair.tangent.transpose() * u);
  }
  if (hessian) {
    // Hessian in u: mu lambda [f1'(y) uu^T/y^2 + f1(y)/y (I - uu^T/y^2)] (both limits 2/s at 0).
    Eigen::Matrix2d h_u = Eigen::Matrix2d::Identity() * (2.0 / s);
    if (y > 0.0) {
      const Eigen::Vector2d direction = u / y;
      double along = friction_f1_derivative(y, s);
      if (project_psd) along = std::max(along, 0.0);
      const Eigen::Matrix2d outer = direction * direction.transpose();
      h_u = along * outer + friction_f1(y, s) / y * (Eigen::Matrix2d::Identity() - outer);
    }
    *hessian = scale * pair.tangent.transpose() * h_u * pair.tangent;
  }
  return scale * friction_f0(y, s);
}

double friction_pair_work(const FrictionPair& pair, const FrictionVec12& dx, double mu, double s) {
  const double y = (pair.tangent * dx).norm();
  return mu * pair.normal_force * friction_f1(y, s) * y;
}

}  // namespace simrun
