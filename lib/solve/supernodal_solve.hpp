#pragma once
/// Forward and backward substitution with a CHOLMOD supernodal LL' factor, parallel over
/// independent subtrees of the supernodal elimination tree.
///
/// CHOLMOD's own solve walks the supernodes one after another, so a second thread does not help
/// it, although the solve is bound by memory bandwidth (it reads L twice), which two cores here
/// nearly double. Here the elimination tree is cut into disjoint subtrees of similar work, one
/// thread works through each (updates to rows outside its subtrees go to a buffer of its own),
/// and the supernodes above the cut run on one thread: forward L y = P b bottom-up, backward
/// L' z = y top-down, x = P' z. Dense blocks use Eigen (no BLAS threads inside the threads).
#include <vector>

struct cholmod_factor_struct;

namespace simrun {

class SupernodalSolve {
 public:
  /// Plans the solve for the supernodal structure of `factor` (LL', int indices) on `threads`
  /// threads. The plan stays valid while the factor keeps its symbolic analysis.
  SupernodalSolve(const cholmod_factor_struct& factor, int threads);
  /// x = A^-1 b for the factorized A = P' L L' P, with the factor's current numeric values.
  /// b and x have the factor's dimension and may alias.
  void solve(const cholmod_factor_struct& factor, const double* b, double* x) const;
  int threads() const { return m_threads; }
  /// Fraction of the factor's entries in the part that runs on one thread (for reports).
  double serial_fraction() const { return m_serial_fraction; }

 private:
  /// Solves supernode k's columns and subtracts their contribution from the rows below; with
  /// `outside`, contributions to rows above the cut are added there instead (to be subtracted).
  void forward_supernode(const cholmod_factor_struct& L, int k, double* y, double* outside) const;
  void backward_supernode(const cholmod_factor_struct& L, int k, double* y) const;

  int m_n = 0;
  int m_threads = 1;
  std::vector<std::vector<int>> m_parallel;  ///< per thread: its supernodes, ascending
  std::vector<int> m_serial;                 ///< supernodes above the cut, ascending
  std::vector<int> m_owner_of_row;           ///< per row: the thread owning its supernode, or -1
  std::vector<int> m_buffer_slot;            ///< per row above the cut: its index in a buffer
  double m_serial_fraction = 1.0;
  mutable std::vector<std::vector<double>> m_buffers;  ///< per thread: updates to serial rows
  mutable std::vector<double> m_y;
};

}  // namespace simrun
