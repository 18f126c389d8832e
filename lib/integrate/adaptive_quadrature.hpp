#pragma once
/// The quadrature of the potential in Kharevych's variable-step discrete Lagrangian (thesis
/// Sec. 3.2.3, Eqs. 3.3-3.4): which points x = (1 - alpha) a + alpha b, with which
/// weights, each fixed-step variational integrator samples. Header-only and model-free, so that
/// the scene checks (and the scene parser's fuzz target) can ask which integrators adapt.
#include <string_view>
#include <vector>

namespace simrun {

struct QuadraturePoint {
  double weight;
  double alpha;  ///< x = (1 - alpha) a + alpha b
};

/// verlet is the trapezoid {(1/2, 0), (1/2, 1)}, symplectic_euler the point {(1, 0)},
/// variational_midpoint {(1, 1/2)} and variational_alpha {(1, alpha)}; empty for the others.
inline std::vector<QuadraturePoint> adaptive_quadrature(std::string_view type, double alpha) {
  if (type == "verlet") return {{0.5, 0.0}, {0.5, 1.0}};
  if (type == "symplectic_euler") return {{1.0, 0.0}};
  if (type == "variational_midpoint") return {{1.0, 0.5}};
  if (type == "variational_alpha") return {{1.0, alpha}};
  return {};
}

/// True when L(a, b, dt) = L(b, a, dt) (Eq. 3.29 for dt -> -dt): every point's mirror
/// (w, 1 - alpha) is in the rule with the same weight (midpoint and trapezoid).
inline bool is_symmetric_quadrature(const std::vector<QuadraturePoint>& points) {
  for (const QuadraturePoint& p : points) {
    bool mirrored = false;
    for (const QuadraturePoint& q : points)
      mirrored = mirrored || (q.weight == p.weight && q.alpha == 1.0 - p.alpha);
    if (!mirrored) return false;
  }
  return true;
}

}  // namespace simrun
