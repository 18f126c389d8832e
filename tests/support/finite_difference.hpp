#pragma once
/// Central finite-difference checks shared by the energy tests.
#include <functional>

#include "core/types.hpp"

namespace simrun::testing {

/// Central-difference gradient of f at x with step h.
inline VecX fd_gradient(const std::function<double(const VecX&)>& f, const VecX& x, double h) {
  VecX g(x.size());
  VecX xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const double fp = f(xp);
    xp[i] = x[i] - h;
    const double fm = f(xp);
    xp[i] = x[i];
    g[i] = (fp - fm) / (2 * h);
  }
  return g;
}

/// Central-difference Jacobian of a vector function (columns = d g / d x_j).
inline MatX fd_jacobian(const std::function<VecX(const VecX&)>& g, const VecX& x, double h) {
  const Eigen::Index n = x.size();
  MatX J(g(x).size(), n);
  VecX xp = x;
  for (Eigen::Index j = 0; j < n; ++j) {
    xp[j] = x[j] + h;
    const VecX gp = g(xp);
    xp[j] = x[j] - h;
    const VecX gm = g(xp);
    xp[j] = x[j];
    J.col(j) = (gp - gm) / (2 * h);
  }
  return J;
}

/// max |a - b| / max(|b|_inf, floor): relative error with a floor for near-zero references.
inline double relative_error(const MatX& a, const MatX& b, double floor = 1e-12) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), floor);
}

}  // namespace simrun::testing
