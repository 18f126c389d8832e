#pragma once
/// Smallest eigenpairs of the generalized symmetric problem K u = lambda M u.
#include <memory>

#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

struct GeneralizedEigenSettings {
  int ncv = 0;  ///< Krylov subspace size; 0 = max(2n+1, 20) capped at the dimension
  int max_iterations = 1000;
  /// Spectra relative tolerance on the Ritz values of (K - sigma M)^-1 M. The final
  /// Rayleigh-Ritz step makes eigenvalue errors quadratic in the vector error, so 1e-8 gives
  /// eigenvalues far below the 1e-7 the reference tests ask, one Lanczos restart sooner than 1e-10.
  double tolerance = 1e-8;
};

struct GeneralizedEigenResult {
  Status status = Status::kSuccess;
  VecX values;                ///< ascending
  MatX vectors;               ///< columns, M-orthonormal: U^T M U = I
  int iterations = 0;         ///< Lanczos restarts (Spectra iterations)
  int operator_products = 0;  ///< applications of (K - sigma M)^-1 M (one back-solve each)
  bool warm_started = false;  ///< Lanczos started from the previous call's eigenvectors
  int shift_probes = 0;       ///< extra factorizations that moved sigma below lambda_min
  bool borrowed_factorization = false;  ///< compute_factorized(): no factorization of our own
  double shift = 0.0;                   ///< the sigma used
  double seconds = 0.0;
};

/// The `count` algebraically smallest eigenpairs of K u = lambda M u (K symmetric, M symmetric
/// positive definite), by Spectra shift-invert around a shift below the spectrum with a
/// Cholesky factorization of K - sigma M. Works for free bodies (rigid modes give lambda ~ 0).
/// Only the lower triangles of K and M are read. For positive semidefinite K, sigma = -1e-8
/// max_i(K_ii / M_ii) (see eigen_solver.cpp for why); when K - sigma M is not positive definite
/// (an indefinite K(q) away from rest), sigma is moved below the lowest eigenvalue by Cholesky
/// probes (Sylvester: K - sigma M is positive definite exactly when sigma < lambda_min), so
/// negative eigenvalues are found first, not those nearest zero. The converged Ritz vectors get a
/// final Rayleigh-Ritz step, which makes them M-orthonormal and sorts them; if Spectra does not
/// converge, status says so and fewer than `count` pairs may be returned. count == dimension uses a
/// dense solver (tiny problems only); count < 1 or > dimension, mismatched sizes or a nonpositive
/// M_ii throw std::invalid_argument.
///
/// The object keeps what the next call can reuse: the linear solver (its symbolic analysis is
/// redone only when the pattern of K - sigma M changes) and the last eigenvectors, from which
/// the next Lanczos run starts when the dimension is unchanged (warm start for the per-step
/// eigensolves of SIERE and EigenFit, where K(q) changes little from step to step).
class GeneralizedEigenSolver {
 public:
  explicit GeneralizedEigenSolver(LinearSolverFactory make_solver = make_cholmod_solver,
                                  GeneralizedEigenSettings settings = {});
  GeneralizedEigenResult compute(const SpMat& K, const SpMat& M, int count);
  /// The same with a factorization the caller already holds (no factorization here):
  /// `shifted_inverse` applies A^-1 for A = scale (K - sigma M), scale > 0, and the caller
  /// guarantees that A is positive definite, i.e. sigma < lambda_min (Sylvester), so that the
  /// eigenvalues nearest sigma are the smallest. SIERE lends its step matrix
  /// M + tau D + tau^2 K: with D = alpha M + beta K it is (tau^2 + tau beta) (K - sigma M),
  /// sigma = -(1 + tau alpha) / (tau^2 + tau beta). Warm start and Rayleigh-Ritz as compute();
  /// count == dimension falls back to compute() (dense).
  GeneralizedEigenResult compute_factorized(const SpMat& K, const SpMat& M, int count,
                                            InverseOperator& shifted_inverse, double sigma,
                                            double scale);
  /// The next compute() starts Lanczos from a fixed vector again.
  void forget_subspace() { m_last_vectors.resize(0, 0); }
  const LinearSolverStats& solver_stats() const { return m_solver->stats(); }
  const GeneralizedEigenSettings& settings() const { return m_settings; }

 private:
  std::unique_ptr<LinearSolver> m_solver;
  GeneralizedEigenSettings m_settings;
  /// Factorizes K - sigma M at a sigma below lambda_min (probing when K is indefinite).
  Status factorize_below_spectrum(const SpMat& K, const SpMat& M, double& sigma, int& probes);
  /// Spectra shift-invert Lanczos with y = scale * shifted_inverse(x) = (K - sigma M)^-1 x, then
  /// Rayleigh-Ritz; fills status, iterations, products, values, vectors of `result`.
  void lanczos(const SpMat& K, const SpMat& M, int count, InverseOperator& shifted_inverse,
               double sigma, double scale, GeneralizedEigenResult& result);

  SpMat m_shifted;                       ///< K - sigma M (kept for its pattern)
  double m_last_indefinite_shift = 0.0;  ///< the last probed shift (0: K was semidefinite)
  MatX m_last_vectors;                   ///< last eigenvectors (warm start)
};

/// One-off call of GeneralizedEigenSolver (a fresh solver, no warm start).
GeneralizedEigenResult smallest_generalized_eigenpairs(
    const SpMat& K, const SpMat& M, int count, const GeneralizedEigenSettings& settings = {});

}  // namespace simrun
