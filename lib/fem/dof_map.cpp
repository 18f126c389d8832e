#include "fem/dof_map.hpp"

namespace simrun {

DofMap::DofMap(int num_vertices, const std::vector<int>& fixed_vertices)
    : m_full_to_free(3 * num_vertices, 0) {
  for (int v : fixed_vertices) {
    for (int k = 0; k < 3; ++k) m_full_to_free[3 * v + k] = -1;
  }
  for (int i = 0; i < 3 * num_vertices; ++i) {
    if (m_full_to_free[i] == 0) {
      m_full_to_free[i] = static_cast<int>(m_free_to_full.size());
      m_free_to_full.push_back(i);
    }
  }
}

VecX DofMap::restrict_vector(const VecX& full) const {
  VecX free(num_free());
  for (int i = 0; i < num_free(); ++i) free[i] = full[m_free_to_full[i]];
  return free;
}

void DofMap::scatter(const VecX& free, VecX& full) const {
  for (int i = 0; i < num_free(); ++i) full[m_free_to_full[i]] = free[i];
}

}  // namespace simrun
