/// Lawson-Hanson active-set NNLS on the orthogonally transformed system Q^T [A b], kept up to
/// date by Householder reflections (columns entering) and Givens rotations (columns leaving).
#include "multilevel/nnls.hpp"

#include <Eigen/Householder>
#include <Eigen/Jacobi>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace simrun {
namespace {

/// A column that keeps less than this fraction of its norm outside the span of the passive
/// columns is treated as dependent on them (it would make R singular to working precision).
constexpr double kDependenceTolerance = 1e-12;

/// Multiple of the rounding level below which a residual reduction counts as zero.
constexpr double kRoundingFactor = 4.0;

/// C = Q^T A and Q^T b for all columns, with the passive columns P = (p_0, ..., p_{k-1}) upper
/// triangular in rows 0..k-1 of C (so R = C(0:k, P)) and zero below. As in Lawson and Hanson's
/// own NNLS (ch. 23-24), every transformation is applied to the whole of A, so each zero-set
/// column j has its part orthogonal to span(A_P) in C(k:, j) and its gradient component is
/// w_j = a_j . (b - A x) = C(k:, j) . (Q^T b)(k:), with no product A^T r that would lose the
/// small w_j of an ill-conditioned A to cancellation.
class TransformedSystem {
 public:
  TransformedSystem(const MatX& A, const VecX& b) : c_(A), qtb_(b) {}

  int size() const { return static_cast<int>(passive_.size()); }
  const std::vector<int>& passive() const { return passive_; }
  /// Rows k.. of C and Q^T b: the parts orthogonal to span(A_P).
  auto tail() const { return c_.bottomRows(c_.rows() - size()); }
  auto residual_tail() const { return qtb_.tail(qtb_.size() - size()); }

  /// Appends column j to P with one Householder reflection zeroing C(k+1:, j). Returns false,
  /// leaving everything unchanged, when the column is (numerically) in span(A_P).
  bool append(int j, double column_norm) {
    const Eigen::Index rows = c_.rows();
    const int k = size();
    if (k >= rows) return false;
    VecX v = c_.col(j).tail(rows - k);
    if (!(v.norm() > kDependenceTolerance * column_norm)) return false;
    double tau = 0.0, beta = 0.0;
    v.makeHouseholderInPlace(tau, beta);
    VecX workspace(c_.cols());
    const auto essential = v.tail(rows - k - 1);
    c_.bottomRows(rows - k).applyHouseholderOnTheLeft(essential, tau, workspace.data());
    qtb_.tail(rows - k).applyHouseholderOnTheLeft(essential, tau, workspace.data());
    c_.col(j).tail(rows - k).setZero();
    c_(k, j) = beta;
    passive_.push_back(j);
    return true;
  }

  /// Removes P's column at `position`; the later ones shift left and Givens rotations on rows
  /// (i, i+1) clear the subdiagonal this leaves.
  void remove(int position) {
    passive_.erase(passive_.begin() + position);
    for (int i = position; i < size(); ++i) {
      const int column = passive_[i];
      Eigen::JacobiRotation<double> rotation;
      rotation.makeGivens(c_(i, column), c_(i + 1, column));
      c_.applyOnTheLeft(i, i + 1, rotation.adjoint());
      qtb_.applyOnTheLeft(i, i + 1, rotation.adjoint());
      c_(i + 1, column) = 0.0;
    }
  }

  /// Least-squares coefficients on P (in P's order): R z = (Q^T b)(0:k).
  VecX solve() const {
    const int k = size();
    MatX r = MatX::Zero(k, k);
    for (int c = 0; c < k; ++c) r.col(c).head(c + 1) = c_.col(passive_[c]).head(c + 1);
    return r.triangularView<Eigen::Upper>().solve(qtb_.head(k));
  }

 private:
  MatX c_;
  VecX qtb_;
  std::vector<int> passive_;
};

/// Column states of the active-set method.
enum class Column : char { kZero, kPassive, kRejected };

/// The zero-set column whose entering lowers the residual most, or -1 when none does beyond
/// rounding (the KKT conditions hold).
int entering_column(const TransformedSystem& system, const std::vector<Column>& state,
                    const VecX& column_norm, int rows, double b_norm) {
  const double eps = std::numeric_limits<double>::epsilon();
  // KKT test. Adding column j would lower |r| by w_j / |C(k:, j)|, the component of r along
  // its new orthogonal direction. That reduction is computed with an error of about
  // eps (sqrt(rows) |b| + |a_j| |r| / |C(k:, j)|), so below a few times that the column counts
  // as not improving. (A tolerance on w_j relative to |A^T b| stops far too early on the
  // ill-conditioned moment matrices of the cubature, where w ~ sigma_min |r| is tiny while
  // |r| / |b| is still far above 1e-9.)
  const auto tail = system.tail();
  const auto residual_tail = system.residual_tail();
  const double residual_norm = residual_tail.norm();
  int entering = -1;
  double best = 0.0;
  for (int j = 0; j < static_cast<int>(state.size()); ++j) {
    if (state[j] != Column::kZero) continue;
    const double w = tail.col(j).dot(residual_tail);
    const double orthogonal = tail.col(j).norm();
    if (!(w > 0.0) || !(orthogonal > kDependenceTolerance * column_norm[j])) continue;
    const double noise = kRoundingFactor * eps *
                         (std::sqrt(static_cast<double>(rows)) * b_norm +
                          column_norm[j] * residual_norm / orthogonal);
    if (w / orthogonal > noise && w > best) {
      best = w;
      entering = j;
    }
  }
  return entering;
}

/// The inner loop: leaves z > 0 on the passive set, moving x and dropping columns.
void step_to_feasible(TransformedSystem& system, VecX& z, VecX& x, std::vector<Column>& state) {
  // Inner loop: while some z_i <= 0, move x towards z until the first such x_i reaches zero,
  // and drop the columns that did.
  while (z.size() > 0 && z.minCoeff() <= 0.0) {
    const std::vector<int>& passive = system.passive();
    double alpha = std::numeric_limits<double>::infinity();
    int blocking = -1;
    for (int i = 0; i < z.size(); ++i) {
      if (z[i] > 0.0) continue;
      const double xi = x[passive[i]];
      const double step = xi / (xi - z[i]);
      if (step < alpha) {
        alpha = step;
        blocking = i;
      }
    }
    for (int i = 0; i < z.size(); ++i) x[passive[i]] += alpha * (z[i] - x[passive[i]]);
    for (int i = system.size() - 1; i >= 0; --i) {
      const int j = system.passive()[i];
      if (i != blocking && x[j] > 0.0) continue;
      x[j] = 0.0;
      state[j] = Column::kZero;
      system.remove(i);
    }
    z = system.solve();
  }
}

}  // namespace

// Lawson & Hanson (1974), Algorithm NNLS (ch. 23): grow the passive set P by the column with the
// largest gradient component w = A^T (b - A x); solve the unconstrained problem on P; when the
// solution z leaves the feasible set, step from x towards z to the boundary and drop the columns
// that reach zero (the inner loop), until z > 0 on P.
NnlsResult solve_nnls(const MatX& A, const VecX& b, int max_iterations) {
  require(A.rows() == b.size(), "solve_nnls: A has " + std::to_string(A.rows()) +
                                    " rows but b has " + std::to_string(b.size()) + " entries");
  const int rows = static_cast<int>(A.rows());
  const int cols = static_cast<int>(A.cols());
  if (max_iterations <= 0) max_iterations = 3 * cols;
  NnlsResult result;
  result.x = VecX::Zero(cols);
  const double b_norm = b.norm();
  if (cols == 0 || b_norm == 0.0) {
    result.converged = true;
    return result;
  }
  VecX& x = result.x;
  const VecX column_norm = A.colwise().norm().transpose();

  TransformedSystem system(A, b);
  std::vector<Column> state(cols, Column::kZero);
  while (true) {
    const int entering = entering_column(system, state, column_norm, rows, b_norm);
    if (entering < 0) {
      result.converged = true;
      break;
    }
    if (result.iterations >= max_iterations) break;
    ++result.iterations;

    if (!system.append(entering, column_norm[entering])) {
      state[entering] = Column::kRejected;  // dependent on P: it cannot lower the residual
      continue;
    }
    state[entering] = Column::kPassive;
    VecX z = system.solve();
    if (z[z.size() - 1] <= 0.0) {
      // In exact arithmetic w_t > 0 makes z_t > 0 (Lawson-Hanson Lemma 23.17); rounding can break
      // this for a tiny w_t, and re-entering the column would cycle.
      system.remove(system.size() - 1);
      state[entering] = Column::kRejected;
      continue;
    }
    step_to_feasible(system, z, x, state);
    for (int i = 0; i < system.size(); ++i) x[system.passive()[i]] = z[i];
    // x moved, so columns rejected against the old passive set get another chance; the entering
    // column, if the inner loop dropped it again, waits for the next change.
    for (auto& s : state)
      if (s == Column::kRejected) s = Column::kZero;
    if (state[entering] == Column::kZero) state[entering] = Column::kRejected;
  }
  result.relative_residual = (A * x - b).norm() / b_norm;
  return result;
}

}  // namespace simrun
