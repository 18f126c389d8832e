#pragma once
/// Rigid-body parts of nodal vector fields (Kharevych thesis Sec. 2.2.2, Eq. 2.16, with its two
/// typos fixed, below): removing the net force and torque of a load so that a
/// pure-Neumann static problem K u = b is solvable, and removing the infinitesimal rigid motion of
/// a displacement field so that its solution is unique.
#include <array>

#include "core/types.hpp"

namespace simrun {

/// The mass-weighted centre sum_i m_i X_i / sum_i m_i of the rows of `points`.
Vec3 weighted_centre(const MatX3& points, const VecX& weights);

/// The inertia tensor I = sum_i m_i (|r_i|^2 I_3 - r_i r_i^T), r_i = X_i - centre
/// (Eq. 2.16, whose printed (2,3) entry -x z is a typo for -y z).
Mat3 inertia_tensor(const MatX3& points, const VecX& weights, const Vec3& centre);

/// Makes the nodal forces b (flat 3n) free of net force and torque about the weighted centre:
///   b_k <- b_k - m_k F / sum m            (F = sum_i b_i),
///   b_k <- b_k - m_k omega x r_k          (omega = I^-1 sum_i r_i x b_i).
/// The second line fixes a sign typo (the thesis prints -m_k r_k x omega, doubling the torque); it
/// changes no net force because sum m_k r_k = 0 about the weighted centre. Both corrections
/// are distributed like a body force (proportional to m_k).
void remove_net_force_and_torque(const MatX3& points, const VecX& weights, VecX& b);

/// Subtracts from the displacement field u (flat 3n) its weighted least-squares infinitesimal
/// rigid motion t + omega x r_k (min sum_k m_k |u_k - t - omega x r_k|^2): zero weighted mean
/// translation and rotation afterwards.
void remove_rigid_motion(const MatX3& points, const VecX& weights, VecX& u);

/// Six DOFs (flat indices 3 v + axis) whose fixing removes exactly the rigid motions of a body
/// with these points (3-2-1 pinning): all of a vertex a far from the centre, the two components
/// of a far vertex b that a rotation about a can move, and the component of a third vertex c
/// that the rotation about the axis ab moves most. A self-equilibrated load then produces no
/// reaction at them. Throws std::invalid_argument when all points are (nearly) collinear.
std::array<int, 6> rigid_pin_dofs(const MatX3& points);

}  // namespace simrun
