/// SMS weight functions (see handle_weights.hpp).
#include "multilevel/handle_weights.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "core/error.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {

namespace {

struct MeshFaces {
  /// Per tet and local face (the face opposite vertex a): the tet across it, or -1 on the surface.
  std::vector<std::array<int, 4>> across;
  std::vector<bool> surface_vertex;
};

MeshFaces mesh_faces(const MatX4i& tets, int num_vertices) {
  MeshFaces faces;
  faces.across.assign(tets.rows(), {-1, -1, -1, -1});
  faces.surface_vertex.assign(num_vertices, false);
  std::map<std::array<int, 3>, std::pair<int, int>> first;  // face -> (tet, local face)
  for (int e = 0; e < tets.rows(); ++e) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> key{};
      for (int a = 0, k = 0; a < 4; ++a)
        if (a != skip) key[k++] = tets(e, a);
      std::sort(key.begin(), key.end());
      const auto [it, inserted] = first.emplace(key, std::make_pair(e, skip));
      if (!inserted) {
        faces.across[e][skip] = it->second.first;
        faces.across[it->second.first][it->second.second] = e;
      }
    }
  }
  for (int e = 0; e < tets.rows(); ++e)
    for (int skip = 0; skip < 4; ++skip)
      if (faces.across[e][skip] < 0)
        for (int a = 0; a < 4; ++a)
          if (a != skip) faces.surface_vertex[tets(e, a)] = true;
  return faces;
}

/// The biharmonic solve of Eq. 8 on the tets with in_subdomain[label] set: u = value at the
/// vertices of `pinned` (global index -> value) and zero on the internal boundary; returns the
/// clipped u_pos on the subdomain's vertices (global index -> value > 0).
std::vector<std::pair<int, double>> clipped_biharmonic(const MatX3& rest, const MatX4i& tets,
                                                       const VecX& weight, const MeshFaces& faces,
                                                       const std::vector<int>& element_label,
                                                       const std::vector<bool>& in_subdomain,
                                                       const std::map<int, double>& pinned) {
  std::vector<int> local_of(rest.rows(), -1), global_of;
  std::vector<int> subdomain_tets;
  for (int e = 0; e < tets.rows(); ++e) {
    if (!in_subdomain[element_label[e]]) continue;
    subdomain_tets.push_back(e);
    for (int a = 0; a < 4; ++a) {
      int& local = local_of[tets(e, a)];
      if (local < 0) {
        local = static_cast<int>(global_of.size());
        global_of.push_back(tets(e, a));
      }
    }
  }
  const int n = static_cast<int>(global_of.size());
  MatX3 local_rest(n, 3);
  for (int i = 0; i < n; ++i) local_rest.row(i) = rest.row(global_of[i]);
  MatX4i local_tets(subdomain_tets.size(), 4);
  VecX local_weight(subdomain_tets.size());
  // Constrained local vertices and their values; the internal boundary is zero.
  std::vector<double> value(n, 0.0);
  std::vector<bool> constrained(n, false);
  for (size_t k = 0; k < subdomain_tets.size(); ++k) {
    const int e = subdomain_tets[k];
    local_weight[k] = weight[e];
    for (int a = 0; a < 4; ++a) local_tets(k, a) = local_of[tets(e, a)];
    for (int skip = 0; skip < 4; ++skip) {
      const int other = faces.across[e][skip];
      if (other < 0 || in_subdomain[element_label[other]]) continue;
      for (int a = 0; a < 4; ++a)  // a face to outside the subdomain: internal boundary
        if (a != skip && !faces.surface_vertex[tets(e, a)])
          constrained[local_of[tets(e, a)]] = true;
    }
  }
  for (const auto& [vertex, u] : pinned) {
    const int local = local_of[vertex];
    if (local < 0) continue;
    constrained[local] = true;
    value[local] = u;
  }

  const SpMat L = weighted_laplacian(local_rest, local_tets, local_weight);
  const VecX inverse_mass = lumped_vertex_volume(local_rest, local_tets).cwiseInverse();
  const SpMat K = (L * inverse_mass.asDiagonal() * L).pruned();

  const VecX u = solve_with_fixed_values(K, constrained, Eigen::Map<const VecX>(value.data(), n),
                                         "SMS basis: the biharmonic system of a subdomain");
  std::vector<std::pair<int, double>> clipped;
  for (int i = 0; i < n; ++i)
    if (u[i] > 0.0) clipped.emplace_back(global_of[i], u[i]);
  return clipped;
}

/// Partitions sharing a face with each partition.
std::vector<std::set<int>> neighbours_across_faces(const MatX4i& tets, const MeshFaces& faces,
                                                   const std::vector<int>& label, int count) {
  std::vector<std::set<int>> neighbours(count);
  for (int e = 0; e < tets.rows(); ++e)
    for (int other : faces.across[e])
      if (other >= 0 && label[other] != label[e]) neighbours[label[e]].insert(label[other]);
  return neighbours;
}

/// The partition's free vertex nearest to its centre (the centre itself when it is free);
/// -1 when every vertex of the partition is fixed.
int free_origin(const MatX3& rest, const MatX4i& tets, const std::vector<int>& label, int partition,
                int center, const std::vector<bool>& fixed) {
  if (!fixed[center]) return center;
  int best = -1;
  double best_distance = 0.0;
  for (int e = 0; e < tets.rows(); ++e) {
    if (label[e] != partition) continue;
    for (int a = 0; a < 4; ++a) {
      const int v = tets(e, a);
      if (fixed[v]) continue;
      const double d = (rest.row(v) - rest.row(center)).squaredNorm();
      if (best < 0 || d < best_distance) best = v, best_distance = d;
    }
  }
  return best;
}

/// The mesh, partitions and stiffness weights the weight functions are solved on.
struct WeightDomain {
  const MatX3& rest;
  const MatX4i& tets;
  const VecX& weight;
  const MeshFaces& faces;
  const std::vector<int>& element_label;
  const std::vector<std::set<int>>& neighbours;
};

/// u_pos,i of every handle as triplets (vertex, handle, u); `pinned_fixed`: vertices held at zero.
std::vector<Eigen::Triplet<double, int>> clipped_handle_functions(
    const WeightDomain& d, const std::vector<int>& origin_vertex,
    const std::vector<bool>& pinned_fixed) {
  const MatX4i& tets = d.tets;
  const int m = static_cast<int>(origin_vertex.size());
  // u_pos,i per handle (Eq. 8 and the clip), as triplets (vertex, handle, u).
  std::vector<Eigen::Triplet<double, int>> clipped;
  std::vector<bool> in_subdomain(m, false);
  for (int i = 0; i < m; ++i) {
    if (origin_vertex[i] < 0) continue;  // a partition of fixed vertices: no handle
    std::fill(in_subdomain.begin(), in_subdomain.end(), false);
    in_subdomain[i] = true;
    std::map<int, double> pinned;
    for (int j : d.neighbours[i]) {
      in_subdomain[j] = true;
      if (origin_vertex[j] >= 0) pinned[origin_vertex[j]] = 0.0;
    }
    for (int e = 0; e < tets.rows(); ++e)
      if (in_subdomain[d.element_label[e]])
        for (int a = 0; a < 4; ++a)
          if (pinned_fixed[tets(e, a)]) pinned[tets(e, a)] = 0.0;
    pinned[origin_vertex[i]] = 1.0;
    for (const auto& [v, u] :
         clipped_biharmonic(d.rest, tets, d.weight, d.faces, d.element_label, in_subdomain, pinned))
      clipped.emplace_back(v, i, u);
  }
  return clipped;
}

/// u_DBC before normalization, over every vertex.
VecX clipped_dirichlet_function(const WeightDomain& d, const std::vector<int>& origin_vertex,
                                const std::vector<bool>& fixed_vertex) {
  const MatX4i& tets = d.tets;
  const int n = static_cast<int>(d.rest.rows());
  const int m = static_cast<int>(origin_vertex.size());
  VecX dirichlet_weight = VecX::Zero(n);
  std::vector<bool> in_subdomain(m, false);
  std::map<int, double> pinned;
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a)
      if (fixed_vertex[tets(e, a)]) in_subdomain[d.element_label[e]] = true;
  const std::vector<bool> holding = in_subdomain;
  for (int i = 0; i < m; ++i)
    if (holding[i])
      for (int j : d.neighbours[i]) in_subdomain[j] = true;
  for (int i = 0; i < m; ++i)
    if (in_subdomain[i] && origin_vertex[i] >= 0) pinned[origin_vertex[i]] = 0.0;
  for (int v = 0; v < n; ++v)
    if (fixed_vertex[v]) pinned[v] = 1.0;
  for (const auto& [v, u] :
       clipped_biharmonic(d.rest, tets, d.weight, d.faces, d.element_label, in_subdomain, pinned))
    dirichlet_weight[v] = u;
  return dirichlet_weight;
}

/// phi and the Dirichlet weight normalized to a partition of unity.
void partition_of_unity(const WeightDomain& d,
                        const std::vector<Eigen::Triplet<double, int>>& clipped,
                        const std::vector<bool>& fixed_vertex, HandleWeights& result) {
  const MatX4i& tets = d.tets;
  const int n = static_cast<int>(d.rest.rows());
  const int m = static_cast<int>(result.origin_vertex.size());
  // Partition of unity (Eq. 9 / 11); a vertex no clipped weight reaches goes to its own
  // partition's handle.
  VecX total = result.dirichlet_weight;
  for (const auto& t : clipped) total[t.row()] += t.value();
  std::vector<int> own_partition(n, -1);
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a) own_partition[tets(e, a)] = d.element_label[e];
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(clipped.size());
  for (const auto& t : clipped)
    if (!fixed_vertex[t.row()]) entries.emplace_back(t.row(), t.col(), t.value() / total[t.row()]);
  for (int v = 0; v < n; ++v) {
    if (total[v] > 0.0 || fixed_vertex[v] || own_partition[v] < 0) continue;
    const int handle = own_partition[v];
    if (result.origin_vertex[handle] < 0) continue;
    entries.emplace_back(v, handle, 1.0);
    ++result.zero_sum_vertices;
  }
  for (int v = 0; v < n; ++v)
    if (total[v] > 0.0) result.dirichlet_weight[v] /= total[v];
  result.phi.resize(n, m);
  result.phi.setFromTriplets(entries.begin(), entries.end());
}

}  // namespace

std::vector<int> handle_origins(const MatX3& rest, const MatX4i& tets,
                                const std::vector<int>& element_label,
                                const std::vector<int>& center_vertex,
                                const std::vector<bool>& fixed_vertex) {
  std::vector<int> origin(center_vertex.size(), -1);
  for (size_t i = 0; i < center_vertex.size(); ++i)
    origin[i] =
        free_origin(rest, tets, element_label, static_cast<int>(i), center_vertex[i], fixed_vertex);
  return origin;
}

std::vector<std::set<int>> partition_neighbours(const MatX4i& tets,
                                                const std::vector<int>& element_label, int count,
                                                int num_vertices) {
  return neighbours_across_faces(tets, mesh_faces(tets, num_vertices), element_label, count);
}

HandleWeights sms_handle_weights(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                                 const std::vector<int>& element_label,
                                 const std::vector<int>& center_vertex,
                                 const std::vector<bool>& fixed_vertex, bool dirichlet_aware) {
  const int n = static_cast<int>(rest.rows());
  const int m = static_cast<int>(center_vertex.size());
  require(m > 0, "SMS basis: no partitions");
  const MeshFaces faces = mesh_faces(tets, n);
  const std::vector<std::set<int>> neighbours =
      neighbours_across_faces(tets, faces, element_label, m);
  const VecX weight = youngs / youngs.minCoeff();
  const bool any_fixed = dirichlet_aware && std::find(fixed_vertex.begin(), fixed_vertex.end(),
                                                      true) != fixed_vertex.end();
  const std::vector<bool> pinned_fixed = dirichlet_aware ? fixed_vertex : std::vector<bool>(n);
  const WeightDomain domain{rest, tets, weight, faces, element_label, neighbours};

  HandleWeights result;
  result.origin_vertex = handle_origins(rest, tets, element_label, center_vertex, fixed_vertex);
  const std::vector<Eigen::Triplet<double, int>> clipped =
      clipped_handle_functions(domain, result.origin_vertex, pinned_fixed);

  // u_DBC (Eq. 11): one at the fixed vertices, zero at the centres of the partitions holding
  // them and of their neighbours, on the union of those partitions and their neighbours.
  result.dirichlet_weight = VecX::Zero(n);
  if (any_fixed)
    result.dirichlet_weight =
        clipped_dirichlet_function(domain, result.origin_vertex, fixed_vertex);

  partition_of_unity(domain, clipped, fixed_vertex, result);
  return result;
}

}  // namespace simrun
