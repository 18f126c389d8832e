#pragma once
/// Sparsity pattern of the free-DOF system matrices (M, K, D and M + h D + h^2 K share it) and
/// the positions of every element's 12x12 block in its value array, so per-step assembly writes
/// straight into the CSC values with no triplet sort.
#include <array>
#include <vector>

#include "core/types.hpp"
#include "fem/dof_map.hpp"

namespace simrun {

/// Vertex pairs (springs of a mass-spring graph), global vertex numbering.
using EdgeList = std::vector<std::array<int, 2>>;

/// Up to four vertices whose DOFs a Hessian couples (a spring's two particles, the four vertices
/// of a contact pair); unused entries are -1.
using Stencil = std::array<int, 4>;
using StencilList = std::vector<Stencil>;

/// Symmetric, fully stored (both triangles) pattern over free DOFs coupling all DOFs of each tet
/// and of each stencil (the union of all); values are zero. Compressed. Built from the vertex
/// adjacency (no list of entries: 7.5M triplets, 119 MB, for a 50k-tet mesh).
SpMat build_tet_pattern(const MatX4i& tets, const DofMap& dofs, const StencilList& stencils = {});

/// For each edge, 36 positions (row-major over local DOFs 3a+i, a = 0, 1) into the pattern's
/// value array, or -1 where the row or column DOF is constrained.
std::vector<int> edge_slots(const EdgeList& edges, const DofMap& dofs, const SpMat& pattern);

/// Where each element's 12x12 block lives in the value array of a pattern from
/// build_tet_pattern. Constraints remove whole vertices and every column of a free vertex holds
/// the same rows, so per element four column starts (the free DOF of each vertex, or -1) and 16
/// row offsets (where vertex a's first row sits in vertex b's columns, or -1) locate all 144
/// entries: entry (3a+i, 3b+k) is at outer[col_b + k] + offset_ab + i. 80 bytes per element
/// instead of 576 for a table of 144 positions.
class TetSlots {
 public:
  TetSlots() = default;
  TetSlots(const MatX4i& tets, const DofMap& dofs, const SpMat& pattern);

  /// values[slot(3a+i, 3b+k)] += block(3a+i, 3b+k) over the entries of element e with free row
  /// and column DOFs.
  template <class Block>
  void add(int e, const Block& block, double* values) const {
    const int* cols = m_columns.data() + 4 * static_cast<size_t>(e);
    const int* offsets = m_offsets.data() + 16 * static_cast<size_t>(e);
    for (int b = 0; b < 4; ++b) {
      if (cols[b] < 0) continue;
      for (int k = 0; k < 3; ++k) {
        double* column = values + m_outer[cols[b] + k];
        for (int a = 0; a < 4; ++a) {
          const int offset = offsets[4 * b + a];
          if (offset < 0) continue;
          for (int i = 0; i < 3; ++i) column[offset + i] += block(3 * a + i, 3 * b + k);
        }
      }
    }
  }

 private:
  std::vector<int> m_outer;    ///< the pattern's column starts
  std::vector<int> m_columns;  ///< per element, per vertex: first free DOF, or -1
  std::vector<int> m_offsets;  ///< per element, per (b, a): row offset in b's columns, or -1
};

/// Position of entry (row, col) in A's value array; -1 if not in the pattern.
int find_slot(const SpMat& A, int row, int col);

/// Positions of the diagonal entries (row i at index i).
std::vector<int> diagonal_slots(const SpMat& A);

}  // namespace simrun
