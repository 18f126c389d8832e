#pragma once
/// Settings of Kharevych's time adaptivity (thesis Secs. 3.3-3.4), the scene's
/// "time": {"adaptive": {...}} (docs/variational_integrators.md, "Time adaptivity").
#include <string>

namespace simrun {

struct AdaptiveSettings {
  /// The sigma rule (integrate/adaptive_sigma.hpp): "constant", "equispaced_poses",
  /// "equispaced_phase_space", "acceleration" or "energy" (c / (W / energy_scale + 1)).
  std::string rule = "energy";
  /// "naive" (h_k+1 = h sigma, then the fixed-step variational update), "symplectic" (the
  /// time-constrained action, Eqs. 3.25-3.27) or "reversible" (Eqs. 3.30-3.32).
  std::string scheme = "symplectic";
  /// Where sigma(q_k, q_k+1) samples the configuration: "start" (q_k, explicit), "midpoint"
  /// ((q_k + q_k+1) / 2, symmetric) or "end" (q_k+1).
  std::string sigma_at = "start";
  double epsilon = 1e-3;     ///< the rules' regularizer inside the root / norm (> 0)
  double sigma_min = 1e-3;   ///< added to every rule but "constant": sigma >= sigma_min (> 0)
  double c = 1.0;            ///< "constant": sigma = c; "energy": the numerator c
  double energy_scale = 10;  ///< "energy": W is divided by it (the thesis' 10) [J]
  double tolerance = 1e-12;  ///< Newton: scaled residual of the step's equations
  int max_iterations = 50;   ///< Newton iterations per step
};

}  // namespace simrun
