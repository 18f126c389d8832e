/// Scene-wide multilevel precomputation (see multilevel_setup.hpp).
#include "multilevel/multilevel_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/timer.hpp"
#include "multilevel/handle_weights.hpp"
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
/// scales its linear DOFs (pitfall 30).
VecX handle_lengths(const MatX3& rest, const SpMat& phi, const MatX3& origin) {
  VecX length(phi.cols());
  for (int h = 0; h < phi.outerSize(); ++h) {
    double sum = 0.0, weight = 0.0;
    for (SpMat::InnerIterator it(phi, h); it; ++it) {
      sum += it.value() * (rest.row(it.row()) - origin.row(h)).squaredNorm();
      weight += it.value();
    }
    length[h] = weight > 0.0 && sum > 0.0 ? std::sqrt(sum / weight) : 1.0;
  }
  return length;
}

}  // namespace

std::string MultilevelPrecompute::summary() const {
  char line[256];
  std::snprintf(line, sizeof line,
                "multilevel: %d SMS handles (|U| = %d DOFs) over %d object%s, partition %.2f s, "
                "bases %.2f s%s",
                handles, 12 * handles, objects, objects == 1 ? "" : "s", partition_seconds,
                basis_seconds,
                zero_sum_vertices > 0 ? (", " + std::to_string(zero_sum_vertices) +
                                         " vertices outside every clipped "
                                         "weight given to their partition")
                                            .c_str()
                                      : "");
  return line;
}

MultilevelPrecompute build_multilevel(const MultilevelInput& in,
                                      const MultilevelSetupSettings& settings) {
  MultilevelPrecompute result;
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
    partition.clusters = std::clamp(
        static_cast<int>(std::lround(settings.partitions * double(end - first) / total_tets)), 1,
        end - first);
    partition.jump_penalty = settings.jump_penalty;
    partition.seed = settings.seed;
    const MeshPartition parts =
        partition_tets(mesh.rest, mesh.tets, mesh.youngs, mesh.material, partition);
    result.partition_seconds += timer.seconds();
    result.repaired_components += parts.repaired_components;

    const Timer basis_timer;
    const HandleWeights weights =
        sms_handle_weights(mesh.rest, mesh.tets, mesh.youngs, parts.element_label,
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

  const Timer basis_timer;
  result.phi.resize(n, result.handles);
  result.phi.setFromTriplets(phi_entries.begin(), phi_entries.end());
  MatX3 origin = MatX3::Zero(result.handles, 3);
  for (int h = 0; h < result.handles; ++h)
    if (result.origin_vertex[h] >= 0) origin.row(h) = in.rest.row(result.origin_vertex[h]);
  result.bases = std::make_shared<MultilevelBases>();
  result.bases->sms =
      lbs_basis(in.rest, result.phi, origin, handle_lengths(in.rest, result.phi, origin),
                in.full_to_free, in.num_free);
  const AffineHandles affine =
      affine_handles(in.rest, in.vertex_mass, object_of_vertex, result.objects, dirichlet_weight);
  result.bases->affine =
      lbs_basis(in.rest, affine.phi, affine.origin, affine.length, in.full_to_free, in.num_free);
  result.basis_seconds += basis_timer.seconds();
  return result;
}

}  // namespace simrun
