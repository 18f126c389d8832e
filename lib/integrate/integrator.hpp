#pragma once
/// Time integrator interface. Integrators are written against the Model (never a material) and
/// advance the free-DOF state (q, v) by one step h.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.hpp"
#include "core/step_stats.hpp"
#include "model/model.hpp"
#include "solve/newton.hpp"

namespace simrun {

struct State {
  VecX q;  ///< free positions [m]
  VecX v;  ///< free velocities [m/s]
  double t = 0.0;
};

struct IntegratorSettings {
  /// Implicit stages; newton.projection also decides whether the stiffness in "current"
  /// Rayleigh damping is projected (always, unless projection is kNever).
  NewtonSettings newton;
  /// Adaptive factorization reuse (newton.reuse_contraction > 0) may also keep the factorization
  /// from one time step to the next (the scene's "across_steps").
  bool reuse_across_steps = false;
  /// Backward Euler starts Newton from the constant-acceleration prediction (scene
  /// integrator.predictor "acceleration") instead of q + h v ("velocity").
  bool extrapolate_guess = false;
  /// Makes the linear solvers of the integrator (scene "solver").
  LinearSolverFactory linear_solver = make_cholmod_solver;
  /// Chen thesis Ch. 4 numerical continuation: when a Newton solve's residual has not decreased
  /// after 3 iterations (or the solve fails), the step is retaken as two steps of h/2,
  /// recursively, at most `max_halvings` levels deep. Newton-based integrators only.
  bool step_halving = false;
  int max_halvings = 4;
  /// Newmark parameters (survey Sec. 3.8); beta = 1/4, gamma = 1/2 is the average-acceleration
  /// (trapezoidal) rule: second order, no numerical dissipation.
  double newmark_beta = 0.25;
  double newmark_gamma = 0.5;
  /// Generalized-alpha (Chung-Hulbert 1993) spectral radius at infinite step, rho_inf in [0, 1]:
  /// 1 = no dissipation (trapezoidal), 0 = asymptotic annihilation of the highest modes.
  double rho_inf = 0.5;
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string_view name() const = 0;
  /// Advances `state` by h. On a failed status the state is left as it was. The model is not
  /// const: its terms take part in the solver protocol (line-search hooks, pattern updates).
  virtual Status step(Model& model, State& state, double h, StepStats& stats) = 0;
};

/// The integrator registered under `name`; throws InputError naming the known ones otherwise.
std::unique_ptr<Integrator> make_integrator(std::string_view name,
                                            const IntegratorSettings& settings);
/// Names of the registered integrators.
std::vector<std::string> integrator_names();

}  // namespace simrun
