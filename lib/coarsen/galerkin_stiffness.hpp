#pragma once
/// The "stiffness matrices simply averaged" baseline of numerical coarsening (Kharevych thesis
/// Figs. 4.4-4.5, read as the embedding of Nesme et al., thesis Sec. 4.2.1): the coarse stiffness
/// is the Galerkin projection K_c = P^T K_f P of the fine one, with P the barycentric interpolation
/// of the coarse vertices' displacements to the fine vertices (the fine mesh embedded in the
/// coarse one).
/// Linear elasticity only: the energy is 1/2 u^T K_c u with u = x - X.
#include <vector>

#include "mesh/embedding.hpp"
#include "model/energy_term.hpp"

namespace simrun {

/// P (3n x 3N): row block p holds w_pa I_3 in the column blocks of its coarse tet's vertices.
SpMat barycentric_prolongation(const Embedding& embedding, const MatX4i& coarse_tets,
                               int num_coarse_vertices);

/// K_c = P^T K_f P (3N x 3N) with P the barycentric interpolation of `coarse`'s vertices to the
/// vertices of `fine` (embedded in `coarse`, extrapolated outside it); K_f is 3n x 3n over them.
SpMat galerkin_coarse_stiffness(const TetMesh& fine, const SpMat& K_fine, const TetMesh& coarse);

/// The quadratic energy 1/2 (x - X)^T K (x - X) of a constant, symmetric, full-DOF stiffness K
/// (here K_c of one object, placed at its vertices in the model's full numbering), energy.csv
/// column "elastic". Its couplings beyond the mesh's tets join the pattern as 2-vertex stencils.
class GalerkinStiffness final : public EnergyTerm {
 public:
  /// K: 3N x 3N over the object's vertices, which are the full vertices [offset, offset + N).
  GalerkinStiffness(SpMat K, int vertex_offset, VecX rest);

  std::string name() const override { return "elastic"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  bool is_quadratic() const override { return true; }
  void add_stencils(StencilList& stencils) const override;

 private:
  VecX displacement(const VecX& x) const;

  SpMat m_K;
  int m_offset;
  VecX m_rest;               ///< the object's rest positions, flat 3N
  std::vector<int> m_slots;  ///< per nonzero of m_K (column-major order): its pattern slot or -1
};

}  // namespace simrun
