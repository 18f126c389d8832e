#pragma once
/// `simrun sweep SWEEP.json -o OUTDIR [-j N] [--slurm ...]` (docs/sweeps.md): every point of a
/// sweep run as a child `simrun run` on this machine or as a Slurm array task, resumably, with
/// OUTDIR/summary.csv collected from the run folders.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace simrun::app {

struct SweepOptions {
  std::string sweep_file;
  std::string out_dir;
  int jobs = 0;            ///< -j: runs at once (0: not given; 1 locally, no limit on Slurm)
  int threads = 0;         ///< --threads per run (0: cores / jobs locally, 1 on Slurm)
  std::string time_limit;  ///< --time-limit for every run (empty: none), as given
  bool dry_run = false;
  bool collect = false;
  bool slurm = false;
  bool no_wait = false;
  std::string partition, time, mem;
  std::vector<std::string> sbatch_args;
};

/// Adds the `sweep` subcommand and its options (filled into `options`) to `app`.
CLI::App* add_sweep_subcommand(CLI::App& app, SweepOptions& options);

/// Runs the subcommand; returns the exit code: 0 when every point finished, 2 when some did not
/// (they are listed with their logs), 130 when stopped by Ctrl-C; InputError (exit 1) for a bad
/// sweep file, a point the scene rejects, or sbatch refusing the job, before anything runs.
int sweep_command(const SweepOptions& options);

}  // namespace simrun::app
