#pragma once
/// Stiffness- and geometry-aware k-means partition of a tet mesh (Trusty, Levin, Kaufman,
/// Secs. 3.6-3.6.3): heat-method geodesics on a stiffness-weighted Laplacian with a jump penalty
/// at material interfaces, kmeans++ seeding, Lloyd iterations with pruning of small clusters, and
/// a face-connectivity repair.
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct PartitionSettings {
  int clusters = 16;          ///< initial k (dense: pruning removes some)
  int max_iterations = 50;    ///< Lloyd iterations
  int prune_interval = 10;    ///< prune every that many Lloyd iterations (paper: 10, kooshball 5)
  double prune_ratio = 1.75;  ///< median volume / cluster volume above this -> candidate
  /// c in [0.1, 0.5]: tets touching a material interface get w = c * E_softest; 0 = off.
  double jump_penalty = 0.0;
  /// Largest heat-metric weight E_e / min E (not in the paper: the plain ratio can make a stiff
  /// region one partition); 0 = no cap (the paper's plain ratio, Trusty et al. Sec. 3.6.1).
  double contrast_cap = 0.0;
  std::uint64_t seed = 1;  ///< kmeans++ seeding (std::mt19937_64, own sampling: portable)
};

struct MeshPartition {
  std::vector<int> element_label;  ///< per tet, 0..count()-1, every partition non-empty
  /// Per partition: its volume-weighted centroid snapped to the nearest vertex of its own tets.
  std::vector<int> center_vertex;
  int count() const { return static_cast<int>(center_vertex.size()); }
  int lloyd_iterations = 0;     ///< Lloyd iterations run (<= max_iterations)
  int pruned = 0;               ///< clusters deleted by pruning or left empty by an assignment
  int repaired_components = 0;  ///< stray face-connected pieces moved by the repair
};

/// Element weights of the heat metric (Trusty et al. Secs. 3.6.1-3.6.2): w_e = E_e / min E,
/// capped at contrast_cap when it is > 0, and with a jump penalty c > 0, w_e = c for every tet
/// with a vertex shared with a tet of another `material` id (empty `material`: one material, no
/// penalty).
VecX partition_element_weights(const MatX4i& tets, const VecX& youngs,
                               const std::vector<int>& material, double jump_penalty,
                               double contrast_cap = 0.0);

/// Partitions the tets into at most settings.clusters face-connected partitions (more only when
/// the mesh has more face-connected pieces than clusters: every piece gets its own partition).
/// Throws InputError (naming solver.partitions, ...) for an empty mesh, clusters < 1 or > the
/// number of tets, other bad settings, or youngs/material of the wrong size or non-positive E.
MeshPartition partition_tets(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                             const std::vector<int>& material, const PartitionSettings& settings);

}  // namespace simrun
