#include "model/model.hpp"

#include <algorithm>

#include "fem/mass.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun {

Model::Model(const MatX3& rest, const TetElements& elements, const VecX& density, bool lumped_mass,
             DofMap dofs, std::vector<std::unique_ptr<EnergyTerm>> terms, RayleighDamping damping)
    : m_rest(as_flat(rest)),
      m_constrained(m_rest),
      m_dofs(std::move(dofs)),
      m_terms(std::move(terms)),
      m_damping(damping) {
  m_pattern = build_tet_pattern(elements.tets, m_dofs);
  m_mass = m_pattern;
  const TetSlots slots(elements.tets, m_dofs, m_pattern);
  add_mass_values(elements, density, lumped_mass, slots, m_mass.valuePtr());
  m_lumped_free = m_dofs.restrict_vector(lumped_mass_per_dof(elements, density, num_vertices()));
  for (auto& term : m_terms) term->bind(m_pattern, m_dofs);
  if (m_damping.stiffness != 0.0 && m_damping.stiffness_at_rest) {
    stiffness(restrict_vector(m_rest), m_rest_stiffness, /*project_psd=*/false);
  }
}

VecX Model::full_positions(const VecX& q) const {
  VecX x = m_constrained;
  m_dofs.scatter(q, x);
  return x;
}

double Model::potential_energy(const VecX& q) const {
  const VecX x = full_positions(q);
  double total = 0.0;
  for (const auto& term : m_terms) total += term->energy(x);
  return total;
}

void Model::potential_gradient(const VecX& q, VecX& g) const {
  const VecX x = full_positions(q);
  VecX full = VecX::Zero(x.size());
  for (const auto& term : m_terms) term->add_gradient(x, full);
  g = m_dofs.restrict_vector(full);
}

void Model::stiffness(const VecX& q, SpMat& K, bool project_psd) const {
  if (K.nonZeros() != m_pattern.nonZeros() || K.rows() != m_pattern.rows()) K = m_pattern;
  std::fill(K.valuePtr(), K.valuePtr() + K.nonZeros(), 0.0);
  const VecX x = full_positions(q);
  for (const auto& term : m_terms) term->add_hessian(x, K.valuePtr(), project_psd);
}

bool Model::is_quadratic() const {
  return std::all_of(m_terms.begin(), m_terms.end(),
                     [](const auto& term) { return term->is_quadratic(); });
}

void Model::damping_matrix(const SpMat& current_stiffness, SpMat& D) const {
  const SpMat& K = m_damping.stiffness_at_rest && m_rest_stiffness.nonZeros() > 0
                       ? m_rest_stiffness
                       : current_stiffness;
  if (D.nonZeros() != m_pattern.nonZeros()) D = m_pattern;
  const Eigen::Index nnz = m_pattern.nonZeros();
  Eigen::Map<VecX> d(D.valuePtr(), nnz);
  d = m_damping.mass * Eigen::Map<const VecX>(m_mass.valuePtr(), nnz);
  if (m_damping.stiffness != 0.0) d += m_damping.stiffness * Eigen::Map<const VecX>(K.valuePtr(), nnz);
}

std::vector<std::pair<std::string, double>> Model::energies(const VecX& q, const VecX& v) const {
  std::vector<std::pair<std::string, double>> out;
  out.emplace_back("kinetic", kinetic_energy(v));
  const VecX x = full_positions(q);
  for (const auto& term : m_terms) out.emplace_back(term->name(), term->energy(x));
  return out;
}

}  // namespace simrun
