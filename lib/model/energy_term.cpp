#include "model/energy_term.hpp"

#include <cmath>

namespace simrun {

double EnergyTerm::energy_magnitude(const VecX& x) const {
  VecX g = VecX::Zero(x.size());
  add_gradient(x, g);
  return std::abs(energy(x)) + g.cwiseAbs().dot(x.cwiseAbs());
}

}  // namespace simrun
