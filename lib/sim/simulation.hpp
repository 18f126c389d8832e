#pragma once
/// The step loop: advances a Model with an Integrator and writes energy.csv, stats.csv and
/// frames (VTU + PVD, optional surface OBJ). Stops cleanly on divergence or solver failure,
/// keeping everything written so far.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "integrate/integrator.hpp"
#include "mesh/tet_mesh.hpp"
#include "model/dirichlet_motion.hpp"
#include "model/model.hpp"

namespace simrun {

/// What the frames show besides the motion.
struct FrameData {
  TetMesh mesh;  ///< all objects' tets over the global vertex numbering (rest positions)
  VecX youngs;   ///< per-tet Young's modulus [Pa] (cell data "E")
  std::vector<int> material_region;  ///< per-tet 1 + scene region index, 0 = none (cell data)
  MatX3i surface;                    ///< boundary triangles (for surface/*.obj)
};

struct RunSettings {
  double dt = 0.01;
  int steps = 0;
  std::filesystem::path out_dir;
  int output_every = 1;
  bool write_vtu = true;
  bool write_surface = false;
  /// Diverged when total energy rises above its start by this many times the energy scale
  /// (initial kinetic + elastic, or the weight times the body size, whichever is larger).
  double blowup_factor = 1e3;
};

struct RunResult {
  std::string status = "finished";  ///< "finished" | "diverged" | "failed"
  std::string message;              ///< why it stopped early
  int steps_done = 0;
  double seconds_total = 0.0, seconds_stepping = 0.0, seconds_output = 0.0;
  int frames_written = 0;
};

class Simulation {
 public:
  Simulation(FrameData frames, std::unique_ptr<Model> model, std::unique_ptr<Integrator> integrator,
             State initial);

  using IntegratorFactory = std::function<std::unique_ptr<Integrator>()>;
  /// Moving and released Dirichlet constraints. Before each step t_n -> t_n + h the constrained
  /// vertices are put at their prescribed positions (and velocities) at t_n + h, the end of the
  /// step, and time-dependent loads are evaluated there too: exactly what backward Euler (and
  /// SI, which equals BE for linear forces) assumes; for higher-order or explicit integrators the
  /// boundary and loads are then first-order accurate in h. When a group is released at step k,
  /// the Model's DOF map is rebuilt, the state is mapped across (released vertices keep their
  /// prescribed velocity) and the integrator is replaced by `remake()` (cached factorizations
  /// and multistep history restart).
  void set_dirichlet_schedule(DirichletSchedule schedule, IntegratorFactory remake);
  /// Marks time-dependent loads (wind): the blow-up test then tracks the energy injected.
  void set_time_dependent_loads(bool driven) { m_driven_loads = driven; }

  /// Runs settings.steps steps. `on_step(step)` is called after each step (progress display).
  RunResult run(const RunSettings& settings, const std::function<void(int)>& on_step = {});

  const Model& model() const { return *m_model; }
  const State& state() const { return m_state; }

 private:
  FrameData m_frames;
  std::unique_ptr<Model> m_model;
  std::unique_ptr<Integrator> m_integrator;
  State m_state;
  DirichletSchedule m_schedule;
  bool m_has_schedule = false;
  bool m_driven_loads = false;
  IntegratorFactory m_remake;
};

}  // namespace simrun
