#pragma once
/// Mass-spring potential: E = sum_s k_s/2 (|x_i - x_j| - L_s)^2 over the springs s = (i, j), with
/// rest lengths L_s from the rest positions (Chen thesis Sec. 5, MSSI: strain |s| - l0, stress
/// k (|s| - l0)). Linear in stretch, nonlinear through rotation.
#include <vector>

#include "fem/tet_pattern.hpp"
#include "model/energy_term.hpp"

namespace simrun {

class SpringEnergy final : public EnergyTerm {
 public:
  /// springs: vertex pairs (global numbering); stiffness: k per spring [N/m]; rest: full 3n rest
  /// positions (rest lengths are taken from them; each must be > 0).
  SpringEnergy(EdgeList springs, VecX stiffness, const VecX& rest);

  std::string name() const override { return "spring"; }
  double energy(const VecX& x) const override;
  /// dE/dx_i = k (l - L) s/l, s = x_i - x_j, l = |s|; dE/dx_j = -dE/dx_i.
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  /// Per spring H = [[B, -B], [-B, B]], B = k (s^ s^T + (1 - L/l)(I - s^ s^T)) (material plus
  /// geometric stiffness). With project_psd the geometric factor (1 - L/l) is clamped at 0, which
  /// makes B, and so H, positive semidefinite (the standard mass-spring projection).
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  /// The material stiffness alone, B = k s^ s^T (Chen thesis Sec. 5.1.1, Eq. 5.7: K_s = k J^T J).
  void add_material_hessian(const VecX& x, double* values) const override;
  bool is_quadratic() const override { return m_springs.empty(); }
  /// Each spring couples its two particles.
  void add_stencils(StencilList& stencils) const override;

  const EdgeList& springs() const { return m_springs; }
  const VecX& rest_lengths() const { return m_rest_length; }

  /// The 3x3 block B of one spring (see add_hessian).
  static Mat3 spring_block(const Vec3& s, double k, double rest_length, bool project_psd);

 private:
  /// Scatters [[B, -B], [-B, B]] of every spring, B = block(spring index, s).
  template <class Block>
  void scatter(const VecX& x, double* values, const Block& block) const;

  EdgeList m_springs;
  VecX m_stiffness;
  VecX m_rest_length;
  std::vector<int> m_slots;  ///< 36 per spring
};

}  // namespace simrun
