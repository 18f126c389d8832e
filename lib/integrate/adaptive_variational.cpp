#include "integrate/adaptive_variational.hpp"

#include <Eigen/LU>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simrun {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Kinetic part of the discrete energy, (b - a)^T M (b - a) / (2 dt^2).
double interval_kinetic(const Model& model, const VecX& db, double dt) {
  return 0.5 * db.dot(model.apply_mass(db)) / (dt * dt);
}

/// The parts of an implicit adaptive step's system in (b, dt, lambda) that stay fixed over its
/// Newton iterations.
struct ImplicitSystem {
  Eigen::Index n;  // DOFs
  double h;
  bool first;        // the first step: lambda's equation has no energy terms yet
  bool with_lambda;  // the symplectic scheme's lambda unknown
  bool damped;
  double c;  // F- = -c D v
  double weight_a, weight_b;
  const MatX& M;
  const MatX& D;
  const VecX& p;
  double reference_energy;
  double work;  // W_k
};

/// The quantities at the current iterate that the residual and the Jacobian share.
struct IterateTerms {
  const LagrangianForces& f;
  const VecX& grad_sigma;
  const VecX& db;
  const VecX& Mv;
  const VecX& Ddb;
  double energy;
  double work_left;
};

/// The residual of the header's equations into `residual`; the largest of its scaled parts.
double residual_error(const ImplicitSystem& s, const IterateTerms& t, double sigma, double dt,
                      double lambda, VecX& residual) {
  const Eigen::Index n = s.n;
  // Residuals of the header's equations, and their scales for the convergence test.
  residual.head(n) = t.Mv + dt * t.f.left - s.p;
  if (s.damped) residual.head(n) += s.c * t.Ddb;  // -dt F-
  if (s.with_lambda) residual.head(n) += s.h * lambda * s.weight_a * t.grad_sigma;
  residual[n] = dt - s.h * sigma;
  double scale_l = 1.0;
  if (s.with_lambda) {
    residual[n + 1] =
        lambda - (s.first ? 0.0 : t.energy - s.reference_energy - s.work - t.work_left);
    scale_l = std::abs(t.energy) + std::abs(s.reference_energy) + std::abs(t.f.potential) +
              std::abs(s.work);
  }
  const double scale_q = s.p.norm() + t.Mv.norm() + dt * t.f.left.norm();
  return std::max({scale_q > 0.0 ? residual.head(n).norm() / scale_q : residual.head(n).norm(),
                   std::abs(residual[n]) / dt,
                   s.with_lambda && scale_l > 0.0 ? std::abs(residual[n + 1]) / scale_l : 0.0});
}

/// The Jacobian in (b, dt, lambda) into J; dF: the left force's Jacobian.
void assemble_jacobian(const Model& model, const ImplicitSystem& s, const IterateTerms& t,
                       const MatX& dF, double dt, MatX& J) {
  const Eigen::Index n = s.n;
  const double h = s.h, c = s.c;
  J.setZero();
  J.topLeftCorner(n, n) = s.M / dt + dt * dF;
  if (s.damped) J.topLeftCorner(n, n) += c * s.D;
  J.block(0, n, n, 1) = -t.Mv / dt + t.f.left;
  J.row(n).head(n) = -h * s.weight_b * t.grad_sigma.transpose();
  J(n, n) = 1.0;
  if (s.with_lambda) {
    J.block(0, n + 1, n, 1) = h * s.weight_a * t.grad_sigma;
    if (!s.first) {
      J.row(n + 1).head(n) = -(t.Mv / dt + t.f.right).transpose();
      J(n + 1, n) = 2.0 * interval_kinetic(model, t.db, dt) / dt;
      if (s.damped) {  // d work_left / d(b, dt)
        J.row(n + 1).head(n) -= (2.0 * c / dt) * t.Ddb.transpose();
        J(n + 1, n) += c * t.db.dot(t.Ddb) / (dt * dt);
      }
    }
    J(n + 1, n + 1) = 1.0;
  }
}

}  // namespace

bool accepts_adaptive(std::string_view type) {
  return !AdaptiveLagrangian::for_integrator(type, 0.5).empty();
}

int adaptive_dense_dof_limit() { return 3000; }

AdaptiveVariational::AdaptiveVariational(std::string_view type,
                                         const IntegratorSettings& integrator,
                                         const AdaptiveSettings& adaptive)
    : m_name(std::string(type) + " (adaptive " + adaptive.scheme + ")"),
      m_settings(adaptive),
      m_lagrangian(AdaptiveLagrangian::for_integrator(type, integrator.variational_alpha)),
      m_sigma(make_sigma_rule(adaptive)),
      m_with_lambda(adaptive.scheme == "symplectic"),
      m_mass(integrator.linear_solver),
      m_reference_energy(kNaN) {
  require(!m_lagrangian.empty(), "/time/adaptive: integrator '" + std::string(type) +
                                     "' has no adaptive form (verlet, symplectic_euler, "
                                     "variational_midpoint and variational_alpha do)");
  if (adaptive.sigma_at == "midpoint") {
    m_weight_a = m_weight_b = 0.5;
  } else if (adaptive.sigma_at == "end") {
    m_weight_a = 0.0;
    m_weight_b = 1.0;
  }
}

bool AdaptiveVariational::implicit(bool damped) const {
  return damped || m_with_lambda || m_weight_b != 0.0 || !m_lagrangian.left_force_explicit();
}

VecX AdaptiveVariational::sigma_point(const VecX& a, const VecX& b) const {
  if (m_weight_b == 0.0) return a;
  if (m_weight_a == 0.0) return b;
  return m_weight_a * a + m_weight_b * b;
}

Status AdaptiveVariational::explicit_step(Model& model, const VecX& a, const VecX& p, double h,
                                          VecX& b, double& dt) {
  // Naive (Sec. 3.3.2): dt = h sigma(q_k), then M (b - a) / dt = p_k - dt F_left(a).
  dt = h * m_sigma->value(model, a);
  if (!(dt > 0.0) || !std::isfinite(dt)) return Status::kNumericalIssue;
  LagrangianForces f;
  m_lagrangian.forces(model, a, a, f);  // F_left depends on a only here
  VecX v;
  StepStats none;
  if (const Status s = m_mass.solve_mass(model, p - dt * f.left, v, none); s != Status::kSuccess)
    return s;
  b = a + dt * v;
  m_last_iterations = 0;
  return Status::kSuccess;
}

Status AdaptiveVariational::implicit_step(Model& model, const VecX& a, const VecX& p, double h,
                                          VecX& b, double& dt, double& lambda, const MatX& D) {
  const auto n = a.size();
  const Eigen::Index rows = n + 1 + (m_with_lambda ? 1 : 0);
  const bool first = m_steps == 0;
  const MatX M = MatX(model.mass());
  // Guess: the explicit velocity M^-1 p_k over dt = h sigma(q_k), the last lambda.
  dt = h * m_sigma->value(model, a);
  if (!(dt > 0.0) || !std::isfinite(dt)) return Status::kNumericalIssue;
  VecX v0;
  StepStats none;
  if (const Status s = m_mass.solve_mass(model, p, v0, none); s != Status::kSuccess) return s;
  b = a + dt * v0;
  lambda = first ? 0.0 : m_lambda;
  const bool damped = D.size() > 0;
  const double c = m_lagrangian.left_share();  // F- = -c D v
  const ImplicitSystem system{n, h, first, m_with_lambda,      damped, c, m_weight_a, m_weight_b,
                              M, D, p,     m_reference_energy, m_work};
  LagrangianForces f;
  VecX grad_sigma, residual(rows), dz, Ddb;
  MatX J(rows, rows), dF;
  for (int it = 0; it < m_settings.max_iterations; ++it) {
    m_lagrangian.forces(model, a, b, f);
    const VecX x = sigma_point(a, b);
    const double sigma = m_sigma->value(model, x);
    if (!std::isfinite(sigma)) return Status::kNumericalIssue;
    m_sigma->gradient(model, x, grad_sigma);
    const VecX db = b - a;
    const VecX Mv = M * db / dt;
    const double energy = interval_kinetic(model, db, dt) + f.potential;
    // F-_k,k+1 . (q_k+1 - q_k), the left slot's work (Eq. 3.26 with forces).
    double work_left = 0.0;
    if (damped) {
      Ddb = D * db;
      work_left = -c * db.dot(Ddb) / dt;
    }
    const IterateTerms terms{f, grad_sigma, db, Mv, Ddb, energy, work_left};
    const double error = residual_error(system, terms, sigma, dt, lambda, residual);
    if (!std::isfinite(error)) return Status::kNumericalIssue;
    m_last_iterations = it;
    if (error <= m_settings.tolerance) {
      m_last_energy = energy;
      return Status::kSuccess;
    }
    // Jacobian in (b, dt, lambda); the sigma Hessian terms are dropped (thesis Sec. 3.3.7).
    m_lagrangian.left_force_jacobian(model, a, b, dF);
    assemble_jacobian(model, system, terms, dF, dt, J);
    dz = J.partialPivLu().solve(-residual);
    if (!dz.allFinite()) return Status::kNumericalIssue;
    b += dz.head(n);
    // Keep the real step positive: at most halve it per iteration.
    dt = std::max(dt + dz[n], 0.5 * dt);
    if (m_with_lambda) lambda += dz[n + 1];
  }
  return Status::kNotConverging;
}

Status AdaptiveVariational::step(Model& model, State& state, double h, StepStats& stats) {
  m_failure.clear();
  const VecX& a = state.q;
  const VecX p = model.apply_mass(state.v);
  if (m_steps == 0 && std::isnan(m_reference_energy)) {
    m_initial_energy = model.kinetic_energy(state.v) + model.potential_energy(a);
    m_sigma->begin(m_initial_energy);
  }
  // Rayleigh damping, frozen at q_k (header: the forced form).
  const bool damped = model.has_damping();
  const MatX D = damped ? MatX(m_mass.damping(model, a)) : MatX();
  VecX b;
  double dt = 0.0, lambda = 0.0;
  const Status status = implicit(damped) ? implicit_step(model, a, p, h, b, dt, lambda, D)
                                         : explicit_step(model, a, p, h, b, dt);
  if (status != Status::kSuccess) {
    m_failure = implicit(damped) ? "adaptive step: Newton on (q, dt" +
                                       std::string(m_with_lambda ? ", lambda" : "") + ") " +
                                       std::string(to_string(status))
                                 : "adaptive step: sigma undefined or not positive";
    return status;
  }
  stats.newton_iters += m_last_iterations;
  // p_k+1 = D2 L(q_k, q_k+1, dt) - h lambda_k sigma_b.
  LagrangianForces f;
  m_lagrangian.forces(model, a, b, f);
  const VecX db = b - a;
  VecX p_next = model.apply_mass(db) / dt - dt * f.right;
  if (m_with_lambda && m_weight_b != 0.0 && lambda != 0.0) {
    VecX grad_sigma;
    m_sigma->gradient(model, sigma_point(a, b), grad_sigma);
    p_next -= h * lambda * m_weight_b * grad_sigma;
  }
  double work = m_work;
  if (damped) {
    // p_k+1 += dt F+ = -(1 - c) D db; the interval's work enters W_k (not the first step's F-,
    // which is before the reference E_1).
    const VecX Ddb = D * db;
    const double c = m_lagrangian.left_share();
    p_next -= (1.0 - c) * Ddb;
    const double dissipation = db.dot(Ddb) / dt;
    work -= (m_steps == 0 ? 0.0 : c * dissipation) + (1.0 - c) * dissipation;
  }
  if (!implicit(damped)) m_last_energy = interval_kinetic(model, db, dt) + f.potential;
  VecX v_next;
  if (const Status s = m_mass.solve_mass(model, p_next, v_next, stats); s != Status::kSuccess)
    return s;
  if (!v_next.allFinite() || !b.allFinite()) return Status::kNumericalIssue;
  if (m_steps == 0) m_reference_energy = m_last_energy;  // E_1: lambda_k = E_k+1 - E_1
  m_lambda = lambda;
  m_work = work;
  m_last_dt = dt;
  ++m_steps;
  state.q = std::move(b);
  state.v = std::move(v_next);
  state.t += dt;
  return Status::kSuccess;
}

IntegratorHistory AdaptiveVariational::history() const {
  IntegratorHistory out;
  if (m_steps == 0) return out;
  out.numbers["adaptive.steps"] = static_cast<double>(m_steps);
  out.numbers["adaptive.lambda"] = m_lambda;
  out.numbers["adaptive.reference_energy"] = m_reference_energy;
  out.numbers["adaptive.initial_energy"] = m_initial_energy;
  out.numbers["adaptive.last_dt"] = m_last_dt;
  out.numbers["adaptive.work"] = m_work;
  return out;
}

void AdaptiveVariational::restore_history(const IntegratorHistory& history) {
  const auto get = [&](const char* key) {
    const auto it = history.numbers.find(key);
    require(it != history.numbers.end(),
            std::string("checkpoint: the adaptive integrator's '") + key + "' is missing");
    return it->second;
  };
  if (history.numbers.find("adaptive.steps") == history.numbers.end()) {
    require(history.empty(), "checkpoint: not an adaptive run's history (was the scene changed?)");
    return;  // a checkpoint of step 0
  }
  m_steps = static_cast<long>(get("adaptive.steps"));
  m_lambda = get("adaptive.lambda");
  m_reference_energy = get("adaptive.reference_energy");
  m_initial_energy = get("adaptive.initial_energy");
  m_last_dt = get("adaptive.last_dt");
  // Absent in checkpoints of versions before the forced form: their runs were undamped.
  const auto work = history.numbers.find("adaptive.work");
  m_work = work != history.numbers.end() ? work->second : 0.0;
  m_sigma->begin(m_initial_energy);
}

}  // namespace simrun
