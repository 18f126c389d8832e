#pragma once
/// Numerical coarsening of a heterogeneous linear elastic body (Kharevych thesis Secs. 4.3.5-
/// 4.3.7, Eqs. 4.2-4.5): one anisotropic Voigt tensor per coarse tet such
/// that the coarse energy of every combination of the six harmonic displacements equals the
/// fine energy integrated over the coarse tet (Eq. 4.2), plus the averaging baselines and the
/// mass-conserving lumped coarse mass the thesis compares with.
#include <vector>

#include "coarsen/tet_overlap.hpp"
#include "core/types.hpp"
#include "fem/tet_elements.hpp"
#include "material/lame.hpp"
#include "material/material_parameters.hpp"
#include "mesh/embedding.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Load-case strain matrix of a tet: column j = the engineering-Voigt strain
/// [e11 e22 e33 2e23 2e13 2e12] of field j (columns of `fields`, flat 3n) on the tet.
using LoadCaseStrains = Eigen::Matrix<double, 6, 6>;
LoadCaseStrains load_case_strains(const TetGradients& G, const Eigen::Vector4i& tet,
                                  const MatX& fields);

/// What the coarsening found per coarse tet, for the report and the checks of bad input.
struct HomogenizedTensors {
  std::vector<VoigtTensor> tensors;  ///< C_q = G_q^-T A_q G_q^-1, symmetrized
  VecX covered_fraction;             ///< sum_p |T_p ∩ T_q| / |T_q|
  VecX condition;                    ///< cond(G_q) (2-norm)
  VecX min_eigenvalue;               ///< smallest eigenvalue of C_q [Pa]
  VecX max_eigenvalue;               ///< largest eigenvalue of C_q [Pa]
  MatX coarse_fields;        ///< 3N x 6: the harmonic fields at the coarse vertices (H, Sec. 4.3.3)
  Embedding coarse_in_fine;  ///< where each coarse vertex was sampled (outside: extrapolated)
};

/// Kharevych thesis Secs. 4.3.3-4.3.7 (Eq. 4.5) in load-case form (a column per harmonic field):
///   A_q = sum_p (|T_p ∩ T_q| / |T_q|) G_p^T C_p G_p,   C_q = G_q^-T A_q G_q^-1,
/// with G_p the fine tets' load-case strains, G_q the coarse ones of the fields sampled at the
/// coarse vertices (barycentric interpolation; nearest-tet extrapolation outside the fine mesh),
/// and the normalization by the whole coarse volume (coarse tets partly outside come out softer).
/// `overlaps` from tet_overlaps(fine, coarse).
HomogenizedTensors homogenize_tensors(const TetMesh& fine, const TetElements& fine_elements,
                                      const std::vector<VoigtTensor>& fine_tensors,
                                      const MatX& fine_fields, const TetMesh& coarse,
                                      const TetElements& coarse_elements,
                                      const TetOverlaps& overlaps);

/// The "material coefficients simply averaged" baseline (thesis Figs. 4.4-4.5): per coarse tet
/// sum_p (|T_p ∩ T_q| / |T_q|) (lambda_p, mu_p), normalized like the harmonic tensors.
std::vector<LameParameters> average_lame(const std::vector<LameParameters>& fine,
                                         const TetOverlaps& overlaps, const VecX& coarse_volumes);

/// Mass-conserving coarse density (Kharevych Sec. 4.3.4): rho_q = sum_p rho_p |T_p ∩ T_q| / |T_q|,
/// so the coarse tet's mass rho_q |T_q| is the fine mass inside it, and the coarse mesh's mass
/// is the fine one wherever the coarse mesh covers the fine mesh (also for coarse tets partly
/// outside the object). With `"mass": "lumped"`, a quarter of it goes to each vertex of T_q:
/// the thesis' "usual lumped mass around each node". One density per coarse tet [kg/m^3].
VecX coarse_density(const VecX& fine_density, const TetOverlaps& overlaps,
                    const VecX& coarse_volumes);

}  // namespace simrun
