#pragma once
/// run.json: normalized scene, version, command line, threads, status, timings and counts.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "scene/scene_counts.hpp"

namespace simrun::app {

/// Writes `record` to OUT/run.json atomically.
void write_run_record(const std::filesystem::path& out_dir, const nlohmann::json& record);

/// The fields every run.json starts with (scene, simrun version, command line, threads).
nlohmann::json base_run_record(const nlohmann::json& normalized_scene,
                               const std::string& command_line);

/// run.json's "counts" of what the scene was built into: vertices, tets, springs, free_dofs,
/// constrained_vertices, objects (name, vertices, tets, springs each), reference (its vertices
/// and tets) and multilevel (sms_handles, affine_handles, polish_iterations, cubature_points).
/// The step loop adds steps_requested, steps_done, t_end and frames.
nlohmann::json counts_record(const SceneCounts& counts);

/// run.json's "wall_seconds" of the setup's precomputation: multilevel_partition,
/// multilevel_bases and cubature_fit (when fitted); an empty object without the multilevel
/// solver. The step loop adds total, setup, stepping and output.
nlohmann::json setup_seconds_record(const SceneCounts& counts);

}  // namespace simrun::app
