/// Newton with backtracking line search, see newton.hpp.
#include "solve/newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/pattern_algebra.hpp"
#include "core/timer.hpp"

namespace simrun {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

/// Fallback direction when the Newton direction is unusable (factorization failed, or the LDL'
/// fallback of an indefinite Hessian gave an ascent direction): Jacobi-scaled steepest descent,
/// dx_i = -g_i / |H_ii|. Any positive diagonal scaling keeps it a descent direction; dividing by
/// the Hessian diagonal gives it the units of a displacement (force / stiffness), so the line
/// search starts from a step of the right size instead of |g|, which can be off by the
/// stiffness (1e9 for stiff materials). Zero or non-finite diagonal entries fall back to the
/// largest finite |H_ii| (or to 1 when there is none).
void scaled_gradient_direction(const VecX& g, const SpMat& H, VecX& dx) {
  VecX d = H.diagonal().cwiseAbs();
  double d_max = 0.0;
  for (Eigen::Index i = 0; i < d.size(); ++i)
    if (std::isfinite(d[i])) d_max = std::max(d_max, d[i]);
  if (!(d_max > 0.0)) d_max = 1.0;
  for (Eigen::Index i = 0; i < d.size(); ++i)
    if (!(d[i] > 0.0) || !std::isfinite(d[i])) d[i] = d_max;
  dx = -g.cwiseQuotient(d);
}

/// objective.hessian(x, H, project), timed into stats.hessian_seconds.
void assemble_hessian(NewtonObjective& objective, const VecX& x, SpMat& H, bool project,
                      NewtonStats& stats) {
  const Timer timer;
  objective.hessian(x, H, project);
  stats.hessian_seconds += timer.seconds();
}

/// objective.hessian_parts into the workspace, refreshing the lagged elastic part when the
/// trigger asks or when it no longer matches (none yet, another projection). False when the
/// objective cannot split its Hessian.
bool assemble_hessian_parts(NewtonObjective& objective, const VecX& x, bool project,
                            const NewtonSettings& settings, NewtonWorkspace& workspace,
                            NewtonStats& stats) {
  HessianParts& parts = workspace.parts;
  const bool refresh = workspace.lag.refresh_due(settings.elastic_lag) || !parts.elastic_valid ||
                       parts.elastic_projected != project;
  const double cubature_before = parts.cubature_seconds, refresh_before = parts.refresh_seconds;
  const Timer timer;
  if (!objective.hessian_parts(x, project, refresh, parts)) return false;
  stats.hessian_seconds += timer.seconds();
  stats.cubature_seconds += parts.cubature_seconds - cubature_before;
  stats.elastic_refresh_seconds += parts.refresh_seconds - refresh_before;
  if (refresh) {
    workspace.lag.refreshed();
    ++stats.elastic_refreshes;
  }
  return true;
}

/// The Newton matrix whole: H = fresh + elastic_lagged (the matrix the polish solves with), for
/// the scaled-gradient fallback when the solver took the Hessian in parts.
void whole_from_parts(const HessianParts& parts, SpMat& H) {
  assign_combination(H, {{1.0, &parts.fresh}, {1.0, &parts.elastic_lagged}});
}

/// Assembles the PSD-projected Newton matrix (in parts for the solvers that take parts, when the
/// objective can split it) and sets the solver up with it; true on success.
bool factorize_projected_newton_matrix(NewtonObjective& objective, const VecX& x,
                                       LinearSolver& solver, const NewtonSettings& settings,
                                       NewtonWorkspace& workspace, NewtonStats& stats) {
  ++stats.projected_iterations;
  if (solver.uses_hessian_parts() &&
      assemble_hessian_parts(objective, x, true, settings, workspace, stats))
    return solver.factorize_parts(workspace.parts, false) == Status::kSuccess;
  assemble_hessian(objective, x, workspace.H, true, stats);
  return solver.factorize(workspace.H) == Status::kSuccess;
}

/// Assembles and factorizes the Newton matrix per settings.projection (the true Hessian in
/// residual mode); true on success. `auto` tries the true Hessian as positive definite first.
bool factorize_newton_matrix(NewtonObjective& objective, const VecX& x, LinearSolver& solver,
                             const NewtonSettings& settings, NewtonWorkspace& workspace,
                             NewtonStats& stats) {
  const bool residual_mode = settings.mode == NewtonMode::kResidual;
  const HessianProjection projection =
      residual_mode ? HessianProjection::kNever : settings.projection;
  if (projection == HessianProjection::kAlways)
    return factorize_projected_newton_matrix(objective, x, solver, settings, workspace, stats);
  const bool require_positive = projection == HessianProjection::kAuto;
  if (!residual_mode && solver.uses_hessian_parts() &&
      assemble_hessian_parts(objective, x, false, settings, workspace, stats)) {
    if (solver.factorize_parts(workspace.parts, require_positive) == Status::kSuccess) return true;
  } else {
    assemble_hessian(objective, x, workspace.H, false, stats);
    if (!require_positive) return solver.factorize(workspace.H) == Status::kSuccess;
    if (solver.factorize_positive_definite(workspace.H) == Status::kSuccess) return true;
  }
  return require_positive &&
         factorize_projected_newton_matrix(objective, x, solver, settings, workspace, stats);
}

/// Backtracking on Phi (minimization). Returns the accepted alpha, or 0 when none was found;
/// x_trial and f_trial hold the accepted point and its value.
double armijo_line_search(NewtonObjective& objective, const VecX& x, double f0, const VecX& g,
                          const VecX& dx, const NewtonSettings& settings, VecX& x_trial,
                          double& f_trial, NewtonStats& stats) {
  const double slope = g.dot(dx);  // < 0
  // Near convergence the predicted decrease drops below the rounding error of Phi, so Armijo
  // compares against an energy known only to its noise level; accept changes within it instead
  // of halving forever. The cheap bound 16 eps |Phi| is tried first; when a trial fails it, the
  // bound from the terms' magnitudes (whose rounding errors Phi sums by cancellation) is used.
  double noise = 16.0 * kEps * std::abs(f0);
  bool magnitude_noise = false;
  double alpha = std::min(1.0, objective.max_step(x, dx));
  if (!(alpha > 0.0)) return 0.0;
  for (int halvings = 0;; ++halvings) {
    x_trial = x + alpha * dx;
    // An invalid or non-finite trial (an inverted element) just means the step is too long.
    const double f = objective.is_valid(x_trial) ? objective.value(x_trial)
                                                 : std::numeric_limits<double>::infinity();
    const double bound = f0 + settings.armijo * alpha * slope;
    if (std::isfinite(f) && f > bound + noise && !magnitude_noise) {
      magnitude_noise = true;
      noise = std::max(noise, kArmijoNoiseFactor * kEps * objective.value_magnitude(x));
    }
    if (std::isfinite(f) && f <= bound + noise) {
      f_trial = f;
      return alpha;
    }
    if (halvings >= settings.max_line_search_steps) return 0.0;
    alpha *= 0.5;
    ++stats.line_search_steps;
  }
}

/// Backtracking on the merit m = residual_norm(r)^2 / 2 (residual mode). Returns alpha or 0;
/// x_trial and r_trial hold the accepted point and its residual.
double merit_line_search(NewtonObjective& objective, const VecX& x, double merit0, const VecX& dx,
                         const NewtonSettings& settings, VecX& x_trial, VecX& r_trial,
                         NewtonStats& stats) {
  double alpha = std::min(1.0, objective.max_step(x, dx));
  if (!(alpha > 0.0)) return 0.0;
  for (int halvings = 0;; ++halvings) {
    x_trial = x + alpha * dx;
    if (objective.is_valid(x_trial)) {
      objective.gradient(x_trial, r_trial);
      const double norm = objective.residual_norm(r_trial);
      const double merit = 0.5 * norm * norm;
      // With an exact Jacobian the merit's slope along dx is -2 merit0.
      if (std::isfinite(merit) && merit <= (1.0 - 2.0 * settings.armijo * alpha) * merit0)
        return alpha;
    }
    if (halvings >= settings.max_line_search_steps) return 0.0;
    alpha *= 0.5;
    ++stats.line_search_steps;
  }
}

/// What one Newton solve works with, for the steps of its loop.
struct NewtonRun {
  NewtonObjective& objective;
  LinearSolver& solver;
  const NewtonSettings& settings;
  NewtonWorkspace& workspace;
  NewtonStats& stats;
  bool residual_mode = false;
};

/// The loop's state carried between iterations.
struct NewtonIterate {
  explicit NewtonIterate(Eigen::Index n) : g(n), dx(n), x_trial(n) {}
  VecX g, dx, x_trial, g_trial;
  double f_x = 0.0;        // Phi(x), when known
  bool f_x_known = false;  // Phi(x) is known from the accepted trial of the last line search
  bool g_x_known = false;  // g holds the residual at x (residual mode's line search)
  bool last_kept = false;  // the last iteration solved with a kept factorization
  double previous_residual = std::numeric_limits<double>::infinity();
};

/// Evaluates the gradient (residual) at x unless known; the status to stop with when it is not
/// finite, small enough, or the iterations are used up.
std::optional<Status> check_residual(NewtonRun& run, const VecX& x, NewtonIterate& it) {
  const NewtonSettings& settings = run.settings;
  NewtonStats& stats = run.stats;
  if (!it.g_x_known) {
    const Timer timer;
    run.objective.gradient(x, it.g);
    stats.gradient_seconds += timer.seconds();
  }
  it.g_x_known = false;
  stats.residual = run.objective.residual_norm(it.g);
  if (!it.g.allFinite() || !std::isfinite(stats.residual)) return Status::kNumericalIssue;
  if (stats.residual <= settings.tolerance) return Status::kSuccess;
  // Adaptively kept iterations do not count against the cap: each must shrink the residual by
  // reuse_contraction, so they cannot go on without converging (a safety cap of four times
  // max_iterations bounds them anyway). Frozen iterations (reuse_factorization) all count.
  const int counted =
      settings.reuse_factorization ? stats.iterations : stats.iterations - stats.reused_iterations;
  if (counted >= settings.max_iterations || stats.iterations >= 4 * settings.max_iterations)
    return Status::kNotConverging;
  return std::nullopt;
}

/// How the iteration's direction came about.
struct DirectionSolve {
  bool newton_direction = false;  // dx is a descent direction from the Newton matrix
  bool kept = false;              // solved with a kept factorization
  bool factorized = false;        // a factorization is set up
};

/// Refactorizes for a solve that proved the true Hessian indefinite; false when no
/// factorization is left.
bool refactorize_proved_indefinite(NewtonRun& run, const VecX& x, NewtonIterate& it,
                                   DirectionSolve& d) {
  NewtonWorkspace& workspace = run.workspace;
  if (d.kept) {
    d.kept = false;
    d.factorized =
        factorize_newton_matrix(run.objective, x, run.solver, run.settings, workspace, run.stats);
    workspace.factorized = d.factorized;
    if (d.factorized) run.solver.solve(it.g, it.dx);
  }
  if (d.factorized && run.solver.solve_proved_indefinite()) {
    d.factorized = factorize_projected_newton_matrix(run.objective, x, run.solver, run.settings,
                                                     workspace, run.stats);
    workspace.factorized = d.factorized;
    if (d.factorized) run.solver.solve(it.g, it.dx);
  }
  return d.factorized;
}

/// The Newton direction into it.dx, with a kept or a fresh factorization.
DirectionSolve solve_for_direction(NewtonRun& run, const VecX& x, NewtonIterate& it) {
  const NewtonSettings& settings = run.settings;
  NewtonWorkspace& workspace = run.workspace;
  DirectionSolve d;
  // A kept factorization (from an earlier iterate, or an earlier solve) serves while it keeps
  // contracting the residual; otherwise, and when it gives no descent, a fresh one.
  if (workspace.factorized) {
    d.kept =
        settings.reuse_factorization ||
        (settings.reuse_contraction > 0.0 &&
         !(it.last_kept && run.stats.residual > settings.reuse_contraction * it.previous_residual));
  }
  d.factorized = d.kept;
  for (int attempt = 0; attempt < 2 && !d.newton_direction; ++attempt) {
    if (attempt == 1) {
      if (!d.kept || settings.reuse_factorization) break;
      d.kept = false;  // the kept matrix gave no descent: refactorize once
      d.factorized = false;
    }
    if (!d.factorized) {
      d.factorized =
          factorize_newton_matrix(run.objective, x, run.solver, settings, workspace, run.stats);
      workspace.factorized = d.factorized;
    }
    if (d.factorized) {
      run.solver.solve(it.g, it.dx);
      // `auto` with an iterative solver: a solve that met non-positive curvature proved the
      // true Hessian indefinite after all (a positive diagonal and, for the multilevel
      // solver, positive definite subspace matrices could not); its truncated answer is a
      // poor direction, so project and solve again. A kept matrix is from an earlier
      // iterate: the current true Hessian is tried first. Frozen matrices
      // (reuse_factorization) stay as the caller set them up.
      if (settings.projection == HessianProjection::kAuto && !run.residual_mode &&
          !settings.reuse_factorization && run.solver.solve_proved_indefinite()) {
        if (!refactorize_proved_indefinite(run, x, it, d)) break;
      }
      it.dx = -it.dx;
      // Strict descent (of Phi, or of the merit: r.J dx = -|r|^2); NaN in dx fails too.
      d.newton_direction = run.residual_mode ? it.dx.allFinite() : it.g.dot(it.dx) < 0.0;
    }
  }
  return d;
}

/// How a line search ended.
enum class LineSearchOutcome { kAccepted, kRetry, kStop };

/// The line search along it.dx, moving x to the accepted point; kRetry when a kept matrix's
/// direction found no step (x unchanged), kStop with stats.status set when the solve ends.
LineSearchOutcome line_search_step(NewtonRun& run, VecX& x, NewtonIterate& it, bool kept) {
  NewtonObjective& objective = run.objective;
  const NewtonSettings& settings = run.settings;
  NewtonStats& stats = run.stats;
  const Timer line_search_timer;
  objective.begin_line_search(x);
  double alpha = 0.0;
  if (run.residual_mode) {
    const double merit0 = 0.5 * stats.residual * stats.residual;
    alpha = merit_line_search(objective, x, merit0, it.dx, settings, it.x_trial, it.g_trial, stats);
  } else {
    if (!it.f_x_known) it.f_x = objective.value(x);
    if (!std::isfinite(it.f_x)) {
      objective.end_line_search(x);
      stats.line_search_seconds += line_search_timer.seconds();
      stats.status = Status::kNumericalIssue;
      return LineSearchOutcome::kStop;
    }
    alpha =
        armijo_line_search(objective, x, it.f_x, it.g, it.dx, settings, it.x_trial, it.f_x, stats);
  }
  run.workspace.lag.record_step(alpha);
  if (!(alpha > 0.0)) {
    objective.end_line_search(x);
    stats.line_search_seconds += line_search_timer.seconds();
    if (kept && !settings.reuse_factorization) {
      // A stale matrix's direction found no acceptable step: retry from x with a fresh one.
      run.workspace.factorized = false;
      it.last_kept = false;
      it.g_x_known = true;  // g is still the gradient (residual) at x
      return LineSearchOutcome::kRetry;
    }
    stats.status = Status::kNotConverging;
    return LineSearchOutcome::kStop;
  }
  x.swap(it.x_trial);
  it.f_x_known = !run.residual_mode;
  if (run.residual_mode) {
    it.g.swap(it.g_trial);
    it.g_x_known = true;
  }
  objective.end_line_search(x);
  stats.line_search_seconds += line_search_timer.seconds();
  objective.on_iterate(x);
  return LineSearchOutcome::kAccepted;
}

}  // namespace

double NewtonObjective::value_magnitude(const VecX& x) { return std::abs(value(x)); }

NewtonStats newton_solve(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                         const NewtonSettings& settings, NewtonWorkspace& workspace) {
  NewtonStats stats;
  NewtonRun run{objective, solver, settings,
                workspace, stats,  settings.mode == NewtonMode::kResidual};
  NewtonIterate it(x.size());
  SpMat& H = workspace.H;
  objective.on_iterate(x);

  for (;;) {
    if (const std::optional<Status> stop = check_residual(run, x, it)) {
      stats.status = *stop;
      return stats;
    }
    const DirectionSolve d = solve_for_direction(run, x, it);
    if (d.kept) ++stats.reused_iterations;
    it.last_kept = d.kept;
    it.previous_residual = stats.residual;
    if (!d.newton_direction) {
      if (settings.reuse_factorization || run.residual_mode) {
        stats.status = d.factorized ? Status::kNotConverging : Status::kNumericalIssue;
        return stats;
      }
      if (workspace.parts.elastic_valid && solver.uses_hessian_parts())
        whole_from_parts(workspace.parts, H);
      scaled_gradient_direction(it.g, H, it.dx);
    }
    ++stats.iterations;

    // Step-size convergence only for true Newton steps (or the frozen matrix the caller chose): a
    // step below the tolerance is taken without a line search (it changes x by less than the
    // caller cares about). Inexact directions (multilevel, capped PCG) stop here too: restricting
    // the stop to directions solved to a relative residual of 1e-3 made the multilevel solver's
    // stressball stand-in (scenes/ipc_stressball.json) fail at step 5, its residual held above
    // the tolerance by round-off, where with this stop it runs (docs/multilevel.md).
    if (d.newton_direction && (!d.kept || settings.reuse_factorization) &&
        settings.step_tolerance > 0.0 &&
        it.dx.lpNorm<Eigen::Infinity>() <= settings.step_tolerance) {
      x += it.dx;
      objective.on_iterate(x);
      stats.status = Status::kSuccess;
      return stats;
    }

    if (!settings.line_search) {
      workspace.lag.record_step(1.0);
      x += it.dx;
      it.f_x_known = false;
      objective.on_iterate(x);
      continue;
    }

    const LineSearchOutcome outcome = line_search_step(run, x, it, d.kept);
    if (outcome == LineSearchOutcome::kRetry) continue;
    if (outcome == LineSearchOutcome::kStop) return stats;
    if (settings.direction_tolerance > 0.0 && d.newton_direction) {
      const VecX* subspace = solver.subspace_direction();
      if (direction_norm(subspace ? *subspace : it.dx, settings.direction_norm,
                         settings.direction_count) <= settings.direction_tolerance) {
        stats.status = Status::kSuccess;
        return stats;
      }
    }
  }
}

double direction_norm(const VecX& d, NewtonSettings::DirectionNorm norm, int count) {
  switch (norm) {
    case NewtonSettings::DirectionNorm::kL2OverCount:
      return d.norm() / std::max(count, 1);
    case NewtonSettings::DirectionNorm::kL2OverSqrtCount:
      return d.norm() / std::sqrt(static_cast<double>(std::max(count, 1)));
    case NewtonSettings::DirectionNorm::kInf:
      return d.size() ? d.lpNorm<Eigen::Infinity>() : 0.0;
  }
  return d.norm();
}

NewtonStats newton_minimize(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                            const NewtonSettings& settings) {
  NewtonWorkspace workspace;
  return newton_solve(objective, x, solver, settings, workspace);
}

}  // namespace simrun
