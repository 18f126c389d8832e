#pragma once
/// A run's full state at the end of a step, for `simrun resume`: every system's positions,
/// velocities, time, constrained vertices (releases so far), integrator history and energy-term
/// state (the contact barrier's stiffness), the step
/// count and the divergence monitor's memory. Written atomically as OUT/checkpoint/state.bin:
/// a text line "simrun-checkpoint 1", a JSON header line (numbers, array names and lengths),
/// then the arrays as raw native-endian doubles, so a resumed run starts from the very same bits.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "integrate/integrator.hpp"

namespace simrun {

struct SystemCheckpoint {
  State state;
  std::vector<int> constrained;  ///< vertices constrained during the checkpoint's step
  IntegratorHistory history;
  /// What the model's energy terms carry from step to step (EnergyTerm::persistent_state), by
  /// "term/name", e.g. the contact barrier's adapted stiffness "contact/kappa".
  std::map<std::string, double> terms;
};

struct Checkpoint {
  long step = 0;                          ///< steps done
  double t0 = 0.0;                        ///< the run's start time (the clock's origin)
  std::vector<SystemCheckpoint> systems;  ///< primary first, then the companions
  double monitor_total0 = 0.0;            ///< DivergenceMonitor memory
  std::vector<double> monitor_changes;
  std::filesystem::path file;  ///< read_checkpoint(): where it was read from (for messages)
};

/// Writes `checkpoint` to `path` atomically (a crash mid-write keeps the previous one).
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);
/// Reads a checkpoint; InputError naming the file when it is missing, truncated or not one.
Checkpoint read_checkpoint(const std::filesystem::path& path);

}  // namespace simrun
