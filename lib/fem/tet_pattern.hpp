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
/// and of each stencil (the union of all); values are zero. Compressed.
SpMat build_tet_pattern(const MatX4i& tets, const DofMap& dofs, const StencilList& stencils = {});

/// For each edge, 36 positions (row-major over local DOFs 3a+i, a = 0, 1) into the pattern's
/// value array, or -1 where the row or column DOF is constrained.
std::vector<int> edge_slots(const EdgeList& edges, const DofMap& dofs, const SpMat& pattern);

/// For each element, 144 positions (row-major over local DOFs 3a+i) into the pattern's value
/// array, or -1 where the row or column DOF is constrained.
class TetSlots {
 public:
  TetSlots() = default;
  TetSlots(const MatX4i& tets, const DofMap& dofs, const SpMat& pattern);
  const int* element(int e) const { return m_slots.data() + 144 * static_cast<size_t>(e); }

 private:
  std::vector<int> m_slots;
};

/// Position of entry (row, col) in A's value array; -1 if not in the pattern.
int find_slot(const SpMat& A, int row, int col);

/// Positions of the diagonal entries (row i at index i).
std::vector<int> diagonal_slots(const SpMat& A);

}  // namespace simrun
