#include "model/wind_load.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace simrun {

WindLoad::WindLoad(const WindSettings& settings, VecX rest, const MatX3i& faces)
    : m_settings(settings),
      m_rest(std::move(rest)),
      m_faces(faces),
      m_area_normals(faces.rows(), 3) {
  m_settings.direction.normalize();
  m_settings.sway_axis.normalize();
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const Vec3 a = m_rest.segment<3>(3 * faces(f, 0));
    const Vec3 b = m_rest.segment<3>(3 * faces(f, 1));
    const Vec3 c = m_rest.segment<3>(3 * faces(f, 2));
    m_area_normals.row(f) = 0.5 * (b - a).cross(c - a).transpose();  // |.| = area, outward
  }
  set_time(0.0);
}

double WindLoad::pressure_at(double t) const {
  return m_settings.pressure *
         (1.0 + m_settings.gust_amplitude *
                    std::sin(2.0 * std::numbers::pi * m_settings.gust_frequency * t));
}

Vec3 WindLoad::direction_at(double t) const {
  const double angle = m_settings.sway_angle_deg * std::numbers::pi / 180.0 *
                       std::sin(2.0 * std::numbers::pi * m_settings.sway_frequency * t);
  return Eigen::AngleAxisd(angle, m_settings.sway_axis) * m_settings.direction;
}

void WindLoad::set_time(double t) {
  const double p = pressure_at(t);
  const Vec3 d = direction_at(t);
  m_force = VecX::Zero(m_rest.size());
  for (Eigen::Index f = 0; f < m_faces.rows(); ++f) {
    // A n . (-d): the face's area projected on the plane normal to the wind, windward faces only.
    const double projected = std::max(0.0, -m_area_normals.row(f).dot(d.transpose()));
    const Vec3 share = p * projected / 3.0 * d;
    for (int k = 0; k < 3; ++k) m_force.segment<3>(3 * m_faces(f, k)) += share;
  }
}

double WindLoad::energy(const VecX& x) const { return -m_force.dot(x - m_rest); }

void WindLoad::add_gradient(const VecX&, VecX& g) const { g -= m_force; }

}  // namespace simrun
