#pragma once
/// A half-space obstacle by a penalty (a floor for a bouncing ball, Chen thesis Sec. 6.4.3 "Ball
/// bouncing": "collision with the floor using simple penalty methods"):
///
///   E = sum_i k_i/2 d_i^2,   d_i = min(0, n . (x_i - p))
///
/// over every vertex i, with n the unit normal (pointing out of the obstacle, into the allowed
/// side), p a point on the plane and k_i [N/m] the stiffness of vertex i's spring: one k for all,
/// or k_A A_i, a pressure stiffness [Pa/m] times the vertex's share of the boundary area, which
/// discretizes the pressure k_A d independently of the mesh. The force on a
/// penetrating vertex is -k d_i n (along n, growing linearly with the depth); vertices above the
/// plane feel nothing. Gradient k_i d_i n and Hessian k_i n n^T for penetrating vertices, zero
/// otherwise: a 3x3 block on the vertex's own diagonal, which every pattern holds, and positive
/// semidefinite as it is. The energy is C^1 (its Hessian jumps at d = 0), so Newton converges
/// quadratically away from the contact switch and the line search handles the kink. A penalty
/// lets the body sink in: a resting vertex carrying the weight W sinks W / k; an impact at speed
/// u of a body of mass m landing on c vertices sinks about u sqrt(m / (c k)).
#include <vector>

#include "model/energy_term.hpp"

namespace simrun {

class PenaltyPlane final : public EnergyTerm {
 public:
  /// normal: any non-zero vector (normalized here); stiffness > 0 [N/m]; every one of the
  /// num_vertices vertices takes part. Throws std::invalid_argument otherwise (the scene layer
  /// reports bad input with its JSON pointer before this).
  PenaltyPlane(const Vec3& point, const Vec3& normal, double stiffness, int num_vertices);
  /// One stiffness per vertex (each >= 0 and finite, at least one > 0).
  PenaltyPlane(const Vec3& point, const Vec3& normal, VecX vertex_stiffness);

  /// Its energy.csv column; several planes share it (the columns sum terms of one name).
  std::string name() const override { return "obstacles"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  /// k_i n n^T on the diagonal block of every penetrating free vertex (PSD: project_psd changes
  /// nothing).
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  bool is_quadratic() const override { return false; }

  /// n . (x - p): the height of a point above the plane [m] (negative below it).
  double signed_distance(const Vec3& x) const { return m_normal.dot(x - m_point); }
  const Vec3& normal() const { return m_normal; }
  /// k_i of vertex i [N/m].
  double stiffness(int vertex) const { return m_stiffness[vertex]; }

 private:
  Vec3 m_point;
  Vec3 m_normal;     ///< unit
  VecX m_stiffness;  ///< k_i per vertex [N/m]
  int m_num_vertices;
  std::vector<int> m_slots;  ///< 9 per vertex (row-major 3x3 block), -1 for constrained DOFs
};

}  // namespace simrun
