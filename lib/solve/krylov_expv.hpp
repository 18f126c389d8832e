#pragma once
/// The action of a matrix exponential on a vector, w = exp(t A) v, by Krylov subspaces with
/// adaptive substeps (Sidje's Expokit `expv`, 1998; Chen thesis Sec. 4.1.1), and
/// the phi_1 products exponential integrators need, without forming exp(t A) or phi_1(t A):
///
///   t phi_1(t A) b = [I 0] exp(t [[A, b], [0, 0]]) [0; 1]           (augmented matrix, eq. 4.5)
///
/// so (e^z - 1)/z is never evaluated on the full system. A is given as a matrix-free product.
/// Each substep builds an Arnoldi basis of dimension m (modified Gram-Schmidt), exponentiates
/// the small Hessenberg matrix (Pade scaling and squaring), estimates the local error from the
/// next Krylov vector and shrinks the substep until it meets the tolerance.
#include <functional>

#include "core/status.hpp"
#include "core/types.hpp"

namespace simrun {

struct KrylovSettings {
  int dimension = 30;        ///< m, the Krylov basis size per substep (>= 2)
  double tolerance = 1e-7;   ///< local error tolerance per unit time (Expokit's tol)
  int max_rejections = 10;   ///< substep shrinks per substep before giving up
  int max_substeps = 10000;  ///< kNotConverging beyond (a cap on the cost of one action)
};

struct KrylovStats {
  Status status = Status::kSuccess;
  int substeps = 0;              ///< tau: the substeps exp(t A) v was split into
  int vectors = 0;               ///< Krylov vectors built over all substeps (= products with A)
  int rejections = 0;            ///< substeps retried with a smaller step
  bool happy_breakdown = false;  ///< the Krylov space became invariant (exact result)
  double error_estimate = 0.0;   ///< summed local error estimates
};

/// y = A x (x and y of the operator's dimension; y is not aliased with x).
using LinearOperator = std::function<void(const VecX& x, VecX& y)>;

/// w = exp(t A) v. `norm_estimate` is an estimate of |A|_inf (it sets the first substep; a
/// rough value only costs rejections). Returns kNotConverging when a substep could not meet
/// the tolerance within max_rejections, kNumericalIssue on non-finite values.
KrylovStats expv(double t, const LinearOperator& A, double norm_estimate, const VecX& v, VecX& w,
                 const KrylovSettings& settings = {});

/// y = t phi_1(t A) b through the augmented operator [[A, b], [0, 0]] (dimension n + 1).
KrylovStats phi1v(double t, const LinearOperator& A, double norm_estimate, const VecX& b, VecX& y,
                  const KrylovSettings& settings = {});

}  // namespace simrun
