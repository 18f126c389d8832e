#include "coarsen/galerkin_stiffness.hpp"

#include <set>
#include <utility>

#include "fem/tet_pattern.hpp"

namespace simrun {

SpMat barycentric_prolongation(const Embedding& embedding, const MatX4i& coarse_tets,
                               int num_coarse_vertices) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int p = 0; p < embedding.num_points(); ++p)
    for (int a = 0; a < 4; ++a) {
      const int vertex = coarse_tets(embedding.tet[p], a);
      for (int k = 0; k < 3; ++k)
        entries.emplace_back(3 * p + k, 3 * vertex + k, embedding.weights(p, a));
    }
  SpMat P(3 * embedding.num_points(), 3 * num_coarse_vertices);
  P.setFromTriplets(entries.begin(), entries.end());
  return P;
}

SpMat galerkin_coarse_stiffness(const TetMesh& fine, const SpMat& K_fine, const TetMesh& coarse) {
  const SpMat P = barycentric_prolongation(embed_points(coarse, fine.vertices), coarse.tets,
                                           coarse.num_vertices());
  return SpMat(P.transpose() * K_fine * P);
}

GalerkinStiffness::GalerkinStiffness(SpMat K, int vertex_offset, VecX rest)
    : m_K(std::move(K)), m_offset(vertex_offset), m_rest(std::move(rest)) {
  m_K.makeCompressed();
}

VecX GalerkinStiffness::displacement(const VecX& x) const {
  return x.segment(3 * m_offset, m_rest.size()) - m_rest;
}

double GalerkinStiffness::energy(const VecX& x) const {
  const VecX u = displacement(x);
  return 0.5 * u.dot(m_K * u);
}

void GalerkinStiffness::add_gradient(const VecX& x, VecX& g) const {
  g.segment(3 * m_offset, m_rest.size()) += m_K * displacement(x);
}

void GalerkinStiffness::bind(const SpMat& pattern, const DofMap& dofs) {
  m_slots.assign(static_cast<size_t>(m_K.nonZeros()), -1);
  int k = 0;
  for (int c = 0; c < m_K.outerSize(); ++c)
    for (SpMat::InnerIterator it(m_K, c); it; ++it, ++k) {
      const int row = dofs.free_index(3 * m_offset + static_cast<int>(it.row()));
      const int col = dofs.free_index(3 * m_offset + c);
      if (row >= 0 && col >= 0) m_slots[k] = find_slot(pattern, row, col);
    }
}

void GalerkinStiffness::add_hessian(const VecX& /*x*/, double* values, bool /*project_psd*/) const {
  const double* k = m_K.valuePtr();
  for (size_t i = 0; i < m_slots.size(); ++i)
    if (m_slots[i] >= 0) values[m_slots[i]] += k[i];
}

void GalerkinStiffness::add_stencils(StencilList& stencils) const {
  std::set<std::pair<int, int>> pairs;
  for (int c = 0; c < m_K.outerSize(); ++c)
    for (SpMat::InnerIterator it(m_K, c); it; ++it) {
      const int a = static_cast<int>(it.row()) / 3, b = c / 3;
      if (a < b) pairs.emplace(a, b);
    }
  for (const auto& [a, b] : pairs) stencils.push_back({m_offset + a, m_offset + b, -1, -1});
}

}  // namespace simrun
