#pragma once
/// Sparse symmetric linear solver interface. Only the lower triangle of A is read, so a fully
/// stored symmetric matrix can be passed as is.
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/hessian_parts.hpp"

namespace simrun {

/// What a solver did since it was made (or since reset_stats). One meaning for every solver and
/// every integrator: `factorizations` counts factorize() calls (a fallback within one call is
/// not a second factorization), `solves` counts solve() calls.
struct LinearSolverStats {
  /// Symbolic factorizations: one per sparsity pattern, plus one for the LDLT fallback the first
  /// time a pattern needs it.
  int symbolic_analyses = 0;
  int factorizations = 0;  ///< factorize() calls (numeric factorization, or setup of a PCG)
  int solves = 0;          ///< solve() calls
  int ldlt_fallbacks = 0;  ///< factorizations where LLT failed (not PD) and LDLT was used
  int lu_fallbacks = 0;    ///< of those, LDLT without pivoting was unusable and LU was used
  int iterations = 0;      ///< iterative solvers: iterations over all solves (0 for direct)
  int capped_solves = 0;   ///< iterative solvers: solves stopped by max_iterations
  double residual = 0.0;   ///< iterative solvers: relative residual of the last solve
  /// The multilevel solver: CG iterations and wall seconds of its levels (affine, SMS, fine).
  std::array<int, 3> level_iterations{};
  std::array<double, 3> level_seconds{};
  double level_setup_seconds = 0.0;  ///< the multilevel solver: building its preconditioners
  double symbolic_seconds = 0.0, factor_seconds = 0.0, solve_seconds = 0.0;
};

/// Applies the inverse of some matrix to vectors and blocks of vectors (a factorized matrix, or
/// a solve assembled from others, such as the first-order system's Schur complement).
class InverseOperator {
 public:
  virtual ~InverseOperator() = default;
  /// x = A^{-1} b (b and x may alias).
  virtual void solve(const VecX& b, VecX& x) = 0;
  /// Several right-hand sides at once (columns of B).
  virtual void solve(const MatX& B, MatX& X) = 0;
};

/// X = A^{-1} B one column at a time through the operator's vector solve (for solvers without
/// a blocked solve, such as the iterative ones).
inline void solve_by_columns(InverseOperator& op, const MatX& B, MatX& X) {
  MatX result(B.rows(), B.cols());
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    VecX column;
    op.solve(VecX(B.col(j)), column);
    result.col(j) = column;
  }
  X = std::move(result);
}

class LinearSolver : public InverseOperator {
 public:
  /// Numeric factorization of the symmetric matrix A. The symbolic analysis is redone only when
  /// A's sparsity pattern differs from the previous call's. Returns kNumericalIssue when A is
  /// singular (after the LDLT fallback, where the solver has one).
  virtual Status factorize(const SpMat& A) = 0;
  /// Like factorize(), for a matrix the caller expects to be positive definite: when it is not,
  /// returns kNumericalIssue at once instead of trying an indefinite fallback (so that Newton can
  /// switch to a projected Hessian). Solvers without a cheaper test use factorize().
  virtual Status factorize_positive_definite(const SpMat& A) { return factorize(A); }
  /// x = A^{-1} b with the last factorization. Throws std::logic_error when the last
  /// factorize() failed (there is no valid factor to solve with). b and x may alias.
  void solve(const VecX& b, VecX& x) override = 0;
  /// Several right-hand sides at once (columns of B).
  void solve(const MatX& B, MatX& X) override = 0;
  virtual const LinearSolverStats& stats() const = 0;
  virtual void reset_stats() = 0;
  /// Iterative solvers: the last solve() met a direction of non-positive curvature of a matrix
  /// set up as positive definite (factorize_positive_definite, factorize_parts with
  /// require_positive), which proves it indefinite; the answer is a truncated one. Newton's
  /// `auto` projection then projects the Hessian and solves again. Direct solvers find out in
  /// the factorization: false.
  virtual bool solve_proved_indefinite() const { return false; }
  /// Solvers that build their answer in a subspace first (the multilevel solver): that part of
  /// the last solve's answer (d_s of Trusty et al., Alg. 1), for Newton's direction stop; null
  /// for the others.
  virtual const VecX* subspace_direction() const { return nullptr; }
  /// Solvers that use the Newton matrix in parts (the multilevel solver's cubature and lagged
  /// elastic Hessians) take it through factorize_parts instead of factorize.
  virtual bool uses_hessian_parts() const { return false; }
  /// Sets up for the matrix the parts describe (hessian_parts.hpp); require_positive as
  /// factorize_positive_definite. Only for solvers whose uses_hessian_parts() is true.
  virtual Status factorize_parts(const HessianParts& /*parts*/, bool /*require_positive*/) {
    return Status::kNumericalIssue;
  }
};

/// Makes the linear solvers an integrator or eigensolver owns (scene "solver").
using LinearSolverFactory = std::function<std::unique_ptr<LinearSolver>()>;

/// CHOLMOD supernodal Cholesky (LLT) with an LDLT fallback for indefinite matrices: CHOLMOD's
/// simplicial LDL' (no pivoting), accepted after a backward-error check; if it hits a tiny pivot
/// or is unstable, Eigen's SparseLU with partial pivoting. Matrices with a pivot ratio or
/// condition estimate beyond 1e13 count as singular (kNumericalIssue).
std::unique_ptr<LinearSolver> make_cholmod_solver();

/// Settings of the iterative solvers (scene "solver": {"tolerance", "max_iterations"}).
struct IterativeSolverSettings {
  double tolerance = 1e-8;     ///< stop at |b - A x| <= tolerance |b|
  int max_iterations = 10000;  ///< per solve; the last iterate is used when reached
};

/// Jacobi-preconditioned conjugate gradients, the "IPC-PCG" baseline (Trusty et al. Sec. 4.1,
/// Fig. 14). factorize() only stores A and its inverse diagonal (factorizations counts these
/// set-ups); `iterations` sums the CG iterations (stats.csv cg_iters). For symmetric positive
/// definite A; on an indefinite A it stops at the first direction of non-positive curvature
/// (truncated CG), which still gives Newton a descent direction.
std::unique_ptr<LinearSolver> make_pcg_solver(IterativeSolverSettings settings = {});

/// The factory of the solver registered under `name` (scene "solver": {"type": name}); throws
/// InputError naming the registered ones otherwise. `iterative` configures the iterative ones.
LinearSolverFactory linear_solver_factory(std::string_view name,
                                          const IterativeSolverSettings& iterative = {});
/// Names of the registered linear solvers.
std::vector<std::string> linear_solver_names();

}  // namespace simrun
