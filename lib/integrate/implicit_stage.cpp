#include "integrate/implicit_stage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simrun {

namespace {

/// Phi(x) = 1/(2 tau^2)|x - p|_M^2 + U(x) + 1/(2 sigma)|x - c|_D^2 (see implicit_stage.hpp).
class StagePotential final : public NewtonObjective {
 public:
  StagePotential(const Model& model, const ImplicitStage& stage, const SpMat& D, bool project_psd)
      : m_model(model),
        m_stage(stage),
        m_D(D),
        m_damped(model.has_damping()),
        m_project(project_psd) {}

  double value(const VecX& x) override {
    const VecX dx = x - m_stage.predicted;
    const double t2 = m_stage.tau * m_stage.tau;
    double phi = 0.5 / t2 * dx.dot(m_model.apply_mass(dx)) + m_model.potential_energy(x);
    if (m_damped) {
      const VecX dc = x - m_stage.damping_anchor;
      phi += 0.5 / m_stage.damping_tau * dc.dot(m_D * dc);
    }
    return phi;
  }

  void gradient(const VecX& x, VecX& g) override {
    m_model.potential_gradient(x, g);
    g += m_model.apply_mass(x - m_stage.predicted) / (m_stage.tau * m_stage.tau);
    if (m_damped) g += m_D * (x - m_stage.damping_anchor) / m_stage.damping_tau;
  }

  void hessian(const VecX& x, SpMat& H) override {
    m_model.stiffness(x, H, m_project);
    add_inertia_and_damping(H);
  }

  void add_inertia_and_damping(SpMat& H) const {
    const Eigen::Index nnz = H.nonZeros();
    Eigen::Map<VecX> values(H.valuePtr(), nnz);
    values += Eigen::Map<const VecX>(m_model.mass().valuePtr(), nnz) / (m_stage.tau * m_stage.tau);
    if (m_damped) values += Eigen::Map<const VecX>(m_D.valuePtr(), nnz) / m_stage.damping_tau;
  }

  /// Thesis residual |v - a_v - tau M^-1 f| = tau |M^-1 grad Phi| (lumped M for the norm).
  double residual_norm(const VecX& g) const override {
    return m_stage.tau * g.cwiseQuotient(m_model.lumped_mass()).norm();
  }

 private:
  const Model& m_model;
  const ImplicitStage& m_stage;
  const SpMat& m_D;
  bool m_damped;
  bool m_project;
};

void add_newton_stats(const NewtonStats& n, StepStats& stats) {
  stats.newton_iterations += n.iterations;
  stats.line_search_steps += n.line_search_steps;
  stats.residual = n.residual;
}

/// Adds the linear-solver work done since `before` to stats.
void add_solver_stats(const LinearSolverStats& before, const LinearSolverStats& after,
                      StepStats& stats) {
  stats.factorizations += after.factorizations - before.factorizations;
  stats.solves += after.solves - before.solves;
  stats.ldlt_fallbacks += after.ldlt_fallbacks - before.ldlt_fallbacks;
}

/// Iterations after which the thesis checks that the residual went down (Ch. 4).
constexpr int kHalvingCheckIterations = 3;

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
    : m_settings(settings), m_solver(make_cholmod_solver()) {}

void ImplicitStageSolver::begin_step(const Model& model, const VecX& q) {
  m_factor_valid = false;
  if (!model.has_damping()) return;
  // K(q_n) for "current" damping is projected like the Newton Hessian: an indefinite D would make
  // Phi's damping term unbounded below and Newton directions no longer descent directions.
  model.damping_matrix_at(q, m_settings.project_psd, m_K, m_D);
}

namespace {

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

}  // namespace

Status ImplicitStageSolver::solve(const Model& model, const ImplicitStage& stage, VecX& x,
                                  StepStats& stats) {
  StagePotential phi(model, stage, m_D, m_settings.project_psd);
  pull_into_feasible_region(phi, stage.damping_anchor, x);
  NewtonSettings settings = m_settings.newton;
  // Step-size stop as in BE (GAUSS code): an update changing no stage velocity by more than
  // the tolerance; needed for stiff bodies where round-off keeps the residual above 1e-6.
  if (settings.step_tolerance == 0.0) settings.step_tolerance = stage.tau * settings.tolerance;
  const LinearSolverStats before = m_solver->stats();
  Status status;
  if (m_settings.step_halving && settings.max_iterations > kHalvingCheckIterations) {
    VecX g;
    phi.gradient(x, g);
    const double r0 = phi.residual_norm(g);
    NewtonSettings first = settings;
    first.max_iterations = kHalvingCheckIterations;
    NewtonStats n = newton_minimize(phi, x, *m_solver, first, &m_H);
    add_newton_stats(n, stats);
    status = n.status;
    if (status == Status::kNotConverging && n.residual < r0) {
      NewtonSettings rest = settings;
      rest.max_iterations = settings.max_iterations - kHalvingCheckIterations;
      n = newton_minimize(phi, x, *m_solver, rest, &m_H);
      add_newton_stats(n, stats);
      status = n.status;
    }
  } else {
    const NewtonStats n = newton_minimize(phi, x, *m_solver, settings, &m_H);
    add_newton_stats(n, stats);
    status = n.status;
  }
  add_solver_stats(before, m_solver->stats(), stats);
  m_factor_valid = false;  // newton_minimize refactorized at other iterates
  return status;
}

Status ImplicitStageSolver::solve_reusing_factorization(const Model& model,
                                                        const ImplicitStage& stage, VecX& x,
                                                        StepStats& stats) {
  StagePotential phi(model, stage, m_D, m_settings.project_psd);
  pull_into_feasible_region(phi, stage.damping_anchor, x);
  const NewtonSettings& settings = m_settings.newton;
  const double step_tolerance =
      settings.step_tolerance > 0.0 ? settings.step_tolerance : stage.tau * settings.tolerance;
  const LinearSolverStats before = m_solver->stats();
  if (!m_factor_valid || m_factor_tau != stage.tau || m_factor_sigma != stage.damping_tau) {
    phi.hessian(x, m_H);
    m_factor_valid = m_solver->factorize(m_H) == Status::kSuccess;
    m_factor_tau = stage.tau;
    m_factor_sigma = stage.damping_tau;
  }
  bool converged = false;
  if (m_factor_valid) {
    VecX g, dx;
    for (int it = 0; it <= settings.max_iterations; ++it) {
      phi.gradient(x, g);
      stats.residual = phi.residual_norm(g);
      if (!std::isfinite(stats.residual)) break;
      if (stats.residual <= settings.tolerance) {
        converged = true;
        break;
      }
      if (it == settings.max_iterations) break;
      m_solver->solve(g, dx);
      dx = -dx;
      ++stats.newton_iterations;
      const double slope = g.dot(dx);
      if (!(slope < 0.0)) break;
      if (dx.lpNorm<Eigen::Infinity>() <= step_tolerance) {
        x += dx;
        converged = true;
        break;
      }
      double alpha = 1.0;
      if (settings.line_search) {
        const double f0 = phi.value(x);
        const double noise = 16.0 * std::numeric_limits<double>::epsilon() * std::abs(f0);
        int halvings = 0;
        for (;; ++halvings) {
          const double f = phi.value(x + alpha * dx);
          if (std::isfinite(f) && f <= f0 + settings.armijo * alpha * slope + noise) break;
          if (halvings >= settings.max_line_search_steps) break;
          alpha *= 0.5;
          ++stats.line_search_steps;
        }
        if (halvings >= settings.max_line_search_steps) break;
      }
      x += alpha * dx;
    }
  }
  add_solver_stats(before, m_solver->stats(), stats);
  if (converged) return Status::kSuccess;
  // The frozen matrix was not good enough (strongly nonlinear step): full Newton from here.
  return solve(model, stage, x, stats);
}

Status ImplicitStageSolver::solve_linearized(const Model& model, const ImplicitStage& stage,
                                             const VecX& q_lin, VecX& x, StepStats& stats) {
  // Quadratic model of U at q_lin: grad U(x) ~ g_lin + K_lin (x - q_lin). One Newton step from
  // x0 = q_lin minimizes the model exactly: H dx = -grad Phi_model(q_lin).
  StagePotential phi(model, stage, m_D, /*project_psd=*/false);
  model.stiffness(q_lin, m_H, /*project_psd=*/false);
  phi.add_inertia_and_damping(m_H);
  VecX g;
  phi.gradient(q_lin, g);  // exact at x0 = q_lin
  const LinearSolverStats before = m_solver->stats();
  const Status status = m_solver->factorize(m_H);
  m_factor_valid = false;
  if (status != Status::kSuccess) {
    add_solver_stats(before, m_solver->stats(), stats);
    return status;
  }
  VecX dx;
  m_solver->solve(g, dx);
  add_solver_stats(before, m_solver->stats(), stats);
  ++stats.newton_iterations;
  if (!dx.allFinite()) return Status::kNumericalIssue;
  x = q_lin - dx;
  return Status::kSuccess;
}

Status ImplicitIntegrator::step(const Model& model, State& state, double h, StepStats& stats) {
  return step_recursive(model, state, h, 0, stats);
}

Status ImplicitIntegrator::step_recursive(const Model& model, State& state, double h, int depth,
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
