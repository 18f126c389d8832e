#pragma once
/// Time integrator interface. Integrators are written against the Model (never a material) and
/// advance the free-DOF state (q, v) by one step h.
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "coarsen/eigenfit_correction.hpp"
#include "core/status.hpp"
#include "core/step_stats.hpp"
#include "model/model.hpp"
#include "solve/krylov_expv.hpp"
#include "solve/newton.hpp"

namespace simrun {

struct State {
  VecX q;  ///< free positions [m]
  VecX v;  ///< free velocities [m/s]
  double t = 0.0;
};

/// True when a and b hold the same positions and velocities (of the same size: a release
/// changes the free DOFs). Multistep integrators use it to tell their own last output from a
/// restarted state.
inline bool same_state(const State& a, const State& b) {
  return a.q.size() == b.q.size() && a.v.size() == b.v.size() && a.q == b.q && a.v == b.v;
}

/// What an integrator carries from one step to the next beyond the state (a multistep method's
/// previous state, Newmark's acceleration, BE's predictor history), for checkpoints: named
/// vectors and numbers. One-step methods carry nothing.
struct IntegratorHistory {
  std::map<std::string, VecX> vectors;
  std::map<std::string, double> numbers;

  bool empty() const { return vectors.empty() && numbers.empty(); }
  void put(const std::string& name, const State& s) {
    vectors[name + ".q"] = s.q;
    vectors[name + ".v"] = s.v;
    numbers[name + ".t"] = s.t;
  }
  /// False (and `s` untouched) when the history has no state of that name.
  bool get(const std::string& name, State& s) const {
    const auto q = vectors.find(name + ".q"), v = vectors.find(name + ".v");
    const auto t = numbers.find(name + ".t");
    if (q == vectors.end() || v == vectors.end() || t == numbers.end()) return false;
    s = {q->second, v->second, t->second};
    return true;
  }
};

/// A two-step method's history (BDF2, SBDF2ERE): u_{n-1}, the step h_{n-1} that led from it,
/// and u_n as the method produced it. Empty when `valid` is false.
inline IntegratorHistory two_step_history(bool valid, const VecX& prev_q, const VecX& prev_v,
                                          double prev_h, const State& last) {
  IntegratorHistory h;
  if (!valid) return h;
  h.put("previous", State{prev_q, prev_v, 0.0});
  h.numbers["prev_h"] = prev_h;
  h.put("last", last);
  return h;
}

/// Reads what two_step_history() wrote; false (outputs untouched or partly set, to be ignored)
/// when the history lacks any of it.
inline bool restore_two_step_history(const IntegratorHistory& h, VecX& prev_q, VecX& prev_v,
                                     double& prev_h, State& last) {
  State previous;
  const auto step = h.numbers.find("prev_h");
  if (step == h.numbers.end() || !h.get("previous", previous) || !h.get("last", last)) return false;
  prev_q = previous.q;
  prev_v = previous.v;
  prev_h = step->second;
  return true;
}

struct IntegratorSettings {
  /// Implicit stages; newton.projection also decides whether the stiffness in "current"
  /// Rayleigh damping is projected (always, unless projection is kNever).
  NewtonSettings newton;
  /// Implicit stages: after Newton converges, re-lag the terms' lagged quantities (IPC friction)
  /// at the solution and solve again, at most this many times (scene contact.lag_updates).
  int lag_updates = 0;
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
  /// Newmark parameters (survey Sec. 3.4); beta = 1/4, gamma = 1/2 is the average-acceleration
  /// (trapezoidal) rule: second order, no numerical dissipation.
  double newmark_beta = 0.25;
  double newmark_gamma = 0.5;
  /// Generalized-alpha (Chung-Hulbert 1993) spectral radius at infinite step, rho_inf in [0, 1]:
  /// 1 = no dissipation (trapezoidal), 0 = asymptotic annihilation of the highest modes.
  double rho_inf = 0.5;
  /// Variational integrators (Kharevych thesis Ch. 3, integrate/variational_alpha.hpp): the
  /// quadrature point of variational_alpha, and the residual re-injection (Sec. 3.2.11).
  double variational_alpha = 0.5;
  bool reinject_residual = true;
  /// Kharevych step-size independent visco-elastic damping (model/viscous_damping.hpp): k_D [s]
  /// (0: none), applied by the variational integrators as the explicit impulse F_dampExp.
  double viscous_k_d = 0.0;
  /// The thesis' integrable implicit form F_dampImpApprox (inside the Lilyan) instead.
  bool viscous_implicit = false;
  /// Exponential family (Chen thesis Ch. 4-6): Krylov expv settings (ERE, STR-SBDF2ERE's first
  /// stage), the spectral split's mode count s (0: SIERE is SI) and its eigendecomposition
  /// period in steps.
  KrylovSettings krylov;
  int modes = 5;
  /// Rigid modes of the free bodies (6 each), added to `modes` in the split integrators so that
  /// s counts elastic modes: otherwise a free body's s lowest modes would be its rigid motions,
  /// which SI integrates as well as the exponential does (their lambda is ~0).
  int rigid_modes = 0;
  int eigen_refresh = 1;
  /// Between Lanczos refreshes, follow the modes by one subspace iteration per step on the
  /// step's factorization ("eigen_update": "subspace") instead of keeping the basis.
  bool eigen_tracking = false;
  /// The per-step Lanczos solves' iteration cap and tolerance (split integrators, EigenFit).
  GeneralizedEigenSettings eigensolver;
  /// MSSI in the thesis' literal form (eq. 5.8: no -h K_s v_n term, no damping in the matrix)
  /// instead of the derived one (Eq. 5.4 with J_H from K_s alone; integrate/mssi.hpp).
  bool mssi_literal = false;
  /// SBDF2ERE and STR-SBDF2ERE with the survey's printed phi_1 arguments (eqs. 22, 26c: first
  /// order, unstable for undamped exponential modes) instead of the consistent doubled ones.
  bool printed_phi_argument = false;
  /// EigenFit (Chen et al. 2019; coarsen/eigenfit_correction.hpp): when set, SI and implicit
  /// midpoint use the corrected elastic force and stiffness f', K' = K + Y Z^T. Shared by the
  /// integrators a system makes (it keeps the rest ratios and the modes).
  std::shared_ptr<EigenFitCorrection> eigenfit;
};

/// Whether the stiffness in "current" Rayleigh damping is PSD-projected (see newton.projection).
inline bool projects_damping(const IntegratorSettings& s) {
  return s.newton.projection != HessianProjection::kNever;
}

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string_view name() const = 0;
  /// Advances `state` by h. On a failed status the state is left as it was. The model is not
  /// const: its terms take part in the solver protocol (line-search hooks, pattern updates).
  virtual Status step(Model& model, State& state, double h, StepStats& stats) = 0;
  /// Why the last failed step failed, in words for run.json ("the eigensolve did not converge
  /// ..."); empty when the status says it all.
  virtual std::string failure_detail() const { return {}; }
  /// The history a checkpoint keeps, and its restoration in a freshly made integrator, so a
  /// resumed run takes the same steps as an uninterrupted one. Cached factorizations and
  /// eigenbases are not history: a resumed run recomputes them.
  virtual IntegratorHistory history() const { return {}; }
  virtual void restore_history(const IntegratorHistory& /*history*/) {}
  /// True for schemes with a discrete energy E_d = -dL_d/dh of their discrete Lagrangian
  /// (variational integrators); energy.csv then gets a discrete_energy column.
  virtual bool has_discrete_energy() const { return false; }
  /// E_d of the last step taken (NaN before the first step, or without one).
  virtual double discrete_energy(const Model& /*model*/) const {
    return std::numeric_limits<double>::quiet_NaN();
  }
};

/// The integrator registered under `name`; throws InputError naming the known ones otherwise.
std::unique_ptr<Integrator> make_integrator(std::string_view name,
                                            const IntegratorSettings& settings);
/// Names of the registered integrators.
std::vector<std::string> integrator_names();

}  // namespace simrun
