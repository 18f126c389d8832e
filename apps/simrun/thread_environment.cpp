#include "thread_environment.hpp"

#include <dlfcn.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "interrupt.hpp"

namespace simrun::app {

namespace {

constexpr const char* kLimitVariables[] = {"OMP_NUM_THREADS", "OMP_THREAD_LIMIT",
                                           "OPENBLAS_NUM_THREADS"};

bool environment_says(const char* name, const std::string& value) {
  const char* current = std::getenv(name);
  return current && value == current;
}

/// OpenBLAS's own thread count, when the process's BLAS is OpenBLAS (-1 otherwise).
int blas_threads() {
  using Getter = int (*)();
  auto get = reinterpret_cast<Getter>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return get ? get() : -1;
}

/// The "Threads:" line of /proc/self/status (-1 when unreadable).
int live_threads() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  }
  return -1;
}

}  // namespace

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? static_cast<int>(hardware) : 1;
}

bool thread_environment_ready(int threads) {
  const std::string value = std::to_string(threads);
  bool ready = true;
  for (const char* name : kLimitVariables) ready = ready && environment_says(name, value);
  return ready;
}

void ensure_thread_environment(int threads, const std::vector<std::string>& argv, std::string& note,
                               bool restart) {
  if (thread_environment_ready(threads) && !restart) return;
  const std::string value = std::to_string(threads);
  for (const char* name : kLimitVariables) setenv(name, value.c_str(), 1);
  // Threads idle between parallel regions sleep instead of spinning: the assembly's OpenMP
  // workers would otherwise spin while OpenBLAS's threads factorize, on the same cores.
  setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv("/proc/self/exe", args.data());
  note = std::string("threads: could not restart with the thread limits set (") +
         std::strerror(errno) + "); CHOLMOD and OpenBLAS may use more threads than " + value;
}

nlohmann::json thread_report(int requested) {
  return {{"requested", requested},
          {"openmp", omp_get_max_threads()},
          {"openmp_limit", omp_get_thread_limit()},
          {"blas", blas_threads()},
          {"alive", live_threads() - interrupt_watcher_threads()}};
}

}  // namespace simrun::app
