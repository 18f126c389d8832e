#pragma once
/// What a scene was built into, as numbers: run.json's "counts" (simrun.log's notes say the same
/// in words). Filled by build_model and build_simulation.
#include <optional>
#include <string>
#include <vector>

namespace simrun {

struct SceneCounts {
  /// One scene object as simulated (after any coarsening): its mesh.
  struct Object {
    std::string name;
    int vertices = 0;
    int tets = 0;
    int springs = 0;  ///< mass-spring objects
  };
  /// The reference mesh of an EigenFit, DAC or coarsening pair (objects' "reference").
  struct Mesh {
    int vertices = 0;
    int tets = 0;
  };
  /// "solver": {"type": "multilevel"}: the precomputation (docs/multilevel.md).
  struct Multilevel {
    int sms_handles = 0;        ///< SMS handles (k-means partitions) over all objects; |U| = 12x
    int affine_handles = 0;     ///< objects with tets: one affine handle each
    int polish_iterations = 0;  ///< full-space iterations after the subspace levels
    std::optional<long> cubature_points;  ///< tets sampled by the cubature ("cubature": true)
    double partition_seconds = 0.0;       ///< k-means partitions (0 when loaded from the cache)
    double bases_seconds = 0.0;           ///< the handles' weights and the bases
    std::optional<double> cubature_fit_seconds;  ///< when the rule was fitted, not loaded
  };

  int vertices = 0;  ///< every vertex of the model: the objects' and mesh obstacles'
  int tets = 0;
  int springs = 0;
  int free_dofs = 0;
  int constrained_vertices = 0;  ///< Dirichlet vertices at t = 0
  std::vector<Object> objects;   ///< in the scene's order
  std::optional<Mesh> reference;
  std::optional<Multilevel> multilevel;
};

}  // namespace simrun
