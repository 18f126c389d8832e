// simrun: command-line front end (interface contract: run, validate, modes, schema, --version).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "exit_codes.hpp"
#include "scene/scene_schema.hpp"
#include "simrun/version.hpp"

namespace {

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + std::string(argv[i]);
  return line;
}

/// A whole number of at least `minimum` (CLI11's PositiveNumber names the largest double, 309
/// digits, in its message).
CLI::Validator at_least(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        long value = 0;
        const bool whole = CLI::detail::lexical_cast(text, value);
        if (whole && value >= minimum) return {};
        return "expected a whole number >= " + std::to_string(minimum) + ", found '" + text + "'";
      },
      "INT>=" + std::to_string(minimum));
}

void add_scene_options(CLI::App* command, simrun::app::CommonOptions& options) {
  command->add_option("scene", options.scene, "Scene file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--set", options.overrides,
                      "Override a scene value before validation: /json/pointer=VALUE "
                      "(VALUE is JSON, or a bare word for a string)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace simrun::app;
  CLI::App app{"simrun: batch simulator for stiff elastodynamics driven by JSON scenes"};
  app.set_version_flag("--version",
                       std::string("simrun ") + simrun::kVersion + " (" + simrun::kGitHash + ")");
  app.require_subcommand(1);

  CommonOptions options;
  options.command_line = joined_command_line(argc, argv);
  options.argv.assign(argv, argv + argc);
  int steps = -1;
  int modes = 10;

  CLI::App* run = app.add_subcommand("run", "Simulate a scene and write its output folder");
  add_scene_options(run, options);
  run->add_option("-o,--output", options.out_dir, "Output folder (overrides output.dir)");
  run->add_option("--steps", steps, "Number of steps (overrides time.steps)")->check(at_least(0));
  run->add_option("--threads", options.threads, "Threads for assembly (default: all cores)")
      ->check(at_least(1));
  run->add_flag("-q,--quiet", options.quiet, "No progress or notes, only errors");
  run->add_flag("--force", options.force,
                "Write into an output folder that holds other outputs (simrun's files there "
                "are replaced)");

  CLI::App* validate = app.add_subcommand("validate", "Check a scene and print it normalized");
  add_scene_options(validate, options);

  CLI::App* modes_cmd = app.add_subcommand("modes", "Rest-state eigenmodes K u = lambda M u");
  add_scene_options(modes_cmd, options);
  modes_cmd->add_option("-n,--count", modes, "Number of modes")->check(at_least(1));
  bool modes_csv_only = false;
  modes_cmd->add_flag("--csv-only", modes_csv_only,
                      "Write modes.csv only (no modes/mode_NNN.vtu: 1000 modes of a 2.5k-tet "
                      "beam are ~200 MB of VTU)");
  modes_cmd->add_option("-o,--output", options.out_dir, "Output folder (overrides output.dir)");
  modes_cmd->add_option("--threads", options.threads, "Threads for assembly")->check(at_least(1));
  modes_cmd->add_flag("-q,--quiet", options.quiet, "No notes, only errors");

  CLI::App* schema = app.add_subcommand("schema", "Print the scene JSON Schema");

  // CLI11 reports an unknown subcommand as a missing one; name it instead.
  const std::vector<std::string> commands = {"run", "validate", "modes", "schema"};
  if (argc > 1 && argv[1][0] != '-' &&
      std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    std::cerr << "error: unknown command '" << argv[1]
              << "' (expected run, validate, modes or schema)";
    if (auto near = simrun::nearest_name(argv[1], commands); !near.empty()) {
      std::cerr << "; did you mean '" << near << "'?";
    }
    std::cerr << "\n";
    return kExitBadInput;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitFinished : kExitBadInput;
  }

  try {
    if (*run) return run_command(options, steps);
    if (*validate) return validate_command(options);
    if (*modes_cmd) return modes_command(options, modes, !modes_csv_only);
    if (*schema) {
      std::cout << simrun::scene_schema_text();
      return kExitFinished;
    }
  } catch (const simrun::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitInternal;
}
