#include "sim/simulation.hpp"

#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "core/timer.hpp"

namespace simrun {

namespace {

double wall_clock() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

}  // namespace

Simulation::Simulation(SimulatedSystem primary) : m_primary(std::move(primary)) {}

void Simulation::add_companion(SimulatedSystem system) {
  m_companions.push_back(std::move(system));
}

void Simulation::add_observer(std::unique_ptr<StepObserver> observer) {
  m_observers.push_back(std::move(observer));
}

void Simulation::begin(const RunSettings& settings, const Checkpoint* resume) {
  m_begin_seconds = wall_clock();
  m_settings = settings;
  m_result = RunResult{};
  if (resume) {
    require(resume->systems.size() == 1 + m_companions.size(),
            "checkpoint: " + std::to_string(resume->systems.size()) +
                " systems saved, the scene makes " + std::to_string(1 + m_companions.size()));
    m_primary.resume(resume->systems[0]);
    for (size_t k = 0; k < m_companions.size(); ++k) m_companions[k].resume(resume->systems[k + 1]);
    m_result.steps_done = resume->step;
  }
  m_t0 = resume ? resume->t0 : m_primary.state().t;
  m_clock = settings.clock(m_t0);
  m_result.t_end = m_primary.state().t;
  m_primary.begin();
  for (SimulatedSystem& companion : m_companions) companion.begin();

  const Timer output_timer;
  const EnergyRow energies =
      EnergyTable::measure(m_primary.model(), m_primary.state().q, m_primary.state().v);
  m_monitor =
      std::make_unique<DivergenceMonitor>(m_primary, energies.total, settings.blowup_factor);
  if (resume) m_monitor->restore(resume->monitor_total0, resume->monitor_changes);
  const StepStats none;
  StepRecord initial;
  initial.step = m_result.steps_done;
  initial.t = m_primary.state().t;
  initial.stats = &none;
  initial.energies = &energies;
  initial.resumed = resume != nullptr;
  initial.last = finished(m_result.steps_done, m_primary.state().t);
  for (auto& observer : m_observers) observer->begin(*this, initial);
  m_result.seconds_output += output_timer.seconds();
  m_running = !initial.last;
}

bool Simulation::finished(long steps_done, double t) const {
  if (!m_settings.adaptive) return m_clock.finished(steps_done);
  return (m_settings.steps >= 0 && steps_done >= m_settings.steps) || t >= m_settings.end_time;
}

void Simulation::stop(RunStatus status, long step, const std::string& why) {
  m_result.status = status;
  m_result.message = "step " + std::to_string(step) + ": " + why + " (last good step " +
                     std::to_string(step - 1) + ")";
  m_running = false;
}

Checkpoint Simulation::checkpoint() const {
  Checkpoint c;
  c.step = m_result.steps_done;
  c.t0 = m_t0;
  c.systems.push_back(m_primary.checkpoint());
  for (const SimulatedSystem& companion : m_companions) c.systems.push_back(companion.checkpoint());
  if (m_monitor) {
    c.monitor_total0 = m_monitor->total0();
    c.monitor_changes = m_monitor->memory();
  }
  return c;
}

void Simulation::interrupt(const std::string& why) {
  if (!m_running) return;
  m_result.status = RunStatus::kInterrupted;
  m_result.message = "stopped by " + why + " after step " + std::to_string(m_result.steps_done);
  m_running = false;
}

bool Simulation::step() {
  if (!m_running) return false;
  const long step = m_result.steps_done + 1;
  // Adaptive: h is the fictitious step, and the integrator sets the time (t_end NaN).
  const double h = m_settings.adaptive ? m_settings.dt : m_clock.step_size(step);
  const double t_end = m_settings.adaptive ? NAN : m_clock.end_of(step);
  const double t_start = m_primary.state().t;
  const Timer step_timer;
  StepStats stats;
  // Every system steps, or none does: the states after this step's releases are kept to undo
  // the others when one fails, so the outputs and the state agree on the last good step.
  std::vector<SimulatedSystem*> systems = {&m_primary};
  for (SimulatedSystem& companion : m_companions) systems.push_back(&companion);
  std::vector<State> before;
  for (SimulatedSystem* system : systems) {
    system->apply_releases();
    before.push_back(system->state());
  }
  for (size_t k = 0; k < systems.size(); ++k) {
    StepStats companion_stats;
    const Status status = systems[k]->advance(h, t_end, k == 0 ? stats : companion_stats);
    if (status == Status::kSuccess) continue;
    for (size_t j = 0; j < k; ++j) systems[j]->restore(before[j]);
    std::string why = k == 0 ? std::string() : systems[k]->name() + ": ";
    why += systems[k]->integrator().name();
    const std::string detail = systems[k]->integrator().failure_detail();
    if (status == Status::kNumericalIssue && detail.empty()) {
      // A value of the step became NaN or Inf (or its system singular): the run blew up.
      why +=
          " produced non-finite values or a singular system (numerical_issue): most often the "
          "step is past what this integrator keeps stable, and a smaller dt or an implicit "
          "integrator helps; a model with massless or unconstrained parts fails so too";
      stop(RunStatus::kDiverged, step, why);
      return false;
    }
    why += " ";
    why += to_string(status);
    if (!detail.empty()) why += ": " + detail;
    stop(RunStatus::kFailed, step, why);
    return false;
  }
  const double step_seconds = step_timer.seconds();
  m_result.seconds_stepping += step_seconds;

  // Checked before anything is written: the files keep only good steps.
  const State& s = m_primary.state();
  const bool finite = s.q.allFinite() && s.v.allFinite();
  const EnergyRow energies =
      finite ? EnergyTable::measure(m_primary.model(), s.q, s.v) : EnergyRow{};
  const std::string blow_up = m_monitor->check(finite ? energies.total : NAN);
  if (!blow_up.empty()) {
    for (size_t j = 0; j < systems.size(); ++j) systems[j]->restore(before[j]);
    stop(RunStatus::kDiverged, step, blow_up);
    return false;
  }

  m_result.steps_done = step;
  m_result.t_end = s.t;
  StepRecord record;
  record.step = step;
  record.t = s.t;
  record.h = m_settings.adaptive ? s.t - t_start : h;
  record.wall_s = step_seconds;
  record.last = finished(step, s.t);
  record.stats = &stats;
  record.energies = &energies;
  const Timer output_timer;
  for (auto& observer : m_observers) observer->after_step(*this, record);
  m_result.seconds_output += output_timer.seconds();
  m_running = !record.last;
  return m_running;
}

RunResult Simulation::finish() {
  m_running = false;
  const Timer output_timer;
  for (auto& observer : m_observers) observer->finish(*this, m_result);
  m_result.seconds_output += output_timer.seconds();
  m_result.seconds_total = wall_clock() - m_begin_seconds;
  return m_result;
}

RunResult Simulation::run(const RunSettings& settings, const std::function<void(long)>& on_step,
                          const Checkpoint* resume) {
  begin(settings, resume);
  while (m_running) {
    const bool more = step();
    if (on_step && m_result.steps_done > 0 && (more || m_result.status == RunStatus::kFinished))
      on_step(m_result.steps_done);
  }
  return finish();
}

}  // namespace simrun
