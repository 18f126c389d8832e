#pragma once
/// Solves with a low-rank update of a factorized matrix, (A + U C V^T) x = b, by the
/// Sherman-Morrison-Woodbury identity in the form that does not invert C:
///   (A + U C V^T)^-1 = A^-1 - A^-1 U (I + C V^T A^-1 U)^-1 C V^T A^-1.
/// A is any InverseOperator (a LinearSolver holding a factorization, or a composed solve); U and
/// V are n x k, C is
/// k x k (may be singular). setup() costs one block solve with A (Z = A^-1 U) and a k x k LU;
/// every solve() then costs one solve with A plus O(n k). For solves with a few modes treated
/// apart from the rest (the spectral exponential integrators, EigenFit's corrected stiffness).
#include <Eigen/LU>

#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

class LowRankUpdate {
 public:
  /// `base` must stay alive and keep its factorization of A while this object is used.
  /// V defaults to U (symmetric updates). Returns kNumericalIssue when the k x k capacitance
  /// matrix I + C V^T A^-1 U is singular (the updated matrix is then singular).
  Status setup(InverseOperator& base, const MatX& U, const MatX& C);
  Status setup(InverseOperator& base, const MatX& U, const MatX& C, const MatX& V);
  /// The same with Z = A^-1 U already known to the caller (e.g. from an identity that needs
  /// fewer back-solves): no solve here.
  Status setup_solved(InverseOperator& base, MatX Z, const MatX& C, const MatX& V);

  /// x = (A + U C V^T)^-1 b. b and x may alias.
  void solve(const VecX& b, VecX& x);
  int rank() const { return static_cast<int>(m_Z.cols()); }

 private:
  InverseOperator* m_base = nullptr;
  MatX m_Z;                                 ///< A^-1 U
  MatX m_CVt;                               ///< C V^T
  Eigen::PartialPivLU<MatX> m_capacitance;  ///< I + C V^T A^-1 U
  VecX m_work;
};

}  // namespace simrun
