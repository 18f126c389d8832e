#pragma once
/// Hyperelastic energy of a P1 tet mesh: E = sum_e V_e psi(F_e), with per-element parameters.
#include <memory>
#include <vector>

#include "fem/element_coloring.hpp"
#include "fem/tet_elements.hpp"
#include "fem/tet_pattern.hpp"
#include "material/material.hpp"
#include "model/energy_term.hpp"

namespace simrun {

/// The 12x12 element Hessian V B^T D B for dP/dF = D (B = dvec(F)/dx).
Mat12 element_hessian(const TetGradients& G, double volume, const Mat9& dPdF);

class ElasticEnergy final : public EnergyTerm {
 public:
  /// Throws std::invalid_argument when `parameters` does not have one entry per element, or
  /// lacks the stiffness tensors a model that needs them reads.
  ElasticEnergy(TetElements elements, std::shared_ptr<const Material> material,
                ElementMaterials parameters, int num_vertices);

  std::string name() const override { return "elastic"; }
  double energy(const VecX& x) const override;
  /// dE/dx_a = V P(F) grad N_a.
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  /// d2E/dx_ai dx_bk = V sum_jl dP_ij/dF_kl grad N_a,j grad N_b,l.
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  /// One deformation gradient, material tangent and element Hessian per element where the
  /// projection changes nothing (Material::first_piola_derivative_pair).
  void add_hessian_pair(const VecX& x, double* values, double* projected_values) const override;
  int element_count() const override { return m_elements.size(); }
  /// Visits only the elements with a non-zero weight.
  void add_weighted_hessian(const VecX& x, const VecX& weight, double* values,
                            bool project_psd) const override;
  bool is_quadratic() const override { return m_material->is_quadratic(); }
  /// Issue 14 part 6: for a material that forbids inversion, or any material once
  /// keep_tets_oriented(true), the largest alpha in [0, 1] keeping every tet's signed volume
  /// >= 10 % of its current value along x + t dx (model/tet_inversion_step.hpp); 1 otherwise, so
  /// other scenes' line searches are unchanged.
  double max_feasible_step(const VecX& x, const VecX& dx) const override;
  /// Bound the line search for materials that allow inversion too: IPC contact scenes promise
  /// frames without inverted tets whatever the material (scene/energy_terms.cpp).
  void keep_tets_oriented(bool keep) { m_keep_oriented = keep; }
  /// sum_e V_e (magnitude of psi_e + sum_a |P_e grad N_a| . |x_a|): the material's summands plus
  /// the rounding of F from the positions, per element, since the assembled gradient cancels
  /// between elements at interior vertices while their rounding errors do not.
  double energy_magnitude(const VecX& x) const override;

  const TetElements& elements() const { return m_elements; }
  const ElementMaterials& parameters() const { return m_parameters; }
  const Material& material() const { return *m_material; }
  /// scale * the Hessian of Kharevych's W(F(reference, x)) = sum_e V_e(reference)
  /// psi(Ds(x) Ds(reference)^-1) with respect to x, added into the bound pattern (elements
  /// inverted in `reference` are skipped; fem/tet_elements.hpp reference_geometry). Used by the
  /// implicit step-size independent damping (model/viscous_damping.hpp).
  void add_hessian_from(const VecX& reference, const VecX& x, double scale, double* values,
                        bool project_psd) const;
  /// scale * sum_e V_e B_e^T T_e B_e with a caller's 9x9 tangent per element (dP_ij/dF_kl at
  /// (i + 3j, k + 3l)), into the bound pattern (model/corotational_split.hpp).
  template <class Tangent>
  void add_element_tangents(double scale, double* values, const Tangent& tangent) const {
    for (int e = 0; e < m_elements.size(); ++e)
      m_slots.add(e, element_hessian(m_elements.grad[e], scale * m_elements.volume[e], tangent(e)),
                  values);
  }

 private:
  TetElements m_elements;
  std::shared_ptr<const Material> m_material;
  ElementMaterials m_parameters;
  ElementColoring m_coloring;  ///< vertex-disjoint element blocks for parallel assembly
  TetSlots m_slots;
  bool m_keep_oriented = false;  ///< keep_tets_oriented()
};

}  // namespace simrun
