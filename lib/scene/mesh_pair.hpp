#pragma once
/// Scenes whose objects have a finer reference mesh (docs/eigenfit.md): the reference scene,
/// the embedding of its vertices in the run's mesh, EigenFit's ratios and tests, DAC.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "coarsen/eigen_ratios.hpp"
#include "coarsen/eigenfit_correction.hpp"
#include "mesh/embedding.hpp"
#include "scene/factory.hpp"
#include "sim/reference_observers.hpp"

namespace simrun {

/// The same scene with every object's reference mesh as its mesh and EigenFit off: the fine
/// system. Regions and Dirichlet selections are geometric, so they apply to the finer mesh
/// as they are (regions by tet centroid). An E file of the run's mesh is sampled at the
/// reference mesh's tet centroids (MaterialConfig::E_file_mesh).
SceneConfig reference_scene(const SceneConfig& scene);

/// What build_simulation needs from the pair.
struct MeshPair {
  EigenFitConfig::Method method = EigenFitConfig::Method::kNone;
  BuiltModel coarse;     ///< the run's model (E scaled by r_1 for DAC)
  BuiltModel reference;  ///< the fine model
  Embedding embedding;   ///< reference vertices in the run's mesh (rest)
  std::optional<EigenRatios> ratios;
  std::shared_ptr<RatioLog> ratio_log;           ///< the rest ratios, then each recomputation
  std::shared_ptr<EigenFitCorrection> eigenfit;  ///< method kEigenFit only
  /// EigenFit with releases: recomputes the ratios on both meshes with the new constraints
  /// (paper Sec. 4.2.1) and resets the correction; empty otherwise.
  SimulatedSystem::ReleaseListener on_release;
  std::vector<std::string> notes;
};

/// Builds both models, embeds, and for EigenFit/DAC computes the rest ratios and the
/// compatibility test (a failed test is logged: the paper has no fallback). Throws InputError
/// for scenes the method cannot handle (mixed methods, objects without a reference, releases,
/// integrators without EigenFit, E files), naming the JSON pointer.
MeshPair build_mesh_pair(const SceneConfig& scene, const IntegratorSettings& settings);

}  // namespace simrun
