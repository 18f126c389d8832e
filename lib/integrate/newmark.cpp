#include "integrate/newmark.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace simrun {

Newmark::Newmark(const IntegratorSettings& settings)
    : Newmark(settings, "newmark", 0.0, 0.0, settings.newmark_beta, settings.newmark_gamma) {}

Newmark::Newmark(const IntegratorSettings& settings, const char* name, double alpha_m,
                 double alpha_f, double beta, double gamma)
    : ImplicitIntegrator(settings),
      m_name(name),
      m_alpha_m(alpha_m),
      m_alpha_f(alpha_f),
      m_beta(beta),
      m_gamma(gamma),
      m_stage_solver(settings),
      m_acceleration(settings.linear_solver) {
  if (!(beta > 0.0) || !(gamma > 0.0) || !(alpha_m < 1.0) || !(alpha_f < 1.0)) {
    throw InputError(std::string(name) + ": needs beta > 0, gamma > 0, alpha_m < 1, alpha_f < 1");
  }
}

Status Newmark::attempt(Model& model, State& state, double h, StepStats& stats) {
  const bool history = m_has_acceleration && state.q == m_last.q && state.v == m_last.v;
  VecX a0;
  if (history) {
    a0 = m_a;
  } else if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a0, stats);
             s != Status::kSuccess) {
    return s;
  }
  const double am = m_alpha_m, af = m_alpha_f, beta = m_beta, gamma = m_gamma;
  // With q_hat = q_0 + h v_0 + h^2 (1/2 - beta) a_0, x = (1-af) q_1 + af q_0 and
  // x_hat = af q_0 + (1-af) q_hat, the Newmark position update gives
  //   a_1 = (x - x_hat) / ((1-af) beta h^2),   so   (1-am) a_1 + am a_0 = (x - p) / tau^2,
  //   tau^2 = (1-af) beta h^2 / (1-am),        p = x_hat - tau^2 am a_0,
  // and the velocity update gives v_af = (1-af) v_1 + af v_0 = (x - c) / sigma with
  //   sigma = beta h / gamma,   c = x_hat - sigma v_hat,   v_hat = v_0 + (1-af) h (1-gamma) a_0.
  // The balance equation M (x - p)/tau^2 = -dU/dx(x) - D (x - c)/sigma is stationarity of the
  // stage potential of implicit_stage.hpp.
  const VecX q_hat = state.q + h * state.v + h * h * (0.5 - beta) * a0;
  const VecX x_hat = af * state.q + (1 - af) * q_hat;
  const VecX v_hat = state.v + (1 - af) * h * (1 - gamma) * a0;
  ImplicitStage stage;
  stage.tau = std::sqrt((1 - af) * beta / (1 - am)) * h;
  stage.predicted = x_hat - stage.tau * stage.tau * am * a0;
  stage.damping_tau = beta * h / gamma;
  stage.damping_anchor = x_hat - stage.damping_tau * v_hat;

  m_stage_solver.begin_step(model, state.q);
  VecX x = state.q + h * (1 - af) * state.v;  // guess: v_1 = v_0
  if (const Status s = m_stage_solver.solve(model, stage, x, stats); s != Status::kSuccess)
    return s;
  const VecX q1 = (x - af * state.q) / (1 - af);
  VecX a1 = (q1 - q_hat) / (beta * h * h);
  state.v += h * ((1 - gamma) * a0 + gamma * a1);
  state.q = q1;
  state.t += h;
  m_a = std::move(a1);
  m_last = state;
  m_has_acceleration = true;
  return Status::kSuccess;
}

IntegratorHistory Newmark::history() const {
  IntegratorHistory h;
  if (!m_has_acceleration) return h;
  h.vectors["a"] = m_a;
  h.put("last", m_last);
  return h;
}

void Newmark::restore_history(const IntegratorHistory& h) {
  const auto a = h.vectors.find("a");
  m_has_acceleration = a != h.vectors.end() && h.get("last", m_last);
  if (m_has_acceleration) m_a = a->second;
}
}  // namespace simrun
