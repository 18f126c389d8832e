#pragma once
/// Stiffness-weighted heat-method geodesic distances on a tet mesh (Crane, Weischedel, Wardetzky
/// 2013, "Geodesics in heat"), the distance of the partitioning in Trusty, Levin, Kaufman
/// (Sec. 3.6.1).
#include <memory>
#include <vector>

#include "core/types.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// Prefactors the two matrices of the heat method once; every query is then two
/// back-substitutions plus one pass over the elements.
///
/// With weights w_e (normalised so that min w = 1), L_w = sum_e V_e w_e G_e^T G_e, M the lumped
/// (unweighted) vertex volume and t = h^2 (h = mean edge length; t = h^2 / min w before the
/// normalisation):
///   1) (M + t L_w) u = M delta_sources            heat step,
///   2) X_e = -grad u_e / |grad u_e|               per tet (X_e = 0 where grad u_e = 0),
///   3) L_w phi = sum_e V_e G_e^T X_e              weighted Poisson (unweighted divergence),
///   4) phi -= min over the sources, negatives clamped to 0.
/// Step 3 gives w grad(phi) ~ X, so distances grow at the rate 1/w: stiff regions are "short".
///
/// L_w is singular (constants per connected piece of the mesh), so one vertex per vertex-connected
/// piece is pinned to 0 in the Poisson matrix (exact, and no extra conditioning cost, unlike a
/// small diagonal shift). Pieces of the mesh that hold no source get +infinity. Vertices in no tet
/// form their own piece and always get +infinity unless they are a source (then 0).
///
/// Queries reuse the solvers' workspaces: one object must not be queried from several threads at
/// once (the queries themselves parallelise over sources with OpenMP).
class HeatGeodesic {
 public:
  /// Throws InputError when element_weight has the wrong size or a non-positive or non-finite
  /// entry, or when a tet index is out of range.
  HeatGeodesic(const MatX3& rest, const MatX4i& tets, const VecX& element_weight);
  ~HeatGeodesic();
  HeatGeodesic(const HeatGeodesic&) = delete;
  HeatGeodesic& operator=(const HeatGeodesic&) = delete;

  /// Distance from every vertex to the nearest of `sources` (all sources in one heat solve).
  VecX distance(const std::vector<int>& sources) const;
  /// One distance field per source: column j is the distance to sources[j] alone (one
  /// multi-column solve per step, the k-means assignment needs k of them per iteration).
  MatX distance_batch(const std::vector<int>& sources) const;

  /// The heat time step t (after the weights are normalised to min 1).
  double time_step() const { return m_time; }
  /// Id of the vertex-connected piece of the mesh each vertex belongs to (0..pieces-1).
  const std::vector<int>& vertex_piece() const { return m_piece; }
  int vertex_count() const { return static_cast<int>(m_piece.size()); }

 private:
  /// Steps 1-4 for the columns of `impulses` (n x m); `column_sources[j]` are the sources of
  /// column j, used for the shift and to find the pieces the column's heat reaches.
  MatX solve_columns(const MatX& impulses,
                     const std::vector<std::vector<int>>& column_sources) const;

  std::vector<Eigen::Matrix<double, 4, 3>> m_gradients;  ///< rows: grad N_a of each tet
  VecX m_volume;                                         ///< |V_e|
  MatX4i m_tets;
  VecX m_mass;               ///< lumped vertex volume
  std::vector<int> m_piece;  ///< vertex -> connected piece
  int m_piece_count = 0;
  double m_time = 0.0;
  std::unique_ptr<LinearSolver> m_heat;     ///< factor of M + t L_w
  std::unique_ptr<LinearSolver> m_poisson;  ///< factor of L_w with one pinned vertex per piece
};

}  // namespace simrun
