#pragma once
/// SIGINT and SIGTERM during a run: the first one asks the step loop to stop after the step in
/// progress (the run then writes its last good frame and run.json "interrupted"); a second one
/// ends the process at once with the default action, as a user pressing Ctrl-C twice expects.
namespace simrun::app {

/// Installs the handlers (idempotent).
void install_interrupt_handlers();
/// The signal that asked to stop (SIGINT, SIGTERM), or 0.
int interrupt_signal();
/// "SIGINT", "SIGTERM" or "signal N".
const char* signal_name(int signal);

}  // namespace simrun::app
