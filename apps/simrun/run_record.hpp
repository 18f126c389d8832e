#pragma once
/// run.json: normalized scene, version, command line, threads, status, timings and counts.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace simrun::app {

/// Writes `record` to OUT/run.json atomically.
void write_run_record(const std::filesystem::path& out_dir, const nlohmann::json& record);

/// The fields every run.json starts with (scene, simrun version, command line, threads).
nlohmann::json base_run_record(const nlohmann::json& normalized_scene,
                               const std::string& command_line);

}  // namespace simrun::app
