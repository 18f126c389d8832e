#pragma once
/// SIGINT, SIGTERM and SIGHUP (a closed terminal or SSH session; left alone when simrun starts
/// with it ignored, as under nohup) during a run: the first one asks the step loop to stop after
/// the step in progress (the run then writes its last good frame and run.json "interrupted"); a
/// second one ends the process at once with the default action, as a user pressing Ctrl-C twice
/// expects.
///
/// The signals are blocked in every thread of a run and taken by one watcher thread (sigwait),
/// never by an asynchronous handler. METIS (through CHOLMOD's orderings) installs handlers of
/// its own for SIGTERM and SIGABRT while it orders a matrix and restores ours afterwards: a
/// SIGTERM delivered in that window went to METIS and was lost (the run went on, and a Slurm
/// job at its time limit was killed without a checkpoint). A blocked signal stays pending until
/// the watcher takes it, whatever handler is installed. The mask must be in place before the
/// process starts other threads (OpenBLAS starts its own when it loads, before main), so a run
/// blocks the signals before the thread set-up's restart of the process (thread_environment.hpp),
/// which keeps the mask, and restarts for that alone when the signals were not blocked at start.
///
/// Until the run has an output folder to finish (graceful_stop_from_now()), a signal ends the
/// process at once (exit 128 + signal) and nothing is written, as before the watcher existed: a
/// Ctrl-C during a long set-up stops it, and `--force` does not clear the folder of a run that
/// was stopped before it started.
namespace simrun::app {

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and the threads it starts from now on,
/// and a process it execs). Records whether they were blocked already when first called.
void block_interrupt_signals();
/// Whether those signals were blocked when block_interrupt_signals() was first called (a
/// process restarted by simrun inherits them blocked).
bool interrupt_signals_blocked_at_start();
/// Starts the watcher thread (idempotent; blocks the signals first). Threads that may still see
/// the signals unblocked (none after the restart) get a handler that does what the watcher does.
void install_interrupt_handlers();
/// From now on the first signal asks the step loop to stop (interrupt_signal()) instead of
/// ending the process.
void graceful_stop_from_now();
/// 1 while the watcher thread runs (thread counts in run.json leave it out), else 0.
int interrupt_watcher_threads();
/// The signal that asked to stop (SIGINT, SIGTERM, SIGHUP), or 0.
int interrupt_signal();
/// "SIGINT", "SIGTERM", "SIGHUP" or "signal".
const char* signal_name(int signal);

}  // namespace simrun::app
