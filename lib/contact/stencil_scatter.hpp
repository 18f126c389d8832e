#pragma once
/// Adds a contact pair's 12x12 Hessian block (four vertices, -1 unused) into a system pattern's
/// value array: entries whose row or column DOF is constrained, or that the pattern does not
/// hold (a pair that became active after the last pattern build), are left out.
#include "core/types.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun {

template <class Block>
void scatter_stencil_block(const SpMat& pattern, const DofMap& dofs, const Stencil& vertices,
                           const Block& block, double* values) {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      if (vertices[a] < 0 || vertices[b] < 0) continue;
      for (int i = 0; i < 3; ++i) {
        const int row = dofs.free_index(3 * vertices[a] + i);
        if (row < 0) continue;
        for (int k = 0; k < 3; ++k) {
          const int col = dofs.free_index(3 * vertices[b] + k);
          if (col < 0) continue;
          const int slot = find_slot(pattern, row, col);
          if (slot >= 0) values[slot] += block(3 * a + i, 3 * b + k);
        }
      }
    }
}

}  // namespace simrun
