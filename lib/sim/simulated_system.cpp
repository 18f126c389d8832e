#include "sim/simulated_system.hpp"

#include <cmath>

#include "core/error.hpp"

namespace simrun {

SimulatedSystem::SimulatedSystem(std::string name, FrameData frames, std::unique_ptr<Model> model,
                                 IntegratorFactory make_integrator, State initial)
    : m_name(std::move(name)),
      m_frames(std::move(frames)),
      m_model(std::move(model)),
      m_make_integrator(std::move(make_integrator)),
      m_integrator(m_make_integrator()),
      m_state(std::move(initial)) {
  m_x_prescribed = m_model->full_positions(m_state.q);
  m_v_prescribed = m_model->full_velocities(m_state.v);
}

void SimulatedSystem::set_dirichlet_schedule(DirichletSchedule schedule) {
  m_constrained = schedule.constrained_vertices(m_state.t);
  m_schedule = std::move(schedule);
}

void SimulatedSystem::begin() { prescribe(m_state.t); }

void SimulatedSystem::prescribe(double t) {
  m_model->set_time(t);
  if (!m_schedule) return;
  m_schedule->fill(t, m_x_prescribed, m_v_prescribed);
  m_model->set_constrained_state(m_x_prescribed, m_v_prescribed);
}

void SimulatedSystem::apply_releases() {
  if (!m_schedule || !m_schedule->has_releases()) return;
  std::vector<int> constrained = m_schedule->constrained_vertices(m_state.t);
  if (constrained == m_constrained) return;
  // Release: map the state at t to the new DOF map, restart the integrator.
  const VecX x = m_model->full_positions(m_state.q);
  const VecX v = m_model->full_velocities(m_state.v);
  m_model->set_fixed_vertices(constrained);
  m_state.q = m_model->restrict_vector(x);
  m_state.v = m_model->restrict_vector(v);
  m_constrained = std::move(constrained);
  if (m_release_listener) m_release_listener(*m_model, m_state.t);
  m_integrator = m_make_integrator();
}

Status SimulatedSystem::advance(double h, double t_end, StepStats& stats) {
  const double t = m_state.t;
  // t_end NaN: an adaptive integrator chooses the step and sets the time (fixed boundary only).
  const bool own_time = std::isnan(t_end);
  apply_releases();
  m_model->begin_step(m_state.q);  // the terms see x_n with the boundary at t_n
  prescribe(own_time ? t : t_end);
  const Status status = m_integrator->step(*m_model, m_state, h, stats);
  if (status != Status::kSuccess) {
    prescribe(t);  // the model back at the time of the kept state
    return status;
  }
  if (!own_time) m_state.t = t_end;  // the clock's time, not the integrator's running sum
  m_model->add_step_stats(stats);
  if (!m_projections.empty()) stats.obstacle_projections += project_state();
  return status;
}

int SimulatedSystem::project_state() {
  VecX x = m_model->full_positions(m_state.q);
  VecX v = m_model->full_velocities(m_state.v);
  int moved = 0;
  for (const auto& projection : m_projections) moved += projection->project(m_model->dofs(), x, v);
  if (moved > 0) {
    m_state.q = m_model->restrict_vector(x);
    m_state.v = m_model->restrict_vector(v);
  }
  return moved;
}

void SimulatedSystem::restore(const State& state) {
  m_state = state;
  prescribe(m_state.t);
}

SystemCheckpoint SimulatedSystem::checkpoint() const {
  SystemCheckpoint c{m_state, m_constrained, m_integrator->history(), {}};
  for (const auto& term : m_model->terms())
    for (const auto& [key, value] : term->persistent_state())
      c.terms[term->name() + "/" + key] = value;
  return c;
}

void SimulatedSystem::resume(const SystemCheckpoint& checkpoint) {
  // A checkpoint of another scene (run.json edited, another mesh file) may name vertices this
  // model does not have.
  for (const int v : checkpoint.constrained)
    require(v >= 0 && v < m_model->num_vertices(),
            "checkpoint: constrained vertex " + std::to_string(v) +
                " does not exist in the scene (" + std::to_string(m_model->num_vertices()) +
                " vertices; was the scene changed?)");
  if (checkpoint.constrained != m_constrained) {
    require(m_schedule.has_value(), "checkpoint: constrained vertices differ from the scene's");
    m_model->set_fixed_vertices(checkpoint.constrained);
    m_constrained = checkpoint.constrained;
    if (m_release_listener) m_release_listener(*m_model, checkpoint.state.t);
  }
  require(checkpoint.state.q.size() == m_model->num_free() &&
              checkpoint.state.v.size() == m_model->num_free(),
          "checkpoint: " + std::to_string(checkpoint.state.q.size()) + " free DOFs saved, the " +
              "scene has " + std::to_string(m_model->num_free()) + " (was the scene changed?)");
  m_state = checkpoint.state;
  m_integrator = m_make_integrator();
  m_integrator->restore_history(checkpoint.history);
  for (const auto& term : m_model->terms()) {
    std::map<std::string, double> state;
    const std::string prefix = term->name() + "/";
    for (const auto& [key, value] : checkpoint.terms)
      if (key.compare(0, prefix.size(), prefix) == 0) state[key.substr(prefix.size())] = value;
    if (!state.empty()) term->restore_state(state);
  }
}

bool SimulatedSystem::is_driven() const {
  return m_driven_loads || (m_schedule && m_schedule->has_moving_groups());
}

double SimulatedSystem::max_prescribed_speed() const {
  return m_schedule ? m_schedule->max_speed() : 0.0;
}

}  // namespace simrun
