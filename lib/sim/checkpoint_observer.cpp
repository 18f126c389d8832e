#include "sim/checkpoint_observer.hpp"

#include <chrono>

#include "sim/checkpoint.hpp"
#include "sim/simulation.hpp"

namespace simrun {

namespace {

double wall_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

}  // namespace

CheckpointObserver::CheckpointObserver(std::filesystem::path file, long every_steps,
                                       double every_seconds)
    : m_file(std::move(file)), m_every_steps(every_steps), m_every_seconds(every_seconds) {}

void CheckpointObserver::begin(const Simulation&, const StepRecord& initial) {
  m_last_wall = wall_seconds();
  m_last_step = initial.step;
}

void CheckpointObserver::after_step(const Simulation& simulation, const StepRecord& record) {
  const bool by_steps = m_every_steps > 0 && record.step % m_every_steps == 0;
  const bool by_time = m_every_seconds > 0 && wall_seconds() - m_last_wall >= m_every_seconds;
  if (by_steps || by_time) write(simulation);
}

void CheckpointObserver::finish(const Simulation& simulation, RunResult& result) {
  if (result.status == RunStatus::kInterrupted && m_last_step != result.steps_done)
    write(simulation);
}

void CheckpointObserver::write(const Simulation& simulation) {
  // Made with the first checkpoint: a run that writes none leaves no empty folder.
  std::filesystem::create_directories(m_file.parent_path());
  const Checkpoint checkpoint = simulation.checkpoint();
  write_checkpoint(m_file, checkpoint);
  m_last_wall = wall_seconds();
  m_last_step = checkpoint.step;
  ++m_written;
}

}  // namespace simrun
