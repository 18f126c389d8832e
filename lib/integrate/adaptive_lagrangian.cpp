#include "integrate/adaptive_lagrangian.hpp"

namespace simrun {

AdaptiveLagrangian AdaptiveLagrangian::for_integrator(std::string_view type, double alpha) {
  if (type == "verlet") return AdaptiveLagrangian({{0.5, 0.0}, {0.5, 1.0}});
  if (type == "symplectic_euler") return AdaptiveLagrangian({{1.0, 0.0}});
  if (type == "variational_midpoint") return AdaptiveLagrangian({{1.0, 0.5}});
  if (type == "variational_alpha") return AdaptiveLagrangian({{1.0, alpha}});
  return AdaptiveLagrangian({});
}

bool AdaptiveLagrangian::left_force_explicit() const {
  for (const QuadraturePoint& p : m_points)
    if (p.weight * (1.0 - p.alpha) != 0.0 && p.alpha != 0.0) return false;
  return true;
}

bool AdaptiveLagrangian::symmetric() const {
  // The mirrored point (w, 1 - alpha) must be in the rule with the same weight.
  for (const QuadraturePoint& p : m_points) {
    bool mirrored = false;
    for (const QuadraturePoint& q : m_points)
      mirrored = mirrored || (q.weight == p.weight && q.alpha == 1.0 - p.alpha);
    if (!mirrored) return false;
  }
  return true;
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
