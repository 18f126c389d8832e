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

}  // namespace simrun::app
