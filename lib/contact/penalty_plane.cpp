#include "contact/penalty_plane.hpp"

#include <cmath>
#include <stdexcept>

#include "fem/tet_pattern.hpp"

namespace simrun {

PenaltyPlane::PenaltyPlane(const Vec3& point, const Vec3& normal, double stiffness,
                           int num_vertices)
    : m_point(point), m_stiffness(stiffness), m_num_vertices(num_vertices) {
  const double length = normal.norm();
  if (!(length > 0.0) || !std::isfinite(length))
    throw std::invalid_argument("PenaltyPlane: the normal must be a non-zero finite vector");
  if (!(stiffness > 0.0) || !std::isfinite(stiffness))
    throw std::invalid_argument("PenaltyPlane: the stiffness must be positive and finite");
  m_normal = normal / length;
}

double PenaltyPlane::energy(const VecX& x) const {
  double total = 0.0;
  for (int i = 0; i < m_num_vertices; ++i) {
    const double d = signed_distance(x.segment<3>(3 * i));
    if (d < 0.0) total += 0.5 * m_stiffness * d * d;
  }
  return total;
}

void PenaltyPlane::add_gradient(const VecX& x, VecX& g) const {
  for (int i = 0; i < m_num_vertices; ++i) {
    const double d = signed_distance(x.segment<3>(3 * i));
    if (d < 0.0) g.segment<3>(3 * i) += m_stiffness * d * m_normal;
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
  const Mat3 block = m_stiffness * m_normal * m_normal.transpose();
  for (int i = 0; i < m_num_vertices; ++i) {
    const int* slots = m_slots.data() + 9 * static_cast<size_t>(i);
    if (slots[0] < 0 || signed_distance(x.segment<3>(3 * i)) >= 0.0) continue;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) values[slots[3 * r + c]] += block(r, c);
  }
}

}  // namespace simrun
