#pragma once
/// A sweep's points as a Slurm job array (`simrun sweep --slurm`): the sbatch script, its
/// submission and the queue queries, through Slurm's own commands (sbatch, squeue) on PATH.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace simrun::app {

struct SlurmOptions {
  std::string partition;                 ///< --partition (empty: the cluster's default)
  std::string time;                      ///< --time limit per task, e.g. "00:30:00"
  std::string mem;                       ///< --mem per task, e.g. "2G"
  std::vector<std::string> sbatch_args;  ///< further "#SBATCH" options, e.g. "--account=x"
  int cpus_per_task = 1;                 ///< also each run's --threads
  int max_running = 0;                   ///< "%N" of --array: tasks at once (0: no limit)
};

/// Slurm's compact form of sorted indices: {0,1,2,3,5,7,8} -> "0-3,5,7-8".
std::string array_ranges(const std::vector<int>& indices);

/// The task ids of a squeue "%i" field: "12_3" -> {3}, "12_[0-3,5%2]" -> {0,1,2,3,5}; {} when the
/// field is not an array task of a job.
std::vector<int> array_task_ids(const std::string& field);

/// The text of an sbatch script whose array task i runs commands.at(i) (each a shell command
/// line), submitted as tasks `indices` with `options`. Logs go to slurm/task_<i>.log relative to
/// the submission folder (OUTDIR), so no path needs quoting inside an #SBATCH line.
std::string array_script(const std::string& job_name, const std::map<int, std::string>& commands,
                         const std::vector<int>& indices, const SlurmOptions& options);

/// Submits `script` with `sbatch --parsable` from `workdir` and returns the job id. Throws
/// InputError with sbatch's message when sbatch is missing or refuses the job (unknown partition,
/// a time limit above the partition's, ...).
std::string submit_array(const std::filesystem::path& script, const std::filesystem::path& workdir);

/// Whether job `job_id` still has tasks pending or running.
enum class QueueState { kQueued, kGone, kUnknown };
/// kUnknown (with squeue's message in `error`) when squeue fails for another reason than the job
/// having left the queue (the controller is unreachable, ...).
QueueState job_queue_state(const std::string& job_id, std::string& error);

/// Task id -> Slurm state (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...) of the
/// job's array tasks, from `squeue -t all` (Slurm keeps ended tasks for MinJobAge, 300 s by
/// default). Empty when squeue knows nothing about the job.
std::map<int, std::string> array_task_states(const std::string& job_id);

}  // namespace simrun::app
