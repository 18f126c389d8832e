#pragma once
/// Broad phase of IPC contact (issue 14, part 5; cf. Trusty et al. Sec. 4): the vertex-face and
/// edge-edge pairs of a CollisionMesh that may be closer than a given distance, found with
/// bounding-volume hierarchies (mesh/aabb_tree.hpp) over per-primitive boxes, and the largest
/// collision-free step of a linear motion (conservative CCD, contact/ccd.hpp, on each pair).
///
/// x and dx are full flat vectors (3 entries per vertex of the whole model); the mesh's full
/// vertex ids index them.
#include "contact/collision_mesh.hpp"
#include "core/types.hpp"

namespace simrun {

/// Static candidates: every allowed pair (collision_mesh.hpp filters) whose distance at x is
/// < inflation is included (boxes of the positions grown by inflation / 2 on every side: two
/// primitives closer than `inflation` have boxes closer than that along every axis). Use
/// inflation = d_hat for the barrier's active set. Sorted, no duplicates.
ContactCandidates find_candidates(const CollisionMesh& mesh, const VecX& x, double inflation);

/// Swept candidates for x -> x + dx: every allowed pair whose distance drops below `inflation`
/// at some t in [0, 1] is included (boxes of each primitive at x and x + dx, which contain its
/// whole linear trajectory, grown by inflation / 2). Sorted, no duplicates.
ContactCandidates find_candidates(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                                  double inflation);

/// What max_collision_free_step found, for stats.
struct CollisionFreeStep {
  double step = 1.0;          ///< min over the candidates of the CCD step (1 if none)
  size_t num_candidates = 0;  ///< swept candidate pairs checked
};

/// The largest step t* in [0, 1] for the line search such that no two allowed primitives come
/// within min_distance on [0, t*]; pairs checked by CCD keep in addition the ccd.hpp margin
/// (10% of their initial gap above min_distance). 1 when no pair is a candidate. Runs the CCD
/// over the candidates with OpenMP (deterministic: a minimum).
double max_collision_free_step(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                               double min_distance);
/// Same, also returning the number of candidate pairs.
CollisionFreeStep collision_free_step(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                                      double min_distance);

}  // namespace simrun
