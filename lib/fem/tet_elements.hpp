#pragma once
/// Per-element precompute for P1 tetrahedra: rest volume and shape-function gradients.
/// With G the 4x3 matrix whose row a is grad N_a (rest configuration), the deformation gradient
/// is F = sum_a x_a grad N_a^T, i.e. F = Ds Dm^{-1} with Ds = [x1-x0, x2-x0, x3-x0].
#include <Eigen/LU>
#include <vector>

#include "core/types.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

using TetGradients = Eigen::Matrix<double, 4, 3>;

struct TetElements {
  MatX4i tets;
  VecX volume;                     ///< rest volumes [m^3], positive
  std::vector<TetGradients> grad;  ///< grad N_a per element (rows a = 0..3) [1/m]
  std::vector<Mat3> dm_inverse;    ///< Dm^{-1} per element

  int size() const { return static_cast<int>(tets.rows()); }
};

/// Precomputes volumes and gradients. Throws InputError naming the element when a tet has
/// non-positive volume (call orient_tets on the mesh first).
TetElements precompute_tet_elements(const MatX3& rest, const MatX4i& tets);

/// Ds = [x1 - x0, x2 - x0, x3 - x0] of element e at full positions q (flat 3n).
inline Mat3 edge_matrix(const TetElements& el, int e, const VecX& q) {
  const auto t = el.tets.row(e);
  const Vec3 x0 = q.segment<3>(3 * t[0]);
  Mat3 Ds;
  for (int c = 0; c < 3; ++c) Ds.col(c) = q.segment<3>(3 * t[c + 1]) - x0;
  return Ds;
}

/// F for element e at full positions q (flat 3n), Eq. F = Ds Dm^{-1}.
inline Mat3 deformation_gradient(const TetElements& el, int e, const VecX& q) {
  return edge_matrix(el, e, q) * el.dm_inverse[e];
}

/// Volume and shape-function gradients of element e with the full positions `reference` as its
/// undeformed state (instead of the rest state): F = Ds(x) Ds(reference)^-1 = sum_a x_a G_a^T.
/// False (outputs unset) when the element is inverted or degenerate there.
inline bool reference_geometry(const TetElements& el, int e, const VecX& reference, double& volume,
                               TetGradients& G) {
  const Mat3 Ds = edge_matrix(el, e, reference);
  volume = Ds.determinant() / 6.0;
  if (!(volume > 0.0)) return false;
  const Mat3 inverse = Ds.inverse();
  G.bottomRows<3>() = inverse;  // row i of Ds^-1 is grad N_{i+1}
  G.row(0) = -inverse.colwise().sum();
  return true;
}

}  // namespace simrun
