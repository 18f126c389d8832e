#include "sweep_local.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <map>

#include "core/timer.hpp"
#include "sweep_process.hpp"

namespace simrun::app {

namespace {

struct Running {
  int index = 0;
  Timer timer;
  long long oom_kills_at_start = -1;
};

}  // namespace

bool run_jobs_locally(const std::vector<LocalJob>& jobs, int parallel,
                      const std::function<void(const LocalExit&)>& on_exit, double grace_seconds) {
  StopSignals signals;
  std::map<pid_t, Running> running;
  std::size_t next = 0;

  // Reaps every child that has ended; returns how many.
  auto reap = [&]() {
    int reaped = 0;
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      const auto it = running.find(pid);
      if (it == running.end()) continue;  // not one of ours
      const int code = exit_code_of(status);
      const long long oom_kills_at_start = it->second.oom_kills_at_start;
      const bool out_of_memory =
          code == 128 + SIGKILL && oom_kills_at_start >= 0 && oom_kill_count() > oom_kills_at_start;
      on_exit({it->second.index, code, it->second.timer.seconds(), out_of_memory});
      running.erase(it);
      ++reaped;
    }
    return reaped;
  };

  while (!signals.received() && (next < jobs.size() || !running.empty())) {
    while (!signals.received() && next < jobs.size() &&
           static_cast<int>(running.size()) < parallel) {
      const LocalJob& job = jobs[next++];
      const pid_t pid = spawn_logged(job.argv, job.log);
      running[pid] = Running{job.index, Timer(), oom_kill_count()};
    }
    // Polling keeps the stop flag and the launches race-free; 20 ms is nothing next to a run.
    if (reap() == 0) sleep_seconds(0.02);
  }
  if (!signals.received()) return true;

  for (const auto& [pid, job] : running) kill(pid, SIGINT);
  Timer grace;
  while (!running.empty() && grace.seconds() < grace_seconds) {
    if (reap() == 0) sleep_seconds(0.02);
  }
  for (const auto& [pid, job] : running) kill(pid, SIGKILL);
  while (!running.empty()) {
    if (reap() == 0) sleep_seconds(0.02);
  }
  return false;
}

}  // namespace simrun::app
