#include "interrupt.hpp"

#include <csignal>

namespace simrun::app {

namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_run_stop_signal(int signal) {
  g_signal = signal;
  // The next one takes the default action (terminate).
  std::signal(signal, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_run_stop_signal);
  std::signal(SIGTERM, on_run_stop_signal);
}

int interrupt_signal() { return g_signal; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal";
  }
}

}  // namespace simrun::app
