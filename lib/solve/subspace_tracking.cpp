#include "solve/subspace_tracking.hpp"

#include <Eigen/Eigenvalues>

namespace simrun {

TrackedModes track_lowest_modes(InverseOperator& A, const std::function<MatX(const MatX&)>& mass,
                                const std::function<MatX(const MatX&)>& stiffness, MatX& W,
                                MatX& MW, VecX& values) {
  TrackedModes result;
  if (MW.rows() != W.rows() || MW.cols() != W.cols()) MW = mass(W);
  // Y = A^-1 M W, one block solve.
  MatX Y;
  A.solve(MW, Y);
  result.back_solves = static_cast<int>(W.cols());
  if (!Y.allFinite()) {
    result.status = Status::kNumericalIssue;
    return result;
  }
  // Rayleigh-Ritz on span(Y): (Y^T K Y) c = theta (Y^T M Y) c.
  const MatX KY = stiffness(Y), MY = mass(Y);
  MatX Kr = Y.transpose() * KY, Mr = Y.transpose() * MY;
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  Mr = 0.5 * (Mr + Mr.transpose()).eval();
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> ritz(Kr, Mr);
  if (ritz.info() != Eigen::Success) {
    result.status = Status::kNumericalIssue;
    return result;
  }
  W = Y * ritz.eigenvectors();  // M-orthonormal: c^T (Y^T M Y) c = I
  MW = MY * ritz.eigenvectors();
  values = ritz.eigenvalues();
  return result;
}

}  // namespace simrun
