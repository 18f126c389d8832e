#pragma once
/// Coarse-to-fine display map of numerical coarsening (Kharevych thesis Sec. 4.4.3,
/// Eqs. 4.6-4.7): the fine vertices driven by a coarse run with the fine
/// detail of the harmonic displacements re-injected, instead of plain barycentric interpolation.
/// Per coarse tet with deformation gradient F, find a rotation R and coefficients c in R^6 with
///   R F = I + sum_j c_j grad H_j                                           (Eq. 4.6)
/// (grad H_j: the gradient of the coarse interpolant of harmonic field j on the tet), then put
/// each fine vertex X embedded in it at
///   x = x^0 + R^T (X - X^0 + sum_j c_j (h_j(X) - H_j(X^0)))                (Eq. 4.7)
/// with h_j the fine field at the vertex and x^0, X^0 the tet's first vertex. Where h_j is the
/// coarse interpolant this is exactly the barycentric map, so only the fine detail differs.
/// Quasi-static and linear: meant for small coarse strains (thesis Sec. 4.4.3).
#include <algorithm>
#include <vector>

#include "core/types.hpp"
#include "mesh/embedding.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

class CoarseToFineMap {
 public:
  CoarseToFineMap() = default;
  /// coarse: rest mesh; coarse_fields: 3N x 6 harmonic fields at its vertices; mapped: per coarse
  /// tet, whether it carries fields (other tets map barycentrically); fine_points: rest positions
  /// of the embedded points; fine_fields: 3n x 6 at them; embedding: the points in `coarse`.
  CoarseToFineMap(const TetMesh& coarse, const MatX& coarse_fields, std::vector<bool> mapped,
                  const MatX3& fine_points, const MatX& fine_fields, Embedding embedding);

  /// Fine positions (flat 3n) for coarse positions (flat 3N).
  VecX positions(const VecX& coarse_positions) const;
  /// Velocities by barycentric interpolation (the map's rotation rate is not differentiated).
  VecX velocities(const VecX& coarse_velocities) const;
  const Embedding& embedding() const { return m_embedding; }
  /// True when some coarse tet carries harmonic fields (else the map is the embedding).
  bool has_display_map() const {
    return std::find(m_mapped.begin(), m_mapped.end(), true) != m_mapped.end();
  }

  /// Solves Eq. 4.6 for one tet (9 equations in a rotation and 6 coefficients) by Newton on
  /// (rotation vector, c), starting from R = the polar rotation of F transposed and c by least
  /// squares. basis: 9 x 6, column j = vec(grad H_j).
  static void fit_rotation_and_coefficients(const Mat3& F, const Eigen::Matrix<double, 9, 6>& basis,
                                            Mat3& R, Eigen::Matrix<double, 6, 1>& c);

 private:
  TetMesh m_coarse;
  std::vector<bool> m_mapped;
  std::vector<Mat3> m_rest_inverse;                  ///< D0^-1 per coarse tet
  std::vector<Eigen::Matrix<double, 9, 6>> m_basis;  ///< vec(grad H_j) per mapped tet
  MatX3 m_fine_points;
  std::vector<Eigen::Matrix<double, 3, 6>> m_fine_detail;  ///< h_j(X) - H_j(X^0) per point
  Embedding m_embedding;
};

}  // namespace simrun
