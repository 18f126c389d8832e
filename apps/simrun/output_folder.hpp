#pragma once
/// The output folder of a run, made safe: created (an unwritable path is bad input, exit 1),
/// locked against a second simrun writing into it, and refused when it already holds something
/// that is not simrun's previous output of the same scene (unless --force). What a run replaces
/// is removed before it starts, so no stale frame or surface survives.
#include <filesystem>
#include <string>
#include <vector>

namespace simrun::app {

/// An exclusive advisory lock (flock) on OUT/.simrun.lock, held while the object lives; the
/// kernel drops it when the process ends, however it ends.
class OutputFolderLock {
 public:
  OutputFolderLock() = default;
  explicit OutputFolderLock(int fd) : m_fd(fd) {}
  ~OutputFolderLock();
  OutputFolderLock(OutputFolderLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
  OutputFolderLock& operator=(OutputFolderLock&& other) noexcept;
  OutputFolderLock(const OutputFolderLock&) = delete;
  OutputFolderLock& operator=(const OutputFolderLock&) = delete;

 private:
  int m_fd = -1;
};

/// The entries simrun writes into an output folder (files and folders).
const std::vector<std::string>& simrun_output_names();

/// The read-only part of prepare_output_folder, for a quick refusal before a long set-up.
void check_output_folder(const std::filesystem::path& dir, const std::string& scene_name,
                         const std::string& scene_file, bool force);

/// Creates and locks `dir` for a run of the scene named `scene_name`, read from `scene_file` (an
/// absolute path; "" when unknown). A folder that is empty, or holds a run.json of the same scene
/// (the same name, and the same file when both runs recorded it), or any folder with `force`, is
/// accepted and simrun's own entries in it are removed (other files are kept and a note says
/// so). Without a simrun run.json there, a folder named like one of simrun's is the user's: it
/// is refused even with `force`, never deleted. Anything else throws InputError naming the
/// folder and what it holds. `notes` receives what was done.
OutputFolderLock prepare_output_folder(const std::filesystem::path& dir,
                                       const std::string& scene_name, const std::string& scene_file,
                                       bool force, std::vector<std::string>& notes);

/// Creates `dir` (with its parents) and locks it, for commands that write only files of their own
/// there (`modes`, `coarsen`): InputError naming the folder when it cannot be created or another
/// simrun is writing there.
OutputFolderLock create_output_folder(const std::filesystem::path& dir);

/// Locks an existing output folder (for `simrun resume`: nothing is removed).
OutputFolderLock lock_output_folder(const std::filesystem::path& dir);

}  // namespace simrun::app
