#pragma once
/// One simulated system: a Model with its integrator, state, prescribed boundary motion and
/// the data its frames show. A Simulation steps a primary system and, for comparisons across
/// meshes (EigenFit, coarsening), companion systems of the same objects alongside.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integrate/integrator.hpp"
#include "mesh/tet_mesh.hpp"
#include "model/dirichlet_motion.hpp"
#include "model/model.hpp"
#include "model/state_projection.hpp"
#include "sim/checkpoint.hpp"

namespace simrun {

/// What the frames show besides the motion.
struct FrameData {
  TetMesh mesh;  ///< all objects' tets over the global vertex numbering (rest positions)
  VecX youngs;   ///< per-tet Young's modulus [Pa] (cell data "E")
  VecX poisson;  ///< per-tet Poisson's ratio (cell data "nu"); may be empty
  VecX density;  ///< per-tet density [kg/m^3] (cell data "density"); may be empty
  std::vector<int> material_region;  ///< per-tet 1 + scene region index, 0 = none (cell data)
  MatX3i surface;                    ///< boundary triangles (for surface/*.obj)
  std::vector<int> object;  ///< per tet, then per spring line: the scene object index (cell data)
  /// The obstacles as triangle surfaces (sim/obstacle_frames.hpp): mesh obstacles as read and
  /// placed, planes as squares and spheres as UV spheres drawn around the objects.
  struct Obstacle {
    int index = -1;    ///< in the scene's "obstacles"
    MatX3 vertices;    ///< at rest (mesh obstacles: their initial placement)
    MatX3i faces;      ///< over `vertices`
    bool mesh = true;  ///< a mesh obstacle (also written as OUT/obstacles/obstacle_<index>.obj)
    int first_vertex = -1;  ///< a moving obstacle's vertices in the full numbering (-1: fixed)
  };
  std::vector<Obstacle> obstacles;
  /// Static per-tet integer fields written as cell data (the multilevel solver's "partition").
  std::vector<std::pair<std::string, std::vector<int>>> extra_cell_ints;
  /// Static per-tet scalar fields written as cell data (the multilevel cubature's weights).
  std::vector<std::pair<std::string, VecX>> extra_cell_scalars;
  /// Static per-vertex fields written as point data (the multilevel solver's handle weights).
  std::vector<std::pair<std::string, VecX>> extra_point_scalars;
};

class SimulatedSystem {
 public:
  using IntegratorFactory = std::function<std::unique_ptr<Integrator>()>;

  /// `make_integrator` makes the integrator now and again after every release (cached
  /// factorizations and multistep history restart there).
  SimulatedSystem(std::string name, FrameData frames, std::unique_ptr<Model> model,
                  IntegratorFactory make_integrator, State initial);

  /// Moving and released Dirichlet constraints. Before each step t -> t + h the constrained
  /// vertices are put at their prescribed positions (and velocities) at t + h, the end of the
  /// step, and time-dependent loads are evaluated there too: exactly what backward Euler (and
  /// SI, which equals BE for linear forces) assumes; for higher-order or explicit integrators the
  /// boundary and loads are then first-order accurate in h. A group released at time T is free
  /// in every step that starts at t >= T: the Model's DOF map is rebuilt, the state is mapped
  /// across (released vertices keep their prescribed velocity) and the integrator is remade.
  void set_dirichlet_schedule(DirichletSchedule schedule);
  /// Marks time-dependent loads (wind): divergence monitoring then tracks the energy injected.
  void set_time_dependent_loads(bool driven) { m_driven_loads = driven; }
  /// Obstacles enforced by moving the state (model/state_projection.hpp): applied in order to
  /// the free vertices after every successful integrator step, inside advance(), so the
  /// outputs, the divergence test and the next step all see the projected state. The vertices
  /// moved count in the step's `obstacle_projections`. A projected state is not the one the
  /// integrator produced: multistep integrators restart their history from it (same_state).
  void add_projection(std::unique_ptr<StateProjection> projection) {
    m_projections.push_back(std::move(projection));
  }

  /// Called at every release, after the model's DOF map changed and before the integrator is
  /// remade, with the model and the time (EigenFit recomputes its ratios there).
  using ReleaseListener = std::function<void(Model& model, double t)>;
  void set_release_listener(ReleaseListener listener) { m_release_listener = std::move(listener); }

  /// Puts the model at the state's time (prescribed positions, loads). Called once before the
  /// first step.
  void begin();
  /// Frees the groups whose release time has come at state().t (advance() does it too; calling
  /// it first lets a caller keep the state it may have to restore, in the new DOF map).
  void apply_releases();
  /// One step of size h from state().t, ending at t_end (the clock's exact time; the state's
  /// time is set to it). t_end NaN: the integrator sets the time (adaptive steps; the boundary
  /// and loads stay at the step's start). On a failed status the state and the model are back at
  /// the start.
  Status advance(double h, double t_end, StepStats& stats);
  /// Puts the system back at `state` (taken after apply_releases at the same step), with the
  /// prescribed boundary and loads at its time: the undo of an advance that others failed.
  void restore(const State& state);

  /// The state, the constrained vertices and the integrator history, for a checkpoint.
  SystemCheckpoint checkpoint() const;
  /// Puts a freshly built system at a checkpoint of the same scene (before begin()): the
  /// constraints as they were (a release already passed is applied, with its listener), the
  /// state and the integrator history.
  void resume(const SystemCheckpoint& checkpoint);

  /// True when the boundary or the loads do work on the body (moving groups, varying wind).
  bool is_driven() const;
  /// Largest prescribed speed [m/s] (0 without moving groups).
  double max_prescribed_speed() const;

  const std::string& name() const { return m_name; }
  Model& model() { return *m_model; }
  const Model& model() const { return *m_model; }
  const State& state() const { return m_state; }
  const FrameData& frames() const { return m_frames; }
  const Integrator& integrator() const { return *m_integrator; }
  /// Full positions and velocities (constrained DOFs at their prescribed values).
  VecX full_positions() const { return m_model->full_positions(m_state.q); }
  VecX full_velocities() const { return m_model->full_velocities(m_state.v); }

 private:
  void prescribe(double t);
  /// Applies every projection to the state; returns the number of vertices moved.
  int project_state();

  std::string m_name;
  FrameData m_frames;
  std::unique_ptr<Model> m_model;
  IntegratorFactory m_make_integrator;
  std::unique_ptr<Integrator> m_integrator;
  State m_state;
  std::optional<DirichletSchedule> m_schedule;
  std::vector<int> m_constrained;       ///< vertices constrained now (changes at releases)
  VecX m_x_prescribed, m_v_prescribed;  ///< full prescribed state (constrained entries)
  bool m_driven_loads = false;
  std::vector<std::unique_ptr<StateProjection>> m_projections;
  ReleaseListener m_release_listener;
};

}  // namespace simrun
