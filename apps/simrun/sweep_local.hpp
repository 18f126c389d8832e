#pragma once
/// Running a sweep's points on this machine, N child processes at a time.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace simrun::app {

struct LocalJob {
  int index = 0;                  ///< the point's index
  std::vector<std::string> argv;  ///< argv[0] is the simrun binary (a path)
  std::filesystem::path log;      ///< stdout and stderr of the run
};

struct LocalExit {
  int index = 0;
  int exit_code = 0;     ///< 128 + signal when the run was killed
  double seconds = 0.0;  ///< wall time from start to exit, measured by the sweep
  /// Killed by SIGKILL while the kernel's out-of-memory killer killed a process (its count in
  /// /proc/vmstat rose between the start and the end of the run): most likely this one.
  bool out_of_memory = false;
};

/// Runs `jobs` in order, at most `parallel` at once, calling `on_exit` as each one ends (in the
/// order they end). SIGINT or SIGTERM sent to the sweep (Ctrl-C) stops it cleanly: no new job
/// starts, each running child gets SIGINT, and those still alive after `grace_seconds` get
/// SIGKILL; every child is reaped. Returns false when stopped that way, true otherwise. The
/// previous handlers of SIGINT and SIGTERM are restored before returning.
bool run_jobs_locally(const std::vector<LocalJob>& jobs, int parallel,
                      const std::function<void(const LocalExit&)>& on_exit,
                      double grace_seconds = 10.0);

}  // namespace simrun::app
