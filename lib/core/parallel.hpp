#pragma once
/// Thread-count control and the colored element loop used by assembly.
#include <vector>

namespace simrun {

/// Sets the number of threads used by assembly loops; n <= 0 keeps the OpenMP default.
void set_thread_count(int n);
/// Number of threads assembly loops will use.
int thread_count();

/// Below this many elements a loop runs on one thread: a parallel region per color costs a few
/// microseconds of synchronization, more than small meshes gain (and far more on a loaded machine).
inline constexpr int kParallelElementThreshold = 20000;

/// Calls f(e) once for every element. `colors` groups vertex-disjoint elements; on several
/// threads each color's elements run concurrently (so f may scatter to its vertices without
/// races), colors one after another inside one parallel region. Small meshes run serially in
/// element order.
template <class ElementFunction>
void for_each_element_colored(const std::vector<std::vector<int>>& colors, int num_elements,
                              ElementFunction&& f) {
  if (num_elements < kParallelElementThreshold || thread_count() == 1) {
    for (int e = 0; e < num_elements; ++e) f(e);
    return;
  }
#pragma omp parallel
  for (const auto& color : colors) {
    const int n = static_cast<int>(color.size());
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) f(color[i]);
  }
}

}  // namespace simrun
