#include "interrupt.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>

namespace simrun::app {

namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_watching{false};
int g_blocked_at_start = -1;  ///< -1: not asked yet

/// Whether SIGHUP was ignored when simrun started (`nohup simrun run ...`): the user asked the
/// run to survive a closed terminal, so simrun leaves SIGHUP alone. Asked once, before simrun
/// installs anything (ignored dispositions survive exec, so a restarted simrun sees the same).
bool hangup_ignored() {
  static const bool ignored = [] {
    struct sigaction action {};
    return sigaction(SIGHUP, nullptr, &action) == 0 && action.sa_handler == SIG_IGN;
  }();
  return ignored;
}

/// The signals that stop a run: Ctrl-C, a scheduler's SIGTERM and a closed terminal's SIGHUP.
sigset_t interrupt_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  if (!hangup_ignored()) sigaddset(&set, SIGHUP);
  return set;
}

std::atomic<bool> g_graceful{false};

/// The process ends at once: before the run has outputs to finish, or at a second signal.
/// _exit, not a re-raised signal: between restoring the default action and raising it, METIS
/// could install its handler, which would then run in this thread.
[[noreturn]] void end_now(int signal) { _exit(128 + signal); }

void take(int signal) {
  int none = 0;
  if (!g_graceful || !g_signal.compare_exchange_strong(none, signal)) end_now(signal);
}

/// For a thread that still has the signals unblocked (a pool started before the mask was set,
/// when simrun could not restart): the same as the watcher, async-signal-safe.
void on_run_stop_signal(int signal) { take(signal); }

void watch() {
  const sigset_t set = interrupt_set();
  for (;;) {
    int signal = 0;
    if (sigwait(&set, &signal) == 0) take(signal);
  }
}

}  // namespace

void block_interrupt_signals() {
  const sigset_t set = interrupt_set();
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &set, &previous);
  if (g_blocked_at_start < 0)
    g_blocked_at_start = sigismember(&previous, SIGINT) == 1 &&
                         sigismember(&previous, SIGTERM) == 1 &&
                         (hangup_ignored() || sigismember(&previous, SIGHUP) == 1);
}

bool interrupt_signals_blocked_at_start() { return g_blocked_at_start == 1; }

void install_interrupt_handlers() {
  if (g_watching.exchange(true)) return;
  block_interrupt_signals();
  std::signal(SIGINT, on_run_stop_signal);
  std::signal(SIGTERM, on_run_stop_signal);
  if (!hangup_ignored()) std::signal(SIGHUP, on_run_stop_signal);
  std::thread(watch).detach();
}

void graceful_stop_from_now() { g_graceful = true; }

int interrupt_watcher_threads() { return g_watching ? 1 : 0; }

int interrupt_signal() { return g_signal; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal";
  }
}

}  // namespace simrun::app
