#include "run_record.hpp"

#include "core/parallel.hpp"
#include "io/atomic_file.hpp"
#include "simrun/version.hpp"

namespace simrun::app {

void write_run_record(const std::filesystem::path& out_dir, const nlohmann::json& record) {
  write_file_atomically(
      out_dir / "run.json",
      record.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

nlohmann::json base_run_record(const nlohmann::json& normalized_scene,
                               const std::string& command_line) {
  nlohmann::json record;
  record["simrun"] = {{"version", kVersion}, {"git", kGitHash}};
  record["command_line"] = command_line;
  record["threads"] = thread_count();
  record["status"] = "running";
  record["scene"] = normalized_scene;
  return record;
}

namespace {

nlohmann::json multilevel_record(const SceneCounts::Multilevel& multilevel) {
  nlohmann::json record = {{"sms_handles", multilevel.sms_handles},
                           {"affine_handles", multilevel.affine_handles},
                           {"polish_iterations", multilevel.polish_iterations}};
  if (multilevel.cubature_points) record["cubature_points"] = *multilevel.cubature_points;
  return record;
}

}  // namespace

nlohmann::json counts_record(const SceneCounts& counts) {
  nlohmann::json objects = nlohmann::json::array();
  for (const SceneCounts::Object& object : counts.objects)
    objects.push_back({{"name", object.name},
                       {"vertices", object.vertices},
                       {"tets", object.tets},
                       {"springs", object.springs}});
  nlohmann::json record = {{"vertices", counts.vertices},
                           {"tets", counts.tets},
                           {"springs", counts.springs},
                           {"free_dofs", counts.free_dofs},
                           {"constrained_vertices", counts.constrained_vertices},
                           {"objects", objects}};
  if (counts.reference)
    record["reference"] = {{"vertices", counts.reference->vertices},
                           {"tets", counts.reference->tets}};
  if (counts.multilevel) record["multilevel"] = multilevel_record(*counts.multilevel);
  return record;
}

nlohmann::json setup_seconds_record(const SceneCounts& counts) {
  nlohmann::json record = nlohmann::json::object();
  if (!counts.multilevel) return record;
  record["multilevel_partition"] = counts.multilevel->partition_seconds;
  record["multilevel_bases"] = counts.multilevel->bases_seconds;
  if (counts.multilevel->cubature_fit_seconds)
    record["cubature_fit"] = *counts.multilevel->cubature_fit_seconds;
  return record;
}

}  // namespace simrun::app
