#pragma once
/// SceneConfig -> Model, initial State, frame data and Simulation (the only place that knows
/// both the scene structs and the numerics library).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integrate/integrator.hpp"
#include "model/state_projection.hpp"
#include "scene/scene_config.hpp"
#include "scene/scene_counts.hpp"
#include "sim/simulation.hpp"

namespace simrun {

struct BuiltModel {
  FrameData frames;
  std::unique_ptr<Model> model;
  State initial;
  /// Moving or released Dirichlet groups (empty schedule when every constraint is fixed).
  std::optional<DirichletSchedule> schedule;
  bool time_dependent_loads = false;  ///< wind
  /// Obstacles enforced by projection after each step (spheres); the penalty planes are terms of
  /// the model.
  std::vector<std::unique_ptr<StateProjection>> projections;
  std::vector<std::string> notes;  ///< things worth a log line (re-oriented tets, counts)
  SceneCounts counts;              ///< the model's sizes (run.json "counts")
  /// Per object coarsened by the harmonic method: its harmonic fields at its (coarse) vertices
  /// and at its reference mesh's vertices, object numbering (for the display map).
  struct CoarsenedFields {
    int object = 0;
    MatX coarse, fine;  ///< 3N x 6 and 3n x 6
  };
  std::vector<CoarsenedFields> coarsened;
};

/// Meshes, materials, constraints and initial state of every object, merged into one Model.
/// Throws InputError for problems only visible with the meshes (e.g. a Dirichlet selection that
/// matches no vertex), naming the object's JSON pointer.
BuiltModel build_model(const SceneConfig& scene);

IntegratorSettings integrator_settings(const SceneConfig& scene);
RunSettings run_settings(const SceneConfig& scene);

/// build_model + the integrator. `notes`: the log's notes; `counts`: the model's sizes, the
/// reference mesh's and the multilevel precomputation's (run.json "counts").
std::unique_ptr<Simulation> build_simulation(const SceneConfig& scene,
                                             std::vector<std::string>* notes = nullptr,
                                             SceneCounts* counts = nullptr);

}  // namespace simrun
