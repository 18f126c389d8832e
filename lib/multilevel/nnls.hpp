#pragma once
/// Non-negative least squares, min |A x - b| subject to x >= 0, by the Lawson-Hanson active-set
/// method (Lawson & Hanson, "Solving Least Squares Problems", 1974, ch. 23). The cubature fit of
/// Trusty et al. (Sec. 3.8.2, Eq. 18 and Alg. 3) needs residuals near 1e-9, so the
/// passive-set least-squares problems are solved with an orthogonal (Householder QR) factorisation
/// updated as columns enter and leave, never with the normal equations, and the gradient is
/// read off the transformed system rather than formed as A^T r.
#include "core/types.hpp"

namespace simrun {

struct NnlsResult {
  VecX x;                        ///< the solution, x >= 0 (exact zeros off the passive set)
  double relative_residual = 0;  ///< |A x - b| / |b| (0 when b = 0)
  int iterations = 0;            ///< outer iterations (columns selected to enter)
  /// True when the KKT conditions hold to rounding: no column with x_j = 0 has a gradient
  /// component w_j = a_j . (b - A x) > 0 whose residual reduction w_j / |a_j orthogonal to A_P|
  /// exceeds its rounding level (about eps sqrt(rows) |b|), apart from columns rejected as
  /// numerically dependent on the passive set or as not improving the fit.
  bool converged = false;
};

/// Lawson-Hanson NNLS. max_iterations bounds the outer iterations (0: 3 * cols); the result
/// reached so far is returned, with converged = false, when the bound is hit. Handles b = 0
/// (x = 0), zero columns (never enter) and rank-deficient A (dependent columns are rejected, so
/// the passive set keeps full column rank). Throws InputError when A and b disagree in size.
NnlsResult solve_nnls(const MatX& A, const VecX& b, int max_iterations = 0);

}  // namespace simrun
