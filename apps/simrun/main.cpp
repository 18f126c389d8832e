// simrun: command-line front end (interface contract: run, validate, modes, schema, --version).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <limits>
#include <new>

#include "cli_checks.hpp"
#include "commands.hpp"
#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "exit_codes.hpp"
#include "scene/memory_estimate.hpp"
#include "scene/scene_schema.hpp"
#include "simrun/version.hpp"
#include "sweep_command.hpp"

namespace {

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + std::string(argv[i]);
  return line;
}

bool has_time_unit(const std::string& text) {
  return !text.empty() && (text.back() == 's' || text.back() == 'm' || text.back() == 'h');
}

/// --checkpoint-every: "N" steps, or a wall time "Ns", "Nm", "Nh" (parse_wall_time).
void add_checkpoint_option(CLI::App* command, simrun::app::CommonOptions& options) {
  command
      ->add_option_function<std::string>(
          "--checkpoint-every",
          [&options](const std::string& text) {
            if (has_time_unit(text)) {
              options.checkpoint_seconds = simrun::app::parse_wall_time(text);
            } else {
              options.checkpoint_steps = static_cast<long>(std::stod(text));  // "1e3" too
            }
          },
          "Write OUT/checkpoint/state.bin every N steps, or every Ns/Nm/Nh of wall time "
          "(for `simrun resume OUT`); an interrupted run always writes one")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::size_t used = 0;
            double value = 0;
            try {
              if (has_time_unit(text)) {
                simrun::app::parse_wall_time(text);
                return {};
              }
              value = std::stod(text, &used);
            } catch (const std::exception&) {
              used = 0;
            }
            if (used > 0 && used == text.size() && value > 0 && value < 1e15 &&
                value == std::floor(value))
              return {};
            return "expected a whole number of steps N > 0 or a wall time such as 30s, 5m, 1h; "
                   "found '" +
                   text + "'";
          },
          "N|Ns|Nm|Nh"));
}

/// --time-limit: wall time in seconds, or Ns, Nm, Nh.
void add_time_limit_option(CLI::App* command, simrun::app::CommonOptions& options) {
  command
      ->add_option_function<std::string>(
          "--time-limit",
          [&options](const std::string& text) {
            options.time_limit_seconds = simrun::app::parse_wall_time(text);
          },
          "Stop after the step that reaches this wall time (seconds, or Ns/Nm/Nh; setup "
          "included) as an interrupted run: last frame, checkpoint, run.json \"interrupted\", "
          "exit 2")
      ->check(simrun::app::wall_time());
}

void add_scene_options(CLI::App* command, simrun::app::CommonOptions& options) {
  command->add_option("scene", options.scene, "Scene file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--set", options.overrides,
                      "Override a scene value before validation: /json/pointer=VALUE "
                      "(VALUE is JSON, or a bare word for a string)");
}

/// The subcommands and the values their options fill (CLI11 keeps their addresses: built in
/// place, never moved).
struct CommandLine {
  simrun::app::CommonOptions options;
  int steps = -1;
  int modes = 10;
  bool modes_csv_only = false;
  std::string resume_dir;
  long resume_steps = -1;
  simrun::app::SweepOptions sweep_options;
  CLI::App* run = nullptr;
  CLI::App* resume = nullptr;
  CLI::App* validate = nullptr;
  CLI::App* modes_cmd = nullptr;
  CLI::App* coarsen = nullptr;
  CLI::App* schema = nullptr;
  CLI::App* sweep = nullptr;
};

void add_run_command(CLI::App& app, CommandLine& cli) {
  using namespace simrun::app;
  CommonOptions& options = cli.options;
  CLI::App* run = app.add_subcommand("run", "Simulate a scene and write its output folder");
  cli.run = run;
  add_scene_options(run, options);
  run->add_option("-o,--output", options.out_dir, "Output folder (overrides output.dir)")
      ->check(not_empty_path());
  run->add_option("--steps", cli.steps, "Number of steps (overrides time.steps)")
      ->check(at_least(0));
  run->add_option("--threads", options.threads, "Threads for assembly (default: all cores)")
      ->check(at_least(1));
  run->add_flag("-q,--quiet", options.quiet, "No progress or notes, only errors");
  add_checkpoint_option(run, options);
  add_time_limit_option(run, options);
  run->add_option("--start-from", options.start_from,
                  "Start from a checkpoint (a run folder's checkpoint/state.bin, or the folder) "
                  "instead of the initial state: the same scene with other settings, e.g. "
                  "another solver, takes the same steps from the same state");
  run->add_flag("--force", options.force,
                "Write into an output folder that holds other outputs (simrun's files there "
                "are replaced)");
}

void add_resume_command(CLI::App& app, CommandLine& cli) {
  using namespace simrun::app;
  CommonOptions& options = cli.options;
  CLI::App* resume =
      app.add_subcommand("resume", "Continue a run from its checkpoint (OUT/checkpoint/)");
  cli.resume = resume;
  resume->add_option("outdir", cli.resume_dir, "The run's output folder")
      ->required()
      ->check(CLI::ExistingDirectory);
  resume->add_option("--steps", cli.resume_steps, "Total steps to reach (default: the scene's)")
      ->check(at_least(1, std::numeric_limits<long>::max()));
  resume->add_option("--threads", options.threads, "Threads for assembly (default: all cores)")
      ->check(at_least(1));
  resume->add_flag("-q,--quiet", options.quiet, "No progress or notes, only errors");
  add_checkpoint_option(resume, options);
  add_time_limit_option(resume, options);
}

/// validate, modes and coarsen: the commands that examine a scene without running it.
void add_scene_inspection_commands(CLI::App& app, CommandLine& cli) {
  using namespace simrun::app;
  CommonOptions& options = cli.options;
  CLI::App* validate = app.add_subcommand("validate", "Check a scene and print it normalized");
  cli.validate = validate;
  add_scene_options(validate, options);
  validate->add_flag("-q,--quiet", options.quiet,
                     "Print nothing: the exit code says whether the scene is valid");

  CLI::App* modes_cmd = app.add_subcommand("modes", "Rest-state eigenmodes K u = lambda M u");
  cli.modes_cmd = modes_cmd;
  add_scene_options(modes_cmd, options);
  modes_cmd->add_option("-n,--count", cli.modes, "Number of modes")->check(at_least(1));
  modes_cmd->add_flag("--csv-only", cli.modes_csv_only,
                      "Write modes.csv only (no modes/mode_NNN.vtu: 1000 modes of a 2.5k-tet "
                      "beam are ~200 MB of VTU)");
  modes_cmd->add_option("-o,--output", options.out_dir, "Output folder (overrides output.dir)")
      ->check(not_empty_path());
  modes_cmd->add_option("--threads", options.threads, "Threads for assembly")->check(at_least(1));
  modes_cmd->add_flag("-q,--quiet", options.quiet, "No notes, only errors");

  CLI::App* coarsen = app.add_subcommand(
      "coarsen", "Homogenized tensors of the scene's coarsened objects (docs/coarsening.md)");
  cli.coarsen = coarsen;
  add_scene_options(coarsen, options);
  coarsen->add_option("-o,--output", options.out_dir, "Output folder (overrides output.dir)")
      ->check(not_empty_path());
  coarsen->add_option("--threads", options.threads, "Threads")->check(at_least(1));
  coarsen->add_flag("-q,--quiet", options.quiet, "No notes, only errors");
}

/// True, after saying so, when the first argument is a command simrun does not have.
bool reported_unknown_command(int argc, char** argv) {
  // CLI11 reports an unknown subcommand as a missing one; name it instead.
  const std::vector<std::string> commands = {"run",    "validate", "modes", "coarsen",
                                             "schema", "sweep",    "resume"};
  if (argc > 1 && argv[1][0] != '-' &&
      std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    std::cerr << "error: unknown command '" << argv[1]
              << "' (expected run, resume, validate, modes, coarsen, schema or sweep)";
    if (auto near = simrun::nearest_name(argv[1], commands); !near.empty()) {
      std::cerr << "; did you mean '" << near << "'?";
    }
    std::cerr << "\n";
    return true;
  }
  return false;
}

/// The parsed command, run; its errors as messages and exit codes.
int run_selected_command(const CommandLine& cli) {
  using namespace simrun::app;
  const CommonOptions& options = cli.options;
  try {
    if (*cli.run) return run_command(options, cli.steps);
    if (*cli.resume) return resume_command(options, cli.resume_dir, cli.resume_steps);
    if (*cli.validate) return validate_command(options);
    if (*cli.modes_cmd) return modes_command(options, cli.modes, !cli.modes_csv_only);
    if (*cli.coarsen) return coarsen_command(options);
    if (*cli.sweep) return sweep_command(cli.sweep_options);
    if (*cli.schema) {
      std::cout << simrun::scene_schema_text();
      return kExitFinished;
    }
  } catch (const simrun::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    // The estimate (scene/memory_estimate.hpp) passed but an allocation still failed: a scene too
    // large for the memory this process may use, which is the input's size, not a bug.
    std::string available = "unknown";
    try {
      available = simrun::format_bytes(simrun::available_memory_bytes());
    } catch (const std::exception&) {
    }
    std::cerr << "error: out of memory: the scene needs more memory than this process may use ("
              << available << " available; see SIMRUN_MEMORY_LIMIT, ulimit -v, the cgroup's "
              << "memory.max)\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace simrun::app;
  CLI::App app{"simrun: batch simulator for stiff elastodynamics driven by JSON scenes"};
  app.set_version_flag("--version",
                       std::string("simrun ") + simrun::kVersion + " (" + simrun::kGitHash + ")");
  app.require_subcommand(1);

  CommandLine cli;
  cli.options.command_line = joined_command_line(argc, argv);
  cli.options.argv.assign(argv, argv + argc);
  add_run_command(app, cli);
  add_resume_command(app, cli);
  add_scene_inspection_commands(app, cli);
  cli.schema = app.add_subcommand("schema", "Print the scene JSON Schema");
  cli.sweep = add_sweep_subcommand(app, cli.sweep_options);

  if (reported_unknown_command(argc, argv)) return kExitBadInput;

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitFinished : kExitBadInput;
  }
  return run_selected_command(cli);
}
