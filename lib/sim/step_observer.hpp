#pragma once
/// Observers see the run: its start (step 0), every accepted step, and its end. The outputs
/// (energy.csv, stats.csv, frames) are observers, and so are the diagnostics that come later
/// (momentum, errors against a reference run): a new output is a new observer, not a change to
/// the step loop.
#include "core/step_stats.hpp"
#include "sim/energy_table.hpp"

namespace simrun {

class Simulation;
struct RunResult;

/// One accepted step (or the initial state, step 0) as the observers see it.
struct StepRecord {
  long step = 0;        ///< 0 for the initial state
  double t = 0.0;       ///< time at the end of the step [s]
  double h = 0.0;       ///< the step's size [s] (0 for step 0)
  double wall_s = 0.0;  ///< wall time of the step [s]
  bool last = false;    ///< no step follows (the clock's end; not known for stops on failure)
  /// In begin(): the run continues from a checkpoint at `step`; the files hold the steps up to
  /// it (and possibly later ones, written after the checkpoint, to be dropped).
  bool resumed = false;
  const StepStats* stats = nullptr;     ///< the step's counters (empty for step 0)
  const EnergyRow* energies = nullptr;  ///< the primary system's energies after the step
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  /// The initial state, before the first step (or the checkpoint's, when initial.resumed).
  virtual void begin(const Simulation& /*simulation*/, const StepRecord& /*initial*/) {}
  /// An accepted step (its state is the simulation's current state).
  virtual void after_step(const Simulation& simulation, const StepRecord& record) = 0;
  /// The run ended (finished, diverged or failed); the state is the last accepted one. An
  /// observer may add what it counted to the result (frames_written).
  virtual void finish(const Simulation& /*simulation*/, RunResult& /*result*/) {}
};

}  // namespace simrun
