#include "output_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace simrun::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".simrun.lock";

/// What DIR/run.json says of the run that wrote the folder: its scene's name and file (the file
/// is "" in runs from before simrun recorded it). An empty name: no run.json, or not simrun's.
struct PreviousRun {
  std::string name;
  std::string scene_file;
};

PreviousRun previous_run(const fs::path& dir) {
  std::ifstream in(dir / "run.json");
  if (!in) return {};
  const nlohmann::json record = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) return {};
  const auto scene = record.find("scene");
  if (scene == record.end() || !scene->is_object()) return {};
  const auto name = scene->find("name");
  if (name == scene->end() || !name->is_string()) return {};
  const auto file = record.find("scene_file");
  return {name->get<std::string>(),
          file != record.end() && file->is_string() ? file->get<std::string>() : std::string()};
}

std::string quoted_list(const std::vector<std::string>& names, std::size_t limit = 4) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > limit) text += ", ... (" + std::to_string(names.size()) + " in all)";
  return text;
}

}  // namespace

OutputFolderLock::~OutputFolderLock() {
  if (m_fd >= 0) ::close(m_fd);
}

OutputFolderLock& OutputFolderLock::operator=(OutputFolderLock&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = other.m_fd;
    other.m_fd = -1;
  }
  return *this;
}

const std::vector<std::string>& simrun_output_names() {
  static const std::vector<std::string> names = {
      "run.json",  "simrun.log",      "energy.csv", "stats.csv", "error.csv",    "ratios.csv",
      "modes.csv", "eigenvalues.csv", "frames.pvd", "frames",    "surface",      "embedded",
      "reference", "modes",           "checkpoint", "obstacles", "obstacles.pvd"};
  return names;
}

namespace {

/// Why `dir` may not take a run of the scene `scene_name` read from `scene_file`, or "" when it
/// may (see the header). `ours` and `theirs` receive simrun's entries and the others; `same_scene`
/// whether run.json holds a run of the same scene (same name and, when recorded, the same file).
std::string refusal(const fs::path& dir, const std::string& scene_name,
                    const std::string& scene_file, bool force, std::vector<std::string>& ours,
                    std::vector<std::string>& theirs, PreviousRun& previous, bool& same_scene) {
  std::error_code ec;
  const auto& known = simrun_output_names();
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == kLockName) continue;
    (std::find(known.begin(), known.end(), name) != known.end() ? ours : theirs).push_back(name);
  }
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  if (ours.empty() && theirs.empty()) return {};
  previous = previous_run(dir);
  same_scene =
      !previous.name.empty() && previous.name == scene_name &&
      (previous.scene_file.empty() || scene_file.empty() || previous.scene_file == scene_file);
  // Without a run.json of simrun's, a folder named like one of simrun's (frames, reference, ...)
  // may be the user's own: even --force does not delete it, nor does simrun write into it.
  if (previous.name.empty())
    for (const auto& name : ours)
      if (fs::is_directory(dir / name, ec))
        return "output folder " + dir.string() + ": it holds a folder '" + name +
               "' that simrun would write into, and no simrun run.json says simrun made it; move "
               "it away or choose another folder with -o";
  if (force || same_scene) return {};
  std::string found;
  if (previous.name.empty())
    found = "holds " + quoted_list(theirs.empty() ? ours : theirs) + " and no simrun run.json";
  else if (previous.name != scene_name)
    found = "holds the output of scene '" + previous.name + "', not '" + scene_name + "'";
  else
    found = "holds the output of another scene named '" + scene_name + "', from " +
            previous.scene_file + ", not " + scene_file;
  return "output folder " + dir.string() + ": not empty: it " + found +
         "; choose another folder with -o, or pass --force to replace simrun's outputs there";
}

}  // namespace

void check_output_folder(const fs::path& dir, const std::string& scene_name,
                         const std::string& scene_file, bool force) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<std::string> ours, theirs;
  PreviousRun previous;
  bool same_scene = false;
  const std::string why =
      refusal(dir, scene_name, scene_file, force, ours, theirs, previous, same_scene);
  if (!why.empty()) throw InputError(why);
}

OutputFolderLock lock_output_folder(const fs::path& dir) {
  const fs::path lock_path = dir / kLockName;
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError("output folder " + dir.string() + ": not writable (" + std::strerror(errno) +
                     "); choose another with -o");
  OutputFolderLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char pid[32] = {};
    const ssize_t n = ::pread(fd, pid, sizeof pid - 1, 0);
    const std::string who = n > 0 ? " (pid " + std::string(pid, static_cast<size_t>(n)) + ")" : "";
    throw InputError("output folder " + dir.string() + ": another simrun is writing there" + who +
                     "; wait for it or choose another folder with -o");
  }
  const std::string own_pid = std::to_string(::getpid());
  if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, own_pid.data(), own_pid.size(), 0) < 0) {
    // The pid is only for the message above; a lock file we cannot write to is still a lock.
  }
  return lock;
}

OutputFolderLock create_output_folder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw InputError("output folder " + dir.string() + ": cannot create it (" +
                     (ec ? ec.message() : std::string("a file of that name exists")) +
                     "); choose another with -o");
  return lock_output_folder(dir);
}

OutputFolderLock prepare_output_folder(const fs::path& dir, const std::string& scene_name,
                                       const std::string& scene_file, bool force,
                                       std::vector<std::string>& notes) {
  OutputFolderLock lock = create_output_folder(dir);
  std::error_code ec;
  std::vector<std::string> ours, theirs;
  PreviousRun previous;
  bool same_scene = false;
  const std::string why =
      refusal(dir, scene_name, scene_file, force, ours, theirs, previous, same_scene);
  if (!why.empty()) throw InputError(why);
  for (const auto& name : ours) {
    fs::remove_all(dir / name, ec);
    if (ec)
      throw InputError("output folder " + dir.string() + ": cannot remove the previous " + name +
                       " (" + ec.message() + ")");
  }
  if (!ours.empty())
    notes.push_back(
        "output: replaced the previous " +
        (same_scene ? "run of '" + previous.name + "'" : std::string("outputs (--force)")) +
        " in " + dir.string());
  if (!theirs.empty())
    notes.push_back("output: kept files that simrun did not write in " + dir.string() + ": " +
                    quoted_list(theirs));
  return lock;
}

}  // namespace simrun::app
