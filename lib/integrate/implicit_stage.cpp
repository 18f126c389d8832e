#include "integrate/implicit_stage.hpp"

#include <cmath>

#include "core/pattern_algebra.hpp"
#include "core/timer.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

namespace {

/// Phi(x) = 1/(2 tau^2)|x - p|_M^2 + U(x) + 1/(2 sigma)|x - c|_D^2 (see implicit_stage.hpp), with
/// the model's terms taking part in the line search (feasible steps, validity, hooks).
class StagePotential final : public NewtonObjective {
 public:
  StagePotential(Model& model, const ImplicitStage& stage, const SpMat& D)
      : m_model(model), m_stage(stage), m_D(D), m_damped(model.has_damping()) {}

  double value(const VecX& x) override {
    const VecX dx = x - m_stage.predicted;
    const double t2 = m_stage.tau * m_stage.tau;
    double phi = 0.5 / t2 * dx.dot(m_model.apply_mass(dx)) + m_model.potential_energy(x);
    if (m_damped) {
      const VecX dc = x - m_stage.damping_anchor;
      phi += 0.5 / m_stage.damping_tau * dc.dot(m_D * dc);
    }
    if (m_stage.extra) phi += m_stage.extra->value(x);
    return phi;
  }

  void gradient(const VecX& x, VecX& g) override {
    m_model.potential_gradient(x, g);
    g += m_model.apply_mass(x - m_stage.predicted) / (m_stage.tau * m_stage.tau);
    if (m_damped) g += m_D * (x - m_stage.damping_anchor) / m_stage.damping_tau;
    if (m_stage.extra) m_stage.extra->add_gradient(x, g);
  }

  void hessian(const VecX& x, SpMat& H, bool project) override {
    m_model.stiffness(x, H, project);
    if (m_stage.extra) m_stage.extra->add_hessian(x, H, project);
    add_inertia_and_damping(H);
  }

  /// The same matrix in parts (solve/hessian_parts.hpp): inertia, damping, the stage's extra
  /// term and the non-elastic terms fresh; the elastic terms lagged and, with a rule, by cubature.
  bool hessian_parts(const VecX& x, bool project, bool refresh_elastic,
                     HessianParts& parts) override {
    m_model.non_elastic_stiffness(x, parts.fresh, project);
    if (m_stage.extra) m_stage.extra->add_hessian(x, parts.fresh, project);
    add_inertia_and_damping(parts.fresh);
    if (refresh_elastic) {
      const Timer timer;
      m_model.elastic_stiffness(x, parts.elastic_lagged, project);
      parts.elastic_valid = true;
      parts.elastic_projected = project;
      parts.refresh_seconds += timer.seconds();
    } else {
      // Contact stencils changed the pattern since the refresh: the kept elastic values move
      // onto it once (they lie inside every pattern), so the sums stay value-array sums.
      move_onto_pattern(parts.elastic_lagged, parts.fresh);
    }
    parts.has_cubature = m_model.has_elastic_cubature();
    if (parts.has_cubature) {
      const Timer timer;
      m_model.cubature_elastic_stiffness(x, parts.elastic_cubature, project);
      parts.cubature_seconds += timer.seconds();
    }
    return true;
  }

  /// H += M / tau^2 + D / sigma.
  void add_inertia_and_damping(SpMat& H) const {
    add_scaled(H, 1.0 / (m_stage.tau * m_stage.tau), m_model.mass());
    if (m_damped) add_scaled(H, 1.0 / m_stage.damping_tau, m_D);
  }

  /// Thesis residual |v - a_v - tau M^-1 f| = tau |M^-1 grad Phi| (lumped M for the norm).
  double residual_norm(const VecX& g) const override {
    return m_stage.tau * g.cwiseQuotient(m_model.lumped_mass()).norm();
  }

  /// The inertia and damping quadratics count with their value plus the rounding of x - p
  /// (|M (x - p)| |x| / tau^2), the potential with its terms' magnitudes.
  double value_magnitude(const VecX& x) override {
    const VecX dx = x - m_stage.predicted;
    const VecX inertia_force = m_model.apply_mass(dx) / (m_stage.tau * m_stage.tau);
    const VecX scale = x.cwiseAbs() + m_stage.predicted.cwiseAbs();
    double magnitude = 0.5 * std::abs(dx.dot(inertia_force)) + inertia_force.cwiseAbs().dot(scale) +
                       m_model.energy_magnitude(x);
    if (m_damped) {
      const VecX dc = x - m_stage.damping_anchor;
      const VecX damping_force = m_D * dc / m_stage.damping_tau;
      magnitude += 0.5 * std::abs(dc.dot(damping_force)) +
                   damping_force.cwiseAbs().dot(x.cwiseAbs() + m_stage.damping_anchor.cwiseAbs());
    }
    if (m_stage.extra) magnitude += std::abs(m_stage.extra->value(x));
    return magnitude;
  }

  double max_step(const VecX& x, const VecX& dx) override {
    return m_model.max_feasible_step(x, dx);
  }
  bool is_valid(const VecX& x) override { return m_model.is_valid(x); }
  void begin_line_search(const VecX& x) override { m_model.begin_line_search(x); }
  void end_line_search(const VecX& x) override { m_model.end_line_search(x); }
  void on_iterate(const VecX& x) override { m_model.on_iterate(x); }

 private:
  Model& m_model;
  const ImplicitStage& m_stage;
  const SpMat& m_D;
  bool m_damped;
};

void add_newton_stats(const NewtonStats& n, StepStats& stats) {
  stats.newton_iters += n.iterations;
  stats.reused_iters += n.reused_iterations;
  stats.line_search_steps += n.line_search_steps;
  stats.projected_iters += n.projected_iterations;
  stats.gradient_s += n.gradient_seconds;
  stats.hessian_s += n.hessian_seconds;
  stats.line_search_s += n.line_search_seconds;
  stats.ml_lag_refreshes += n.elastic_refreshes;
  stats.ml_lag_s += n.elastic_refresh_seconds;
  stats.ml_cubature_s += n.cubature_seconds;
  stats.residual = n.residual;
}

/// Augmented-Lagrangian multiplier updates per stage at most (each solves the stage again).
constexpr int kMultiplierUpdates = 8;

/// Iterations after which the thesis checks that the residual went down (Ch. 4).
constexpr int kHalvingCheckIterations = 3;

/// Pulls an infeasible guess (Phi = inf or NaN, e.g. a neo-Hookean element inverted by the
/// inertial prediction) back toward the damping anchor c = a_q, halving x - c until Phi is
/// finite. Newton's line search keeps later iterates feasible. Leaves x unchanged when no
/// point on the segment is feasible (Newton then reports the numerical issue).
void pull_into_feasible_region(StagePotential& phi, const VecX& anchor, VecX& x) {
  if (std::isfinite(phi.value(x)) || anchor.size() != x.size()) return;
  VecX trial = x;
  for (int halving = 0; halving < 30; ++halving) {
    trial = anchor + 0.5 * (trial - anchor);
    if (std::isfinite(phi.value(trial))) {
      x = trial;
      return;
    }
  }
}

/// Moves the guess x back toward the feasible start by the largest step the model's terms allow
/// (contact: CCD along start -> x).
void pull_into_collision_free_region(const Model& model, const VecX& start, VecX& x) {
  if (start.size() != x.size()) return;
  const double alpha = model.max_feasible_step(start, x - start);
  if (alpha < 1.0) x = start + alpha * (x - start);
}

/// Step-size stop as in BE (GAUSS code): an update changing no stage velocity by more than the
/// tolerance; needed for stiff bodies where round-off keeps the residual above 1e-6.
NewtonSettings stage_newton_settings(const NewtonSettings& settings, double tau) {
  NewtonSettings s = settings;
  if (s.step_tolerance == 0.0) s.step_tolerance = tau * s.tolerance;
  s.direction_tolerance *= tau;  // a velocity [m/s] -> a position increment
  return s;
}

}  // namespace

ImplicitStage recipe_stage(const VecX& a_q, const VecX& a_v, double tau) {
  ImplicitStage s;
  s.predicted = a_q + tau * a_v;
  s.tau = tau;
  s.damping_anchor = a_q;
  s.damping_tau = tau;
  return s;
}

ImplicitStageSolver::ImplicitStageSolver(const IntegratorSettings& settings)
    : m_settings(settings), m_solver(settings.linear_solver()) {}

void ImplicitStageSolver::begin_step(Model& model, const VecX& q) {
  if (!m_settings.reuse_across_steps || m_settings.newton.reuse_contraction <= 0.0)
    m_newton.factorized = false;
  m_newton.lag.begin_step();  // the lagged elastic Hessian is refreshed at every step's start
  if (!model.has_damping()) return;
  // K(q_n) for "current" damping is projected like the Newton Hessian: an indefinite D would make
  // Phi's damping term unbounded below and Newton directions no longer descent directions.
  const bool project = projects_damping(m_settings);
  model.damping_matrix_at(q, project, m_K, m_D);
}

Status ImplicitStageSolver::solve(Model& model, const ImplicitStage& stage, VecX& x,
                                  StepStats& stats) {
  StagePotential phi(model, stage, m_D);
  pull_into_collision_free_region(model, stage.start, x);
  pull_into_feasible_region(phi, stage.damping_anchor, x);
  NewtonSettings settings = stage_newton_settings(m_settings.newton, stage.tau);
  settings.reuse_factorization = false;
  // A factorization kept from another pattern cannot serve (another system size).
  if (m_factor_pattern != model.pattern_version()) m_newton.factorized = false;
  m_factor_pattern = model.pattern_version();
  const SolverMeter meter(*m_solver, stats);
  Status status;
  if (m_settings.step_halving && settings.max_iterations > kHalvingCheckIterations) {
    VecX g;
    phi.gradient(x, g);
    const double r0 = phi.residual_norm(g);
    NewtonSettings first = settings;
    first.max_iterations = kHalvingCheckIterations;
    NewtonStats n = newton_solve(phi, x, *m_solver, first, m_newton);
    add_newton_stats(n, stats);
    status = n.status;
    if (status == Status::kNotConverging && n.residual < r0) {
      NewtonSettings rest = settings;
      rest.max_iterations = settings.max_iterations - kHalvingCheckIterations;
      n = newton_solve(phi, x, *m_solver, rest, m_newton);
      add_newton_stats(n, stats);
      status = n.status;
    }
  } else {
    const NewtonStats n = newton_solve(phi, x, *m_solver, settings, m_newton);
    add_newton_stats(n, stats);
    status = n.status;
  }
  // Augmented Lagrangian of constraints held by penalties (kinematic obstacle vertices): update
  // the multipliers and solve again while a constraint is not met, at most kMultiplierUpdates
  // times (the lag that remains is reported in stats.csv).
  for (int update = 0; status == Status::kSuccess && update < kMultiplierUpdates; ++update) {
    if (!model.update_multipliers(x)) break;
    const NewtonStats n = newton_solve(phi, x, *m_solver, settings, m_newton);
    add_newton_stats(n, stats);
    status = n.status;
    stats.multiplier_updates += 1;
  }
  // Extra lag updates (IPC friction): re-lag at the solution and solve again until the re-lagged
  // problem is already solved (Newton takes no iteration) or the budget is spent.
  for (int update = 0; status == Status::kSuccess && update < m_settings.lag_updates; ++update) {
    if (!model.update_lagged(x)) break;
    if (m_factor_pattern != model.pattern_version()) m_newton.factorized = false;
    m_factor_pattern = model.pattern_version();
    const NewtonStats n = newton_solve(phi, x, *m_solver, settings, m_newton);
    add_newton_stats(n, stats);
    status = n.status;
    if (n.iterations == 0) break;
    stats.lag_updates += 1;
  }
  // Without adaptive reuse the next solve factorizes afresh (the solver now holds a
  // factorization at an iterate of this solve, which only adaptive reuse may use).
  if (m_settings.newton.reuse_contraction <= 0.0) m_newton.factorized = false;
  return status;
}

Status ImplicitStageSolver::solve_reusing_factorization(Model& model, const ImplicitStage& stage,
                                                        VecX& x, StepStats& stats) {
  if (m_newton.factorized && (m_factor_tau != stage.tau || m_factor_sigma != stage.damping_tau ||
                              m_factor_pattern != model.pattern_version())) {
    m_newton.factorized = false;
  }
  m_factor_pattern = model.pattern_version();
  m_factor_tau = stage.tau;
  m_factor_sigma = stage.damping_tau;
  StagePotential phi(model, stage, m_D);
  pull_into_feasible_region(phi, stage.damping_anchor, x);
  NewtonSettings settings = stage_newton_settings(m_settings.newton, stage.tau);
  settings.reuse_factorization = true;
  Status status;
  {
    const SolverMeter meter(*m_solver, stats);
    const NewtonStats n = newton_solve(phi, x, *m_solver, settings, m_newton);
    add_newton_stats(n, stats);
    status = n.status;
  }
  if (status == Status::kSuccess) return status;
  // The frozen matrix was not good enough (strongly nonlinear step): full Newton from here.
  return solve(model, stage, x, stats);
}

Status ImplicitStageSolver::solve_linearized(Model& model, const ImplicitStage& stage,
                                             const VecX& q_lin, VecX& x, StepStats& stats) {
  // Quadratic model of U at q_lin: grad U(x) ~ g_lin + K_lin (x - q_lin). One Newton step from
  // x0 = q_lin minimizes the model exactly: H dx = -grad Phi_model(q_lin).
  StagePotential phi(model, stage, m_D);
  phi.hessian(q_lin, m_newton.H, /*project=*/false);
  VecX g;
  phi.gradient(q_lin, g);  // exact at x0 = q_lin
  const SolverMeter meter(*m_solver, stats);
  const Status status = m_solver->factorize(m_newton.H);
  m_newton.factorized = false;
  if (status != Status::kSuccess) return status;
  VecX dx;
  m_solver->solve(g, dx);
  ++stats.newton_iters;
  if (!dx.allFinite()) return Status::kNumericalIssue;
  x = q_lin - dx;
  return Status::kSuccess;
}

Status ImplicitIntegrator::step(Model& model, State& state, double h, StepStats& stats) {
  return step_recursive(model, state, h, 0, stats);
}

Status ImplicitIntegrator::step_recursive(Model& model, State& state, double h, int depth,
                                          StepStats& stats) {
  const Status status = attempt(model, state, h, stats);
  if (status == Status::kSuccess || !m_settings.step_halving || depth >= m_settings.max_halvings) {
    return status;
  }
  const State saved = state;
  for (int half = 0; half < 2; ++half) {
    const Status s = step_recursive(model, state, 0.5 * h, depth + 1, stats);
    if (s != Status::kSuccess) {
      state = saved;
      return s;
    }
  }
  return Status::kSuccess;
}

}  // namespace simrun
