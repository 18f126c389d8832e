#include "fem/tet_pattern.hpp"

#include <algorithm>

namespace simrun {

SpMat build_tet_pattern(const MatX4i& tets, const DofMap& dofs, const StencilList& stencils) {
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(static_cast<size_t>(tets.rows()) * 144 + stencils.size() * 144);
  for (const Stencil& stencil : stencils) {
    for (int a : stencil) {
      if (a < 0) continue;
      for (int i = 0; i < 3; ++i) {
        const int r = dofs.free_index(3 * a + i);
        if (r < 0) continue;
        for (int b : stencil) {
          if (b < 0) continue;
          for (int k = 0; k < 3; ++k) {
            const int c = dofs.free_index(3 * b + k);
            if (c >= 0) entries.emplace_back(r, c, 0.0);
          }
        }
      }
    }
  }
  for (int e = 0; e < tets.rows(); ++e) {
    for (int a = 0; a < 4; ++a) {
      for (int i = 0; i < 3; ++i) {
        const int r = dofs.free_index(3 * tets(e, a) + i);
        if (r < 0) continue;
        for (int b = 0; b < 4; ++b) {
          for (int k = 0; k < 3; ++k) {
            const int c = dofs.free_index(3 * tets(e, b) + k);
            if (c >= 0) entries.emplace_back(r, c, 0.0);
          }
        }
      }
    }
  }
  // Make sure every free DOF has its diagonal even if no element touches it.
  for (int i = 0; i < dofs.num_free(); ++i) entries.emplace_back(i, i, 0.0);
  SpMat A(dofs.num_free(), dofs.num_free());
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  std::fill(A.valuePtr(), A.valuePtr() + A.nonZeros(), 0.0);
  return A;
}

int find_slot(const SpMat& A, int row, int col) {
  const int* begin = A.innerIndexPtr() + A.outerIndexPtr()[col];
  const int* end = A.innerIndexPtr() + A.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  return (it != end && *it == row) ? static_cast<int>(it - A.innerIndexPtr()) : -1;
}

std::vector<int> diagonal_slots(const SpMat& A) {
  std::vector<int> slots(A.rows());
  for (int i = 0; i < A.rows(); ++i) slots[i] = find_slot(A, i, i);
  return slots;
}

std::vector<int> edge_slots(const EdgeList& edges, const DofMap& dofs, const SpMat& pattern) {
  std::vector<int> slots(36 * edges.size(), -1);
  for (size_t e = 0; e < edges.size(); ++e) {
    for (int r = 0; r < 6; ++r) {
      const int row = dofs.free_index(3 * edges[e][r / 3] + r % 3);
      if (row < 0) continue;
      for (int c = 0; c < 6; ++c) {
        const int col = dofs.free_index(3 * edges[e][c / 3] + c % 3);
        if (col >= 0) slots[36 * e + 6 * r + c] = find_slot(pattern, row, col);
      }
    }
  }
  return slots;
}

TetSlots::TetSlots(const MatX4i& tets, const DofMap& dofs, const SpMat& pattern)
    : m_slots(144 * static_cast<size_t>(tets.rows()), -1) {
  for (int e = 0; e < tets.rows(); ++e) {
    int* out = m_slots.data() + 144 * static_cast<size_t>(e);
    for (int r = 0; r < 12; ++r) {
      const int row = dofs.free_index(3 * tets(e, r / 3) + r % 3);
      if (row < 0) continue;
      for (int c = 0; c < 12; ++c) {
        const int col = dofs.free_index(3 * tets(e, c / 3) + c % 3);
        if (col >= 0) out[12 * r + c] = find_slot(pattern, row, col);
      }
    }
  }
}

}  // namespace simrun
