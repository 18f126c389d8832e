#pragma once
/// `--threads N` means N for every thread pool in the process: simrun's OpenMP loops, CHOLMOD's
/// own OpenMP regions (Debian's CHOLMOD asks for 4 threads in them whatever OMP_NUM_THREADS
/// says) and OpenBLAS's pthreads (started when the library loads, before main). The last two
/// read their limits from the environment at load time only, so simrun sets OMP_NUM_THREADS,
/// OMP_THREAD_LIMIT and OPENBLAS_NUM_THREADS and re-executes itself once when they differ.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simrun::app {

/// The cores this process may run on (its CPU affinity mask; all online cores otherwise).
int available_cores();

/// True when the environment already limits every pool to `threads`.
bool thread_environment_ready(int threads);

/// Returns at once when the environment already limits every pool to `threads` and `restart` is
/// false; otherwise sets it and replaces the process by the same binary (/proc/self/exe) run
/// with `argv` (argv[0] kept), returning only if exec fails, with a note in `note`. (`restart`:
/// a run whose interrupt signals were not blocked at start, interrupt.hpp.)
void ensure_thread_environment(int threads, const std::vector<std::string>& argv, std::string& note,
                               bool restart = false);

/// What the process uses now: {"requested", "openmp", "openmp_limit", "blas", "alive"} where
/// alive counts the process's threads (/proc/self/status) but simrun's signal watcher
/// (interrupt.hpp), for run.json.
nlohmann::json thread_report(int requested);

}  // namespace simrun::app
