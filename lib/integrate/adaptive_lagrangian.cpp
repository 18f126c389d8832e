#include "integrate/adaptive_lagrangian.hpp"

namespace simrun {

AdaptiveLagrangian AdaptiveLagrangian::for_integrator(std::string_view type, double alpha) {
  return AdaptiveLagrangian(adaptive_quadrature(type, alpha));
}

bool AdaptiveLagrangian::left_force_explicit() const {
  for (const QuadraturePoint& p : m_points)
    if (p.weight * (1.0 - p.alpha) != 0.0 && p.alpha != 0.0) return false;
  return true;
}

bool AdaptiveLagrangian::symmetric() const { return is_symmetric_quadrature(m_points); }

double AdaptiveLagrangian::left_share() const {
  double share = 0.0;
  for (const QuadraturePoint& p : m_points) share += p.weight * (1.0 - p.alpha);
  return share;
}

void AdaptiveLagrangian::forces(const Model& model, const VecX& a, const VecX& b,
                                LagrangianForces& out) const {
  out.left = VecX::Zero(a.size());
  out.right = VecX::Zero(a.size());
  out.potential = 0.0;
  VecX g;
  for (const QuadraturePoint& p : m_points) {
    const VecX x = (1.0 - p.alpha) * a + p.alpha * b;
    model.potential_gradient(x, g);
    out.left += p.weight * (1.0 - p.alpha) * g;
    out.right += p.weight * p.alpha * g;
    out.potential += p.weight * model.potential_energy(x);
  }
}

void AdaptiveLagrangian::left_force_jacobian(Model& model, const VecX& a, const VecX& b,
                                             MatX& out) const {
  out = MatX::Zero(a.size(), a.size());
  SpMat K;
  for (const QuadraturePoint& p : m_points) {
    const double c = p.weight * (1.0 - p.alpha) * p.alpha;
    if (c == 0.0) continue;
    model.stiffness((1.0 - p.alpha) * a + p.alpha * b, K, /*project_psd=*/false);
    out += c * MatX(K);
  }
}

}  // namespace simrun
