/// Jacobi-preconditioned conjugate gradients (see linear_solver.hpp: make_pcg_solver): the
/// "IPC-PCG" baseline of Trusty et al. (Sec. 4.1, Fig. 14), Newton with a Jacobi-PCG inner
/// solve whose iterations stats.csv counts as cg_iters.
#include <cmath>
#include <stdexcept>

#include "core/timer.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {
namespace {

using RowSpMat = Eigen::SparseMatrix<double, Eigen::RowMajor>;

class PcgSolver final : public LinearSolver {
 public:
  explicit PcgSolver(IterativeSolverSettings settings) : m_settings(settings) {}

  /// "Factorization" of an iterative solver: the symmetric matrix stored in full (row-major, so
  /// that Eigen's product runs on the OpenMP threads) and the inverse of its diagonal. A zero or
  /// non-finite diagonal entry makes the Jacobi preconditioner undefined: kNumericalIssue.
  Status factorize(const SpMat& A) override { return setup(A, /*require_positive=*/false); }
  /// A positive definite matrix has a positive diagonal: a non-positive entry proves A is not
  /// (Newton then switches to the projected Hessian). A positive diagonal proves nothing more;
  /// CG stops at the first direction of non-positive curvature it meets (see solve_one).
  Status factorize_positive_definite(const SpMat& A) override {
    return setup(A, /*require_positive=*/true);
  }

  void solve(const VecX& b, VecX& x) override {
    if (!m_ready) throw std::logic_error("PcgSolver::solve without a successful factorize()");
    const Timer timer;
    VecX result(b.size());
    solve_one(b, result);
    x = std::move(result);
    ++m_stats.solves;
    m_stats.solve_seconds += timer.seconds();
  }

  void solve(const MatX& B, MatX& X) override { solve_by_columns(*this, B, X); }

  const LinearSolverStats& stats() const override { return m_stats; }
  void reset_stats() override { m_stats = LinearSolverStats{}; }
  bool solve_proved_indefinite() const override { return m_proved_indefinite; }

 private:
  Status setup(const SpMat& A, bool require_positive) {
    const Timer timer;
    ++m_stats.factorizations;
    m_ready = false;
    m_require_positive = require_positive;
    m_matrix = A.selfadjointView<Eigen::Lower>();
    m_inverse_diagonal = m_matrix.diagonal();
    for (Eigen::Index i = 0; i < m_inverse_diagonal.size(); ++i) {
      const double d = m_inverse_diagonal[i];
      if (!std::isfinite(d) || d == 0.0 || (require_positive && d < 0.0))
        return Status::kNumericalIssue;
      m_inverse_diagonal[i] = 1.0 / std::abs(d);
    }
    m_ready = true;
    m_stats.factor_seconds += timer.seconds();
    return Status::kSuccess;
  }

  /// Preconditioned CG from x = 0 (Saad, Iterative Methods, Alg. 9.1) until
  /// |r| <= tolerance |b| or max_iterations. On a direction p with p^T A p <= 0 (A indefinite)
  /// it stops with the iterate so far, which, like every CG iterate from 0, is a descent
  /// direction of the quadratic model; when that happens at the first iteration it returns the
  /// preconditioned right-hand side D^{-1} b instead (truncated Newton-CG, Nocedal & Wright
  /// Alg. 7.1). After factorize_positive_definite that proves A indefinite
  /// (solve_proved_indefinite(), so Newton's `auto` projects).
  void solve_one(const VecX& b, VecX& x) {
    x.setZero(b.size());
    m_proved_indefinite = false;
    const double b_norm = b.norm();
    m_stats.residual = 0.0;
    if (b_norm == 0.0) return;
    VecX r = b;
    VecX z = m_inverse_diagonal.cwiseProduct(r);
    VecX p = z, Ap(b.size());
    double rz = r.dot(z);
    const double target = m_settings.tolerance * b_norm;
    int k = 0;
    for (; k < m_settings.max_iterations; ++k) {
      Ap.noalias() = m_matrix * p;
      const double curvature = p.dot(Ap);
      if (!(curvature > 0.0)) {
        m_proved_indefinite = m_require_positive;
        if (k == 0) x = z;
        break;
      }
      const double alpha = rz / curvature;
      x.noalias() += alpha * p;
      r.noalias() -= alpha * Ap;
      if (r.norm() <= target) {
        ++k;
        break;
      }
      z = m_inverse_diagonal.cwiseProduct(r);
      const double rz_next = r.dot(z);
      p = z + (rz_next / rz) * p;
      rz = rz_next;
    }
    m_stats.iterations += k;
    if (k == m_settings.max_iterations) ++m_stats.capped_solves;
    // The true residual, not the recurrence's (which drifts from it by rounding).
    r.noalias() = b - m_matrix * x;
    m_stats.residual = r.norm() / b_norm;
  }

  IterativeSolverSettings m_settings;
  RowSpMat m_matrix;
  VecX m_inverse_diagonal;
  bool m_ready = false;
  bool m_require_positive = false;   ///< set up by factorize_positive_definite
  bool m_proved_indefinite = false;  ///< the last solve met non-positive curvature
  LinearSolverStats m_stats;
};

}  // namespace

std::unique_ptr<LinearSolver> make_pcg_solver(IterativeSolverSettings settings) {
  return std::make_unique<PcgSolver>(settings);
}

}  // namespace simrun
