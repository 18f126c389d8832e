#pragma once
/// Modal moment-fitting cubature for the subspace Hessian (Trusty et al. Sec. 3.8, Eqs. 15-19
/// and Alg. 3): per partition, non-negative element weights that integrate exactly
/// (to a tolerance) the constant, every basis function u_i and every product u_i u_j of the
/// handle functions overlapping that partition. The rule is for the elastic subspace Hessian
/// only (Sec. 3.8), H^cub = sum_k (w_k / V_k) H_k; gradients and energies stay fully integrated.
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct CubatureSettings {
  double tolerance = 1e-9;    ///< per partition: |A w - b| / |b| (the paper's 1e-9)
  bool weights_only = false;  ///< u = phi_h only (s = #handles) instead of phi_h * {1, dx, dy, dz}
  std::uint64_t seed = 1;     ///< residual-driven sampling (std::mt19937_64, own inverse-CDF draw)
  int max_rounds = 100;       ///< sampling rounds per partition; the last takes every element
  /// Per partition, tets the fit may sample at most (so at most this many points); 0: no cap.
  /// With a cap below a partition's tet count the last round does not take every element, and
  /// the fit can miss the tolerance (partition_residual says by how much).
  int max_points = 0;
};

/// Above this many functions s a partition falls back to weights-only functions (m grows as s^2).
inline constexpr int kMaxCubatureFunctions = 60;

struct CubatureRule {
  std::vector<int> elements;             ///< selected tets (global index), sorted ascending
  std::vector<double> weights;           ///< w_k > 0 (a volume), same order as elements
  VecX partition_residual;               ///< achieved |A w - b| / |b| per partition (0 if empty)
  std::vector<int> partition_points;     ///< cubature points per partition
  std::vector<int> partition_functions;  ///< s, the functions u_i fitted per partition
  std::vector<int> partition_rounds;     ///< sampling rounds used per partition (1 = initial)
  /// Per partition: 1 when s would exceed kMaxCubatureFunctions and weights-only was used.
  std::vector<char> partition_weights_only_fallback;
};

/// Fits the rule partition by partition (`element_label[e]` in [0, num_partitions)). Functions of
/// partition p: for each handle h with phi_h != 0 at some vertex of p's tets,
///   u = phi_h * {1, (x - x_h) / L, (y - y_h) / L, (z - z_h) / L}   (settings.weights_only: phi_h)
/// with L half the bounding-box diagonal of p's vertices. L only rescales rows of the moment
/// matrix A, so it changes conditioning, not which rules are exact. A function's
/// value in a tet is the mean of its 4 vertex values (barycentre evaluation, Sec. 3.8.2);
/// A[alpha, k] is the moment alpha in {1, u_i, u_i u_j (i <= j)} at tet k and b = A V over all
/// of p's tets (Eq. 19). Alg. 3: NNLS on min(m, #tets) random tets, then while the relative
/// residual exceeds the tolerance add max(10, m / 10) tets drawn without replacement with
/// probability proportional to (A_k . r)^2; when those vanish, or max_rounds is reached, all
/// remaining tets enter (w = V is then an exact rule). With settings.max_points the sample
/// never grows past the cap (the initial draw and every batch are cut to it, and no round takes
/// every element): the fit stops there. A missed tolerance (by rounding, or under the cap) is
/// recorded in partition_residual, not thrown. Deterministic for a seed (each partition draws
/// from its own generator seeded by (seed, p)).
/// `vertex_weights` is n_vertices x n_handles (phi_h(v)), `handle_origins` n_handles x 3.
/// Throws InputError on inconsistent sizes, labels out of range or a non-positive tolerance.
CubatureRule fit_cubature(const MatX3& rest, const MatX4i& tets,
                          const std::vector<int>& element_label, int num_partitions,
                          const SpMat& vertex_weights, const MatX3& handle_origins,
                          const CubatureSettings& settings);

}  // namespace simrun
