#include "sim/simulated_system.hpp"

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

void SimulatedSystem::release_due_groups(double t) {
  if (!m_schedule || !m_schedule->has_releases()) return;
  std::vector<int> constrained = m_schedule->constrained_vertices(t);
  if (constrained == m_constrained) return;
  // Release: map the state at t to the new DOF map, restart the integrator.
  const VecX x = m_model->full_positions(m_state.q);
  const VecX v = m_model->full_velocities(m_state.v);
  m_model->set_fixed_vertices(constrained);
  m_state.q = m_model->restrict_vector(x);
  m_state.v = m_model->restrict_vector(v);
  m_constrained = std::move(constrained);
  m_integrator = m_make_integrator();
}

Status SimulatedSystem::advance(double h, StepStats& stats) {
  const double t = m_state.t;
  release_due_groups(t);
  prescribe(t + h);
  m_model->begin_step(m_state.q);
  const Status status = m_integrator->step(*m_model, m_state, h, stats);
  if (status != Status::kSuccess) prescribe(t);  // the model back at the time of the kept state
  return status;
}

bool SimulatedSystem::is_driven() const {
  return m_driven_loads || (m_schedule && m_schedule->has_moving_groups());
}

double SimulatedSystem::max_prescribed_speed() const {
  return m_schedule ? m_schedule->max_speed() : 0.0;
}

}  // namespace simrun
