/// Smallest generalized eigenpairs by Spectra shift-invert on a CHOLMOD factorization.
#include "solve/eigen_solver.hpp"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/pattern_algebra.hpp"
#include "core/timer.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {
namespace {

/// Spectra's OpType for shift-invert mode: y = (K - sigma M)^{-1} x = scale A^{-1} x with a
/// solver the caller factorized for A = scale (K - sigma M) (positive definite: the shift is
/// below the spectrum). Spectra's constructor calls set_shift(), which does nothing: the
/// factorization is done beforehand so that its symbolic analysis lives in a long-lived solver
/// (ours, or the integrator's when it lends its factorization of M + tau D + tau^2 K).
class ShiftInvertOp {
 public:
  using Scalar = double;

  ShiftInvertOp(InverseOperator& solver, Eigen::Index n, double scale)
      : m_solver(solver), m_n(n), m_scale(scale), m_x(n), m_y(n) {}

  Eigen::Index rows() const { return m_n; }
  Eigen::Index cols() const { return m_n; }
  void set_shift(double /*sigma*/) {}

  void perform_op(const double* x_in, double* y_out) const {
    m_x = Eigen::Map<const VecX>(x_in, m_n);
    m_solver.solve(m_x, m_y);
    Eigen::Map<VecX>(y_out, m_n) = m_scale * m_y;
    ++m_products;
  }
  int products() const { return m_products; }

 private:
  InverseOperator& m_solver;
  Eigen::Index m_n;
  double m_scale;
  mutable VecX m_x, m_y;  // solve buffers, allocated once
  mutable int m_products = 0;
};

SpMat full_from_lower(const SpMat& A) { return A.selfadjointView<Eigen::Lower>(); }

/// A without its explicitly stored zeros (same values, smaller pattern).
SpMat without_zeros(const SpMat& A) {
  SpMat compact = A;
  compact.prune([](Eigen::Index, Eigen::Index, double value) { return value != 0.0; });
  compact.makeCompressed();
  return compact;
}

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

Status GeneralizedEigenSolver::factorize_below_spectrum(const SpMat& K, const SpMat& M,
                                                        double& sigma, int& probes) {
  const auto positive_definite_at = [&](double shift) {
    assign_combination(m_shifted, {{1.0, &K}, {-shift, &M}});
    return m_solver->factorize_positive_definite(m_shifted) == Status::kSuccess;
  };
  if (positive_definite_at(sigma)) {
    m_last_indefinite_shift = 0.0;
    return Status::kSuccess;
  }
  // Indefinite: lambda_min < sigma. Keep a bracket: K - above M is not positive definite,
  // K - below M is (below < lambda_min <= above). Probe from the last call's shift (K(q) changes
  // little between steps) or 4 sigma, by factors of 4 down (or up, to tighten a warm start),
  // then bisect geometrically to a ratio of 1.2 (1.2 is the first step up from a warm start), so
  // the shift sits within 20% of |lambda_min| under it: Lanczos converges at the rate (lambda_k -
  // sigma) / (lambda_{k+1} - sigma), and a shift far below slows it.
  constexpr int kMaxProbes = 80;  // 4^60 spans any double range; bisection adds < 10
  double above = sigma;
  double below = m_last_indefinite_shift < above ? m_last_indefinite_shift : 4.0 * above;
  bool factorized_at_below = false;
  ++probes;
  if (positive_definite_at(below)) {
    factorized_at_below = true;
    // Tighten upwards: first by the bracket ratio (the last shift was within it), then by 4.
    for (double factor = 1.2; below / above > factor && probes < kMaxProbes; factor = 4.0) {
      ++probes;
      if (!positive_definite_at(below / factor)) {
        above = below / factor;
        factorized_at_below = false;
        break;
      }
      below /= factor;
    }
  } else {
    above = below;
    while (probes < kMaxProbes) {
      below = 4.0 * above;
      ++probes;
      if ((factorized_at_below = positive_definite_at(below))) break;
      above = below;
    }
    if (!factorized_at_below) return Status::kNumericalIssue;
  }
  while (below / above > 1.2 && probes < kMaxProbes) {
    const double middle = -std::sqrt(above * below);
    ++probes;
    if ((factorized_at_below = positive_definite_at(middle)))
      below = middle;
    else
      above = middle;
  }
  sigma = below;
  m_last_indefinite_shift = below;
  if (factorized_at_below) return Status::kSuccess;
  ++probes;
  return positive_definite_at(sigma) ? Status::kSuccess : Status::kNumericalIssue;
}

GeneralizedEigenSolver::GeneralizedEigenSolver(LinearSolverFactory make_solver,
                                               GeneralizedEigenSettings settings)
    : m_solver(make_solver()), m_settings(settings) {}

namespace {
void check_sizes(const SpMat& K, const SpMat& M, int count) {
  const Eigen::Index n = K.rows();
  if (K.cols() != n || M.rows() != n || M.cols() != n)
    throw std::invalid_argument("eigenpairs: K and M must be square and of the same size");
  if (count < 1 || count > n)
    throw std::invalid_argument("eigenpairs: count must be in [1, dimension]");
}
}  // namespace

GeneralizedEigenResult GeneralizedEigenSolver::compute(const SpMat& K, const SpMat& M, int count) {
  const Timer timer;
  check_sizes(K, M, count);
  // All eigenpairs: Spectra needs count < ncv <= n, so a full spectrum (only sensible for tiny
  // problems) goes to a dense solver.
  if (count == K.rows()) {
    GeneralizedEigenResult result = dense_eigenpairs(K, M);
    result.seconds = timer.seconds();
    return result;
  }
  double sigma = choose_shift(K, M);
  GeneralizedEigenResult result;
  result.status = factorize_below_spectrum(K, M, sigma, result.shift_probes);
  result.shift = sigma;
  if (result.status == Status::kSuccess) lanczos(K, M, count, *m_solver, sigma, 1.0, result);
  result.seconds = timer.seconds();
  return result;
}

GeneralizedEigenResult GeneralizedEigenSolver::compute_factorized(const SpMat& K, const SpMat& M,
                                                                  int count,
                                                                  InverseOperator& shifted_inverse,
                                                                  double sigma, double scale) {
  const Timer timer;
  check_sizes(K, M, count);
  if (count == K.rows()) return compute(K, M, count);
  if (!(scale > 0.0) || !std::isfinite(sigma))
    throw std::invalid_argument("eigenpairs: the lent factorization needs scale > 0, finite sigma");
  GeneralizedEigenResult result;
  result.shift = sigma;
  result.borrowed_factorization = true;
  lanczos(K, M, count, shifted_inverse, sigma, scale, result);
  result.seconds = timer.seconds();
  return result;
}

void GeneralizedEigenSolver::lanczos(const SpMat& K, const SpMat& M, int count,
                                     InverseOperator& shifted_inverse, double sigma, double scale,
                                     GeneralizedEigenResult& result) {
  const Eigen::Index n = K.rows();
  using OpType = ShiftInvertOp;
  using BOpType = Spectra::SparseSymMatProd<double, Eigen::Lower>;
  OpType op(shifted_inverse, n, scale);
  // Spectra applies M two or three times per Lanczos step (the operator's M x and M-inner
  // products). A lumped mass stored in the system pattern is diagonal with ~80 explicit zeros
  // per row: without them each product costs n instead of nnz(K).
  const SpMat M_compact = without_zeros(M);
  BOpType bop(M_compact);
  const int default_ncv = std::max(2 * count + 1, 20);
  const int ncv =
      std::clamp(m_settings.ncv > 0 ? m_settings.ncv : default_ncv, count + 1, static_cast<int>(n));
  Spectra::SymGEigsShiftSolver<OpType, BOpType, Spectra::GEigsMode::ShiftInvert> eigs(
      op, bop, count, ncv, sigma);
  if (m_last_vectors.rows() == n && m_last_vectors.cols() > 0) {
    // Warm start: the sum of the previous eigenvectors has a component along each of them, so
    // the Krylov space of the shift-inverted operator holds the new ones after few products.
    const VecX start = m_last_vectors.rowwise().sum();
    eigs.init(start.data());
    result.warm_started = true;
  } else {
    eigs.init();
  }
  // Largest |nu| = 1/(lambda - sigma) are the eigenvalues closest to sigma, i.e. the smallest.
  eigs.compute(Spectra::SortRule::LargestMagn, m_settings.max_iterations, m_settings.tolerance,
               Spectra::SortRule::SmallestAlge);
  result.status = from_spectra(eigs.info());
  result.iterations = static_cast<int>(eigs.num_iterations());
  result.operator_products = op.products();
  result.values = eigs.eigenvalues();
  result.vectors = eigs.eigenvectors();
  const Status refined = rayleigh_ritz(K, M_compact, result);
  if (refined != Status::kSuccess) result.status = refined;
  if (result.status == Status::kSuccess) m_last_vectors = result.vectors;
}

GeneralizedEigenResult smallest_generalized_eigenpairs(const SpMat& K, const SpMat& M, int count,
                                                       const GeneralizedEigenSettings& settings) {
  GeneralizedEigenSolver solver(make_cholmod_solver, settings);
  return solver.compute(K, M, count);
}

}  // namespace simrun
