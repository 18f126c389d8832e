#pragma once
/// Child processes for `simrun sweep`: shell quoting for stored command lines, running a tool and
/// capturing its output (sbatch, squeue), and starting a run with its output sent to a log file.
#include <sys/types.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

namespace simrun::app {

/// `text` quoted for a POSIX shell when it needs it ('a b' -> "'a b'", "it's" -> 'it'\''s').
std::string shell_quote(const std::string& text);

/// The arguments quoted and joined by spaces: a line that a shell runs as `argv`.
std::string shell_command(const std::vector<std::string>& argv);

struct CapturedRun {
  int code = -1;  ///< exit status; 128 + signal when killed; 127 when the program was not found
  std::string out;
  std::string err;
};

/// Runs `argv` (argv[0] looked up on PATH) in `cwd` (this process's when empty), waits for it
/// and returns its exit code and output.
CapturedRun capture(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {});

/// Starts `argv[0]` (a path) with stdin from /dev/null and stdout and stderr written to `log`
/// (created or truncated), in a process group of its own (a Ctrl-C at the terminal reaches only
/// the sweep, which then stops its children itself) and with SIGTERM sent to it should the sweep
/// process die. Returns the child's pid; throws std::runtime_error when fork fails or the log
/// cannot be created.
pid_t spawn_logged(const std::vector<std::string>& argv, const std::filesystem::path& log);

/// While an instance is alive, SIGINT and SIGTERM (Ctrl-C, kill) do not end the sweep: they are
/// recorded, and the sweep stops its work in an orderly way when it sees received() != 0. The
/// previous handlers are restored at destruction.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  /// The last signal received (0: none).
  int received() const;

 private:
  struct sigaction m_previous_interrupt {};
  struct sigaction m_previous_terminate {};
};

/// Sleeps `seconds`, returning early when a signal arrives.
void sleep_seconds(double seconds);

/// The exit code of a wait status: the status for a normal exit, 128 + signal when killed.
int exit_code_of(int wait_status);

/// How many processes the kernel's out-of-memory killer has killed since boot (/proc/vmstat
/// oom_kill; it counts cgroup-limit kills too); -1 when the kernel does not say.
long long oom_kill_count();

}  // namespace simrun::app
