#pragma once
/// Dirichlet constraints by DOF elimination: the map between the full 3n DOFs and the free ones.
#include <vector>

#include "core/types.hpp"

namespace simrun {

class DofMap {
 public:
  DofMap() = default;
  /// All 3 DOFs of each vertex in `fixed_vertices` are constrained.
  DofMap(int num_vertices, const std::vector<int>& fixed_vertices);

  int num_full() const { return static_cast<int>(m_full_to_free.size()); }
  int num_free() const { return static_cast<int>(m_free_to_full.size()); }
  /// Free index of a full DOF, or -1 when it is constrained.
  int free_index(int full_dof) const { return m_full_to_free[full_dof]; }
  const std::vector<int>& free_to_full() const { return m_free_to_full; }

  /// free = P full.
  VecX restrict_vector(const VecX& full) const;
  /// full[free DOFs] = free; constrained entries of `full` are left as they are.
  void scatter(const VecX& free, VecX& full) const;

 private:
  std::vector<int> m_full_to_free;
  std::vector<int> m_free_to_full;
};

}  // namespace simrun
