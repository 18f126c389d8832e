#pragma once
/// Scalar (one value per vertex) P1 operators on a tet mesh, shared by the heat-method geodesics
/// of the partitioning and the biharmonic weights of the SMS basis (Trusty et al. Secs. 3.5 and
/// 3.6.1).
#include <vector>

#include "core/types.hpp"

namespace simrun {

/// Rows of `grad` are grad N_a of tet e at the rest positions (P1 shape functions); returns the
/// tet's signed volume.
double tet_shape_gradients(const MatX3& rest, const MatX4i& tets, int e,
                           Eigen::Matrix<double, 4, 3>& grad);

/// The weighted Laplacian L_w = sum_e V_e w_e G_e^T G_e (n x n, symmetric positive
/// semi-definite, constants in its null space), with G_e the 3x4 P1 gradient operator of tet e
/// at the rest positions. Fully stored (both triangles).
SpMat weighted_laplacian(const MatX3& rest, const MatX4i& tets, const VecX& element_weight);

/// The lumped volume per vertex: sum over incident tets of V_e / 4 (unweighted, > 0 for every
/// vertex of some tet).
VecX lumped_vertex_volume(const MatX3& rest, const MatX4i& tets);

/// Rest volume of each tet (positive for a positively oriented tet).
VecX tet_volumes(const MatX3& rest, const MatX4i& tets);

/// Minimizes u^T K u column by column over the unconstrained rows with u = values on the rows
/// where `constrained` is set (K symmetric positive semi-definite, n x n, fully stored; values
/// n x k, read on the constrained rows only): K_ff u_f = -K_fc u_c on one CHOLMOD factorization.
/// `what` names the system in the error thrown when K_ff is singular.
MatX solve_with_fixed_values(const SpMat& K, const std::vector<bool>& constrained,
                             const MatX& values, const char* what);

/// Tets sharing a face (triangle) with each tet: adjacency[e] lists the neighbours of e.
std::vector<std::vector<int>> face_adjacent_tets(const MatX4i& tets);

}  // namespace simrun
