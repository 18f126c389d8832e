#pragma once
/// Whole-file writes that never leave a half-written file behind: the contents go to a hidden
/// temporary file in the same folder, which is then renamed over the target (rename(2) is atomic
/// within one file system, so a reader, or a run that dies mid-write, sees the old file or the
/// new one, never a mix).
#include <filesystem>
#include <string_view>

namespace simrun {

/// Writes `contents` to `path` atomically. The parent folder must exist (writers do not create
/// folders; the app sets up the output folder).
/// Throws InputError naming the path when the temporary file cannot be created (missing or
/// read-only folder: the user's output option is wrong), std::runtime_error naming the path when
/// writing or renaming fails afterwards (disk full, ...). The temporary file is removed on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

/// The temporary file used for `path` by this process: ".NAME.HOST.PID.tmp" beside it.
std::filesystem::path temporary_path_for(const std::filesystem::path& path);

}  // namespace simrun
