#include "model/spring_energy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simrun {

SpringEnergy::SpringEnergy(EdgeList springs, VecX stiffness, const VecX& rest)
    : m_springs(std::move(springs)),
      m_stiffness(std::move(stiffness)),
      m_rest_length(static_cast<Eigen::Index>(m_springs.size())) {
  if (m_stiffness.size() != static_cast<Eigen::Index>(m_springs.size()))
    throw std::invalid_argument("SpringEnergy: one stiffness per spring expected");
  for (size_t s = 0; s < m_springs.size(); ++s) {
    const auto [i, j] = m_springs[s];
    m_rest_length[s] = (rest.segment<3>(3 * i) - rest.segment<3>(3 * j)).norm();
    if (!(m_rest_length[s] > 0.0))
      throw std::invalid_argument("SpringEnergy: spring " + std::to_string(s) +
                                  " has zero rest length");
  }
}

double SpringEnergy::energy(const VecX& x) const {
  double total = 0.0;
  for (size_t s = 0; s < m_springs.size(); ++s) {
    const auto [i, j] = m_springs[s];
    const double stretch = (x.segment<3>(3 * i) - x.segment<3>(3 * j)).norm() - m_rest_length[s];
    total += 0.5 * m_stiffness[s] * stretch * stretch;
  }
  return total;
}

void SpringEnergy::add_gradient(const VecX& x, VecX& g) const {
  for (size_t s = 0; s < m_springs.size(); ++s) {
    const auto [i, j] = m_springs[s];
    const Vec3 d = x.segment<3>(3 * i) - x.segment<3>(3 * j);
    const double l = d.norm();
    if (l == 0.0) continue;  // direction undefined; the force magnitude k L has no direction
    const Vec3 f = m_stiffness[s] * (l - m_rest_length[s]) / l * d;
    g.segment<3>(3 * i) += f;
    g.segment<3>(3 * j) -= f;
  }
}

void SpringEnergy::add_stencils(StencilList& stencils) const {
  for (const auto& spring : m_springs) stencils.push_back({spring[0], spring[1], -1, -1});
}

void SpringEnergy::bind(const SpMat& pattern, const DofMap& dofs) {
  m_slots = edge_slots(m_springs, dofs, pattern);
}

Mat3 SpringEnergy::spring_block(const Vec3& d, double k, double rest_length, bool project_psd) {
  const double l = d.norm();
  if (l == 0.0) return Mat3::Zero();
  const Vec3 n = d / l;
  const Mat3 nn = n * n.transpose();
  double geometric = 1.0 - rest_length / l;
  if (project_psd) geometric = std::max(geometric, 0.0);
  return k * (nn + geometric * (Mat3::Identity() - nn));
}

void SpringEnergy::add_hessian(const VecX& x, double* values, bool project_psd) const {
  scatter(x, values, [&](size_t s, const Vec3& d) {
    return spring_block(d, m_stiffness[s], m_rest_length[s], project_psd);
  });
}

void SpringEnergy::add_material_hessian(const VecX& x, double* values) const {
  scatter(x, values, [&](size_t s, const Vec3& d) -> Mat3 {
    const double l = d.norm();
    if (l == 0.0) return Mat3::Zero();
    const Vec3 n = d / l;
    return m_stiffness[s] * n * n.transpose();
  });
}

template <class Block>
void SpringEnergy::scatter(const VecX& x, double* values, const Block& block) const {
  for (size_t s = 0; s < m_springs.size(); ++s) {
    const auto [i, j] = m_springs[s];
    const Mat3 B = block(s, Vec3(x.segment<3>(3 * i) - x.segment<3>(3 * j)));
    const int* slots = m_slots.data() + 36 * s;
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) {
        const int slot = slots[6 * r + c];
        if (slot < 0) continue;
        const double sign = (r / 3 == c / 3) ? 1.0 : -1.0;
        values[slot] += sign * B(r % 3, c % 3);
      }
    }
  }
}

}  // namespace simrun
