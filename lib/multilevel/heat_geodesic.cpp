/// Heat-method geodesics with a stiffness-weighted Laplacian (see heat_geodesic.hpp).
#include "multilevel/heat_geodesic.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {

namespace {

/// Mean length of the distinct edges of the tets.
double mean_edge_length(const MatX3& rest, const MatX4i& tets) {
  std::vector<std::pair<int, int>> edges;
  edges.reserve(6 * tets.rows());
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        edges.emplace_back(std::min(tets(e, a), tets(e, b)), std::max(tets(e, a), tets(e, b)));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  double sum = 0.0;
  for (const auto& [i, j] : edges) sum += (rest.row(i) - rest.row(j)).norm();
  return edges.empty() ? 0.0 : sum / static_cast<double>(edges.size());
}

/// Vertex-connected pieces (vertices sharing a tet are connected), numbered by first vertex.
std::vector<int> connected_pieces(int vertex_count, const MatX4i& tets, int& piece_count) {
  std::vector<int> parent(vertex_count);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 1; a < 4; ++a) {
      const int r0 = find(tets(e, 0)), r1 = find(tets(e, a));
      if (r0 != r1) parent[std::max(r0, r1)] = std::min(r0, r1);
    }
  std::vector<int> piece(vertex_count, -1), root_piece(vertex_count, -1);
  piece_count = 0;
  for (int v = 0; v < vertex_count; ++v) {
    const int root = find(v);
    if (root_piece[root] < 0) root_piece[root] = piece_count++;
    piece[v] = root_piece[root];
  }
  return piece;
}

}  // namespace

HeatGeodesic::HeatGeodesic(const MatX3& rest, const MatX4i& tets, const VecX& element_weight)
    : m_tets(tets) {
  const int n = static_cast<int>(rest.rows());
  require(element_weight.size() == tets.rows(), "heat geodesic: expected one weight per tet (" +
                                                    plural(tets.rows(), "tet") + "), got " +
                                                    std::to_string(element_weight.size()));
  require(tets.size() == 0 || (tets.minCoeff() >= 0 && tets.maxCoeff() < n),
          "heat geodesic: a tet refers to a vertex outside 0.." + std::to_string(n - 1));
  for (int e = 0; e < tets.rows(); ++e)
    require(std::isfinite(element_weight[e]) && element_weight[e] > 0.0,
            "heat geodesic: the weight of tet " + std::to_string(e) +
                " must be positive and finite, got " + short_number(element_weight[e]));

  // Normalise by the minimum weight so t = h^2 / min w becomes h^2.
  const VecX weight =
      tets.rows() > 0 ? VecX(element_weight / element_weight.minCoeff()) : element_weight;
  const double h = mean_edge_length(rest, tets);
  m_time = h * h;

  m_volume = tet_volumes(rest, tets).cwiseAbs();
  m_gradients.resize(tets.rows());
  for (int e = 0; e < tets.rows(); ++e) tet_shape_gradients(rest, tets, e, m_gradients[e]);
  m_mass = lumped_vertex_volume(rest, tets);
  m_piece = connected_pieces(n, tets, m_piece_count);

  const SpMat laplacian = weighted_laplacian(rest, tets, weight);

  // (M + t L_w); a vertex in no tet has an empty row and gets a unit diagonal (u = 0 there).
  SpMat heat = m_time * laplacian;
  {
    std::vector<Eigen::Triplet<double, int>> diagonal;
    diagonal.reserve(n);
    for (int v = 0; v < n; ++v) diagonal.emplace_back(v, v, m_mass[v] > 0.0 ? m_mass[v] : 1.0);
    SpMat mass(n, n);
    mass.setFromTriplets(diagonal.begin(), diagonal.end());
    heat += mass;
  }

  // L_w with the first vertex of every piece pinned: its row and column become the identity.
  std::vector<char> pinned(n, 0);
  {
    std::vector<char> piece_seen(m_piece_count, 0);
    for (int v = 0; v < n; ++v)
      if (!piece_seen[m_piece[v]]) piece_seen[m_piece[v]] = pinned[v] = 1;
  }
  SpMat poisson(n, n);
  {
    std::vector<Eigen::Triplet<double, int>> entries;
    entries.reserve(laplacian.nonZeros() + n);
    for (int col = 0; col < laplacian.outerSize(); ++col)
      for (SpMat::InnerIterator it(laplacian, col); it; ++it)
        if (!pinned[it.row()] && !pinned[it.col()])
          entries.emplace_back(it.row(), it.col(), it.value());
    for (int v = 0; v < n; ++v)
      if (pinned[v]) entries.emplace_back(v, v, 1.0);
    poisson.setFromTriplets(entries.begin(), entries.end());
  }

  m_heat = make_cholmod_solver();
  m_poisson = make_cholmod_solver();
  if (n > 0 && (m_heat->factorize_positive_definite(heat) != Status::kSuccess ||
                m_poisson->factorize_positive_definite(poisson) != Status::kSuccess))
    throw std::runtime_error("heat geodesic: the heat or Poisson matrix is not positive definite");
}

HeatGeodesic::~HeatGeodesic() = default;

VecX HeatGeodesic::distance(const std::vector<int>& sources) const {
  const int n = vertex_count();
  MatX impulse = MatX::Zero(n, 1);
  for (int s : sources) {
    require(s >= 0 && s < n, "heat geodesic: source vertex " + std::to_string(s) +
                                 " is outside 0.." + std::to_string(n - 1));
    impulse(s, 0) = m_mass[s];
  }
  return solve_columns(impulse, {sources}).col(0);
}

MatX HeatGeodesic::distance_batch(const std::vector<int>& sources) const {
  const int n = vertex_count();
  const int m = static_cast<int>(sources.size());
  MatX impulse = MatX::Zero(n, m);
  std::vector<std::vector<int>> column_sources(m);
  for (int j = 0; j < m; ++j) {
    const int s = sources[j];
    require(s >= 0 && s < n, "heat geodesic: source vertex " + std::to_string(s) +
                                 " is outside 0.." + std::to_string(n - 1));
    impulse(s, j) = m_mass[s];
    column_sources[j] = {s};
  }
  return solve_columns(impulse, column_sources);
}

MatX HeatGeodesic::solve_columns(const MatX& impulses,
                                 const std::vector<std::vector<int>>& column_sources) const {
  const int n = vertex_count();
  const int m = static_cast<int>(impulses.cols());
  if (n == 0 || m == 0) return MatX::Zero(n, m);

  // Step 1 (Crane et al. 2013, eq. 7 with the backward Euler heat step): all columns at once.
  MatX heat;
  m_heat->solve(impulses, heat);

  // Steps 2-3: normalised negative gradient per tet, integrated against the unweighted P1
  // gradients (the weak divergence: rhs_a = sum_e V_e grad N_a . X_e). Columns are independent,
  // so threads split the columns and never write to the same entry.
  MatX divergence = MatX::Zero(n, m);
  const int elements = static_cast<int>(m_tets.rows());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count()) if (m > 1)
  for (int j = 0; j < m; ++j) {
    const double* u = heat.col(j).data();
    double* rhs = divergence.col(j).data();
    for (int e = 0; e < elements; ++e) {
      const auto& grad = m_gradients[e];
      Eigen::RowVector3d g = Eigen::RowVector3d::Zero();
      for (int a = 0; a < 4; ++a) g += u[m_tets(e, a)] * grad.row(a);
      const double norm = g.norm();
      if (!(norm > 0.0) || !std::isfinite(norm)) continue;  // flat heat: X_e = 0
      const Eigen::RowVector3d X = -g / norm;
      for (int a = 0; a < 4; ++a) rhs[m_tets(e, a)] += m_volume[e] * grad.row(a).dot(X);
    }
  }
  // Pinned vertices keep phi = 0 (the rest of the piece is shifted below anyway).
  {
    std::vector<char> piece_seen(m_piece_count, 0);
    for (int v = 0; v < n; ++v)
      if (!piece_seen[m_piece[v]]) {
        piece_seen[m_piece[v]] = 1;
        divergence.row(v).setZero();
      }
  }
  MatX phi;
  m_poisson->solve(divergence, phi);

  // Step 4: per piece the heat reached, shift so the nearest source is at 0; other pieces are
  // unreachable (+infinity).
  const double infinity = std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(static) num_threads(thread_count()) if (m > 1)
  for (int j = 0; j < m; ++j) {
    std::vector<double> shift(m_piece_count, infinity);
    for (int s : column_sources[j]) shift[m_piece[s]] = std::min(shift[m_piece[s]], phi(s, j));
    for (int v = 0; v < n; ++v) {
      const double offset = shift[m_piece[v]];
      phi(v, j) = std::isinf(offset) ? infinity : std::max(0.0, phi(v, j) - offset);
    }
  }
  return phi;
}

}  // namespace simrun
