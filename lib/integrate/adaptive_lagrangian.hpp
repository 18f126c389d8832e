#pragma once
/// The variable-step discrete Lagrangian of Kharevych's time adaptivity (thesis Eqs. 3.3-3.4,
/// 3.24; Secs. 3.2.3 and 3.3.3) as a quadrature of the potential:
///   L(a, b, dt) = (b - a)^T M (b - a) / (2 dt) - dt sum_i w_i W((1 - alpha_i) a + alpha_i b).
/// Its slot derivatives, with F_left = sum_i w_i (1 - alpha_i) dW(x_i) and
/// F_right = sum_i w_i alpha_i dW(x_i):
///   -D1 L = M (b - a) / dt + dt F_left    (the momentum at a the step must match)
///    D2 L = M (b - a) / dt - dt F_right   (the momentum at b)
///   E = -D3 L = (b - a)^T M (b - a) / (2 dt^2) + sum_i w_i W(x_i)   (the discrete energy)
/// verlet is the trapezoid {(1/2, 0), (1/2, 1)}, symplectic_euler the point {(1, 0)},
/// variational_midpoint {(1, 1/2)} and variational_alpha {(1, alpha)}.
#include <string_view>
#include <vector>

#include "integrate/adaptive_quadrature.hpp"
#include "model/model.hpp"

namespace simrun {

/// F_left, F_right and sum_i w_i W(x_i) at one (a, b).
struct LagrangianForces {
  VecX left, right;
  double potential = 0.0;
};

class AdaptiveLagrangian {
 public:
  explicit AdaptiveLagrangian(std::vector<QuadraturePoint> points) : m_points(std::move(points)) {}
  /// The quadrature of the fixed-step integrator `type` (alpha: variational_alpha's); empty
  /// points when the type has no variational form here.
  static AdaptiveLagrangian for_integrator(std::string_view type, double alpha);

  bool empty() const { return m_points.empty(); }
  /// True when F_left depends on a only (every point weighted by 1 - alpha sits at a): the
  /// naive update with sigma(q_k) is then explicit.
  bool left_force_explicit() const;
  /// True when L(a, b, dt) = L(b, a, dt) (Eq. 3.29 for dt -> -dt): midpoint and trapezoid.
  bool symmetric() const;
  /// sum_i w_i (1 - alpha_i): the share of a force the quadrature puts on the left slot (F-);
  /// the right slot (F+) takes 1 minus it.
  double left_share() const;

  void forces(const Model& model, const VecX& a, const VecX& b, LagrangianForces& out) const;
  /// d F_left / d b = sum_i w_i (1 - alpha_i) alpha_i K(x_i).
  void left_force_jacobian(Model& model, const VecX& a, const VecX& b, MatX& out) const;

 private:
  std::vector<QuadraturePoint> m_points;
};

}  // namespace simrun
