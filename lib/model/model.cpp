#include "model/model.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <stdexcept>

#include "core/parallel.hpp"
#include "core/pattern_algebra.hpp"
#include "fem/mass.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun {

namespace {

/// K with `pattern`'s sparsity (taken over if it has another one) and all values zero: ready
/// for the terms to add their Hessians.
void zero_in_pattern(SpMat& K, const SpMat& pattern) {
  conform_to_pattern(K, pattern);
  std::fill(K.valuePtr(), K.valuePtr() + K.nonZeros(), 0.0);
}

/// The elements' tets and volumes (what the mass and the pattern need): the shape gradients
/// stay with the elastic terms.
TetElements geometry_only(const TetElements& elements) {
  TetElements out;
  out.tets = elements.tets;
  out.volume = elements.volume;
  return out;
}

}  // namespace

Model::Model(const MatX3& rest, const TetElements& elements, const VecX& density, bool lumped_mass,
             DofMap dofs, std::vector<std::unique_ptr<EnergyTerm>> terms, RayleighDamping damping)
    : Model(rest, elements, density, lumped_mass, VecX(), std::move(dofs), std::move(terms),
            damping) {}

Model::Model(const MatX3& rest, const TetElements& elements, const VecX& density, bool lumped_mass,
             const VecX& point_mass, DofMap dofs, std::vector<std::unique_ptr<EnergyTerm>> terms,
             RayleighDamping damping)
    : m_rest(as_flat(rest)),
      m_constrained(m_rest),
      m_constrained_velocity(VecX::Zero(m_rest.size())),
      m_elements(geometry_only(elements)),
      m_density(density),
      m_lumped(lumped_mass),
      m_lumped_full(lumped_mass_per_dof(elements, density, static_cast<int>(m_rest.size() / 3))),
      m_point_mass(point_mass.size() > 0 ? point_mass : VecX(VecX::Zero(m_rest.size()))),
      m_dofs(std::move(dofs)),
      m_terms(std::move(terms)),
      m_damping(damping) {
  m_lumped_full += m_point_mass;
  build_matrices();
}

std::vector<long> Model::term_pattern_versions() const {
  std::vector<long> versions;
  for (const auto& term : m_terms) versions.push_back(term->pattern_version());
  return versions;
}

void Model::build_matrices() {
  StencilList stencils;
  for (const auto& term : m_terms) term->add_stencils(stencils);
  // The mass matrix carries the pattern (it has all of it: there is no separate pattern copy).
  m_mass = build_tet_pattern(m_elements.tets, m_dofs, stencils);
  m_term_versions = term_pattern_versions();
  ++m_pattern_version;
  ++m_potential_version;
  const TetSlots slots(m_elements.tets, m_dofs, m_mass);
  add_mass_values(m_elements, m_density, m_lumped, slots, m_mass.valuePtr());
  const std::vector<int> diagonal = diagonal_slots(m_mass);
  for (int i = 0; i < m_dofs.num_free(); ++i) {
    m_mass.valuePtr()[diagonal[i]] += m_point_mass[m_dofs.free_to_full()[i]];
  }
  m_lumped_free = m_dofs.restrict_vector(m_lumped_full);
  for (auto& term : m_terms) term->bind(m_mass, m_dofs);
  m_rest_stiffness = SpMat();
  if (m_damping.stiffness != 0.0 && m_damping.stiffness_at_rest) {
    // Evaluated on the full rest configuration, not through full_positions(): after a release
    // the constrained entries hold prescribed (moved) positions, which are not the rest state.
    conform_to_pattern(m_rest_stiffness, m_mass);
    for (const auto& term : m_terms) term->add_hessian(m_rest, m_rest_stiffness.valuePtr(), false);
  }
}

void Model::set_fixed_vertices(const std::vector<int>& fixed) {
  m_dofs = DofMap(num_vertices(), fixed);
  build_matrices();
}

void Model::set_constrained_state(const VecX& x, const VecX& v) {
  bool moved = m_constrained.size() != x.size();
  for (Eigen::Index i = 0; !moved && i < x.size(); ++i)
    moved = m_dofs.free_index(static_cast<int>(i)) < 0 && m_constrained[i] != x[i];
  m_constrained = x;
  m_constrained_velocity = v;
  if (moved) ++m_potential_version;
}

bool Model::refresh_pattern() {
  if (term_pattern_versions() == m_term_versions) return false;
  build_matrices();
  return true;
}

void Model::set_time(double t) {
  for (auto& term : m_terms) {
    term->set_time(t);
    if (term->depends_on_time()) ++m_potential_version;
  }
}

void Model::begin_step(const VecX& q) {
  const VecX x = full_positions(q);
  for (auto& term : m_terms) term->begin_step(x);
}

void Model::on_iterate(const VecX& q) {
  const VecX x = full_positions(q);
  for (auto& term : m_terms) term->on_iterate(x);
}

bool Model::update_lagged(const VecX& q) {
  const VecX x = full_positions(q);
  bool updated = false;
  for (auto& term : m_terms) updated = term->update_lagged(x) || updated;
  return updated;
}

bool Model::update_multipliers(const VecX& q) {
  const VecX x = full_positions(q);
  bool updated = false;
  for (auto& term : m_terms) updated = term->update_multipliers(x) || updated;
  return updated;
}

void Model::begin_line_search(const VecX& q) {
  const VecX x = full_positions(q);
  for (auto& term : m_terms) term->begin_line_search(x);
}

void Model::end_line_search(const VecX& q) {
  const VecX x = full_positions(q);
  for (auto& term : m_terms) term->end_line_search(x);
}

double Model::max_feasible_step(const VecX& q, const VecX& dq) const {
  const VecX x = full_positions(q);
  VecX dx = VecX::Zero(x.size());
  m_dofs.scatter(dq, dx);
  double alpha = 1.0;
  for (const auto& term : m_terms) alpha = std::min(alpha, term->max_feasible_step(x, dx));
  return alpha;
}

bool Model::is_valid(const VecX& q) const {
  const VecX x = full_positions(q);
  return std::all_of(m_terms.begin(), m_terms.end(),
                     [&](const auto& term) { return term->is_valid(x); });
}

double Model::energy_magnitude(const VecX& q) const {
  const VecX x = full_positions(q);
  double sum = 0.0;
  for (const auto& term : m_terms) sum += term->energy_magnitude(x);
  return sum;
}

VecX Model::full_velocities(const VecX& v) const {
  VecX full = m_constrained_velocity;
  m_dofs.scatter(v, full);
  return full;
}

double Model::kinetic_energy(const VecX& v) const {
  if (m_lumped) return 0.5 * v.dot(m_lumped_free.cwiseProduct(v));
  VecX full = VecX::Zero(m_dofs.num_full());  // constrained entries zero: the free-free block
  m_dofs.scatter(v, full);
  const int n = m_elements.size();
  double twice = 0.0;
#pragma omp parallel for reduction(+ : twice) schedule(static) if (n >= kParallelElementThreshold)
  for (int e = 0; e < n; ++e) {
    Vec3 sum = Vec3::Zero();
    double squares = 0.0;
    for (int a = 0; a < 4; ++a) {
      const Vec3 va = full.segment<3>(3 * m_elements.tets(e, a));
      sum += va;
      squares += va.squaredNorm();
    }
    twice += m_density[e] * m_elements.volume[e] / 20.0 * (squares + sum.squaredNorm());
  }
  twice += full.dot(m_point_mass.cwiseProduct(full));
  return 0.5 * twice;
}

Momentum Model::momentum(const VecX& q, const VecX& v) const {
  const VecX x = full_positions(q);
  const VecX u = full_velocities(v);
  Momentum out;
  const auto add_point = [&](int i, double mass) {
    const Vec3 p = mass * u.segment<3>(3 * i);
    out.linear += p;
    out.angular += x.segment<3>(3 * i).cross(p);
  };
  const int vertices = num_vertices();
  if (m_lumped) {
    // m_lumped_full holds the same mass on a vertex's three DOFs (tets and point masses).
    for (int i = 0; i < vertices; ++i) add_point(i, m_lumped_full[3 * i]);
    return out;
  }
  for (int i = 0; i < vertices; ++i) add_point(i, m_point_mass[3 * i]);
  for (int e = 0; e < m_elements.size(); ++e) {
    Vec3 x_sum = Vec3::Zero(), v_sum = Vec3::Zero(), cross_sum = Vec3::Zero();
    for (int a = 0; a < 4; ++a) {
      const int i = m_elements.tets(e, a);
      x_sum += x.segment<3>(3 * i);
      v_sum += u.segment<3>(3 * i);
      cross_sum += x.segment<3>(3 * i).cross(u.segment<3>(3 * i));
    }
    const double scale = m_density[e] * m_elements.volume[e] / 20.0;
    out.linear += scale * 5.0 * v_sum;  // each vertex: rho V / 20 (v_a + sum_b v_b), summed
    out.angular += scale * (cross_sum + x_sum.cross(v_sum));
  }
  return out;
}

double Model::constrained_kinetic_energy() const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < m_constrained_velocity.size(); ++i) {
    if (m_dofs.free_index(static_cast<int>(i)) < 0)
      sum += m_lumped_full[i] * m_constrained_velocity[i] * m_constrained_velocity[i];
  }
  return 0.5 * sum;
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

void Model::potential_gradient(const VecX& q, VecX& g, VecX& g_elastic) const {
  const VecX x = full_positions(q);
  VecX full = VecX::Zero(x.size()), elastic = VecX::Zero(x.size());
  for (const auto& term : m_terms)
    term->add_gradient(x, term->name() == kElasticTermName ? elastic : full);
  full += elastic;
  g = m_dofs.restrict_vector(full);
  g_elastic = m_dofs.restrict_vector(elastic);
}

void Model::rest_elastic_stiffness(SpMat& K) {
  refresh_pattern();
  zero_in_pattern(K, m_mass);
  for (const auto& term : m_terms)
    if (term->name() == kElasticTermName) term->add_hessian(m_rest, K.valuePtr(), false);
}

void Model::elastic_stiffness(const VecX& q, SpMat& K, bool project_psd) {
  assemble_hessian(q, K, [&](const EnergyTerm& term, const VecX& x, double* values) {
    if (term.name() == kElasticTermName) term.add_hessian(x, values, project_psd);
  });
}

void Model::stiffness_and_projected_elastic(const VecX& q, SpMat& K, SpMat& K_elastic_psd) {
  refresh_pattern();
  zero_in_pattern(K, m_mass);
  zero_in_pattern(K_elastic_psd, m_mass);
  const VecX x = full_positions(q);
  for (const auto& term : m_terms) {
    if (term->name() == kElasticTermName)
      term->add_hessian_pair(x, K.valuePtr(), K_elastic_psd.valuePtr());
    else
      term->add_hessian(x, K.valuePtr(), /*project_psd=*/false);
  }
}

void Model::non_elastic_gradient(const VecX& q, VecX& g) const {
  const VecX x = full_positions(q);
  VecX full = VecX::Zero(x.size());
  for (const auto& term : m_terms)
    if (term->name() != kElasticTermName) term->add_gradient(x, full);
  g = m_dofs.restrict_vector(full);
}

void Model::non_elastic_stiffness(const VecX& q, SpMat& K, bool project_psd) {
  assemble_hessian(q, K, [&](const EnergyTerm& term, const VecX& x, double* values) {
    if (term.name() != kElasticTermName) term.add_hessian(x, values, project_psd);
  });
}

void Model::set_elastic_cubature(std::vector<VecX> weights) {
  size_t k = 0;
  for (const auto& term : m_terms) {
    if (term->name() != kElasticTermName) continue;
    if (k >= weights.size() || weights[k].size() != term->element_count())
      throw std::invalid_argument(
          "Model::set_elastic_cubature: one weight per element of every "
          "elastic term expected");
    ++k;
  }
  if (k != weights.size())
    throw std::invalid_argument("Model::set_elastic_cubature: more weight vectors than terms");
  m_elastic_cubature = std::move(weights);
}

void Model::cubature_elastic_stiffness(const VecX& q, SpMat& K, bool project_psd) {
  size_t k = 0;
  assemble_hessian(q, K, [&](const EnergyTerm& term, const VecX& x, double* values) {
    if (term.name() == kElasticTermName)
      term.add_weighted_hessian(x, m_elastic_cubature.at(k++), values, project_psd);
  });
}

template <class AddTerm>
void Model::assemble_hessian(const VecX& q, SpMat& K, const AddTerm& add_term) {
  refresh_pattern();
  zero_in_pattern(K, m_mass);
  const VecX x = full_positions(q);
  for (const auto& term : m_terms) add_term(*term, x, K.valuePtr());
}

void Model::stiffness(const VecX& q, SpMat& K, bool project_psd) {
  assemble_hessian(q, K, [&](const EnergyTerm& term, const VecX& x, double* values) {
    term.add_hessian(x, values, project_psd);
  });
}

void Model::material_stiffness(const VecX& q, SpMat& K) {
  assemble_hessian(q, K, [](const EnergyTerm& term, const VecX& x, double* values) {
    term.add_material_hessian(x, values);
  });
}

bool Model::is_quadratic() const {
  return std::all_of(m_terms.begin(), m_terms.end(),
                     [](const auto& term) { return term->is_quadratic(); });
}

void Model::damping_matrix(const SpMat& current_stiffness, SpMat& D) const {
  const SpMat& K = m_damping.stiffness_at_rest && m_rest_stiffness.nonZeros() > 0
                       ? m_rest_stiffness
                       : current_stiffness;
  if (m_damping.stiffness != 0.0) {
    assign_combination(D, {{m_damping.mass, &m_mass}, {m_damping.stiffness, &K}});
  } else {
    assign_combination(D, {{m_damping.mass, &m_mass}});
  }
}

std::vector<std::pair<std::string, double>> Model::energies(const VecX& q, const VecX& v) const {
  std::vector<std::pair<std::string, double>> out;
  out.emplace_back("kinetic", kinetic_energy(v) + constrained_kinetic_energy());
  const VecX x = full_positions(q);
  for (const auto& term : m_terms) out.emplace_back(term->name(), term->energy(x));
  return out;
}

}  // namespace simrun
