#pragma once
/// The SMS level's weight functions (Trusty et al. Secs. 3.5-3.5.1, Eqs. 8-11): per partition
/// a stiffness-weighted biharmonic function on the partition and its face neighbours, clipped
/// at zero and normalised to a partition of unity, with a Dirichlet weight in the denominator
/// when vertices are fixed (Eq. 11).
#include <set>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct HandleWeights {
  /// phi_h(v): n_vertices x n_handles, rows summing to one (Eq. 9) except at fixed vertices, near
  /// the Dirichlet weight (Eq. 11) and at vertices of no tet (empty rows).
  SpMat phi;
  /// The Dirichlet weight phi_DBC(v) per vertex (zero without fixed vertices).
  VecX dirichlet_weight;
  /// Per handle: its origin, the vertex where u = 1 (the partition's centre; moved to the
  /// partition's free vertex nearest to it when the centre is fixed).
  std::vector<int> origin_vertex;
  /// Vertices where every clipped weight vanished, given to their own partition's handle.
  int zero_sum_vertices = 0;
};

/// Per partition (labels 0..count-1 per tet), its handle's origin: its centre, or the
/// partition's free vertex nearest to it when the centre is fixed; -1 when every vertex of the
/// partition is fixed (no handle).
std::vector<int> handle_origins(const MatX3& rest, const MatX4i& tets,
                                const std::vector<int>& element_label,
                                const std::vector<int>& center_vertex,
                                const std::vector<bool>& fixed_vertex);

/// The partitions sharing a face with each partition.
std::vector<std::set<int>> partition_neighbours(const MatX4i& tets,
                                                const std::vector<int>& element_label, int count,
                                                int num_vertices);

/// Weights for the partition `element_label` (per tet, 0..m-1, every partition face-connected)
/// with centres `center_vertex` (per partition, a vertex of one of its tets). For each
/// partition i (Eq. 8): minimize u^T K u with K = L_w M^-1 L_w (L_w the Laplacian weighted by
/// E_e / min E, M the lumped volume) over the tets of i and of the partitions sharing a face with
/// it, subject to u = 1 at i's centre, u = 0 at the neighbours' centres, on the subdomain's
/// internal boundary (faces shared with tets outside it; vertices on the mesh surface excluded)
/// and, when `dirichlet_aware`, at fixed vertices. Then u_pos = max(u, 0) and
/// phi_i = u_pos,i / (sum_j u_pos,j + u_DBC) (Eq. 11), u_DBC built the same way with u = 1 at
/// the fixed vertices on the partitions holding them and their neighbours.
HandleWeights sms_handle_weights(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                                 const std::vector<int>& element_label,
                                 const std::vector<int>& center_vertex,
                                 const std::vector<bool>& fixed_vertex, bool dirichlet_aware);

}  // namespace simrun
