#include "core/symmetric_product.hpp"

namespace simrun {

void symmetric_multiply(const SpMat& A, const VecX& x, VecX& y) {
  using RowMajorView = Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, int>>;
  if (!A.isCompressed()) {
    y.noalias() = A * x;
    return;
  }
  const RowMajorView rows(A.rows(), A.cols(), A.nonZeros(), A.outerIndexPtr(), A.innerIndexPtr(),
                          A.valuePtr());
  // Eigen's thread count follows omp_get_max_threads() (simrun never sets it otherwise).
  y.noalias() = rows * x;
}

void SymmetricOperator::assign(const SpMat& A, int threads) {
  m_lower = threads <= 1;
  if (m_lower) {
    m_matrix = A.triangularView<Eigen::Lower>();
  } else {
    m_matrix = A;
  }
  m_matrix.makeCompressed();
}

void SymmetricOperator::multiply(const VecX& x, VecX& y) const {
  if (m_lower) {
    y.noalias() = m_matrix.selfadjointView<Eigen::Lower>() * x;
  } else {
    symmetric_multiply(m_matrix, x, y);
  }
}

}  // namespace simrun
