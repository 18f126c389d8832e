#include "integrate/rk4.hpp"

namespace simrun {

Status RungeKutta4::step(Model& model, State& state, double h, StepStats& stats) {
  // Stage k_i = (dq_i, dv_i) = F(u_n + c_i h k_{i-1}), weights 1/6, 1/3, 1/3, 1/6.
  VecX dq[4], dv[4];
  const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int i = 0; i < 4; ++i) {
    const VecX q = i == 0 ? state.q : VecX(state.q + c[i] * h * dq[i - 1]);
    const VecX v = i == 0 ? state.v : VecX(state.v + c[i] * h * dv[i - 1]);
    dq[i] = v;
    if (const Status s = m_acceleration.evaluate(model, q, v, dv[i], stats); s != Status::kSuccess)
      return s;
  }
  state.q += h / 6.0 * (dq[0] + 2.0 * dq[1] + 2.0 * dq[2] + dq[3]);
  state.v += h / 6.0 * (dv[0] + 2.0 * dv[1] + 2.0 * dv[2] + dv[3]);
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
