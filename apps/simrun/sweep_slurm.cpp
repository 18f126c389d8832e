#include "sweep_slurm.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/error.hpp"
#include "sweep_process.hpp"

namespace simrun::app {

namespace {

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::string array_ranges(const std::vector<int>& indices) {
  std::string text;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(indices[i]);
    if (j > i) {
      text += '-';
      text += std::to_string(indices[j]);
    }
    i = j + 1;
  }
  return text;
}

std::vector<int> array_task_ids(const std::string& field) {
  const std::size_t underscore = field.find('_');
  if (underscore == std::string::npos) return {};
  std::string tasks = field.substr(underscore + 1);
  if (all_digits(tasks)) return {std::stoi(tasks)};
  if (tasks.size() < 2 || tasks.front() != '[' || tasks.back() != ']') return {};
  tasks = tasks.substr(1, tasks.size() - 2);
  tasks = tasks.substr(0, tasks.find('%'));  // "%2": the limit of tasks at once
  std::vector<int> ids;
  std::istringstream in(tasks);
  for (std::string range; std::getline(in, range, ',');) {
    const std::size_t dash = range.find('-');
    const std::string first = range.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : range.substr(dash + 1);
    if (!all_digits(first) || !all_digits(last)) return {};
    for (int i = std::stoi(first); i <= std::stoi(last); ++i) ids.push_back(i);
  }
  return ids;
}

std::string array_script(const std::string& job_name, const std::map<int, std::string>& commands,
                         const std::vector<int>& indices, const SlurmOptions& options) {
  std::string text = "#!/bin/bash\n";
  text +=
      "# Written by `simrun sweep --slurm`: array task i runs point i of sweep.json (line i+1\n";
  text += "# of commands.txt). Submitted from the sweep's output folder as `sbatch array.sh`;\n";
  text += "# to resubmit by hand: cd OUTDIR && sbatch slurm/array.sh\n";
  const auto directive = [&](const std::string& option) { text += "#SBATCH " + option + "\n"; };
  directive("--job-name=" + job_name);
  std::string array = "--array=" + array_ranges(indices);
  if (options.max_running > 0) {
    array += '%';
    array += std::to_string(options.max_running);
  }
  directive(array);
  directive("--output=slurm/task_%a.log");
  directive("--cpus-per-task=" + std::to_string(options.cpus_per_task));
  if (!options.partition.empty()) directive("--partition=" + options.partition);
  if (!options.time.empty()) directive("--time=" + options.time);
  if (!options.mem.empty()) directive("--mem=" + options.mem);
  for (const auto& arg : options.sbatch_args) directive(arg);
  text += "case \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\" in\n";
  for (const auto& [index, command] : commands)
    text += "  " + std::to_string(index) + ") exec " + command + " ;;\n";
  text += "  *) echo \"array.sh: no point ${SLURM_ARRAY_TASK_ID}\" >&2; exit 3 ;;\n";
  text += "esac\n";
  return text;
}

std::string submit_array(const std::filesystem::path& script,
                         const std::filesystem::path& workdir) {
  CapturedRun run;
  try {
    run = capture({"sbatch", "--parsable", script.string()}, workdir);
  } catch (const std::exception& e) {
    throw InputError(std::string("sweep --slurm: ") + e.what());
  }
  if (run.code == 127)
    throw InputError("sweep --slurm: sbatch not found on PATH (is this a Slurm login node?)");
  // --parsable prints "JOBID" or "JOBID;CLUSTER".
  const std::string id = trimmed(run.out).substr(0, trimmed(run.out).find(';'));
  if (run.code != 0 || !all_digits(id))
    throw InputError("sweep --slurm: sbatch refused " + script.string() + " (exit " +
                     std::to_string(run.code) + "): " + trimmed(run.err + run.out));
  return id;
}

QueueState job_queue_state(const std::string& job_id, std::string& error) {
  const CapturedRun run = capture({"squeue", "-h", "-j", job_id, "-o", "%i"});
  if (run.code == 0) return trimmed(run.out).empty() ? QueueState::kGone : QueueState::kQueued;
  // squeue says so once the controller has forgotten the job (MinJobAge after it ended).
  if (run.err.find("Invalid job id") != std::string::npos) return QueueState::kGone;
  error = trimmed(run.err + run.out);
  return QueueState::kUnknown;
}

std::map<int, std::string> array_task_states(const std::string& job_id) {
  std::map<int, std::string> states;
  const CapturedRun run = capture({"squeue", "-h", "-t", "all", "-j", job_id, "-o", "%i %T"});
  if (run.code != 0) return states;
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, state;
    if (!(fields >> id >> state)) continue;
    for (int task : array_task_ids(id)) states[task] = state;
  }
  return states;
}

}  // namespace simrun::app
