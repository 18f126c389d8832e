/// Scene-wide multilevel precomputation (see multilevel_setup.hpp).
#include "multilevel/multilevel_setup.hpp"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/timer.hpp"
#include "multilevel/partition.hpp"

namespace simrun {

namespace {

/// The tets of one object with their vertices renumbered from 0.
struct ObjectMesh {
  MatX3 rest;
  MatX4i tets;
  VecX youngs;
  std::vector<int> material;
  std::vector<bool> fixed;
  std::vector<int> global_vertex;  ///< local -> scene vertex
};

ObjectMesh object_mesh(const MultilevelInput& in, int first_tet, int end_tet) {
  ObjectMesh o;
  std::vector<int> local(in.rest.rows(), -1);
  const int count = end_tet - first_tet;
  o.tets.resize(count, 4);
  o.youngs.resize(count);
  o.material.resize(count);
  for (int k = 0; k < count; ++k) {
    const int e = first_tet + k;
    o.youngs[k] = in.youngs[e];
    o.material[k] = in.material.empty() ? 0 : in.material[e];
    for (int a = 0; a < 4; ++a) {
      int& v = local[in.tets(e, a)];
      if (v < 0) {
        v = static_cast<int>(o.global_vertex.size());
        o.global_vertex.push_back(in.tets(e, a));
      }
      o.tets(k, a) = v;
    }
  }
  o.rest.resize(o.global_vertex.size(), 3);
  o.fixed.resize(o.global_vertex.size());
  for (size_t v = 0; v < o.global_vertex.size(); ++v) {
    o.rest.row(v) = in.rest.row(o.global_vertex[v]);
    o.fixed[v] = in.fixed[o.global_vertex[v]];
  }
  return o;
}

/// Per handle, the phi-weighted RMS distance of its support from its origin: the length that
/// scales its linear DOFs (so that they are conditioned like the translations).
VecX handle_lengths(const MatX3& rest, const SpMat& phi, const MatX3& origin) {
  VecX length(phi.cols());
  for (int h = 0; h < phi.outerSize(); ++h) {
    double sum = 0.0, weight = 0.0;
    for (SpMat::InnerIterator it(phi, h); it; ++it) {
      // |phi|: the alternative bases' weights may be negative
      sum += std::abs(it.value()) * (rest.row(it.row()) - origin.row(h)).squaredNorm();
      weight += std::abs(it.value());
    }
    length[h] = weight > 0.0 && sum > 0.0 ? std::sqrt(sum / weight) : 1.0;
  }
  return length;
}

/// Per partition, BFS over the edges of its own tets from its origin; the mean of the largest
/// hop counts (partitions without an origin are skipped).
double partition_hop_radius(const MatX4i& tets, int num_vertices, const std::vector<int>& label,
                            const std::vector<int>& origin) {
  const int handles = static_cast<int>(origin.size());
  std::vector<std::vector<int>> tets_of(handles);
  for (int e = 0; e < tets.rows(); ++e)
    if (label[e] >= 0) tets_of[label[e]].push_back(e);
  std::vector<int> hops(num_vertices, -1);
  std::vector<std::vector<int>> neighbours(num_vertices);
  double sum = 0.0;
  int counted = 0;
  for (int h = 0; h < handles; ++h) {
    if (origin[h] < 0) continue;
    std::vector<int> touched;
    for (int e : tets_of[h])
      for (int a = 0; a < 4; ++a) {
        const int v = tets(e, a);
        if (neighbours[v].empty()) touched.push_back(v);
        for (int b = 0; b < 4; ++b)
          if (b != a) neighbours[v].push_back(tets(e, b));
      }
    std::vector<int> queue = {origin[h]};
    hops[origin[h]] = 0;
    int radius = 0;
    for (size_t k = 0; k < queue.size(); ++k) {
      const int v = queue[k];
      radius = std::max(radius, hops[v]);
      for (int w : neighbours[v])
        if (hops[w] < 0) hops[w] = hops[v] + 1, queue.push_back(w);
    }
    for (int v : queue) hops[v] = -1;
    for (int v : touched) neighbours[v].clear();
    sum += radius;
    ++counted;
  }
  return counted ? sum / counted : 0.0;
}

}  // namespace

int automatic_fine_iterations(const MultilevelPrecompute& precompute) {
  return std::abs(precompute.mean_hop_radius - 20.0) <= std::abs(precompute.mean_hop_radius - 40.0)
             ? 20
             : 40;
}

std::string MultilevelPrecompute::summary() const {
  char line[256];
  std::snprintf(line, sizeof line,
                "multilevel: %d SMS handles (|U| = %d DOFs%s) over %d object%s, partition %.2f s, "
                "bases %.2f s%s%s",
                handles, 12 * handles,
                basis == HandleBasis::kSms
                    ? ""
                    : (std::string(", ") + handle_basis_name(basis) + " weights").c_str(),
                objects, objects == 1 ? "" : "s", partition_seconds, basis_seconds,
                clamped_partitions > 0
                    ? (", " + std::to_string(clamped_partitions) +
                       " partitions fewer than asked (an object has fewer vertices)")
                          .c_str()
                    : "",
                zero_sum_vertices > 0 ? (", " + std::to_string(zero_sum_vertices) +
                                         " vertices outside every clipped "
                                         "weight given to their partition")
                                            .c_str()
                                      : "");
  return line;
}

MultilevelPrecompute compute_multilevel_weights(const MultilevelInput& in,
                                                const MultilevelSetupSettings& settings) {
  MultilevelPrecompute result;
  result.basis = settings.basis;
  const int n = static_cast<int>(in.rest.rows());
  const int num_objects = static_cast<int>(in.tet_offset.size()) - 1;
  const int total_tets = in.tet_offset.back() - in.tet_offset.front();
  result.element_label.assign(in.tets.rows(), -1);
  std::vector<Eigen::Triplet<double, int>> phi_entries;
  VecX dirichlet_weight = VecX::Zero(n);
  std::vector<int> object_of_vertex(n, -1);

  for (int o = 0; o < num_objects; ++o) {
    const int first = in.tet_offset[o], end = in.tet_offset[o + 1];
    if (end == first) continue;
    ++result.objects;
    const ObjectMesh mesh = object_mesh(in, first, end);
    for (int v : mesh.global_vertex) object_of_vertex[v] = result.objects - 1;

    Timer timer;
    PartitionSettings partition;
    // At most one partition per vertex (and per tet): more handles than that cannot be told
    // apart (the summary reports the cut).
    const int wanted = std::max(
        1, static_cast<int>(std::lround(settings.partitions * double(end - first) / total_tets)));
    partition.clusters = std::min({wanted, end - first, int(mesh.global_vertex.size())});
    result.clamped_partitions += wanted - partition.clusters;
    partition.jump_penalty = settings.jump_penalty;
    partition.contrast_cap = settings.contrast_cap;
    partition.seed = settings.seed;
    const MeshPartition parts =
        partition_tets(mesh.rest, mesh.tets, mesh.youngs, mesh.material, partition);
    result.partition_seconds += timer.seconds();
    result.repaired_components += parts.repaired_components;

    const Timer basis_timer;
    const HandleWeights weights =
        handle_weights_of(settings.basis, mesh.rest, mesh.tets, mesh.youngs, parts.element_label,
                          parts.center_vertex, mesh.fixed, settings.dirichlet_aware);
    result.basis_seconds += basis_timer.seconds();
    result.zero_sum_vertices += weights.zero_sum_vertices;
    const int offset = result.handles;
    for (int k = 0; k < end - first; ++k)
      result.element_label[first + k] = offset + parts.element_label[k];
    for (int h = 0; h < weights.phi.outerSize(); ++h)
      for (SpMat::InnerIterator it(weights.phi, h); it; ++it)
        phi_entries.emplace_back(mesh.global_vertex[it.row()], offset + h, it.value());
    for (size_t v = 0; v < mesh.global_vertex.size(); ++v)
      dirichlet_weight[mesh.global_vertex[v]] = weights.dirichlet_weight[v];
    for (int vertex : weights.origin_vertex)
      result.origin_vertex.push_back(vertex < 0 ? -1 : mesh.global_vertex[vertex]);
    result.handles += parts.count();
  }

  result.phi.resize(n, result.handles);
  result.phi.setFromTriplets(phi_entries.begin(), phi_entries.end());
  result.dirichlet_weight = std::move(dirichlet_weight);
  result.object_of_vertex = std::move(object_of_vertex);
  return result;
}

/// affine_in_handles assumes weights that sum to one (to 1 - phi_DBC), as the SMS weights do.
/// The comparison bases' weights (`"basis"`: RBFs, eigenmodes) need not, and then U_s Z only
/// approximates U_a; for them Z is the least-squares fit (U_s^T U_s) Z = U_s^T U_a instead, the
/// handle space's nearest field to each object's affine one. Any Z gives a correct deflated
/// PCG; the fit keeps the deflation aimed at the near-rigid motions.
static void fit_affine_least_squares(MultilevelBases& bases) {
  if (bases.affine_in_sms.size() == 0 || bases.sms.cols() == 0) return;
  SpMat gram = SpMat(bases.sms.transpose() * bases.sms);
  // Handles without a free vertex have empty columns: a tiny shift keeps the system definite
  // and their rows of Z at zero.
  const double shift = 1e-12 * std::max(1.0, gram.diagonal().maxCoeff());
  for (Eigen::Index i = 0; i < gram.rows(); ++i) gram.coeffRef(i, i) += shift;
  const Eigen::SimplicialLDLT<SpMat> solver(gram);
  if (solver.info() != Eigen::Success) return;  // keep the approximate embedding
  bases.affine_in_sms = solver.solve(MatX(bases.sms.transpose() * bases.affine));
}

void assemble_multilevel_bases(const MultilevelInput& in, MultilevelPrecompute& result) {
  const Timer basis_timer;
  result.mean_hop_radius = partition_hop_radius(in.tets, static_cast<int>(in.rest.rows()),
                                                result.element_label, result.origin_vertex);
  MatX3 origin = MatX3::Zero(result.handles, 3);
  for (int h = 0; h < result.handles; ++h)
    if (result.origin_vertex[h] >= 0) origin.row(h) = in.rest.row(result.origin_vertex[h]);
  result.bases = std::make_shared<MultilevelBases>();
  const VecX length = handle_lengths(in.rest, result.phi, origin);
  result.bases->sms = lbs_basis(in.rest, result.phi, origin, length, in.full_to_free, in.num_free);
  const AffineHandles affine = affine_handles(in.rest, in.vertex_mass, result.object_of_vertex,
                                              result.objects, result.dirichlet_weight);
  result.bases->affine =
      lbs_basis(in.rest, affine.phi, affine.origin, affine.length, in.full_to_free, in.num_free);
  std::vector<int> handle_object(result.handles, -1);
  for (int h = 0; h < result.handles; ++h)
    if (result.origin_vertex[h] >= 0)
      handle_object[h] = result.object_of_vertex[result.origin_vertex[h]];
  result.bases->affine_in_sms = affine_in_handles(origin, length, handle_object, affine);
  if (result.basis != HandleBasis::kSms) fit_affine_least_squares(*result.bases);
  result.basis_seconds += basis_timer.seconds();
}

MultilevelPrecompute build_multilevel(const MultilevelInput& input,
                                      const MultilevelSetupSettings& settings) {
  MultilevelPrecompute result = compute_multilevel_weights(input, settings);
  assemble_multilevel_bases(input, result);
  return result;
}

}  // namespace simrun
