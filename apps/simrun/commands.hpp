#pragma once
/// The subcommands of `simrun`. Each returns the process exit code; InputError propagates to
/// main(), which prints it and exits with kExitBadInput.
#include <string>
#include <vector>

namespace simrun::app {

struct CommonOptions {
  std::string scene;
  std::vector<std::string> overrides;  ///< --set /pointer=value
  std::string out_dir;                 ///< -o (empty: the scene's output.dir)
  /// run --start-from: a checkpoint (state.bin, or a run folder holding checkpoint/state.bin)
  /// whose state the run starts from instead of the scene's initial state.
  std::string start_from;
  int threads = 0;
  bool quiet = false;
  bool force = false;             ///< --force: replace an output folder that holds other outputs
  long checkpoint_steps = 0;      ///< --checkpoint-every N: every N steps (0: none)
  double checkpoint_seconds = 0;  ///< --checkpoint-every Ns/Nm/Nh: every so much wall time
  /// --time-limit: stop after the step that reaches this much wall time since the command
  /// started (setup included), as an interruption: status "interrupted", a checkpoint, exit 2.
  double time_limit_seconds = 0;
  std::string command_line;       ///< for run.json
  std::vector<std::string> argv;  ///< to restart with the thread environment set
};

int run_command(const CommonOptions& options, int steps_override);
int validate_command(const CommonOptions& options);
/// Continues the run in `out_dir` from its checkpoint, to `total_steps` steps in all when >= 0
/// (else to the scene's end).
int resume_command(const CommonOptions& options, const std::string& out_dir, long total_steps);
/// `write_shapes`: also modes/mode_NNN.vtu (not with --csv-only).
int modes_command(const CommonOptions& options, int count, bool write_shapes = true);
/// `simrun coarsen`: the homogenized tensors of every coarsened object (docs/coarsening.md).
int coarsen_command(const CommonOptions& options);

}  // namespace simrun::app
