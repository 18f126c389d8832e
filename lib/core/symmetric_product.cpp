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

void symmetric_multiply_block(const SpMat& A, const MatX& X, MatX& Y) {
  // Rows of X and Y as contiguous columns of their transposes: column i of A (= row i, A being
  // symmetric) accumulates Y^T(:, i) += a_ji X^T(:, j).
  const MatX Xt = X.transpose();
  MatX Yt = MatX::Zero(X.cols(), A.rows());
  for (Eigen::Index i = 0; i < A.outerSize(); ++i) {
    auto y = Yt.col(i);
    for (SpMat::InnerIterator it(A, i); it; ++it) y.noalias() += it.value() * Xt.col(it.index());
  }
  Y = Yt.transpose();
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
