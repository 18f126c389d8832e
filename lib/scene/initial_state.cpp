#include "scene/initial_state.hpp"

#include <Eigen/Geometry>
#include <numbers>

namespace simrun {

void apply_twist(MatX3& x, const TwistConfig& twist) {
  const int axis = twist.axis;
  const Vec3 lo = x.colwise().minCoeff(), hi = x.colwise().maxCoeff();
  const Vec3 center = 0.5 * (lo + hi);
  const double length = hi[axis] - lo[axis];
  if (length <= 0.0) return;
  const Vec3 direction = Vec3::Unit(axis);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double s = (x(i, axis) - lo[axis]) / length;
    const double angle = twist.angle_deg * std::numbers::pi / 180.0 * s;
    const Vec3 p = x.row(i).transpose() - center;
    x.row(i) = (Eigen::AngleAxisd(angle, direction) * p + center).transpose();
  }
}

void apply_axial_scale(MatX3& x, const AxialScaleConfig& scale) {
  const double start = x.col(scale.axis).minCoeff();
  x.col(scale.axis) = (x.col(scale.axis).array() - start) * scale.factor + start;
}

MatX3 initial_velocities(const MatX3& x, const VecX& mass, const InitialConfig& initial) {
  MatX3 v(x.rows(), 3);
  const Vec3 center = (x.transpose() * mass) / mass.sum();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const Vec3 r = x.row(i).transpose() - center;
    v.row(i) = (initial.velocity + initial.angular_velocity.cross(r)).transpose();
  }
  return v;
}

}  // namespace simrun
