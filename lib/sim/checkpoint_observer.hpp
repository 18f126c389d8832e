#pragma once
/// Writes OUT/checkpoint/state.bin (sim/checkpoint.hpp) every N steps and/or every S seconds of
/// wall time, and always when the run is interrupted, so `simrun resume OUT` can continue. Add it
/// after every other observer: a checkpoint at step k is then written after step k's rows and
/// frame, so the files never miss a step the checkpoint has passed.
#include <filesystem>

#include "sim/step_observer.hpp"

namespace simrun {

class CheckpointObserver final : public StepObserver {
 public:
  /// every_steps, every_seconds: 0 for none (then only at an interruption).
  CheckpointObserver(std::filesystem::path file, long every_steps, double every_seconds);
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;
  void finish(const Simulation& simulation, RunResult& result) override;

  long checkpoints_written() const { return m_written; }

 private:
  void write(const Simulation& simulation);

  std::filesystem::path m_file;
  long m_every_steps;
  double m_every_seconds;
  double m_last_wall = 0.0;  ///< wall clock at the last checkpoint (or the start)
  long m_last_step = -1;     ///< step of the last checkpoint
  long m_written = 0;
};

}  // namespace simrun
