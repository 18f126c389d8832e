#pragma once
/// Thread-count control for OpenMP assembly loops (a CLI/scene setting, recorded in run.json).

namespace simrun {

/// Sets the number of threads used by assembly loops; n <= 0 keeps the OpenMP default.
void set_thread_count(int n);
/// Number of threads assembly loops will use.
int thread_count();

}  // namespace simrun
