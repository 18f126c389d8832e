#include "sim/output_observers.hpp"

#include <cmath>

#include "integrate/adaptive_variational.hpp"
#include "io/pvd_writer.hpp"
#include "sim/frame_files.hpp"

namespace simrun {

void EnergyCsvObserver::begin(const Simulation& simulation, const StepRecord& initial) {
  std::filesystem::create_directories(m_path.parent_path());
  m_table = std::make_unique<EnergyTable>(m_path, simulation.model(), simulation.state().q,
                                          simulation.state().v, initial.resumed ? initial.step : -1,
                                          simulation.settings().adaptive,
                                          simulation.primary().integrator().has_discrete_energy());
  if (!initial.resumed) m_table->write(initial.step, initial.t, *initial.energies);
}

void EnergyCsvObserver::after_step(const Simulation& simulation, const StepRecord& record) {
  const auto* adaptive =
      dynamic_cast<const AdaptiveVariational*>(&simulation.primary().integrator());
  const Integrator& integrator = simulation.primary().integrator();
  if (record.stats != nullptr) m_table->add_friction_work(record.stats->friction_work);
  m_table->write(record.step, record.t, *record.energies, record.h,
                 adaptive ? adaptive->lambda() : 0.0,
                 integrator.discrete_energy(simulation.primary().model()));
}

void StatsCsvObserver::begin(const Simulation&, const StepRecord& initial) {
  std::filesystem::create_directories(m_path.parent_path());
  std::vector<std::string> columns = {"step", "t", "wall_s"};
  for (const auto& counter : StepStats::kCounters) columns.emplace_back(counter.name);
  columns.emplace_back("dt");
  m_csv = std::make_unique<CsvWriter>(initial.resumed
                                          ? CsvWriter::resumed(m_path, columns, initial.step)
                                          : CsvWriter(m_path, columns));
}

void StatsCsvObserver::after_step(const Simulation&, const StepRecord& record) {
  std::vector<double> row = {static_cast<double>(record.step), record.t, record.wall_s};
  for (const auto& counter : StepStats::kCounters) row.push_back(record.stats->*counter.member);
  row.push_back(record.h);
  m_csv->row(row);
}

namespace {

/// The forces of the contact terms at x as point vectors: "contact_force" = -grad B (the IPC
/// barrier and barrier planes) and "friction_force" = -grad D (the lagged friction of the step
/// that led to x) [N], zero on vertices without contact. None without contact.
std::vector<std::pair<std::string, MatX3>> contact_force_fields(const Model& model, const VecX& x) {
  std::vector<std::pair<std::string, MatX3>> fields;
  for (const auto& term : model.terms()) {
    const std::string name = term->name();
    if (name != "contact" && name != "friction") continue;
    VecX g = VecX::Zero(x.size());
    term->add_gradient(x, g);
    fields.emplace_back(name + "_force", -as_rows(g));
  }
  return fields;
}

}  // namespace

FrameObserver::FrameObserver(const std::filesystem::path& out_dir, const RunSettings& settings)
    : m_out_dir(out_dir),
      m_format(settings.frame_format()),
      m_every(settings.output_every),
      m_interval(settings.output_interval) {}

FrameObserver::FrameObserver(const std::filesystem::path& out_dir, const RunSettings& settings,
                             FrameData frames, Source source)
    : FrameObserver(out_dir, settings) {
  m_frames = std::make_unique<FrameData>(std::move(frames));
  m_source = std::move(source);
}

void FrameObserver::begin(const Simulation& simulation, const StepRecord& initial) {
  const FrameData& frames = m_frames ? *m_frames : simulation.primary().frames();
  m_last_t = initial.t;
  if (initial.resumed) {
    // The earlier run wrote a frame at the resume step also when it only ended there: keep it
    // only if the uninterrupted run writes it too, so that both leave the same frames.
    const long keep_through = resume_step_is_output(initial) ? initial.step : initial.step - 1;
    m_writer = std::make_unique<FrameWriter>(m_out_dir, m_format, frames, keep_through);
    m_last_written = keep_through;
    return;
  }
  m_writer = std::make_unique<FrameWriter>(m_out_dir, m_format, frames);
  write(simulation, initial);
}

bool FrameObserver::resume_step_is_output(const StepRecord& initial) const {
  if (initial.step == 0 || initial.last) return true;
  if (m_interval <= 0.0) return initial.step % m_every == 0;
  // Interval frames: whether a multiple of the interval lies between the last frame written
  // before the resume step and it (the steps in between were not output steps).
  double previous = -1.0;
  long previous_step = -1;
  for (const auto& entry : PvdCollection::read_entries(m_out_dir / "frames.pvd")) {
    const long step = frame_file_step(entry.file);
    if (step < initial.step && step > previous_step) {
      previous_step = step;
      previous = entry.time;
    }
  }
  if (previous_step < 0) return true;  // no frames.pvd (surface only): keep what is there
  const double h = (initial.t - previous) / static_cast<double>(initial.step - previous_step);
  return interval_passed(previous, initial.t, h);
}

bool FrameObserver::interval_passed(double t_previous, double t, double h) const {
  // A multiple of the interval lies in (t_previous, t] (with a millionth of the step for the
  // round-off of t = t0 + n dt).
  const double slack = 1e-6 * h;
  return std::floor((t + slack) / m_interval) > std::floor((t_previous + slack) / m_interval);
}

bool FrameObserver::is_output_step(const StepRecord& record) const {
  if (record.last) return true;
  if (m_interval > 0.0) return interval_passed(m_last_t, record.t, record.h);
  return record.step % m_every == 0;
}

void FrameObserver::after_step(const Simulation& simulation, const StepRecord& record) {
  if (is_output_step(record)) write(simulation, record);
  m_last_t = record.t;
}

void FrameObserver::write(const Simulation& simulation, const StepRecord& record) {
  m_last_written = record.step;
  if (m_source) {
    VecX x, v;
    m_source(simulation, x, v);
    m_writer->write(static_cast<int>(record.step), record.t, x, v);
    return;
  }
  const SimulatedSystem& system = simulation.primary();
  const VecX x = system.full_positions();
  m_writer->write(static_cast<int>(record.step), record.t, x, system.full_velocities(),
                  contact_force_fields(system.model(), x));
}

void FrameObserver::finish(const Simulation& simulation, RunResult& result) {
  // A run that stopped early (diverged, failed, interrupted) ends with a frame of its last good
  // state, so the last frame shows where it stopped.
  if (m_writer && m_last_written != result.steps_done) {
    StepRecord last;
    last.step = result.steps_done;
    last.t = simulation.state().t;
    last.last = true;
    write(simulation, last);
  }
  result.frames_written = m_writer ? m_writer->frames_written() : 0;
}

void add_output_observers(Simulation& simulation, const RunSettings& settings) {
  simulation.add_observer(std::make_unique<EnergyCsvObserver>(settings.out_dir / "energy.csv"));
  simulation.add_observer(std::make_unique<StatsCsvObserver>(settings.out_dir / "stats.csv"));
  simulation.add_observer(std::make_unique<FrameObserver>(settings.out_dir, settings));
}

}  // namespace simrun
