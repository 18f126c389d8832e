#pragma once
/// OUTDIR/summary.csv of a sweep: one row per point, read back from the point's run folder.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweep_spec.hpp"

namespace simrun::app {

/// What a point's folder says about its run. Absent numbers stay empty in summary.csv.
struct PointResult {
  std::string status = "not_run";  ///< run.json "status"; "not_run" without a run.json
  std::string message;             ///< run.json "message" (why it diverged or failed)
  std::optional<double> wall_s;    ///< run.json wall_seconds.total
  std::optional<double> steps;     ///< run.json counts.steps_done
  /// Last row of energy.csv: kinetic, elastic, gravity, total.
  std::optional<double> kinetic, elastic, gravity, total;
  /// Largest |u| over the vertices of every frames/*.vtu (empty when no frames were written).
  std::optional<double> peak_displacement;
  /// error.csv, when the scene has a reference: max over rows of max_pos_err, mean of
  /// mean_pos_err.
  std::optional<double> max_pos_err, mean_pos_err;
};

/// Reads run.json, energy.csv, frames/*.vtu and error.csv of one run folder. Missing or
/// unreadable files leave their fields empty (a run that failed early has none of them).
PointResult read_point_result(const std::filesystem::path& run_dir);

/// The largest displacement magnitude in the "displacement" point array of the .vtu files in
/// `frames_dir` (as simrun writes them: inline base64 binary, UInt64 header), or empty when there
/// are none.
std::optional<double> peak_displacement(const std::filesystem::path& frames_dir);

/// The columns of summary.csv: name, the parameters' pointers, status, wall_s, steps, kinetic,
/// elastic, gravity, total, peak_displacement, max_pos_err, mean_pos_err, message (run.json's
/// message for a point that did not finish, empty otherwise).
std::vector<std::string> summary_columns(const Sweep& sweep);

/// Writes `file` (atomically) with one row per point of `sweep`; results[i] belongs to
/// sweep.points[i].
void write_summary(const std::filesystem::path& file, const Sweep& sweep,
                   const std::vector<PointResult>& results);

/// One CSV field, quoted (RFC 4180) when it holds ',', '"' or a line break.
std::string csv_field(const std::string& text);

}  // namespace simrun::app
