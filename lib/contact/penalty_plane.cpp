#include "contact/penalty_plane.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "fem/tet_pattern.hpp"

namespace simrun {

PenaltyPlane::PenaltyPlane(const Vec3& point, const Vec3& normal, double stiffness,
                           int num_vertices)
    : PenaltyPlane(point, normal, VecX::Constant(num_vertices, stiffness)) {
  if (!(stiffness > 0.0) || !std::isfinite(stiffness))
    throw std::invalid_argument("PenaltyPlane: the stiffness must be positive and finite");
}

PenaltyPlane::PenaltyPlane(const Vec3& point, const Vec3& normal, VecX vertex_stiffness)
    : m_point(point),
      m_stiffness(std::move(vertex_stiffness)),
      m_num_vertices(static_cast<int>(m_stiffness.size())) {
  const double length = normal.norm();
  if (!(length > 0.0) || !std::isfinite(length))
    throw std::invalid_argument("PenaltyPlane: the normal must be a non-zero finite vector");
  if (!m_stiffness.allFinite() || (m_stiffness.array() < 0.0).any() ||
      (m_num_vertices > 0 && !(m_stiffness.maxCoeff() > 0.0)))
    throw std::invalid_argument(
        "PenaltyPlane: the stiffnesses must be finite, non-negative and not all zero");
  m_normal = normal / length;
}

double PenaltyPlane::energy(const VecX& x) const {
  double total = 0.0;
  for (int i = 0; i < m_num_vertices; ++i) {
    const double d = signed_distance(x.segment<3>(3 * i));
    if (d < 0.0) total += 0.5 * m_stiffness[i] * d * d;
  }
  return total;
}

void PenaltyPlane::add_gradient(const VecX& x, VecX& g) const {
  for (int i = 0; i < m_num_vertices; ++i) {
    const double d = signed_distance(x.segment<3>(3 * i));
    if (d < 0.0) g.segment<3>(3 * i) += m_stiffness[i] * d * m_normal;
  }
}

void PenaltyPlane::bind(const SpMat& pattern, const DofMap& dofs) {
  m_slots.assign(9 * static_cast<size_t>(m_num_vertices), -1);
  for (int i = 0; i < m_num_vertices; ++i) {
    const int first = dofs.free_index(3 * i);
    if (first < 0) continue;  // a vertex is constrained as a whole (DofMap)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        m_slots[9 * static_cast<size_t>(i) + 3 * r + c] = find_slot(pattern, first + r, first + c);
  }
}

void PenaltyPlane::add_hessian(const VecX& x, double* values, bool /*project_psd*/) const {
  const Mat3 nn = m_normal * m_normal.transpose();
  for (int i = 0; i < m_num_vertices; ++i) {
    const int* slots = m_slots.data() + 9 * static_cast<size_t>(i);
    if (slots[0] < 0 || signed_distance(x.segment<3>(3 * i)) >= 0.0) continue;
    const Mat3 block = m_stiffness[i] * nn;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) values[slots[3 * r + c]] += block(r, c);
  }
}

}  // namespace simrun
