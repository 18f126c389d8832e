#include "core/parallel.hpp"

#include <omp.h>

namespace simrun {

void set_thread_count(int n) {
  if (n > 0) omp_set_num_threads(n);
}

int thread_count() { return omp_get_max_threads(); }

}  // namespace simrun
