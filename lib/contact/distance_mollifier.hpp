#pragma once
/// The parallel-edge mollifier of IPC (Li et al. 2020, Sec. 4.3; eps_x as in ipc-toolkit). The
/// edge-edge barrier is multiplied by m(x), which vanishes as the edges become parallel, where
/// the edge-edge distance type switches non-smoothly:
///   x = |(ea1 - ea0) x (eb1 - eb0)|^2,
///   eps_x = 1e-3 |ea1_rest - ea0_rest|^2 |eb1_rest - eb0_rest|^2   (from the rest positions),
///   m(x) = -x^2 / eps_x^2 + 2 x / eps_x  for x < eps_x,   1 otherwise  (C^1 at x = eps_x).
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/types.hpp"

namespace simrun {

struct Mollifier {
  double value;
  Eigen::Matrix<double, 12, 1> gradient;  ///< dm/dx over ea0, ea1, eb0, eb1
  Eigen::Matrix<double, 12, 12> hessian;  ///< d2m/dx2 (zero unless asked)
};

/// m(x) with its gradient and (if `hessian`) Hessian over the 12 coordinates, order ea0, ea1,
/// eb0, eb1. eps_x must be > 0 (a zero-length rest edge gives eps_x = 0: callers skip the
/// mollifier for such a pair); with eps_x <= 0 this returns m = 1 and zero derivatives.
Mollifier edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                              double eps_x, bool hessian);

/// eps_x = 1e-3 |ea1_rest - ea0_rest|^2 |eb1_rest - eb0_rest|^2.
double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest,
                                     const Vec3& eb0_rest, const Vec3& eb1_rest);

}  // namespace simrun
