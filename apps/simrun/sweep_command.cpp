#include "sweep_command.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_checks.hpp"
#include "core/error.hpp"
#include "exit_codes.hpp"
#include "io/atomic_file.hpp"
#include "sim/run_status.hpp"
#include "sweep_local.hpp"
#include "sweep_process.hpp"
#include "sweep_slurm.hpp"
#include "sweep_spec.hpp"
#include "sweep_summary.hpp"
#include "thread_environment.hpp"

namespace simrun::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kExitStopped = 130;  ///< 128 + SIGINT, as a shell reports a Ctrl-C

/// Everything decided before a run starts: the expanded sweep and each point's command line.
struct Plan {
  Sweep sweep;
  fs::path out;                                 ///< OUTDIR, absolute
  std::vector<json> scenes;                     ///< each point's normalized scene
  std::vector<std::vector<std::string>> argvs;  ///< each point's `simrun run ...`
  int threads = 1;                              ///< --threads of each run
  int parallel = 1;                             ///< runs at once (locally)
};

/// A point whose run.json names one of the four run statuses (not pending, running, ...).
bool is_ended(const std::string& status) { return run_status_from_string(status).has_value(); }

fs::path point_dir(const Plan& plan, const SweepPoint& point) { return plan.out / point.name; }
fs::path local_log(const Plan& plan, const SweepPoint& point) {
  return plan.out / "logs" / (point.name + ".log");
}
fs::path slurm_log(const Plan& plan, const SweepPoint& point) {
  return plan.out / "slurm" / ("task_" + std::to_string(point.index) + ".log");
}

/// The running binary, so that children are the same simrun as the sweep.
fs::path own_binary() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("sweep: cannot resolve /proc/self/exe: " + ec.message());
  return exe;
}

std::optional<json> read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  json value = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return std::nullopt;
  return value;
}

/// OUTDIR must be new, empty or a sweep's folder (it has sweep.json): the sweep replaces what it
/// finds in its point folders.
void check_out_dir(const fs::path& out) {
  std::error_code ec;
  if (!fs::exists(out, ec)) return;
  if (!fs::is_directory(out, ec))
    throw InputError("sweep: -o " + out.string() + " exists and is not a folder");
  if (fs::exists(out / "sweep.json", ec)) return;
  bool empty = true;  // the lock file of a sweep that stopped before writing sweep.json aside
  for (const auto& entry : fs::directory_iterator(out, ec))
    if (entry.path().filename() != ".sweep.lock") empty = false;
  if (empty) return;
  throw InputError("sweep: -o " + out.string() +
                   " is a non-empty folder without sweep.json, not a sweep's output; choose a new "
                   "folder");
}

/// Holds an exclusive lock on OUTDIR/.sweep.lock, so that two sweeps never run the same points.
class OutDirLock {
 public:
  explicit OutDirLock(const fs::path& out) {
    const fs::path file = out / ".sweep.lock";
    m_fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0) throw InputError("sweep: cannot create " + file.string());
    if (flock(m_fd, LOCK_EX | LOCK_NB) != 0)
      throw InputError("sweep: another simrun sweep is working in " + out.string());
  }
  ~OutDirLock() { close(m_fd); }
  OutDirLock(const OutDirLock&) = delete;
  OutDirLock& operator=(const OutDirLock&) = delete;

 private:
  int m_fd = -1;
};

Plan make_plan(const SweepOptions& options) {
  Plan plan;
  plan.sweep = read_sweep(options.sweep_file);
  plan.out = fs::absolute(options.out_dir).lexically_normal();
  if (!plan.out.has_filename()) plan.out = plan.out.parent_path();  // "out/" -> "out"
  plan.scenes = validate_sweep_points(plan.sweep, plan.out);
  return plan;
}

/// Whether a point goes on from its checkpoint instead of starting over: its run was interrupted
/// (Ctrl-C, a scheduler's SIGTERM, --time-limit), left checkpoint/state.bin, and ran the scene the
/// sweep gives now. A point that hits a Slurm --time at every try still gets to its end.
bool resumes_from_checkpoint(const Plan& plan, const SweepPoint& point) {
  const fs::path dir = point_dir(plan, point);
  const auto record = read_json(dir / "run.json");
  std::error_code ec;
  return record && record->value("status", "") == "interrupted" &&
         fs::is_regular_file(dir / "checkpoint" / "state.bin", ec) && record->contains("scene") &&
         record->at("scene") == plan.scenes[point.index];
}

/// Fills plan.threads, plan.parallel and the command lines for `to_run` points at once.
void plan_commands(Plan& plan, const SweepOptions& options, int to_run) {
  if (options.slurm) {
    plan.threads = options.threads > 0 ? options.threads : 1;
    plan.parallel = options.jobs;
  } else {
    plan.parallel = std::max(1, std::min(options.jobs > 0 ? options.jobs : 1, to_run));
    plan.threads =
        options.threads > 0 ? options.threads : std::max(1, available_cores() / plan.parallel);
  }
  const fs::path exe = own_binary();
  plan.argvs.clear();
  for (const auto& point : plan.sweep.points) {
    const bool resume = resumes_from_checkpoint(plan, point);
    std::vector<std::string> argv = {exe.string()};
    if (resume) {
      argv.insert(argv.end(), {"resume", point_dir(plan, point).string()});
    } else {
      argv.insert(argv.end(), {"run", plan.sweep.base_scene.string()});
      for (const auto& o : plan.sweep.overrides(point)) {
        argv.push_back("--set");
        argv.push_back(o);
      }
      argv.insert(argv.end(), {"-o", point_dir(plan, point).string()});
    }
    argv.insert(argv.end(), {"--quiet", "--threads", std::to_string(plan.threads)});
    if (!options.time_limit.empty()) {
      argv.push_back("--time-limit");
      argv.push_back(options.time_limit);
    }
    // The sweep owns its point folders: a point run again (it diverged or failed, or was
    // interrupted under an older base scene) replaces its old outputs, which `run` may refuse
    // without it.
    if (!resume) argv.push_back("--force");
    plan.argvs.push_back(std::move(argv));
  }
}

/// OUTDIR/sweep.json (and what --dry-run prints): the expansion and each point's command line.
json sweep_record(const Plan& plan) {
  json record;
  record["sweep"] = plan.sweep.file.string();
  record["scene"] = plan.sweep.base_scene.string();
  record["mode"] = plan.sweep.mode;
  record["set"] = json::object();
  for (const auto& f : plan.sweep.fixed) record["set"][f.pointer] = f.value;
  record["parameters"] = json::array();
  for (const auto& p : plan.sweep.parameters)
    record["parameters"].push_back(
        {{"pointer", p.pointer}, {"short_name", p.short_name}, {"values", p.values}});
  record["points"] = json::array();
  for (const auto& point : plan.sweep.points) {
    json values = json::object();
    for (std::size_t i = 0; i < point.values.size(); ++i)
      values[plan.sweep.parameters[i].pointer] = point.values[i];
    record["points"].push_back({{"index", point.index},
                                {"name", point.name},
                                {"parameters", values},
                                {"command", shell_command(plan.argvs.at(point.index))}});
  }
  return record;
}

void write_plan_files(const Plan& plan) {
  write_file_atomically(plan.out / "sweep.json", sweep_record(plan).dump(2) + "\n");
  std::string commands;
  for (const auto& argv : plan.argvs) commands += shell_command(argv) + "\n";
  write_file_atomically(plan.out / "commands.txt", commands);
}

std::vector<PointResult> collect(const Plan& plan) {
  std::vector<PointResult> results;
  for (const auto& point : plan.sweep.points)
    results.push_back(read_point_result(point_dir(plan, point)));
  return results;
}

/// The last non-empty line of a log (what a run refused with), at most 300 characters.
std::string last_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 300) last = last.substr(0, 297) + "...";
  return last;
}

/// A run that ended without saying how in run.json (killed, or refused before writing it, e.g.
/// a mesh file that does not read or a model too large for the memory): its exit code and the
/// last line of its log. `out_of_memory`: its SIGKILL came with a kill by the kernel's
/// out-of-memory killer (LocalExit).
void explain_exit(PointResult& result, int exit_code, const fs::path& log, bool out_of_memory) {
  if (is_ended(result.status) || exit_code == 0) return;
  // Stopped from outside (SIGINT, SIGTERM, SIGKILL, SIGHUP: the user or the scheduler) it can be
  // resumed; killed by its own fault (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL) or by the
  // out-of-memory killer (it would be killed again) it failed.
  const int signal = exit_code - 128;
  const bool from_outside =
      exit_code > 128 && !out_of_memory &&
      (signal == SIGINT || signal == SIGTERM || signal == SIGKILL || signal == SIGHUP);
  result.status = from_outside ? "interrupted" : "failed";
  result.message = exit_code > 128 ? "killed by signal " + std::to_string(exit_code - 128)
                                   : "exit " + std::to_string(exit_code);
  if (out_of_memory)
    result.message +=
        " from the kernel's out-of-memory killer (/proc/vmstat oom_kill rose while it ran): the "
        "run needs more memory than the machine or its cgroup (a Slurm --mem) allows";
  const std::string reason = last_line(log);
  if (!reason.empty()) result.message += ": " + reason;
}

/// A run whose run.json does not say how it ended, explained by its Slurm task's state (PENDING,
/// RUNNING, FAILED, TIMEOUT, ... from squeue) or by "ENDED": it is known to have ended (the job has
/// left the queue and squeue forgot the task, or a local run left a log); `log` is its log.
void explain_state(PointResult& result, const std::string& state, const fs::path& log) {
  if (is_ended(result.status) || state.empty() || state == "COMPLETED") return;
  if (state == "PENDING" || state == "CONFIGURING") {
    result.status = "pending";
    return;
  }
  if (state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED") {
    result.status = "running";
    return;
  }
  const bool stopped =
      state == "CANCELLED" || state == "TIMEOUT" || state == "PREEMPTED" || state == "DEADLINE";
  result.status = stopped ? "interrupted" : "failed";
  result.message = state == "ENDED" ? "the run ended without a final run.json" : "slurm: " + state;
  const std::string reason = last_line(log);
  if (!reason.empty()) result.message += ": " + reason;
}

std::string seconds_text(const std::optional<double>& seconds) {
  if (!seconds) return "";
  std::ostringstream text;
  text.precision(3);
  text << " " << *seconds << " s";
  return text.str();
}

void print_progress(int done, int total, const SweepPoint& point, const PointResult& result) {
  std::cerr << "[" << done << "/" << total << "] " << point.name << " " << result.status
            << seconds_text(result.wall_s)
            << (result.status == "finished" || result.message.empty() ? "" : ": " + result.message)
            << "\n";
}

/// Writes summary.csv, lists the points that did not finish with their logs, and returns the
/// exit code (0 all finished, 2 otherwise).
int report(const Plan& plan, const std::vector<PointResult>& results,
           const std::map<int, fs::path>& logs) {
  write_summary(plan.out / "summary.csv", plan.sweep, results);
  std::vector<std::size_t> unfinished;
  for (std::size_t k = 0; k < results.size(); ++k)
    if (results[k].status != "finished") unfinished.push_back(k);
  std::cerr << "sweep: " << results.size() - unfinished.size() << "/" << results.size()
            << " finished; wrote " << (plan.out / "summary.csv").string() << "\n";
  for (std::size_t k : unfinished) {
    const SweepPoint& point = plan.sweep.points[k];
    std::cerr << "  " << point.name << ": " << results[k].status
              << (results[k].message.empty() ? "" : " (" + results[k].message + ")");
    const auto log = logs.find(point.index);
    if (log != logs.end()) std::cerr << "; log: " << log->second.string();
    std::cerr << "\n";
  }
  return unfinished.empty() ? kExitFinished : kExitDiverged;
}

/// Logs of each point: the Slurm task's for points of the recorded job, else the local one.
std::map<int, fs::path> existing_logs(const Plan& plan, const std::optional<json>& job) {
  std::map<int, fs::path> logs;
  std::vector<int> submitted;
  if (job && job->contains("indices")) submitted = job->at("indices").get<std::vector<int>>();
  for (const auto& point : plan.sweep.points) {
    const bool in_job =
        std::find(submitted.begin(), submitted.end(), point.index) != submitted.end();
    for (const fs::path& log : {in_job ? slurm_log(plan, point) : local_log(plan, point),
                                in_job ? local_log(plan, point) : slurm_log(plan, point)}) {
      std::error_code ec;
      if (fs::exists(log, ec)) {
        logs[point.index] = log;
        break;
      }
    }
  }
  return logs;
}

/// The Slurm job recorded by an earlier `--slurm` in OUTDIR/slurm/job.json, if any.
std::optional<json> recorded_job(const Plan& plan) {
  auto job = read_json(plan.out / "slurm" / "job.json");
  if (job && job->contains("job_id") && job->at("job_id").is_string()) return job;
  return std::nullopt;
}

/// Refuses to start runs while tasks of an earlier submission may still write the same folders.
void require_no_queued_job(const Plan& plan) {
  const auto job = recorded_job(plan);
  if (!job) return;
  const std::string id = job->at("job_id").get<std::string>();
  std::string error;
  if (job_queue_state(id, error) == QueueState::kQueued)
    throw InputError("sweep: Slurm job " + id + " of an earlier `sweep --slurm` into " +
                     plan.out.string() + " is still queued or running; wait for it, use " +
                     "--collect, or cancel it (scancel " + id + ")");
}

int collect_command(const Plan& plan) {
  std::vector<PointResult> results = collect(plan);
  const auto job = recorded_job(plan);
  std::vector<int> in_job;
  if (job) in_job = job->value("indices", std::vector<int>{});
  for (const auto& point : plan.sweep.points) {  // local runs that ended without run.json
    std::error_code ec;
    if (std::find(in_job.begin(), in_job.end(), point.index) == in_job.end() &&
        fs::exists(local_log(plan, point), ec))
      explain_state(results[point.index], "ENDED", local_log(plan, point));
  }
  if (job) {
    const std::string id = job->at("job_id").get<std::string>();
    const auto states = array_task_states(id);
    std::string error;
    const bool gone = job_queue_state(id, error) == QueueState::kGone;
    for (int index : in_job) {
      if (index < 0 || index >= static_cast<int>(results.size())) continue;
      const auto state = states.find(index);
      explain_state(results[index],
                    state != states.end() ? state->second
                    : gone                ? "ENDED"
                                          : "",
                    slurm_log(plan, plan.sweep.points[index]));
    }
  }
  return report(plan, results, existing_logs(plan, job));
}

/// Indices of the points whose run.json does not say "finished"; notes finished points whose
/// recorded scene differs from what the sweep gives now (kept: delete a folder to re-run it).
std::vector<int> points_to_run(const Plan& plan) {
  std::vector<int> indices;
  std::vector<std::string> changed;
  for (const auto& point : plan.sweep.points) {
    const auto record = read_json(point_dir(plan, point) / "run.json");
    if (!record || record->value("status", "") != "finished") {
      indices.push_back(point.index);
    } else if (!record->contains("scene") || record->at("scene") != plan.scenes[point.index]) {
      changed.push_back(point.name);
    }
  }
  if (!changed.empty()) {
    std::cerr << "sweep: note: " << changed.size()
              << " finished point(s) ran a scene that differs from what the sweep gives now (base "
                 "scene or simrun changed?); kept as they are, delete a folder to run it again:";
    for (const auto& name : changed) std::cerr << " " << name;
    std::cerr << "\n";
  }
  return indices;
}

int run_locally(const Plan& plan, const std::vector<int>& indices) {
  fs::create_directories(plan.out / "logs");
  std::vector<LocalJob> jobs;
  for (int i : indices) jobs.push_back({i, plan.argvs[i], local_log(plan, plan.sweep.points[i])});
  const auto resumed = std::count_if(indices.begin(), indices.end(),
                                     [&](int i) { return plan.argvs[i].at(1) == "resume"; });
  std::cerr << "sweep: " << plan.sweep.points.size() << " point(s), "
            << plan.sweep.points.size() - indices.size() << " finished earlier, " << indices.size()
            << " to run"
            << (resumed ? " (" + std::to_string(resumed) + " from their checkpoints)" : "") << ", "
            << plan.parallel << " at a time with " << plan.threads << " thread(s) each\n";
  std::map<int, LocalExit> exits;
  int done = 0;
  const bool completed = run_jobs_locally(jobs, plan.parallel, [&](const LocalExit& exit) {
    exits[exit.index] = exit;
    const SweepPoint& point = plan.sweep.points[exit.index];
    PointResult result = read_point_result(point_dir(plan, point));
    explain_exit(result, exit.exit_code, local_log(plan, point), exit.out_of_memory);
    result.wall_s = exit.seconds;
    print_progress(++done, static_cast<int>(jobs.size()), point, result);
  });
  std::vector<PointResult> results = collect(plan);
  for (const auto& [index, exit] : exits)
    explain_exit(results[index], exit.exit_code, local_log(plan, plan.sweep.points[index]),
                 exit.out_of_memory);
  const int code = report(plan, results, existing_logs(plan, std::nullopt));
  if (!completed) {
    std::cerr << "sweep: stopped by a signal; run the same command again to continue\n";
    return kExitStopped;
  }
  return code;
}

fs::file_time_type write_time(const fs::path& file) {
  std::error_code ec;
  const auto t = fs::last_write_time(file, ec);
  return ec ? fs::file_time_type::min() : t;
}

int run_on_slurm(const Plan& plan, const SweepOptions& options, const std::vector<int>& indices) {
  const fs::path dir = plan.out / "slurm";
  fs::create_directories(dir);
  SlurmOptions slurm;
  slurm.partition = options.partition;
  slurm.time = options.time;
  slurm.mem = options.mem;
  slurm.sbatch_args = options.sbatch_args;
  slurm.cpus_per_task = plan.threads;
  slurm.max_running = plan.parallel;
  std::map<int, std::string> commands;
  for (int i : indices) commands[i] = shell_command(plan.argvs[i]);
  std::string job_name = "simrun-sweep-" + value_name(json(plan.sweep.file.stem().string()));
  const fs::path script = dir / "array.sh";
  write_file_atomically(script, array_script(job_name, commands, indices, slurm));
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);

  // A task counts as done once it rewrote its run.json with a final status.
  std::map<int, fs::file_time_type> before;
  for (int i : indices) before[i] = write_time(point_dir(plan, plan.sweep.points[i]) / "run.json");
  const std::string id = submit_array(script, plan.out);
  write_file_atomically(
      dir / "job.json",
      json{{"job_id", id}, {"indices", indices}, {"script", script.string()}}.dump(2) + "\n");
  std::cerr << "sweep: submitted Slurm job " << id << ": " << indices.size() << " task(s) ("
            << array_ranges(indices) << ") of " << plan.sweep.points.size() << " point(s), "
            << plan.threads << " CPU(s) each; logs in " << dir.string() << "\n";
  if (options.no_wait) {
    std::cerr << "sweep: not waiting; collect summary.csv later with: simrun sweep "
              << shell_quote(plan.sweep.file.string()) << " -o " << shell_quote(plan.out.string())
              << " --collect\n";
    return kExitFinished;
  }

  StopSignals signals;
  std::map<int, bool> reported;
  int done = 0;
  const auto report_ended = [&](bool all) {
    for (int i : indices) {
      if (reported[i]) continue;
      const SweepPoint& point = plan.sweep.points[i];
      const fs::path record = point_dir(plan, point) / "run.json";
      if (!all && write_time(record) == before[i]) continue;
      const PointResult result = read_point_result(point_dir(plan, point));
      if (!all && !is_ended(result.status)) continue;
      reported[i] = true;
      print_progress(++done, static_cast<int>(indices.size()), point, result);
    }
  };
  double interval = 0.2;  // squeue is cheap; tiny tasks end within a second
  int failures = 0;
  for (;;) {
    std::string error;
    const QueueState state = job_queue_state(id, error);
    if (state == QueueState::kGone) break;
    if (state == QueueState::kUnknown && ++failures >= 30) {
      std::cerr << "sweep: squeue keeps failing (" << error << "); stopped waiting for job " << id
                << "; collect later with --collect\n";
      return kExitDiverged;
    }
    report_ended(false);
    sleep_seconds(interval);
    interval = std::min(5.0, interval * 1.25);
    if (signals.received()) {
      std::cerr << "sweep: stopped waiting; Slurm job " << id
                << " goes on (scancel it to stop it); collect later with --collect\n";
      return kExitStopped;
    }
  }
  report_ended(true);
  return collect_command(plan);
}

}  // namespace

CLI::App* add_sweep_subcommand(CLI::App& app, SweepOptions& options) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "Run a scene over parameter values (grid or zip), locally or as a Slurm array");
  sweep->add_option("sweep", options.sweep_file, "Sweep file (JSON, see docs/sweeps.md)")
      ->required()
      ->check(CLI::ExistingFile);
  sweep->add_option("-o,--output", options.out_dir, "Output folder: one run folder per point")
      ->required();
  sweep
      ->add_option("-j,--jobs", options.jobs,
                   "Runs at once (default 1; with --slurm: array tasks at once, default no limit)")
      ->check(at_least(1));
  sweep
      ->add_option("--threads", options.threads,
                   "Threads per run (default: cores / jobs; with --slurm 1, also its CPUs)")
      ->check(at_least(1));
  sweep
      ->add_option("--time-limit", options.time_limit,
                   "Each run's wall-time limit (simrun run --time-limit: 300, 30s, 5m, 1h); a run "
                   "that reaches it ends \"interrupted\"")
      ->check(wall_time());
  sweep->add_flag("--dry-run", options.dry_run,
                  "Check the sweep and print its points and commands as JSON; run nothing");
  sweep->add_flag("--collect", options.collect,
                  "Only (re)write summary.csv from the run folders (and the Slurm job's states)");
  CLI::Option* slurm =
      sweep->add_flag("--slurm", options.slurm, "Submit the points as a Slurm job array (sbatch)");
  sweep->add_option("--partition", options.partition, "Slurm partition")->needs(slurm);
  sweep->add_option("--time", options.time, "Slurm time limit per run, e.g. 00:30:00")
      ->needs(slurm);
  sweep->add_option("--mem", options.mem, "Slurm memory per run, e.g. 2G")->needs(slurm);
  sweep
      ->add_option("--sbatch-arg", options.sbatch_args,
                   "Further sbatch option for the array script, e.g. --sbatch-arg=--account=x")
      ->needs(slurm);
  sweep->add_flag("--no-wait", options.no_wait, "Submit and return; --collect later")->needs(slurm);
  return sweep;
}

int sweep_command(const SweepOptions& options) {
  Plan plan = make_plan(options);
  if (options.dry_run) {
    plan_commands(plan, options, static_cast<int>(plan.sweep.points.size()));
    std::cout << sweep_record(plan).dump(2) << "\n";
    return kExitFinished;
  }
  if (options.collect && !fs::exists(plan.out / "sweep.json"))
    throw InputError("sweep --collect: " + plan.out.string() + " holds no sweep (no sweep.json)");
  check_out_dir(plan.out);
  std::error_code ec;
  fs::create_directories(plan.out, ec);
  if (ec || !fs::is_directory(plan.out))
    throw InputError("sweep: output folder " + plan.out.string() + ": cannot create it (" +
                     (ec ? ec.message() : std::string("a file of that name exists")) +
                     "); choose another with -o");
  OutDirLock lock(plan.out);
  if (options.collect) return collect_command(plan);

  require_no_queued_job(plan);
  const std::vector<int> indices = points_to_run(plan);
  plan_commands(plan, options, static_cast<int>(std::max<std::size_t>(1, indices.size())));
  write_plan_files(plan);
  if (indices.empty()) {
    std::cerr << "sweep: all " << plan.sweep.points.size() << " point(s) finished earlier\n";
    return report(plan, collect(plan), existing_logs(plan, recorded_job(plan)));
  }
  if (options.slurm) return run_on_slurm(plan, options, indices);
  return run_locally(plan, indices);
}

}  // namespace simrun::app
