#include "integrate/forward_euler.hpp"

namespace simrun {

Status ForwardEuler::step(Model& model, State& state, double h, StepStats& stats) {
  VecX a;
  if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a, stats);
      s != Status::kSuccess)
    return s;
  state.q += h * state.v;
  state.v += h * a;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
