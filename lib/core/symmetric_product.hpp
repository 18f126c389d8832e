#pragma once
/// Products with symmetric sparse matrices stored in full (both triangles, column-major CSC).
///
/// Viewing the CSC arrays as CSR gives the transpose, which is the matrix itself: Eigen runs a
/// row-major sparse times dense product over rows, with OpenMP across rows when several threads
/// are allowed (a column-major product is serial and scatters). Measured on the 49k-tet bar's K
/// (1.2M nonzeros): 0.84 ms column-major, 0.69 ms row-major on 1 thread, 0.45 ms on 2.
#include "core/types.hpp"

namespace simrun {

/// y = A x for symmetric A (only valid when A equals its transpose). y must not alias x.
void symmetric_multiply(const SpMat& A, const VecX& x, VecX& y);

/// Y = A X for symmetric A and a block of columns X, in one pass over A's entries (each entry
/// updates a row of Y with a row of X; ~k times less memory traffic than k products).
void symmetric_multiply_block(const SpMat& A, const MatX& X, MatX& Y);

/// A symmetric matrix kept for repeated products y = A x in the faster of two layouts: on one
/// thread its lower triangle (Eigen's selfadjoint product reads half the entries: 0.49 ms
/// instead of 0.69 ms on the bar above), on several threads the full matrix viewed row by row
/// (OpenMP over rows: 0.45 ms on 2 threads).
class SymmetricOperator {
 public:
  /// Keeps a copy of A (fully stored, symmetric) in the layout that suits `threads`.
  void assign(const SpMat& A, int threads);
  void multiply(const VecX& x, VecX& y) const;
  bool empty() const { return m_matrix.rows() == 0; }

 private:
  SpMat m_matrix;  ///< the lower triangle (one thread) or all of A
  bool m_lower = false;
};

/// A x for symmetric A.
inline VecX symmetric_product(const SpMat& A, const VecX& x) {
  VecX y;
  symmetric_multiply(A, x, y);
  return y;
}

/// A X for symmetric A and a block X.
inline MatX symmetric_product_block(const SpMat& A, const MatX& X) {
  MatX Y;
  symmetric_multiply_block(A, X, Y);
  return Y;
}

}  // namespace simrun
