#include "coarsen/rigid_motion.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <stdexcept>

namespace simrun {

namespace {
Vec3 row(const MatX3& points, int i) { return points.row(i).transpose(); }

int farthest_from(const MatX3& points, const Vec3& p) {
  Eigen::Index best = 0;
  (points.rowwise() - p.transpose()).rowwise().squaredNorm().maxCoeff(&best);
  return static_cast<int>(best);
}

int largest_component(const Vec3& d) {
  Eigen::Index k = 0;
  d.cwiseAbs().maxCoeff(&k);
  return static_cast<int>(k);
}
}  // namespace

Vec3 weighted_centre(const MatX3& points, const VecX& weights) {
  return (points.transpose() * weights) / weights.sum();
}

Mat3 inertia_tensor(const MatX3& points, const VecX& weights, const Vec3& centre) {
  Mat3 I = Mat3::Zero();
  for (int i = 0; i < points.rows(); ++i) {
    const Vec3 r = row(points, i) - centre;
    I += weights[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  return I;
}

void remove_net_force_and_torque(const MatX3& points, const VecX& weights, VecX& b) {
  const int n = static_cast<int>(points.rows());
  const double total = weights.sum();
  Vec3 force = Vec3::Zero();
  for (int i = 0; i < n; ++i) force += b.segment<3>(3 * i);
  for (int i = 0; i < n; ++i) b.segment<3>(3 * i) -= weights[i] / total * force;

  const Vec3 centre = weighted_centre(points, weights);
  Vec3 torque = Vec3::Zero();
  for (int i = 0; i < n; ++i) torque += (row(points, i) - centre).cross(b.segment<3>(3 * i));
  const Vec3 omega = inertia_tensor(points, weights, centre).lu().solve(torque);
  for (int i = 0; i < n; ++i)
    b.segment<3>(3 * i) -= weights[i] * omega.cross(row(points, i) - centre);
}

void remove_rigid_motion(const MatX3& points, const VecX& weights, VecX& u) {
  const int n = static_cast<int>(points.rows());
  const Vec3 centre = weighted_centre(points, weights);
  Vec3 mean = Vec3::Zero();
  for (int i = 0; i < n; ++i) mean += weights[i] * u.segment<3>(3 * i);
  mean /= weights.sum();
  // With sum m r = 0 the translation and rotation decouple: I omega = sum m r x u.
  Vec3 moment = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    u.segment<3>(3 * i) -= mean;
    moment += weights[i] * (row(points, i) - centre).cross(u.segment<3>(3 * i));
  }
  const Vec3 omega = inertia_tensor(points, weights, centre).lu().solve(moment);
  for (int i = 0; i < n; ++i) u.segment<3>(3 * i) -= omega.cross(row(points, i) - centre);
}

std::array<int, 6> rigid_pin_dofs(const MatX3& points) {
  const Vec3 centre = points.colwise().mean().transpose();
  const int a = farthest_from(points, centre);
  const int b = farthest_from(points, row(points, a));
  const Vec3 axis = row(points, b) - row(points, a);
  // c: farthest from the line ab; a rotation about ab moves it along axis x (c - a).
  int c = 0;
  double best = -1.0;
  for (int i = 0; i < points.rows(); ++i) {
    const double d = axis.cross(row(points, i) - row(points, a)).norm();
    if (d > best) best = d, c = i;
  }
  if (!(axis.norm() > 0.0) || !(best > 1e-9 * axis.squaredNorm()))
    throw std::invalid_argument("rigid_pin_dofs: the points are (nearly) collinear");
  // At b, a rotation about a moves b perpendicular to the axis: fix the two components other
  // than the axis' largest one (then only rotations about the axis remain, see the header).
  const int k = largest_component(axis);
  const int b1 = (k + 1) % 3, b2 = (k + 2) % 3;
  const int kc = largest_component(axis.cross(row(points, c) - row(points, a)));
  return {3 * a, 3 * a + 1, 3 * a + 2, 3 * b + b1, 3 * b + b2, 3 * c + kc};
}

}  // namespace simrun
