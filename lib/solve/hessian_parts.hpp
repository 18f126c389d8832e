#pragma once
/// The Newton matrix handed over in parts, for the multilevel solver of Trusty et al. (Alg. 1,
/// Secs. 3.7.2 and 3.8): the elastic Hessian is the expensive part (it visits every tet),
/// so the subspace levels use a cubature of it and the full-space polish a lagged copy, while
/// inertia, damping, contact and friction stay fresh every Newton iteration.
///
///   H_sub = fresh + elastic_cubature   (subspace products; fresh + elastic_lagged without a rule)
///   H_lag = fresh + elastic_lagged     (the polish and, by default, its residual)
#include <deque>

#include "core/types.hpp"

namespace simrun {

struct HessianParts {
  SpMat fresh;             ///< M / tau^2 + D / sigma + every non-elastic term, at x
  SpMat elastic_lagged;    ///< the elastic Hessian at the last refresh
  SpMat elastic_cubature;  ///< sum_k (w_k / V_k) H_k at x (empty without a cubature rule)
  bool has_cubature = false;
  /// What elastic_lagged was assembled with; a refresh is forced when these no longer hold.
  bool elastic_valid = false;
  bool elastic_projected = false;
  /// Wall seconds the objective spent on elastic refreshes and cubature assemblies (running
  /// totals it adds to; Newton reports the differences per solve).
  double refresh_seconds = 0.0;
  double cubature_seconds = 0.0;
};

/// When the lagged elastic Hessian is refreshed within a time step (Sec. 3.7.2): always at the
/// step's first Newton iteration; later when the mean of the last `window` line-search step
/// lengths falls below `threshold`, at most once every `interval` Newton iterations. The paper
/// gives neither window nor threshold; 3 and 0.5 are simrun's choice.
struct ElasticLagSettings {
  bool enabled = false;  ///< false: the elastic Hessian is assembled afresh every iteration
  int window = 3;
  double threshold = 0.5;
  int interval = 5;
};

/// The trigger's state over the Newton iterations of one time step.
class ElasticLagTrigger {
 public:
  /// A new time step: the next request refreshes.
  void begin_step() { m_stale = true; }
  /// Whether the Newton iteration about to assemble should refresh the elastic Hessian.
  bool refresh_due(const ElasticLagSettings& settings) const;
  /// The elastic Hessian was refreshed (by request or because it no longer matched).
  void refreshed();
  /// A Newton iteration took a step of length alpha (0 when the line search failed).
  void record_step(double alpha);

 private:
  bool m_stale = true;
  int m_iterations_since_refresh = 0;
  std::deque<double> m_steps;  ///< the most recent step lengths, newest last
};

}  // namespace simrun
