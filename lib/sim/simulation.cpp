#include "sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>

#include "core/timer.hpp"
#include "io/csv_writer.hpp"
#include "sim/energy_table.hpp"
#include "sim/frame_writer.hpp"

namespace simrun {

namespace {

/// Energy scale for the blow-up test: initial kinetic + elastic energy, or the weight times the
/// bounding-box diagonal (what gravity can add over one body length), whichever is larger.
double energy_scale(const Model& model, const State& s) {
  double scale = 0.0;
  for (const auto& [name, value] : model.energies(s.q, s.v)) {
    if (name != "gravity") scale += std::abs(value);
  }
  const auto x = as_rows(model.rest_positions());
  const double diagonal = (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
  VecX g;
  model.potential_gradient(model.restrict_vector(model.rest_positions()), g);
  // At rest the elastic gradient is zero, so |g| sums the nodal weights.
  return std::max({scale, g.cwiseAbs().sum() * diagonal, 1e-12});
}

}  // namespace

void Simulation::set_dirichlet_schedule(DirichletSchedule schedule, IntegratorFactory remake) {
  m_schedule = std::move(schedule);
  m_has_schedule = true;
  m_remake = std::move(remake);
}

Simulation::Simulation(FrameData frames, std::unique_ptr<Model> model,
                       std::unique_ptr<Integrator> integrator, State initial)
    : m_frames(std::move(frames)),
      m_model(std::move(model)),
      m_integrator(std::move(integrator)),
      m_state(std::move(initial)) {}

RunResult Simulation::run(const RunSettings& settings, const std::function<void(int)>& on_step) {
  Timer total_timer;
  RunResult result;
  std::filesystem::create_directories(settings.out_dir);
  Model& model = *m_model;
  const bool driven = m_driven_loads || (m_has_schedule && m_schedule.has_moving_groups());
  // Prescribed state at time t (full vectors kept across steps: only constrained entries change).
  VecX x_prescribed = model.full_positions(m_state.q);
  VecX v_prescribed = model.full_velocities(m_state.v);
  auto prescribe = [&](double t) {
    m_model->set_time(t);
    if (!m_has_schedule) return;
    m_schedule.fill(t, x_prescribed, v_prescribed);
    m_model->set_constrained_state(x_prescribed, v_prescribed);
  };
  prescribe(m_state.t);

  Timer output_timer;
  EnergyTable energy(settings.out_dir / "energy.csv", model, m_state.q, m_state.v);
  std::vector<std::string> stats_columns = {"step", "t", "wall_s"};
  for (const auto& counter : StepStats::kCounters) stats_columns.emplace_back(counter.name);
  CsvWriter stats(settings.out_dir / "stats.csv", stats_columns);
  FrameWriter frames(settings.out_dir, settings.write_vtu, settings.write_surface);
  const EnergyRow energy0 = EnergyTable::measure(model, m_state.q, m_state.v);
  energy.write(0, m_state.t, energy0);
  const double total0 = energy0.total;
  frames.write(0, m_state.t, m_frames, model.full_positions(m_state.q),
               model.full_velocities(m_state.v));
  result.seconds_output += output_timer.seconds();
  double scale = energy_scale(model, m_state);
  if (m_has_schedule) {
    // What the prescribed motion can put in as kinetic energy: the whole body at the top speed.
    const double speed = m_schedule.max_speed();
    scale = std::max(scale, 0.5 * model.lumped_mass().sum() / 3.0 * speed * speed);
  }
  double driven_scale = scale;
  constexpr int kBlowupLag = 10;
  std::deque<double> recent_changes;  // |total - total0| of the last kBlowupLag steps

  for (int step = 1; step <= settings.steps; ++step) {
    Timer step_timer;
    StepStats step_stats;
    if (m_has_schedule && m_schedule.releases_at(step)) {
      // Release: map the state at t_{k-1} to the new DOF map, restart the integrator.
      const VecX x = model.full_positions(m_state.q);
      const VecX v = model.full_velocities(m_state.v);
      m_model->set_fixed_vertices(m_schedule.constrained_vertices(step));
      m_state.q = model.restrict_vector(x);
      m_state.v = model.restrict_vector(v);
      if (m_remake) m_integrator = m_remake();
    }
    prescribe(m_state.t + settings.dt);
    const Status status = m_integrator->step(model, m_state, settings.dt, step_stats);
    const double step_seconds = step_timer.seconds();
    result.seconds_stepping += step_seconds;
    if (status != Status::kSuccess) {
      prescribe(m_state.t);  // the model back at the time of the kept state
      result.status = "failed";
      result.message = "step " + std::to_string(step) + ": " + std::string(m_integrator->name()) +
                       " " + std::string(to_string(status)) + " (last good step " +
                       std::to_string(step - 1) + ")";
      break;
    }
    // Check before writing: the files keep only good steps.
    const bool finite = m_state.q.allFinite() && m_state.v.allFinite();
    const EnergyRow energies =
        finite ? EnergyTable::measure(model, m_state.q, m_state.v) : EnergyRow{};
    const double total = finite ? energies.total : NAN;
    bool blown = !std::isfinite(total);
    if (!blown && total - total0 > settings.blowup_factor * scale) {
      // Moving boundaries and varying loads do work on the body, so with them a steady rise is
      // no blow-up; a rise of blowup_factor times the largest change seen up to
      // kBlowupLag steps ago is (an instability growing even 2x per step trips it in 10 steps).
      blown = !(driven && total - total0 <= settings.blowup_factor * driven_scale);
    }
    if (driven && !blown) {
      recent_changes.push_back(std::abs(total - total0));
      if (static_cast<int>(recent_changes.size()) > kBlowupLag) {
        driven_scale = std::max(driven_scale, recent_changes.front());
        recent_changes.pop_front();
      }
    }
    if (blown) {
      result.status = "diverged";
      result.message = "step " + std::to_string(step) + ": " +
                       (std::isfinite(total) ? "energy blow-up (total " + std::to_string(total) +
                                                   " J from " + std::to_string(total0) + " J)"
                                             : std::string("non-finite state")) +
                       " (last good step " + std::to_string(step - 1) + ")";
      break;
    }
    output_timer.reset();
    std::vector<double> stats_row = {static_cast<double>(step), m_state.t, step_seconds};
    for (const auto& counter : StepStats::kCounters)
      stats_row.push_back(step_stats.*counter.member);
    stats.row(stats_row);
    energy.write(step, m_state.t, energies);
    result.steps_done = step;
    if (step % settings.output_every == 0 || step == settings.steps) {
      frames.write(step, m_state.t, m_frames, model.full_positions(m_state.q),
                   model.full_velocities(m_state.v));
    }
    result.seconds_output += output_timer.seconds();
    if (on_step) on_step(step);
  }
  result.frames_written = frames.frames_written();
  result.seconds_total = total_timer.seconds();
  return result;
}

}  // namespace simrun
