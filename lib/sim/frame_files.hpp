#pragma once
/// Names of per-frame files ("NNNNNN.ext", the step zero-padded to six digits) and back.
#include <cstdio>
#include <filesystem>
#include <string>

namespace simrun {

/// "000042.vtu" for step 42 and extension "vtu".
inline std::string frame_file_name(int step, const char* extension) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%06d.%s", step, extension);
  return buffer;
}

/// The step of a frame file "NNNNNN.ext" (or ".../NNNNNN.ext"); -1 for other names.
inline long frame_file_step(const std::filesystem::path& file) {
  const std::string stem = file.stem().string();
  if (stem.empty() || stem.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stol(stem);
}

/// Removes the frame files of steps after `step` from `dir` (creating it if missing); other
/// files stay.
inline void remove_frame_files_after(const std::filesystem::path& dir, long step) {
  std::filesystem::create_directories(dir);
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (frame_file_step(entry.path()) > step) std::filesystem::remove(entry.path());
}

}  // namespace simrun
