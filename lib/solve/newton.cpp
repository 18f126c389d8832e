/// Projected Newton with backtracking (Armijo) line search, see newton.hpp.
#include "solve/newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simrun {
namespace {

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

}  // namespace

NewtonStats newton_minimize(NewtonObjective& objective, VecX& x, LinearSolver& solver,
                            const NewtonSettings& settings, SpMat* hessian_workspace) {
  NewtonStats stats;
  VecX g(x.size()), dx(x.size()), x_trial(x.size());
  SpMat local_hessian;
  SpMat& H = hessian_workspace ? *hessian_workspace : local_hessian;

  for (;;) {
    objective.gradient(x, g);
    stats.residual = objective.residual_norm(g);
    if (!g.allFinite() || !std::isfinite(stats.residual)) {
      stats.status = Status::kNumericalIssue;
      return stats;
    }
    if (stats.residual <= settings.tolerance) {
      stats.status = Status::kSuccess;
      return stats;
    }
    if (stats.iterations >= settings.max_iterations) {
      stats.status = Status::kNotConverging;
      return stats;
    }

    objective.hessian(x, H);
    bool newton_direction = false;
    if (solver.factorize(H) == Status::kSuccess) {
      solver.solve(g, dx);
      dx = -dx;
      // Strict descent; NaN in dx fails the test too.
      newton_direction = g.dot(dx) < 0.0;
    }
    if (!newton_direction) scaled_gradient_direction(g, H, dx);
    ++stats.iterations;

    // Step-size convergence only for true Newton steps: a step below the tolerance is taken
    // without a line search (it changes x by less than the caller cares about).
    if (newton_direction && settings.step_tolerance > 0.0 &&
        dx.lpNorm<Eigen::Infinity>() <= settings.step_tolerance) {
      x += dx;
      stats.status = Status::kSuccess;
      return stats;
    }

    if (!settings.line_search) {
      x += dx;
      continue;
    }

    const double f0 = objective.value(x);
    if (!std::isfinite(f0)) {
      stats.status = Status::kNumericalIssue;
      return stats;
    }
    const double slope = g.dot(dx);  // < 0
    // Near convergence the predicted decrease drops below the roundoff of Phi itself, so Armijo
    // compares against an energy that is only known to a few ulps; accept changes within that
    // noise floor instead of halving forever.
    const double noise = 16.0 * std::numeric_limits<double>::epsilon() * std::abs(f0);
    double alpha = 1.0;
    bool accepted = false;
    for (int halvings = 0;; ++halvings) {
      x_trial = x + alpha * dx;
      const double f = objective.value(x_trial);
      // A non-finite trial energy (e.g. an inverted element) just means the step is too long.
      if (std::isfinite(f) && f <= f0 + settings.armijo * alpha * slope + noise) {
        accepted = true;
        break;
      }
      if (halvings >= settings.max_line_search_steps) break;
      alpha *= 0.5;
      ++stats.line_search_steps;
    }
    if (!accepted) {
      stats.status = Status::kNotConverging;
      return stats;
    }
    x.swap(x_trial);
  }
}

}  // namespace simrun
