#pragma once
/// Sweep files (`simrun sweep SWEEP.json`, docs/sweeps.md): a base scene and parameters given as
/// JSON pointers with value lists, crossed ("grid") or zipped ("zip"), expanded to one point per
/// combination. Every point gets a folder name made from its values.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simrun::app {

struct SweepParameter {
  std::string pointer;                 ///< e.g. "/objects/0/material/E"
  std::string short_name;              ///< for folder names, e.g. "E" (unique among the parameters)
  std::vector<nlohmann::json> values;  ///< in the order of the file
};

struct SweepPoint {
  int index = 0;                       ///< position in the expansion (the Slurm array task id)
  std::string name;                    ///< folder name, e.g. "E=1e5_dt=0.01"
  std::vector<nlohmann::json> values;  ///< one per parameter, in the parameters' order
};

/// A fixed override of the sweep file's "set": applied to every point, not part of its name.
struct SweepSetting {
  std::string pointer;
  nlohmann::json value;
};

struct Sweep {
  std::filesystem::path file;        ///< the sweep file (absolute)
  std::filesystem::path base_scene;  ///< "scene", resolved against the sweep file's folder
  std::string mode;                  ///< "grid" or "zip"
  std::vector<SweepSetting> fixed;   ///< "set", in the file's order
  std::vector<SweepParameter> parameters;
  std::vector<SweepPoint> points;

  /// A point's "--set" texts "POINTER=VALUE" (VALUE as compact JSON): the fixed settings first,
  /// then one per parameter.
  std::vector<std::string> overrides(const SweepPoint& point) const;
};

/// Reads and expands a sweep file. "set" ({"/pointer": value, ...}) overrides the base scene for
/// every point; a pointer may not be both in "set" and a parameter. Grid order: the first parameter
/// varies slowest (nested loops in the file's order). Throws InputError "FILE: /key: expected ...,
/// found ..." naming the sweep file and the pointer for a malformed file, missing or unknown keys,
/// an empty or non-array value list, zip lists of unequal length, a pointer that is not a JSON
/// pointer, a value listed twice in a grid, or a zip that gives one point twice (both would run the
/// same point twice; a zip list may repeat values). Does not read the base scene (see
/// validate_sweep_points).
Sweep read_sweep(const std::filesystem::path& file);

/// Loads the base scene with each point's overrides (the scene parser: schema and semantic
/// checks), so that a pointer missing from the scene or a value the scene rejects stops the sweep
/// before any run starts. Returns each point's normalized scene with output.dir set to
/// `out_dir`/NAME (what `simrun run -o` records). Throws InputError naming the sweep file, the
/// point and the parser's message, which names the pointer.
std::vector<nlohmann::json> validate_sweep_points(const Sweep& sweep,
                                                  const std::filesystem::path& out_dir);

/// A filesystem-safe text for a value in a folder name: numbers in shortest form with a compact
/// exponent (1e5, 0.005, 2.5e-7), strings as they are, arrays joined by '_'; characters other
/// than letters, digits and ". + - _" become '-'.
std::string value_name(const nlohmann::json& value);

/// Short names for pointers: the last reference token, extended by preceding tokens (joined with
/// '.') until all are distinct, e.g. {"/objects/0/material/E", "/objects/1/material/E"} ->
/// {"0.material.E", "1.material.E"}.
std::vector<std::string> short_names(const std::vector<std::string>& pointers);

}  // namespace simrun::app
