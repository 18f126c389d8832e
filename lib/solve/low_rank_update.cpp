#include "solve/low_rank_update.hpp"

#include <stdexcept>

namespace simrun {

Status LowRankUpdate::setup(InverseOperator& base, const MatX& U, const MatX& C) {
  return setup(base, U, C, U);
}

Status LowRankUpdate::setup(InverseOperator& base, const MatX& U, const MatX& C, const MatX& V) {
  if (U.cols() != C.rows() || C.rows() != C.cols() || V.cols() != C.cols() || V.rows() != U.rows())
    throw std::invalid_argument("LowRankUpdate: U (n x k), C (k x k), V (n x k) do not match");
  MatX Z;
  if (U.cols() == 0)
    Z.resize(U.rows(), 0);
  else
    base.solve(U, Z);
  return setup_solved(base, std::move(Z), C, V);
}

Status LowRankUpdate::setup_solved(InverseOperator& base, MatX Z, const MatX& C, const MatX& V) {
  if (Z.cols() != C.rows() || C.rows() != C.cols() || V.cols() != C.cols() || V.rows() != Z.rows())
    throw std::invalid_argument("LowRankUpdate: Z (n x k), C (k x k), V (n x k) do not match");
  m_base = &base;
  m_Z = std::move(Z);
  if (m_Z.cols() == 0) return Status::kSuccess;
  m_CVt = C * V.transpose();
  const Eigen::Index k = m_Z.cols();
  const MatX capacitance = MatX::Identity(k, k) + m_CVt * m_Z;
  m_capacitance.compute(capacitance);
  // PartialPivLU does not report singularity: check the pivots against the matrix scale.
  const double scale = capacitance.cwiseAbs().maxCoeff();
  const double smallest_pivot = m_capacitance.matrixLU().diagonal().cwiseAbs().minCoeff();
  if (!m_Z.allFinite() || !(smallest_pivot > 1e-13 * scale)) return Status::kNumericalIssue;
  return Status::kSuccess;
}

void LowRankUpdate::solve(const VecX& b, VecX& x) {
  if (!m_base) throw std::logic_error("LowRankUpdate::solve before setup");
  m_base->solve(b, m_work);  // y = A^-1 b
  if (m_Z.cols() > 0) {
    const VecX w = m_capacitance.solve(m_CVt * m_work);
    m_work.noalias() -= m_Z * w;
  }
  x = m_work;
}

}  // namespace simrun
