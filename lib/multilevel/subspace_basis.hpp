#pragma once
/// Linear-blend-skinning bases of the multilevel solver (Trusty et al. Secs. 3.4-3.5, Eqs. 7 and
/// 10): increments d = U q with 12 affine DOFs per handle.
#include <vector>

#include "core/types.hpp"

namespace simrun {

/// U (num_free x 12 h) of Eqs. 7 and 10, one row per free DOF: vertex v's coordinate c gets,
/// for each handle with phi_h(v) != 0, the four entries
///   U(row, 12 h + 4 c + {0, 1, 2, 3}) = phi_h(v) [1, dx / l_h, dy / l_h, dz / l_h],
/// with (dx, dy, dz) = rest(v) - origin(h) and l_h = length[h] scaling the linear DOFs to the
/// units of the translation (conditioning). `full_to_free[3 v + c]` is the free DOF or -1 (fixed
/// rows are left out: the bases never move constrained DOFs). Row-major, so U q runs by rows.
using RowSpMat = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
RowSpMat lbs_basis(const MatX3& rest, const SpMat& phi, const MatX3& origin, const VecX& length,
                   const std::vector<int>& full_to_free, int num_free);

/// One affine handle per object (Sec. 3.4): phi = 1 - phi_DBC on the object's vertices
/// (`object_of_vertex[v]`, -1 for none), the origin at the object's centre of mass (`mass` per
/// vertex), the linear DOFs scaled by the object's RMS radius about it.
struct AffineHandles {
  SpMat phi;  ///< n_vertices x n_objects
  MatX3 origin;
  VecX length;
};
AffineHandles affine_handles(const MatX3& rest, const VecX& mass,
                             const std::vector<int>& object_of_vertex, int num_objects,
                             const VecX& dirichlet_weight);

/// Z (12 handles x 12 objects) with U_s Z = U_a: each object's affine level written in the
/// coefficients of its SMS handles. Where the handles' weights sum to the affine weight
/// (sum_h phi_h = 1 - phi_DBC, the SMS partition of unity, Eq. 11), the affine handle o's column
/// 12 o + 4 c + k is reproduced by handle h (of object o) with translation entry
/// [k = 0: 1, k > 0: (x_h - x_o)_k / l_o] and linear entry (k > 0) l_h / l_o, from
/// (x - x_o) / l_o = (l_h / l_o) (x - x_h) / l_h + (x_h - x_o) / l_o. `handle_object[h]` is the
/// object (affine handle) of handle h, -1 for a handle without weights (zero rows). The SMS
/// PCG's coarse space (multilevel_solver.hpp, sms_deflation).
MatX affine_in_handles(const MatX3& handle_origin, const VecX& handle_length,
                       const std::vector<int>& handle_object, const AffineHandles& affine);

}  // namespace simrun
