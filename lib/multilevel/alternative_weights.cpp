/// The comparison weights of Trusty et al. Figs. 3-5 (see alternative_weights.hpp).
#include "multilevel/alternative_weights.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "multilevel/scalar_operators.hpp"
#include "solve/eigen_solver.hpp"

namespace simrun {

namespace {

constexpr const char* kBasisNames[] = {"sms", "rbf", "biharmonic", "eigenmodes"};

/// Wendland's C2 function on [0, 1], zero beyond.
double wendland_c2(double s) {
  if (s >= 1.0) return 0.0;
  const double t = 1.0 - s;
  return t * t * t * t * (4.0 * s + 1.0);
}

/// Per vertex: whether some tet uses it.
std::vector<bool> vertices_in_tets(const MatX4i& tets, int num_vertices) {
  std::vector<bool> used(num_vertices, false);
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a) used[tets(e, a)] = true;
  return used;
}

/// The handles that have an origin (partitions with a free vertex), in order.
std::vector<int> handles_with_origin(const std::vector<int>& origin_vertex) {
  std::vector<int> handles;
  for (size_t i = 0; i < origin_vertex.size(); ++i)
    if (origin_vertex[i] >= 0) handles.push_back(static_cast<int>(i));
  return handles;
}

SpMat columns_to_phi(const MatX& weights, const std::vector<int>& row_vertex,
                     const std::vector<int>& column_handle, int num_vertices, int num_handles) {
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(weights.size());
  for (int c = 0; c < weights.cols(); ++c)
    for (int r = 0; r < weights.rows(); ++r)
      if (weights(r, c) != 0.0)
        entries.emplace_back(row_vertex[r], column_handle[c], weights(r, c));
  SpMat phi(num_vertices, num_handles);
  phi.setFromTriplets(entries.begin(), entries.end());
  return phi;
}

/// A result holding the handle origins of the partition (at least one partition).
HandleWeights with_origins(const char* basis, const MatX3& rest, const MatX4i& tets,
                           const std::vector<int>& element_label,
                           const std::vector<int>& center_vertex,
                           const std::vector<bool>& fixed_vertex) {
  require(!center_vertex.empty(), std::string(basis) + ": no partitions");
  HandleWeights result;
  result.origin_vertex = handle_origins(rest, tets, element_label, center_vertex, fixed_vertex);
  return result;
}

/// The weights of an object none of whose partitions has a free vertex (every vertex fixed):
/// no handle has weight anywhere, the Dirichlet weight is one at the fixed vertices.
HandleWeights without_handles(HandleWeights result, const std::vector<bool>& fixed_vertex,
                              int num_handles) {
  const int n = static_cast<int>(fixed_vertex.size());
  result.phi.resize(n, num_handles);
  result.dirichlet_weight = VecX::Zero(n);
  for (int v = 0; v < n; ++v)
    if (fixed_vertex[v]) result.dirichlet_weight[v] = 1.0;
  return result;
}

}  // namespace

const char* handle_basis_name(HandleBasis basis) { return kBasisNames[static_cast<int>(basis)]; }

HandleBasis handle_basis_from_name(const std::string& name) {
  for (int k = 0; k < 4; ++k)
    if (name == kBasisNames[k]) return static_cast<HandleBasis>(k);
  throw std::invalid_argument("unknown multilevel basis '" + name +
                              "' (sms, rbf, biharmonic or eigenmodes)");
}

HandleWeights rbf_handle_weights(const MatX3& rest, const MatX4i& tets,
                                 const std::vector<int>& element_label,
                                 const std::vector<int>& center_vertex,
                                 const std::vector<bool>& fixed_vertex) {
  const int n = static_cast<int>(rest.rows());
  const int m = static_cast<int>(center_vertex.size());
  HandleWeights result =
      with_origins("RBF basis", rest, tets, element_label, center_vertex, fixed_vertex);
  const auto neighbours = partition_neighbours(tets, element_label, m, n);
  VecX radius = VecX::Zero(m);
  for (int i = 0; i < m; ++i) {
    if (result.origin_vertex[i] < 0) continue;
    for (int j : neighbours[i])
      if (result.origin_vertex[j] >= 0)
        radius[i] = std::max(
            radius[i],
            (rest.row(result.origin_vertex[i]) - rest.row(result.origin_vertex[j])).norm());
  }
  // ... and at least past the farthest vertex of its own partition, so that every vertex is
  // reached by its own handle (a lone partition: the whole object).
  for (int e = 0; e < tets.rows(); ++e) {
    const int i = element_label[e];
    if (result.origin_vertex[i] < 0) continue;
    for (int a = 0; a < 4; ++a)
      radius[i] = std::max(
          radius[i], 1.000001 * (rest.row(tets(e, a)) - rest.row(result.origin_vertex[i])).norm());
  }

  const std::vector<bool> used = vertices_in_tets(tets, n);
  std::vector<Eigen::Triplet<double, int>> entries;
  std::vector<std::pair<int, double>> row;
  for (int v = 0; v < n; ++v) {
    if (!used[v] || fixed_vertex[v]) continue;
    row.clear();
    double total = 0.0;
    for (int i = 0; i < m; ++i) {
      if (result.origin_vertex[i] < 0) continue;
      const double psi =
          wendland_c2((rest.row(v) - rest.row(result.origin_vertex[i])).norm() / radius[i]);
      if (psi > 0.0) row.emplace_back(i, psi), total += psi;
    }
    for (const auto& [i, psi] : row) entries.emplace_back(v, i, psi / total);
  }
  result.phi.resize(n, m);
  result.phi.setFromTriplets(entries.begin(), entries.end());
  result.dirichlet_weight = VecX::Zero(n);
  return result;
}

HandleWeights biharmonic_coordinate_weights(const MatX3& rest, const MatX4i& tets,
                                            const std::vector<int>& element_label,
                                            const std::vector<int>& center_vertex,
                                            const std::vector<bool>& fixed_vertex,
                                            bool dirichlet_aware) {
  const int n = static_cast<int>(rest.rows());
  const int m = static_cast<int>(center_vertex.size());
  HandleWeights result = with_origins("biharmonic coordinates", rest, tets, element_label,
                                      center_vertex, fixed_vertex);
  const std::vector<int> column_handle = handles_with_origin(result.origin_vertex);
  const int k = static_cast<int>(column_handle.size());
  if (k == 0) return without_handles(std::move(result), fixed_vertex, m);

  const std::vector<bool> used = vertices_in_tets(tets, n);
  std::vector<bool> constrained(n, false);
  MatX values = MatX::Zero(n, k);
  bool any_fixed = false;
  for (int v = 0; v < n; ++v) {
    const bool pinned_fixed = dirichlet_aware && fixed_vertex[v];
    constrained[v] = !used[v] || pinned_fixed;
    any_fixed = any_fixed || (used[v] && pinned_fixed);
  }
  for (int c = 0; c < k; ++c) {
    const int origin = result.origin_vertex[column_handle[c]];
    constrained[origin] = true;
    values(origin, c) = 1.0;
  }
  const SpMat L = weighted_laplacian(rest, tets, VecX::Ones(tets.rows()));
  VecX inverse_mass = lumped_vertex_volume(rest, tets);
  for (int v = 0; v < n; ++v) inverse_mass[v] = used[v] ? 1.0 / inverse_mass[v] : 0.0;
  const SpMat K = (L * inverse_mass.asDiagonal() * L).pruned();
  MatX u = solve_with_fixed_values(
      K, constrained, values, "biharmonic coordinates: the bilaplacian with the handles fixed");
  for (int v = 0; v < n; ++v)
    if (fixed_vertex[v] || !used[v]) u.row(v).setZero();
  std::vector<int> row_vertex(n);
  for (int v = 0; v < n; ++v) row_vertex[v] = v;
  result.phi = columns_to_phi(u, row_vertex, column_handle, n, m);
  result.dirichlet_weight = VecX::Zero(n);
  if (any_fixed)
    for (int v = 0; v < n; ++v)
      if (used[v]) result.dirichlet_weight[v] = fixed_vertex[v] ? 1.0 : 1.0 - u.row(v).sum();
  return result;
}

HandleWeights skinning_eigenmode_weights(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                                         const std::vector<int>& element_label,
                                         const std::vector<int>& center_vertex,
                                         const std::vector<bool>& fixed_vertex,
                                         bool dirichlet_aware) {
  const int n = static_cast<int>(rest.rows());
  const int m = static_cast<int>(center_vertex.size());
  HandleWeights result =
      with_origins("skinning eigenmodes", rest, tets, element_label, center_vertex, fixed_vertex);
  std::vector<int> column_handle = handles_with_origin(result.origin_vertex);
  if (column_handle.empty()) return without_handles(std::move(result), fixed_vertex, m);

  // The eigenproblem on the vertices of tets, without the fixed ones when they must vanish.
  const std::vector<bool> used = vertices_in_tets(tets, n);
  std::vector<int> row_vertex, index_of(n, -1);
  for (int v = 0; v < n; ++v)
    if (used[v] && !(dirichlet_aware && fixed_vertex[v])) {
      index_of[v] = static_cast<int>(row_vertex.size());
      row_vertex.push_back(v);
    }
  const int dimension = static_cast<int>(row_vertex.size());  // >= 1: the origins are free
  const int count = std::min<int>(static_cast<int>(column_handle.size()), dimension);
  column_handle.resize(count);

  const SpMat L = weighted_laplacian(rest, tets, youngs / youngs.minCoeff());
  const VecX volume = lumped_vertex_volume(rest, tets);
  std::vector<Eigen::Triplet<double, int>> k_entries, m_entries;
  for (int j = 0; j < L.outerSize(); ++j)
    for (SpMat::InnerIterator it(L, j); it; ++it)
      if (index_of[it.row()] >= 0 && index_of[j] >= 0)
        k_entries.emplace_back(index_of[it.row()], index_of[j], it.value());
  for (int r = 0; r < dimension; ++r) m_entries.emplace_back(r, r, volume[row_vertex[r]]);
  SpMat K(dimension, dimension), M(dimension, dimension);
  K.setFromTriplets(k_entries.begin(), k_entries.end());
  M.setFromTriplets(m_entries.begin(), m_entries.end());
  const GeneralizedEigenResult modes = smallest_generalized_eigenpairs(K, M, count);
  if (modes.status != Status::kSuccess || modes.vectors.cols() < count)
    throw std::runtime_error("skinning eigenmodes: the eigensolver found " +
                             std::to_string(modes.vectors.cols()) + " of " + std::to_string(count) +
                             " modes");
  MatX w = modes.vectors.leftCols(count);
  for (int c = 0; c < count; ++c) {
    Eigen::Index largest = 0;
    w.col(c).cwiseAbs().maxCoeff(&largest);
    w.col(c) /= w(largest, c);  // max |w| = 1, that entry positive
  }
  for (int r = 0; r < dimension; ++r)
    if (fixed_vertex[row_vertex[r]]) w.row(r).setZero();  // the bases never move them
  result.phi = columns_to_phi(w, row_vertex, column_handle, n, m);
  // With a clamp the first mode is positive and vanishes there: the affine handle takes it as
  // its weight (1 - phi_DBC), so the affine level stays inside the eigenmode span (the levels
  // nest, as they do for partitions of unity) and is continuous at the clamp.
  result.dirichlet_weight = VecX::Zero(n);
  if (dimension < static_cast<int>(std::count(used.begin(), used.end(), true)))
    for (int r = 0; r < dimension; ++r) result.dirichlet_weight[row_vertex[r]] = 1.0 - w(r, 0);
  for (int v = 0; v < n; ++v)
    if (used[v] && fixed_vertex[v] && dirichlet_aware) result.dirichlet_weight[v] = 1.0;
  return result;
}

HandleWeights handle_weights_of(HandleBasis basis, const MatX3& rest, const MatX4i& tets,
                                const VecX& youngs, const std::vector<int>& element_label,
                                const std::vector<int>& center_vertex,
                                const std::vector<bool>& fixed_vertex, bool dirichlet_aware) {
  switch (basis) {
    case HandleBasis::kRbf:
      return rbf_handle_weights(rest, tets, element_label, center_vertex, fixed_vertex);
    case HandleBasis::kBiharmonic:
      return biharmonic_coordinate_weights(rest, tets, element_label, center_vertex, fixed_vertex,
                                           dirichlet_aware);
    case HandleBasis::kEigenmodes:
      return skinning_eigenmode_weights(rest, tets, youngs, element_label, center_vertex,
                                        fixed_vertex, dirichlet_aware);
    case HandleBasis::kSms:
      break;
  }
  return sms_handle_weights(rest, tets, youngs, element_label, center_vertex, fixed_vertex,
                            dirichlet_aware);
}

}  // namespace simrun
