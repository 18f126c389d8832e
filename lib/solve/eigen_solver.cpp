/// Smallest generalized eigenpairs by Spectra shift-invert on a CHOLMOD factorization.
#include "solve/eigen_solver.hpp"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/timer.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {
namespace {

/// Spectra's OpType for shift-invert mode: y = (K - sigma M)^{-1} x, factorized once per shift
/// with the CHOLMOD solver (LDL' fallback included, so a shift inside the spectrum also works).
class ShiftInvertOp {
 public:
  using Scalar = double;

  ShiftInvertOp(const SpMat& K, const SpMat& M)
      : m_K(K), m_M(M), m_solver(make_cholmod_solver()), m_x(K.rows()), m_y(K.rows()) {}

  Eigen::Index rows() const { return m_K.rows(); }
  Eigen::Index cols() const { return m_K.cols(); }

  /// Called by Spectra's constructor: factorizes K - sigma M (only lower triangles are read).
  void set_shift(double sigma) {
    const SpMat shifted = m_K - sigma * m_M;
    m_status = m_solver->factorize(shifted);
  }

  void perform_op(const double* x_in, double* y_out) const {
    m_x = Eigen::Map<const VecX>(x_in, rows());
    m_solver->solve(m_x, m_y);
    Eigen::Map<VecX>(y_out, rows()) = m_y;
  }

  Status status() const { return m_status; }

 private:
  const SpMat& m_K;
  const SpMat& m_M;
  std::unique_ptr<LinearSolver> m_solver;  // pointer: perform_op is const for Spectra
  mutable VecX m_x, m_y;                   // solve buffers, allocated once
  Status m_status = Status::kNumericalIssue;
};

SpMat full_from_lower(const SpMat& A) { return A.selfadjointView<Eigen::Lower>(); }

/// The shift below the spectrum. K is only positive semidefinite (a free body has six rigid
/// modes with lambda = 0, which roundoff turns into |lambda| ~ eps * lambda_max of either sign),
/// so sigma must be negative and |sigma| well above eps * lambda_max for K - sigma M to be
/// safely positive definite; yet small against the wanted elastic eigenvalues, because the
/// Lanczos convergence rate degrades with the ratio (lambda_k - sigma)/(lambda_{k+1} - sigma).
/// s = max_i K_ii / M_ii is a Rayleigh quotient (e_i), so s <= lambda_max, and for finite
/// elements lambda_max is within a small factor (nonzeros per row) of it. sigma = -1e-8 s
/// keeps a margin of ~1e7 over roundoff eigenvalues and cond(K - sigma M) ~ 1e8, far from the
/// solver's singularity threshold, while staying below 1% of the first elastic eigenvalue
/// whenever lambda_1 / lambda_max > 1e-6 (a stiff 1e2..1e9 spread gives sigma ~ -10 vs 1e2).
/// For wider spreads sigma is still correct, only convergence takes more restarts.
double choose_shift(const SpMat& K, const SpMat& M) {
  const VecX kd = K.diagonal(), md = M.diagonal();
  double s = 0.0;
  for (Eigen::Index i = 0; i < kd.size(); ++i) {
    if (!(md[i] > 0.0)) throw std::invalid_argument("eigenpairs: M has a nonpositive diagonal");
    s = std::max(s, kd[i] / md[i]);
  }
  if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;  // K == 0: every eigenvalue is 0, any scale works
  return -1e-8 * s;
}

/// Rayleigh-Ritz on span(U): makes U exactly M-orthonormal (within clusters such as the rigid
/// modes, Lanczos vectors are only orthogonal to the convergence tolerance), sorts ascending and
/// replaces the values by Rayleigh quotients, whose error is quadratic in the vector error.
Status rayleigh_ritz(const SpMat& K, const SpMat& M, GeneralizedEigenResult& result) {
  MatX& U = result.vectors;
  if (U.cols() == 0) return Status::kSuccess;
  const MatX KU = K.selfadjointView<Eigen::Lower>() * U;
  const MatX MU = M.selfadjointView<Eigen::Lower>() * U;
  MatX Kr = U.transpose() * KU, Mr = U.transpose() * MU;
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  Mr = 0.5 * (Mr + Mr.transpose()).eval();
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> small(Kr, Mr);
  if (small.info() != Eigen::Success) return Status::kNumericalIssue;
  result.values = small.eigenvalues();
  U = (U * small.eigenvectors()).eval();
  return Status::kSuccess;
}

GeneralizedEigenResult dense_eigenpairs(const SpMat& K, const SpMat& M) {
  GeneralizedEigenResult result;
  const MatX Kd = MatX(full_from_lower(K)), Md = MatX(full_from_lower(M));
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> solver(Kd, Md);
  if (solver.info() != Eigen::Success) {
    result.status = Status::kNumericalIssue;
    return result;
  }
  result.values = solver.eigenvalues();
  result.vectors = solver.eigenvectors();
  return result;
}

Status from_spectra(Spectra::CompInfo info) {
  switch (info) {
    case Spectra::CompInfo::Successful:
      return Status::kSuccess;
    case Spectra::CompInfo::NotConverging:
      return Status::kNotConverging;
    default:
      return Status::kNumericalIssue;
  }
}

}  // namespace

GeneralizedEigenResult smallest_generalized_eigenpairs(const SpMat& K, const SpMat& M, int count,
                                                       const GeneralizedEigenSettings& settings) {
  const Timer timer;
  const Eigen::Index n = K.rows();
  if (K.cols() != n || M.rows() != n || M.cols() != n)
    throw std::invalid_argument("eigenpairs: K and M must be square and of the same size");
  if (count < 1 || count > n)
    throw std::invalid_argument("eigenpairs: count must be in [1, dimension]");

  // All eigenpairs: Spectra needs count < ncv <= n, so a full spectrum (only sensible for tiny
  // problems) goes to a dense solver.
  if (count == n) {
    GeneralizedEigenResult result = dense_eigenpairs(K, M);
    result.seconds = timer.seconds();
    return result;
  }

  using OpType = ShiftInvertOp;
  using BOpType = Spectra::SparseSymMatProd<double, Eigen::Lower>;
  const double sigma = choose_shift(K, M);
  OpType op(K, M);
  BOpType bop(M);
  const int default_ncv = std::max(2 * count + 1, 20);
  const int ncv =
      std::clamp(settings.ncv > 0 ? settings.ncv : default_ncv, count + 1, static_cast<int>(n));
  // The constructor calls op.set_shift(sigma), i.e. the one factorization.
  Spectra::SymGEigsShiftSolver<OpType, BOpType, Spectra::GEigsMode::ShiftInvert> eigs(
      op, bop, count, ncv, sigma);

  GeneralizedEigenResult result;
  if (op.status() != Status::kSuccess) {
    result.status = op.status();
    result.seconds = timer.seconds();
    return result;
  }
  eigs.init();
  // Largest |nu| = 1/(lambda - sigma) are the eigenvalues closest to sigma, i.e. the smallest.
  eigs.compute(Spectra::SortRule::LargestMagn, settings.max_iterations, settings.tolerance,
               Spectra::SortRule::SmallestAlge);
  result.status = from_spectra(eigs.info());
  result.iterations = static_cast<int>(eigs.num_iterations());
  result.values = eigs.eigenvalues();
  result.vectors = eigs.eigenvectors();
  const Status refined = rayleigh_ritz(K, M, result);
  if (refined != Status::kSuccess) result.status = refined;
  result.seconds = timer.seconds();
  return result;
}

}  // namespace simrun
