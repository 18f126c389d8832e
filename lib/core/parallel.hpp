#pragma once
/// Thread-count control and the colored element loop used by assembly.
#include <algorithm>
#include <vector>

namespace simrun {

/// Sets the number of threads used by assembly loops; n <= 0 keeps the OpenMP default.
void set_thread_count(int n);
/// Number of threads assembly loops will use.
int thread_count();

/// Below this many elements a loop runs on one thread: synchronizing the colors costs more than
/// small meshes gain (and far more on a loaded machine).
inline constexpr int kParallelElementThreshold = 20000;

/// Calls f(e) once for every element e in [0, num_elements). `colors` lists, per color, blocks of
/// consecutive elements (block b = [b * block_size, (b + 1) * block_size)) that share no vertex,
/// so f may scatter to its element's vertices without races when the blocks of one color run
/// concurrently. Colors run one after another inside one parallel region; small meshes run
/// serially in element order.
template <class ElementFunction>
void for_each_element_colored(const std::vector<std::vector<int>>& colors, int block_size,
                              int num_elements, ElementFunction&& f) {
  if (num_elements < kParallelElementThreshold || thread_count() == 1) {
    for (int e = 0; e < num_elements; ++e) f(e);
    return;
  }
#pragma omp parallel
  for (const auto& color : colors) {
    const int n = static_cast<int>(color.size());
#pragma omp for schedule(dynamic, 4)
    for (int i = 0; i < n; ++i) {
      const int begin = color[i] * block_size;
      const int end = std::min(num_elements, begin + block_size);
      for (int e = begin; e < end; ++e) f(e);
    }
  }
}

}  // namespace simrun
