#include "contact/sphere_obstacle.hpp"

#include <cmath>
#include <stdexcept>

namespace simrun {

SphereObstacle::SphereObstacle(const Vec3& center, double radius)
    : m_center(center), m_radius(radius) {
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw std::invalid_argument("SphereObstacle: the radius must be positive and finite");
}

int SphereObstacle::project(const DofMap& dofs, VecX& x, VecX& v) const {
  int moved = 0;
  const int n = static_cast<int>(x.size() / 3);
  for (int i = 0; i < n; ++i) {
    if (dofs.free_index(3 * i) < 0) continue;
    const Vec3 offset = x.segment<3>(3 * i) - m_center;
    const double r = offset.norm();
    if (!(r < m_radius)) continue;  // on or outside (or not finite: the step loop reports that)
    const Vec3 normal = r > 0.0 ? Vec3(offset / r) : Vec3(Vec3::UnitY());
    x.segment<3>(3 * i) = m_center + m_radius * normal;
    const double inward = v.segment<3>(3 * i).dot(normal);
    if (inward < 0.0) v.segment<3>(3 * i) -= inward * normal;
    ++moved;
  }
  return moved;
}

}  // namespace simrun
