#pragma once
/// Wind: a pressure load on the boundary faces, as a time-dependent potential
/// E(x, t) = -sum_i f_i(t) . (x_i - X_i) (zero at rest, like gravity).
///
/// Model (Chen thesis Sec. 6.4.6 leaves the wind profile open): each boundary triangle with rest
/// area A and outward rest normal n facing the wind receives F = p(t) A max(0, -n . d(t)) d(t),
/// split equally over its three vertices, so a body feels p times its area projected on the
/// plane normal to the wind, on its windward side. The magnitude gusts,
/// p(t) = p0 (1 + gust (sin 2 pi f_g t)), and the direction sways about an axis,
/// d(t) = R(axis, sway_deg sin(2 pi f_s t)) d0. Areas and normals are those of the rest
/// configuration, so within a time step the force does not depend on x: the term is
/// conservative at fixed t (zero Hessian), and a steady wind conserves the total energy.
/// Faces shadowed by other parts of the body are still loaded.
#include "model/energy_term.hpp"

namespace simrun {

struct WindSettings {
  double pressure = 0.0;           ///< p0 [Pa]
  Vec3 direction = Vec3::UnitX();  ///< d0 (normalized by the term)
  double gust_amplitude = 0.0;     ///< relative amplitude of the gusts
  double gust_frequency = 0.0;     ///< [Hz]
  Vec3 sway_axis = Vec3::UnitY();  ///< (normalized by the term)
  double sway_angle_deg = 0.0;     ///< direction swing amplitude [degrees]
  double sway_frequency = 0.0;     ///< [Hz]
};

class WindLoad final : public EnergyTerm {
 public:
  /// rest: 3n rest positions; faces: outward boundary triangles (mesh/boundary.hpp).
  WindLoad(const WindSettings& settings, VecX rest, const MatX3i& faces);

  std::string name() const override { return "wind"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat&, const DofMap&) override {}
  void add_hessian(const VecX&, double*, bool) const override {}
  bool is_quadratic() const override { return true; }
  void set_time(double t) override;
  bool depends_on_time() const override {
    return m_settings.gust_amplitude != 0.0 || m_settings.sway_angle_deg != 0.0;
  }

  /// Nodal forces at the current time (3n) [N].
  const VecX& forces() const { return m_force; }
  /// p(t) and d(t).
  double pressure_at(double t) const;
  Vec3 direction_at(double t) const;

 private:
  WindSettings m_settings;
  VecX m_rest;
  MatX3i m_faces;
  MatX3 m_area_normals;  ///< per face: rest area times outward unit normal
  VecX m_force;
};

}  // namespace simrun
