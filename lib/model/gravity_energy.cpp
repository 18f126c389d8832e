#include "model/gravity_energy.hpp"

namespace simrun {

GravityEnergy::GravityEnergy(const Vec3& gravity, VecX mass_per_dof, VecX rest)
    : m_weight(std::move(mass_per_dof)), m_rest(std::move(rest)) {
  for (Eigen::Index i = 0; i < m_weight.size(); ++i) m_weight[i] *= gravity[i % 3];
}

double GravityEnergy::energy(const VecX& x) const { return -m_weight.dot(x - m_rest); }

void GravityEnergy::add_gradient(const VecX&, VecX& g) const { g -= m_weight; }

}  // namespace simrun
