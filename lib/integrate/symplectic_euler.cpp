#include "integrate/symplectic_euler.hpp"

namespace simrun {

Status SymplecticEuler::step(Model& model, State& state, double h, StepStats& stats) {
  VecX a;
  if (const Status s = m_acceleration.evaluate(model, state.q, state.v, a, stats);
      s != Status::kSuccess)
    return s;
  state.v += h * a;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

}  // namespace simrun
