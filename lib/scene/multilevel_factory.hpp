#pragma once
/// "solver": {"type": "multilevel"}: the multilevel precomputation on a built model and the
/// linear solver factory that hands its bases to every Newton solve (docs/multilevel.md).
#include <memory>
#include <string>
#include <vector>

#include "multilevel/multilevel_setup.hpp"
#include "scene/factory.hpp"
#include "scene/scene_counts.hpp"

namespace simrun {

struct MultilevelSolverSetup {
  LinearSolverFactory factory;
  std::shared_ptr<const MultilevelPrecompute> precompute;
  /// Per tet w_k / V_k of the fitted cubature rule (0 where not sampled); empty unless the
  /// scene asks for "cubature".
  VecX cubature_weight;
  SceneCounts::Multilevel counts;  ///< handles, polish iterations, cubature points, times
};

/// Checks that the scene can use the multilevel solver (an integrator minimizing an incremental
/// potential: be or bdf2; no Dirichlet releases, which change the free DOFs), partitions the
/// objects, builds the bases and returns the factory. Throws InputError naming /solver/type.
/// Adds the precomputation's summary to `notes`.
MultilevelSolverSetup make_multilevel_solver_setup(const SceneConfig& scene,
                                                   const BuiltModel& built,
                                                   std::vector<std::string>& notes);

/// Turns the SMS PCG's deflation off, with a warning in `notes`, when its dense coarse blocks
/// (2 x DOFs x (12 per object + Ritz vectors) doubles) would pass 1 GiB.
void limit_deflation_memory(const MultilevelBases& bases, MultilevelSolverSettings& solver,
                            std::vector<std::string>& notes);

/// Hands the fitted cubature (setup.cubature_weight, per scene tet) to the model's elastic terms
/// (Model::set_elastic_cubature): the subspace levels then use the cubature elastic Hessian.
/// Throws std::logic_error when an elastic term's elements are not a run of the scene's tets.
void use_cubature_hessian(const MultilevelSolverSetup& setup, BuiltModel& built);

/// The precomputation as static frame fields (docs/multilevel.md): cell data "partition" (the
/// SMS handle of each tet), point data "handle_origin" (the handle's index at its origin vertex,
/// -1 elsewhere), "handle_count" (handles whose weight is non-zero at the vertex) and
/// "weight_max" (the largest weight there); with the cubature also cell data "cubature_weight".
void add_multilevel_fields(const MultilevelSolverSetup& setup, FrameData& frames);

}  // namespace simrun
