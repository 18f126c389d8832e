#include "model/elastic_energy.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/parallel.hpp"
#include "fem/element_coloring.hpp"
#include "model/tet_inversion_step.hpp"

namespace simrun {

ElasticEnergy::ElasticEnergy(TetElements elements, std::shared_ptr<const Material> material,
                             ElementMaterials parameters, int num_vertices)
    : m_elements(std::move(elements)),
      m_material(std::move(material)),
      m_parameters(std::move(parameters)),
      m_coloring(color_element_blocks(m_elements.tets, num_vertices)) {
  m_parameters.check();
  if (m_parameters.size() != m_elements.size())
    throw std::invalid_argument("ElasticEnergy: " + std::to_string(m_parameters.size()) +
                                " parameter sets for " + std::to_string(m_elements.size()) +
                                " elements");
  if (m_material->needs_stiffness_tensor() && m_parameters.stiffness.empty())
    throw std::invalid_argument("ElasticEnergy: material '" + std::string(m_material->name()) +
                                "' needs a stiffness tensor per element");
}

double ElasticEnergy::energy(const VecX& x) const {
  double total = 0.0;
  const int n = m_elements.size();
#pragma omp parallel for reduction(+ : total) schedule(static) if (n >= kParallelElementThreshold)
  for (int e = 0; e < n; ++e) {
    const Mat3 F = deformation_gradient(m_elements, e, x);
    total += m_elements.volume[e] * m_material->energy_density(F, m_parameters[e]);
  }
  return total;
}

double ElasticEnergy::energy_magnitude(const VecX& x) const {
  double total = 0.0;
  const int n = m_elements.size();
#pragma omp parallel for reduction(+ : total) schedule(static) if (n >= kParallelElementThreshold)
  for (int e = 0; e < n; ++e) {
    const Mat3 F = deformation_gradient(m_elements, e, x);
    const double V = m_elements.volume[e];
    const Eigen::Matrix<double, 3, 4> ga =
        V * m_material->first_piola(F, m_parameters[e]) * m_elements.grad[e].transpose();
    double sensitivity = 0.0;
    for (int a = 0; a < 4; ++a)
      sensitivity += ga.col(a).cwiseAbs().dot(x.segment<3>(3 * m_elements.tets(e, a)).cwiseAbs());
    total += V * m_material->energy_density_magnitude(F, m_parameters[e]) + sensitivity;
  }
  return total;
}

void ElasticEnergy::add_gradient(const VecX& x, VecX& g) const {
  for_each_element_colored(m_coloring.colors, m_coloring.block_size, m_elements.size(), [&](int e) {
    const Mat3 F = deformation_gradient(m_elements, e, x);
    const Mat3 P = m_material->first_piola(F, m_parameters[e]);
    // Column a of V P G^T is dE/dx_a.
    const Eigen::Matrix<double, 3, 4> ga =
        m_elements.volume[e] * P * m_elements.grad[e].transpose();
    for (int a = 0; a < 4; ++a) g.segment<3>(3 * m_elements.tets(e, a)) += ga.col(a);
  });
}

void ElasticEnergy::add_hessian_from(const VecX& reference, const VecX& x, double scale,
                                     double* values, bool project_psd) const {
  for_each_element_colored(m_coloring.colors, m_coloring.block_size, m_elements.size(), [&](int e) {
    double volume;
    TetGradients G;
    if (!reference_geometry(m_elements, e, reference, volume, G)) return;
    const Mat3 F = edge_matrix(m_elements, e, x) * G.bottomRows<3>();  // Ds(x) Ds(reference)^-1
    const Mat9 D = project_psd ? m_material->first_piola_derivative_psd(F, m_parameters[e])
                               : m_material->first_piola_derivative(F, m_parameters[e]);
    m_slots.add(e, element_hessian(G, scale * volume, D), values);
  });
}

void ElasticEnergy::bind(const SpMat& pattern, const DofMap& dofs) {
  m_slots = TetSlots(m_elements.tets, dofs, pattern);
}

Mat12 element_hessian(const TetGradients& G, double volume, const Mat9& D) {
  Mat12 H;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) {
      // D_ik(j, l) = dP_ij / dF_kl; the (i,k) DOF block over nodes (a,b) is G D_ik G^T.
      Mat3 Dik;
      for (int j = 0; j < 3; ++j) {
        for (int l = 0; l < 3; ++l) Dik(j, l) = D(i + 3 * j, k + 3 * l);
      }
      const Eigen::Matrix<double, 4, 4> block = volume * (G * Dik * G.transpose());
      for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) H(3 * a + i, 3 * b + k) = block(a, b);
      }
    }
  }
  return H;
}

void ElasticEnergy::add_hessian(const VecX& x, double* values, bool project_psd) const {
  for_each_element_colored(m_coloring.colors, m_coloring.block_size, m_elements.size(), [&](int e) {
    const Mat3 F = deformation_gradient(m_elements, e, x);
    const Mat9 D = project_psd ? m_material->first_piola_derivative_psd(F, m_parameters[e])
                               : m_material->first_piola_derivative(F, m_parameters[e]);
    const Mat12 H = element_hessian(m_elements.grad[e], m_elements.volume[e], D);
    m_slots.add(e, H, values);
  });
}

void ElasticEnergy::add_hessian_pair(const VecX& x, double* values,
                                     double* projected_values) const {
  for_each_element_colored(m_coloring.colors, m_coloring.block_size, m_elements.size(), [&](int e) {
    const Mat3 F = deformation_gradient(m_elements, e, x);
    Mat9 D, D_psd;
    const bool clamped = m_material->first_piola_derivative_pair(F, m_parameters[e], D, D_psd);
    const Mat12 H = element_hessian(m_elements.grad[e], m_elements.volume[e], D);
    m_slots.add(e, H, values);
    if (clamped)
      m_slots.add(e, element_hessian(m_elements.grad[e], m_elements.volume[e], D_psd),
                  projected_values);
    else
      m_slots.add(e, H, projected_values);
  });
}

void ElasticEnergy::add_weighted_hessian(const VecX& x, const VecX& weight, double* values,
                                         bool project_psd) const {
  if (weight.size() != m_elements.size())
    throw std::invalid_argument("ElasticEnergy: one quadrature weight per element expected");
  for_each_element_colored(m_coloring.colors, m_coloring.block_size, m_elements.size(), [&](int e) {
    if (weight[e] == 0.0) return;
    const Mat3 F = deformation_gradient(m_elements, e, x);
    const Mat9 D = project_psd ? m_material->first_piola_derivative_psd(F, m_parameters[e])
                               : m_material->first_piola_derivative(F, m_parameters[e]);
    m_slots.add(e, element_hessian(m_elements.grad[e], weight[e] * m_elements.volume[e], D),
                values);
  });
}

double ElasticEnergy::max_feasible_step(const VecX& x, const VecX& dx) const {
  if (m_material->allows_inversion() && !m_keep_oriented) return 1.0;
  return max_inversion_free_step(m_elements, x, dx);
}

}  // namespace simrun
