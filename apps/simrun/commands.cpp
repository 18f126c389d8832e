#include "commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/timer.hpp"
#include "exit_codes.hpp"
#include "interrupt.hpp"
#include "io/atomic_file.hpp"
#include "io/number_format.hpp"
#include "io/progress.hpp"
#include "output_folder.hpp"
#include "run_record.hpp"
#include "scene/coarsening_files.hpp"
#include "scene/factory.hpp"
#include "scene/integrator_setting_use.hpp"
#include "scene/memory_estimate.hpp"
#include "scene/object_coarsening.hpp"
#include "scene/parse_scene.hpp"
#include "sim/checkpoint.hpp"
#include "sim/checkpoint_observer.hpp"
#include "sim/modes.hpp"
#include "sim/output_observers.hpp"
#include "thread_environment.hpp"

namespace simrun::app {

namespace {

SceneConfig load(const CommonOptions& options, std::vector<std::string> extra_overrides = {}) {
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), extra_overrides.begin(), extra_overrides.end());
  SceneConfig scene = parse_scene(options.scene, overrides);
  if (!options.out_dir.empty()) {
    scene.output.dir = std::filesystem::absolute(options.out_dir);
    scene.normalized["output"]["dir"] = scene.output.dir.string();
  }
  return scene;
}

/// The most threads a run may ask for (the scene schema's /threads maximum too). OpenMP fails
/// to create some tens of thousands (libgomp crashed at 99999); more than this is a typo.
constexpr long kMaxThreads = 1024;

/// The thread count of a run: --threads, else the scene's "threads", else OMP_NUM_THREADS when
/// the user set it (a batch job's or a test harness's limit), else every available core. More
/// than kMaxThreads is bad input naming where it came from.
int effective_threads(const CommonOptions& options, const SceneConfig& scene) {
  const auto checked = [](long n, const std::string& source) {
    require(n <= kMaxThreads, source + " asks for " + std::to_string(n) + " threads: at most " +
                                  std::to_string(kMaxThreads) + " (this process may run on " +
                                  std::to_string(available_cores()) + " cores)");
    return static_cast<int>(n);
  };
  if (options.threads > 0) return checked(options.threads, "--threads");
  if (scene.threads > 0) return checked(scene.threads, "the scene's /threads");
  if (const char* omp = std::getenv("OMP_NUM_THREADS")) {
    errno = 0;
    char* end = nullptr;
    const long n = std::strtol(omp, &end, 10);
    if (end != omp && n > 0) return checked(errno == ERANGE ? LONG_MAX : n, "OMP_NUM_THREADS");
  }
  return static_cast<int>(std::min<long>(available_cores(), kMaxThreads));
}

/// Limits every thread pool to `threads` (restarting the process once if needed, see
/// thread_environment.hpp) and sets simrun's own OpenMP loops to it. A run (`for_run`, whose
/// signal watcher is running, interrupt.hpp) restarts also when its interrupt signals were not
/// blocked at start, so that no thread sees them unblocked.
void apply_threads(const CommonOptions& options, int threads, std::vector<std::string>& notes,
                   bool for_run = false) {
  std::string note;
  // Restarting reads the scene again: a pipe or process substitution can be read only once.
  std::error_code ec;
  if (std::filesystem::is_regular_file(options.scene, ec)) {
    ensure_thread_environment(threads, options.argv, note,
                              for_run && !interrupt_signals_blocked_at_start());
  } else if (!thread_environment_ready(threads)) {
    note =
        "threads: the scene is not a regular file, so simrun did not restart to limit "
        "CHOLMOD's and OpenBLAS's threads to " +
        std::to_string(threads) +
        " (set OMP_NUM_THREADS, OMP_THREAD_LIMIT and OPENBLAS_NUM_THREADS yourself)";
  }
  if (!note.empty()) notes.push_back(note);
  set_thread_count(threads);
}

void print_notes(const CommonOptions& options, const std::vector<std::string>& notes) {
  if (options.quiet) return;
  for (const auto& note : notes) std::cerr << note << "\n";
}

}  // namespace

namespace {

/// The scene's file, absolute ("" when it is not a regular file): two scenes of one name (x.json
/// in two folders) are two scenes to the output folder's checks.
std::string absolute_scene_file(const CommonOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.scene, ec)) return {};
  return std::filesystem::weakly_canonical(std::filesystem::absolute(options.scene), ec).string();
}

}  // namespace

int validate_command(const CommonOptions& options) {
  const SceneConfig scene = load(options);
  // Everything `run` checks before its first step: meshes read, materials, integrator, sizes,
  // and the output folder, without touching it: one that cannot be made is an error, one that
  // `run` refuses without --force a warning (validate cannot know whether the run will pass it).
  std::vector<std::string> notes;
  std::filesystem::path existing = scene.output.dir;
  std::error_code ec;
  while (!existing.empty() && existing != existing.parent_path() &&
         !std::filesystem::exists(existing, ec))
    existing = existing.parent_path();
  require(std::filesystem::is_directory(existing, ec) && ::access(existing.c_str(), W_OK) == 0,
          "output folder " + scene.output.dir.string() + ": cannot create it (" +
              existing.string() + " is not a writable folder); choose another with /output/dir");
  std::string folder_warning;
  try {
    check_output_folder(scene.output.dir, scene.name, absolute_scene_file(options), false);
  } catch (const InputError& e) {
    folder_warning = std::string("warning: ") + e.what() + " (`run` refuses it without --force)";
  }
  build_simulation(scene, &notes);
  if (!folder_warning.empty()) notes.push_back(folder_warning);
  for (const std::string& note : unused_integrator_settings(scene.normalized))
    notes.push_back(note);
  print_notes(options, notes);
  if (!options.quiet) std::cout << normalized_scene_text(scene);
  return kExitFinished;
}

namespace {

/// Where a run records its outcome (run.json, simrun.log) and what the record says of it.
struct RunRecording {
  const CommonOptions& options;
  const RunSettings& settings;
  nlohmann::json& record;
  std::ofstream& log;
  double setup_seconds;
  int threads;
  const Checkpoint* resume;             // continued from this checkpoint, if any
  const nlohmann::json* record_before;  // a resumed run's record, put back on bad input
};

/// The output observers, and last the checkpoint writer.
void add_run_observers(const CommonOptions& options, const RunSettings& settings,
                       Simulation& simulation) {
  add_output_observers(simulation, settings);
  // Last: a checkpoint at step k comes after step k's rows and frame.
  simulation.add_observer(
      std::make_unique<CheckpointObserver>(settings.out_dir / "checkpoint" / "state.bin",
                                           options.checkpoint_steps, options.checkpoint_seconds));
}

/// The progress line on stderr (none when quiet).
std::unique_ptr<ProgressReporter> make_progress(const CommonOptions& options, long expected_steps,
                                                const Checkpoint* resume) {
  std::unique_ptr<ProgressReporter> progress;
  if (!options.quiet) {
    progress = std::make_unique<ProgressReporter>(std::cerr, static_cast<int>(expected_steps),
                                                  stream_is_terminal(stderr));
    if (resume) progress->start_at(static_cast<int>(resume->step));
  }
  return progress;
}

/// Records bad input found before the first step and throws it, naming the checkpoint file.
[[noreturn]] void record_input_failure(const RunRecording& rec, ProgressReporter* progress,
                                       const InputError& e) {
  // Bad input found before the first step (a checkpoint that does not fit the scene, or an
  // output file that cannot be continued): a resumed run's record is put back as it was (its
  // outputs are intact), a new run's says why.
  const std::string message = e.what();
  const std::string why =
      rec.resume && !rec.resume->file.empty() && message.rfind("checkpoint:", 0) == 0
          ? rec.resume->file.string() + ": " + message
          : message;
  if (progress) progress->finish("failed");
  if (rec.record_before) {
    write_run_record(rec.settings.out_dir, *rec.record_before);
  } else {
    rec.record["status"] = "failed";
    rec.record["message"] = why;
    write_run_record(rec.settings.out_dir, rec.record);
  }
  rec.log << "failed: " << why << "\n";
  throw InputError(why);
}

/// Records running out of memory while stepping; the exit code.
int record_out_of_memory(const RunRecording& rec, ProgressReporter* progress,
                         const Simulation& simulation) {
  // Out of memory while stepping: the run failed with its outputs so far (exit 2, as a
  // diverged run), not bad input, since steps may have been written.
  if (progress) progress->finish("failed");
  rec.record["status"] = "failed";
  rec.record["message"] = "out of memory after step " +
                          std::to_string(simulation.result().steps_done) +
                          " (the scene needs more memory than this process may use)";
  write_run_record(rec.settings.out_dir, rec.record);
  rec.log << "failed: " << rec.record["message"].get<std::string>() << "\n";
  std::cerr << "simrun: failed: " << rec.record["message"].get<std::string>()
            << "; outputs up to the last good step are in " << rec.settings.out_dir.string()
            << "\n";
  return kExitDiverged;
}

/// Records any other failure (e.g. a disk that filled up) before main() maps it.
void record_internal_failure(const RunRecording& rec, ProgressReporter* progress,
                             const std::exception& e) {
  if (progress) progress->finish("failed");
  rec.record["status"] = "failed";
  rec.record["message"] = std::string("internal error: ") + e.what();
  write_run_record(rec.settings.out_dir, rec.record);
  rec.log << "failed: internal error: " << e.what() << "\n";
}

/// The finished, diverged or interrupted run into run.json and simrun.log (which it closes);
/// an empty message becomes the summary of steps and time.
void record_outcome(const RunRecording& rec, RunResult& result, long expected_steps) {
  nlohmann::json& record = rec.record;
  const double total_seconds = rec.setup_seconds + result.seconds_total;
  if (result.message.empty())
    result.message = std::to_string(result.steps_done) +
                     " steps to t = " + short_number(result.t_end, 10) + " s in " +
                     short_number(total_seconds, 3) + " s";
  record["status"] = std::string(to_string(result.status));
  record["thread_use"] = thread_report(rec.threads);
  record["message"] = result.message;
  if (!result.warnings.empty()) record["warnings"] = result.warnings;
  // Added to the setup's entries (counts_record, setup_seconds_record).
  record["wall_seconds"].update({{"total", total_seconds},
                                 {"setup", rec.setup_seconds},
                                 {"stepping", result.seconds_stepping},
                                 {"output", result.seconds_output}});
  record["counts"].update({{"steps_requested", expected_steps},
                           {"steps_done", result.steps_done},
                           {"t_end", std::stod(format_time(result.t_end))},  // 15 digits
                           {"frames", result.frames_written}});
  write_run_record(rec.settings.out_dir, record);

  rec.log << result.status << ": " << result.steps_done << "/" << expected_steps << " steps, "
          << result.frames_written << " frames, " << short_number(total_seconds, 3) << " s; "
          << result.message << "\n";
  rec.log.close();
}

/// The closing line on stderr and the exit code of a run that stepped.
int report_outcome(const RunRecording& rec, const RunResult& result, bool time_limit_reached) {
  const RunSettings& settings = rec.settings;
  if (result.status == RunStatus::kInterrupted) {
    std::cerr << "simrun: interrupted: " << result.message << "; the last good state is frame "
              << result.steps_done << " in " << settings.out_dir.string()
              << "; continue with: simrun resume " << settings.out_dir.string() << "\n";
    // A time limit is not a signal: the run did not finish, like a diverged one.
    return time_limit_reached ? kExitDiverged : 128 + interrupt_signal();
  }
  if (result.status != RunStatus::kFinished) {
    std::cerr << "simrun: " << result.status << ": " << result.message
              << "; outputs up to the last good step are in " << settings.out_dir.string() << "\n";
    return kExitDiverged;
  }
  if (!rec.options.quiet) {
    std::cerr << "simrun: wrote " << settings.out_dir.string()
              << " (run.json, energy.csv, stats.csv" << (settings.write_vtu ? ", frames.pvd" : "")
              << ")\n";
  }
  return kExitFinished;
}

/// Steps a built simulation to its end and records the outcome (run.json, simrun.log, the
/// closing line); `resume`: continue from that checkpoint. Returns the exit code.
int step_and_record(const CommonOptions& options, Simulation& simulation,
                    const RunSettings& settings, nlohmann::json& record, std::ofstream& log,
                    double setup_seconds, int threads, const Checkpoint* resume,
                    const nlohmann::json* record_before = nullptr) {
  const RunRecording rec{options,       settings, record, log,
                         setup_seconds, threads,  resume, record_before};
  add_run_observers(options, settings, simulation);
  const long expected_steps = settings.clock().expected_steps();
  const std::unique_ptr<ProgressReporter> progress = make_progress(options, expected_steps, resume);
  const Timer stepping_timer;
  bool time_limit_reached = false;
  RunResult result;
  try {
    result = simulation.run(
        settings,
        [&](long step) {
          if (progress) progress->update(static_cast<int>(step));
          if (const int signal = interrupt_signal()) {
            simulation.interrupt(signal_name(signal));
          } else if (options.time_limit_seconds > 0 &&
                     setup_seconds + stepping_timer.seconds() >= options.time_limit_seconds) {
            time_limit_reached = true;
            simulation.interrupt("the time limit of " +
                                 short_number(options.time_limit_seconds, 6) + " s");
          }
        },
        resume);
  } catch (const InputError& e) {
    record_input_failure(rec, progress.get(), e);
  } catch (const std::bad_alloc&) {
    return record_out_of_memory(rec, progress.get(), simulation);
  } catch (const std::exception& e) {
    record_internal_failure(rec, progress.get(), e);
    throw;
  }
  if (progress) progress->finish(to_string(result.status));
  for (const auto& warning : result.warnings) {
    if (!options.quiet) std::cerr << "warning: " << warning << "\n";
    log << "warning: " << warning << "\n";
  }
  record_outcome(rec, result, expected_steps);
  return report_outcome(rec, result, time_limit_reached);
}

}  // namespace

/// run --start-from: the checkpoint at `path` (a state.bin, or a run folder), which must lie
/// before the run's end.
Checkpoint read_start_checkpoint(const std::string& path, const RunSettings& settings) {
  namespace fs = std::filesystem;
  const fs::path file =
      fs::is_directory(path) ? fs::path(path) / "checkpoint" / "state.bin" : fs::path(path);
  Checkpoint checkpoint = read_checkpoint(file);
  require(!settings.clock(checkpoint.t0).finished(checkpoint.step),
          "--start-from " + file.string() + ": the checkpoint is at step " +
              std::to_string(checkpoint.step) + ", the run has only " +
              std::to_string(settings.clock(checkpoint.t0).expected_steps()) +
              " steps (pass --steps N, the total to reach)");
  return checkpoint;
}

int run_command(const CommonOptions& options, int steps_override) {
  install_interrupt_handlers();  // until graceful_stop_from_now(), a signal ends the process
  Timer setup_timer;
  std::vector<std::string> extra;
  if (steps_override >= 0) extra.push_back("/time/steps=" + std::to_string(steps_override));
  const SceneConfig scene = load(options, extra);
  const int threads = effective_threads(options, scene);
  std::vector<std::string> notes;
  apply_threads(options, threads, notes, /*for_run=*/true);
  const std::string scene_file = absolute_scene_file(options);
  check_output_folder(scene.output.dir, scene.name, scene_file, options.force);
  // Everything that can reject the input happens before the output folder is touched.
  std::vector<std::string> model_notes;
  SceneCounts counts;
  auto simulation = build_simulation(scene, &model_notes, &counts);
  notes.insert(notes.end(), model_notes.begin(), model_notes.end());
  for (const std::string& note : unused_integrator_settings(scene.normalized))
    notes.push_back(note);
  const RunSettings settings = run_settings(scene);
  std::optional<Checkpoint> start;
  if (!options.start_from.empty()) {
    start = read_start_checkpoint(options.start_from, settings);
    notes.push_back("start: from step " + std::to_string(start->step) +
                    " (t = " + short_number(start->systems.at(0).state.t, 10) + " s) of " +
                    options.start_from);
  }
  print_notes(options, notes);
  const double setup_seconds = setup_timer.seconds();

  // The folder is created, locked and cleared of a previous run only now; from here a signal
  // stops the run with its outputs instead of ending the process.
  graceful_stop_from_now();
  std::vector<std::string> folder_notes;
  const OutputFolderLock lock =
      prepare_output_folder(settings.out_dir, scene.name, scene_file, options.force, folder_notes);
  print_notes(options, folder_notes);
  notes.insert(notes.end(), folder_notes.begin(), folder_notes.end());
  nlohmann::json record = base_run_record(scene.normalized, options.command_line);
  if (!scene_file.empty()) record["scene_file"] = scene_file;
  if (start) record["start_from"] = {{"checkpoint", options.start_from}, {"step", start->step}};
  record["counts"] = counts_record(counts);
  record["wall_seconds"] = setup_seconds_record(counts);
  write_run_record(settings.out_dir, record);
  // simrun.log: the notes and the closing summary, whatever --quiet says.
  std::ofstream log(settings.out_dir / "simrun.log");
  log << options.command_line << "\n";
  for (const auto& note : notes) log << note << "\n";
  log.flush();

  return step_and_record(options, *simulation, settings, record, log, setup_seconds, threads,
                         start ? &*start : nullptr);
}

namespace {

/// run.json of an output folder to resume; an InputError when it is missing or not simrun's.
nlohmann::json read_resumable_record(const std::filesystem::path& out) {
  const std::filesystem::path record_file = out / "run.json";
  std::ifstream record_in(record_file);
  require(static_cast<bool>(record_in),
          out.string() + ": no run.json (not a simrun output folder)");
  nlohmann::json record = nlohmann::json::parse(record_in, nullptr, false);
  require(!record.is_discarded() && record.is_object() && record.contains("scene") &&
              record["scene"].is_object(),
          record_file.string() + ": not a simrun run record");
  return record;
}

/// A finished run has nothing to continue unless asked for more steps: going on from its last
/// checkpoint would redo (and rewrite) the steps after it.
void require_steps_beyond_finished(const nlohmann::json& record, const std::filesystem::path& out,
                                   long total_steps) {
  if (record.value("status", "") != "finished") return;
  const long done = record.contains("counts") && record["counts"].contains("steps_done") &&
                            record["counts"]["steps_done"].is_number_integer()
                        ? record["counts"]["steps_done"].get<long>()
                        : -1;
  require(total_steps > done && done >= 0,
          out.string() + ": the run already finished (" + std::to_string(done) +
              " steps); pass --steps N with N > " + std::to_string(done) + " to go on");
}

/// The run's own normalized scene (absolute paths, defaults filled), in the folder it is in now,
/// with the new step count, written to checkpoint/scene.json; returns that path.
std::filesystem::path write_resume_scene(const nlohmann::json& record,
                                         const std::filesystem::path& out, long total_steps) {
  nlohmann::json scene_json = record["scene"];
  scene_json["output"]["dir"] = out.string();
  if (total_steps >= 0) {
    scene_json["time"]["steps"] = total_steps;
    // A fixed-step run ends at its step count; an adaptive one at "end" (steps is its cap).
    if (!scene_json["time"].contains("adaptive")) scene_json["time"].erase("end");
  }
  const std::filesystem::path scene_file = out / "checkpoint" / "scene.json";
  write_file_atomically(
      scene_file, scene_json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  return scene_file;
}

}  // namespace

int resume_command(const CommonOptions& options, const std::string& out_dir, long total_steps) {
  install_interrupt_handlers();  // until graceful_stop_from_now(), a signal ends the process
  Timer setup_timer;
  namespace fs = std::filesystem;
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  const fs::path record_file = out / "run.json";
  nlohmann::json record = read_resumable_record(out);
  const Checkpoint checkpoint = read_checkpoint(out / "checkpoint" / "state.bin");
  require_steps_beyond_finished(record, out, total_steps);
  const SceneConfig scene = parse_scene(write_resume_scene(record, out, total_steps));
  const int threads = effective_threads(options, scene);
  std::vector<std::string> notes;
  CommonOptions restartable = options;  // re-running `resume` reads nothing only once
  restartable.scene = record_file.string();
  apply_threads(restartable, threads, notes, /*for_run=*/true);
  std::vector<std::string> model_notes;
  SceneCounts counts;
  auto simulation = build_simulation(scene, &model_notes, &counts);
  notes.insert(notes.end(), model_notes.begin(), model_notes.end());
  const RunSettings settings = run_settings(scene);
  require(!settings.clock(checkpoint.t0).finished(checkpoint.step),
          out.string() + ": the run already reached step " + std::to_string(checkpoint.step) +
              " of its " + std::to_string(settings.clock(checkpoint.t0).expected_steps()) +
              "; pass --steps N (the total to reach) to go further");
  notes.push_back("resume: from step " + std::to_string(checkpoint.step) +
                  " (t = " + short_number(checkpoint.systems.at(0).state.t, 10) + " s)");
  print_notes(options, notes);
  const double setup_seconds = setup_timer.seconds();

  graceful_stop_from_now();
  const OutputFolderLock lock = lock_output_folder(out);
  const nlohmann::json record_before = record;  // run.json again if the checkpoint does not fit
  record["status"] = "running";
  record["scene"] = scene.normalized;
  // wall_seconds will be this segment's; the segment before keeps its own here, so the whole
  // run's time is the sum over the resumes' previous_wall_seconds and the final wall_seconds.
  nlohmann::json resume_entry = {{"command_line", options.command_line},
                                 {"from_step", checkpoint.step},
                                 {"threads", thread_count()}};
  if (record_before.contains("wall_seconds"))
    resume_entry["previous_wall_seconds"] = record_before["wall_seconds"];
  record["resumes"].push_back(resume_entry);
  // This segment's build: the sizes are the same, the precomputation times its own.
  record["counts"] = counts_record(counts);
  record["wall_seconds"] = setup_seconds_record(counts);
  write_run_record(out, record);
  std::ofstream log(out / "simrun.log", std::ios::app);
  log << options.command_line << "\n";
  for (const auto& note : notes) log << note << "\n";
  log.flush();
  return step_and_record(options, *simulation, settings, record, log, setup_seconds, threads,
                         &checkpoint, &record_before);
}

int modes_command(const CommonOptions& options, int count, bool write_shapes) {
  const SceneConfig scene = load(options);
  std::vector<std::string> notes;
  apply_threads(options, effective_threads(options, scene), notes);
  BuiltModel built = build_model(scene);
  notes.insert(notes.end(), built.notes.begin(), built.notes.end());
  print_notes(options, notes);
  require(count <= built.model->num_free(), "modes: -n " + std::to_string(count) + " exceeds the " +
                                                std::to_string(built.model->num_free()) +
                                                " free DOFs of the scene");
  {
    // Spectra's Lanczos keeps an n x ncv basis and dense ncv x ncv work matrices (ncv = 2 count
    // + 1, eigen_solver.cpp): with thousands of modes those, not the mesh, fill the memory.
    const double n = built.model->num_free();
    const double ncv = std::min(n, std::max(2.0 * count + 1.0, 20.0));
    const double bytes = 8.0 * (n * ncv + 4.0 * ncv * ncv);
    const double available = available_memory_bytes();
    require(available <= 0.0 || bytes <= available,
            "modes: -n " + std::to_string(count) + " needs about " + format_bytes(bytes) +
                " for the eigensolver's Krylov basis and work matrices, but " +
                format_bytes(available) + " are available; ask for fewer modes");
  }
  GeneralizedEigenSolver eigensolver(make_cholmod_solver);  // shift-invert: exact solves
  const GeneralizedEigenResult modes = rest_modes(*built.model, count, eigensolver);
  if (modes.status != Status::kSuccess) {
    std::cerr << "simrun: modes: eigensolver " << to_string(modes.status) << "\n";
    return kExitDiverged;
  }
  const OutputFolderLock lock = create_output_folder(scene.output.dir);
  write_modes(scene.output.dir, *built.model, built.frames, modes, write_shapes);
  if (!options.quiet) {
    std::cerr << "simrun: " << count << " modes in " << modes.seconds << " s; wrote "
              << (scene.output.dir / "modes.csv").string()
              << (write_shapes ? " and modes/*.vtu" : "") << "\n";
  }
  return kExitFinished;
}

int coarsen_command(const CommonOptions& options) {
  const SceneConfig scene = load(options);
  std::vector<std::string> notes;
  apply_threads(options, effective_threads(options, scene), notes);
  print_notes(options, notes);
  const std::filesystem::path out = scene.output.dir;
  const OutputFolderLock lock = create_output_folder(out);
  std::filesystem::remove(out / "report.txt");
  int coarsened = 0;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const ObjectConfig& object = scene.objects[i];
    if (object.coarsening.method == CoarseningConfig::Method::kNone) continue;
    std::vector<std::string> object_notes;
    const ObjectPieces coarse =
        build_object(object, i, scene.source.string(), scene.time.dt, object_notes);
    const ObjectCoarsening coarsening =
        coarsen_object(object, i, scene.source.string(), scene.time.dt, coarse,
                       /*reuse_cache=*/false);
    write_coarsening_files(out, object.name, coarsening, coarse.mesh);
    print_notes(options, coarsening.notes);
    ++coarsened;
  }
  require(coarsened > 0, scene.source.string() +
                             ": no object has \"coarsening\": {\"method\": ...} other than none");
  if (!options.quiet)
    std::cerr << "simrun: coarsened " << coarsened << " object(s); wrote " << out.string() << "\n";
  return kExitFinished;
}

}  // namespace simrun::app
