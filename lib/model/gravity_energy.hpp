#pragma once
/// Gravity potential E = -sum_i m_i g . (x_i - X_i) (zero at rest), m_i the lumped nodal masses.
#include "model/energy_term.hpp"

namespace simrun {

class GravityEnergy final : public EnergyTerm {
 public:
  /// mass_per_dof: 3n nodal masses; rest: 3n rest positions.
  GravityEnergy(const Vec3& gravity, VecX mass_per_dof, VecX rest);

  std::string name() const override { return "gravity"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat&, const DofMap&) override {}
  void add_hessian(const VecX&, double*, bool) const override {}
  bool is_quadratic() const override { return true; }

 private:
  VecX m_weight;  ///< m_i g per DOF [N]
  VecX m_rest;
};

}  // namespace simrun
