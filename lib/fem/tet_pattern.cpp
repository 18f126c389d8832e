#include "fem/tet_pattern.hpp"

#include <algorithm>

namespace simrun {

SpMat build_tet_pattern(const MatX4i& tets, const DofMap& dofs, const StencilList& stencils) {
  const int n_vertices = dofs.num_full() / 3;
  // Vertex adjacency (each vertex is its own neighbour, for the diagonal blocks).
  std::vector<std::vector<int>> neighbours(n_vertices);
  for (int v = 0; v < n_vertices; ++v) neighbours[v].push_back(v);
  auto couple = [&](const int* vertices, int count) {
    for (int a = 0; a < count; ++a) {
      if (vertices[a] < 0) continue;
      for (int b = 0; b < count; ++b)
        if (vertices[b] >= 0 && b != a) neighbours[vertices[b]].push_back(vertices[a]);
    }
  };
  for (int e = 0; e < tets.rows(); ++e) {
    const int v[4] = {tets(e, 0), tets(e, 1), tets(e, 2), tets(e, 3)};
    couple(v, 4);
  }
  for (const Stencil& stencil : stencils) couple(stencil.data(), 4);
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  // Columns of each free vertex: the free DOFs of its free neighbours, ascending (free DOFs are
  // numbered in full-DOF order, so sorted vertices give sorted rows).
  const int n = dofs.num_free();
  SpMat A(n, n);
  std::vector<int> outer(n + 1, 0);
  for (int v = 0; v < n_vertices; ++v) {
    const int column = dofs.free_index(3 * v);
    if (column < 0) continue;
    int rows = 0;
    for (int u : neighbours[v])
      if (dofs.free_index(3 * u) >= 0) rows += 3;
    for (int k = 0; k < 3; ++k) outer[column + k + 1] = rows;
  }
  for (int c = 0; c < n; ++c) outer[c + 1] += outer[c];
  A.resizeNonZeros(outer[n]);
  std::copy(outer.begin(), outer.end(), A.outerIndexPtr());
  int* inner = A.innerIndexPtr();
  for (int v = 0; v < n_vertices; ++v) {
    const int column = dofs.free_index(3 * v);
    if (column < 0) continue;
    for (int k = 0; k < 3; ++k) {
      int at = outer[column + k];
      for (int u : neighbours[v]) {
        const int row = dofs.free_index(3 * u);
        if (row < 0) continue;
        for (int i = 0; i < 3; ++i) inner[at++] = row + i;
      }
    }
  }
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
    : m_outer(pattern.outerIndexPtr(), pattern.outerIndexPtr() + pattern.outerSize() + 1),
      m_columns(4 * static_cast<size_t>(tets.rows()), -1),
      m_offsets(16 * static_cast<size_t>(tets.rows()), -1) {
  for (int e = 0; e < tets.rows(); ++e) {
    int* cols = m_columns.data() + 4 * static_cast<size_t>(e);
    int* offsets = m_offsets.data() + 16 * static_cast<size_t>(e);
    for (int a = 0; a < 4; ++a) cols[a] = dofs.free_index(3 * tets(e, a));
    for (int b = 0; b < 4; ++b) {
      if (cols[b] < 0) continue;
      for (int a = 0; a < 4; ++a) {
        if (cols[a] < 0) continue;
        const int slot = find_slot(pattern, cols[a], cols[b]);
        offsets[4 * b + a] = slot < 0 ? -1 : slot - m_outer[cols[b]];
      }
    }
  }
}

}  // namespace simrun
