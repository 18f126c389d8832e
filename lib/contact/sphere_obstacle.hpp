#pragma once
/// A rigid sphere that free vertices cannot enter, enforced by projection after each accepted
/// step (Chen thesis Sec. 4.2, Figs. 4.6-4.8: "the collision is resolved by projecting each
/// particle onto the closest point on the sphere"): a free vertex strictly inside is moved to
/// the closest point of the surface, c + R (x - c)/|x - c|, and the inward normal component of
/// its velocity is removed (an inelastic, frictionless collision; tangential and outward motion
/// are kept). Vertices on or outside the sphere are not touched. There is no energy: the
/// projection removes kinetic energy (the inward normal velocity) and moves vertices against
/// the springs' and gravity's potentials, which shows in the kinetic and total columns of
/// energy.csv. Only vertices are tested, not edges or faces between them.
#include "model/state_projection.hpp"

namespace simrun {

class SphereObstacle final : public StateProjection {
 public:
  /// radius > 0 [m]; throws std::invalid_argument otherwise.
  SphereObstacle(const Vec3& center, double radius);

  std::string name() const override { return "sphere obstacle"; }
  /// A vertex exactly at the center (no closest point) goes to the top, c + R e_y.
  int project(const DofMap& dofs, VecX& x, VecX& v) const override;

  /// |x - c| - R: distance of a point from the surface [m] (negative inside).
  double signed_distance(const Vec3& x) const { return (x - m_center).norm() - m_radius; }
  const Vec3& center() const { return m_center; }
  double radius() const { return m_radius; }

 private:
  Vec3 m_center;
  double m_radius;
};

}  // namespace simrun
