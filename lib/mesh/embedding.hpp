#pragma once
/// Barycentric embedding of points (a fine mesh's vertices) in a tet mesh (a coarse mesh of the
/// same object): x_f = B x_c, the map EigenFit (Chen et al. 2019, Secs. 3.5 and 4) uses to
/// draw the fine surface driven by a coarse run and to measure its error against a fine run.
/// Points outside every tet take the barycentric coordinates of the nearest tet (outside
/// [0, 1]: an affine extrapolation, exact for affine fields) and are reported. Nearest by the
/// distance to the closed tet; among near-ties (within kTieFraction of the nearest distance
/// further) the best-conditioned extrapolation, smallest gain sum_a |w_a|, so that a sliver at the
/// boundary is not picked when a well-shaped tet is about as near. A point whose best gain still
/// exceeds kMaxExtrapolationGain is clamped to the tet's closest point (weights in [0, 1]) and
/// counted.
#include <vector>

#include "core/types.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

using MatX4 = Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor>;

/// Near-ties of the nearest-tet fallback: tets up to (1 + kTieFraction) times the nearest
/// distance away.
inline constexpr double kTieFraction = 0.5;
/// Largest extrapolation gain sum_a |w_a| kept (1 inside a tet; a point one height outside a
/// face of a well-shaped tet has 3); above it the point is clamped to the tet.
inline constexpr double kMaxExtrapolationGain = 4.0;

struct Embedding {
  std::vector<int> tet;               ///< per point: the containing (or nearest) tet
  MatX4 weights;                      ///< per point: barycentric coordinates in that tet (sum to 1)
  int num_outside = 0;                ///< points in no tet (nearest-tet extrapolation)
  double max_outside_distance = 0.0;  ///< largest distance of such a point to its tet [m]
  double max_extrapolation_gain = 1.0;  ///< largest sum_a |w_a| of an outside point's tet
  int num_clamped = 0;  ///< outside points held at their tet's closest point (gain too large)

  int num_points() const { return static_cast<int>(tet.size()); }
  /// Interpolates per-vertex values of the tet mesh (positions, velocities, displacements: n x 3,
  /// row per vertex) at the points.
  MatX3 interpolate(const TetMesh& mesh, const MatX3& vertex_values) const;
  /// The same on flat 3n vectors (x, y, z per vertex).
  VecX interpolate_flat(const TetMesh& mesh, const VecX& vertex_values) const;
};

/// Locates every point in `mesh` (rest positions) with a uniform grid over the tets' bounding
/// boxes. A point counts as inside a tet when its smallest barycentric coordinate is >= -1e-10.
Embedding embed_points(const TetMesh& mesh, const MatX3& points);

/// The point of the closed tet (a, b, c, d) closest to p (p itself inside).
Vec3 closest_point_on_tet(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                          const Vec3& d);

/// Distance from p to the closed tet (a, b, c, d) (0 inside).
double point_tet_distance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                          const Vec3& d);

}  // namespace simrun
