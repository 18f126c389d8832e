#include "solve/subspace_tracking.hpp"

#include <Eigen/Eigenvalues>

namespace simrun {

TrackedModes track_lowest_modes(InverseOperator& A, const std::function<VecX(const VecX&)>& mass,
                                const std::function<VecX(const VecX&)>& stiffness, MatX& W,
                                VecX& values) {
  TrackedModes result;
  const Eigen::Index n = W.rows(), k = W.cols();
  // Y = A^-1 M W, one block solve.
  MatX MW(n, k), Y;
  for (Eigen::Index c = 0; c < k; ++c) MW.col(c) = mass(W.col(c));
  A.solve(MW, Y);
  result.back_solves = static_cast<int>(k);
  if (!Y.allFinite()) {
    result.status = Status::kNumericalIssue;
    return result;
  }
  // Rayleigh-Ritz on span(Y): (Y^T K Y) c = theta (Y^T M Y) c.
  MatX KY(n, k), MY(n, k);
  for (Eigen::Index c = 0; c < k; ++c) {
    KY.col(c) = stiffness(Y.col(c));
    MY.col(c) = mass(Y.col(c));
  }
  MatX Kr = Y.transpose() * KY, Mr = Y.transpose() * MY;
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  Mr = 0.5 * (Mr + Mr.transpose()).eval();
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> ritz(Kr, Mr);
  if (ritz.info() != Eigen::Success) {
    result.status = Status::kNumericalIssue;
    return result;
  }
  W = Y * ritz.eigenvectors();  // M-orthonormal: c^T (Y^T M Y) c = I
  values = ritz.eigenvalues();
  return result;
}

}  // namespace simrun
