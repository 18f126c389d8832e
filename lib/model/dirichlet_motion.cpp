#include "model/dirichlet_motion.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace simrun {

namespace {
constexpr double kTwoPi = 2.0 * std::numbers::pi;
}

Vec3 PrescribedMotion::position(const Vec3& x0, double t) const {
  // Motion time: 0 before the start, held where the motion stopped after `duration`.
  const double s = std::clamp(t - start, 0.0, duration);
  switch (kind) {
    case Kind::kFixed:
      return x0;
    case Kind::kTranslate:
      return x0 + s * velocity;
    case Kind::kShake:
      return x0 + amplitude * std::sin(kTwoPi * frequency * s) * direction;
    case Kind::kTwist:
      return point + Eigen::AngleAxisd(angular_velocity * s, axis) * (x0 - point);
  }
  return x0;
}

Vec3 PrescribedMotion::velocity_at(const Vec3& x0, double t) const {
  const double s = t - start;  // motion time
  if (s < 0.0 || !(s < duration)) return Vec3::Zero();
  switch (kind) {
    case Kind::kFixed:
      return Vec3::Zero();
    case Kind::kTranslate:
      return velocity;
    case Kind::kShake:
      return amplitude * kTwoPi * frequency * std::cos(kTwoPi * frequency * s) * direction;
    case Kind::kTwist:
      return angular_velocity * axis.cross(position(x0, t) - point);
  }
  return Vec3::Zero();
}

double PrescribedMotion::max_speed(const MatX3& x0) const {
  switch (kind) {
    case Kind::kFixed:
      return 0.0;
    case Kind::kTranslate:
      return velocity.norm();
    case Kind::kShake:
      return std::abs(amplitude * kTwoPi * frequency);
    case Kind::kTwist: {
      double r = 0.0;
      for (Eigen::Index i = 0; i < x0.rows(); ++i) {
        const Vec3 d = x0.row(i).transpose() - point;
        r = std::max(r, (d - d.dot(axis) * axis).norm());
      }
      return std::abs(angular_velocity) * r;
    }
  }
  return 0.0;
}

DirichletSchedule::DirichletSchedule(std::vector<DirichletGroup> groups, const VecX& initial,
                                     double time_tolerance)
    : m_groups(std::move(groups)),
      m_owner(initial.size() / 3, -1),
      m_initial(initial),
      m_time_tolerance(time_tolerance) {
  for (size_t g = 0; g < m_groups.size(); ++g)
    for (int v : m_groups[g].vertices) m_owner[v] = static_cast<int>(g);
}

std::vector<int> DirichletSchedule::constrained_vertices(double t) const {
  std::vector<int> out;
  for (size_t v = 0; v < m_owner.size(); ++v) {
    if (m_owner[v] < 0) continue;
    if (t + m_time_tolerance < m_groups[m_owner[v]].release_time)
      out.push_back(static_cast<int>(v));
  }
  return out;
}

bool DirichletSchedule::has_releases() const {
  return std::any_of(m_groups.begin(), m_groups.end(),
                     [](const DirichletGroup& g) { return std::isfinite(g.release_time); });
}

void DirichletSchedule::fill(double t, VecX& x, VecX& v) const {
  for (size_t i = 0; i < m_owner.size(); ++i) {
    if (m_owner[i] < 0) continue;
    const PrescribedMotion& motion = m_groups[m_owner[i]].motion;
    const Vec3 x0 = m_initial.segment<3>(3 * i);
    x.segment<3>(3 * i) = motion.position(x0, t);
    v.segment<3>(3 * i) = motion.velocity_at(x0, t);
  }
}

bool DirichletSchedule::is_time_dependent() const {
  return std::any_of(m_groups.begin(), m_groups.end(), [](const DirichletGroup& g) {
    return std::isfinite(g.release_time) || g.motion.kind != PrescribedMotion::Kind::kFixed;
  });
}

bool DirichletSchedule::has_moving_groups() const {
  return std::any_of(m_groups.begin(), m_groups.end(), [](const DirichletGroup& g) {
    return g.motion.kind != PrescribedMotion::Kind::kFixed;
  });
}

double DirichletSchedule::max_speed() const {
  double speed = 0.0;
  for (const DirichletGroup& g : m_groups) {
    MatX3 x0(g.vertices.size(), 3);
    for (size_t k = 0; k < g.vertices.size(); ++k)
      x0.row(k) = m_initial.segment<3>(3 * g.vertices[k]).transpose();
    speed = std::max(speed, g.motion.max_speed(x0));
  }
  return speed;
}

}  // namespace simrun
