#include "model/kinematic_target.hpp"

#include <algorithm>

namespace simrun {

KinematicTarget::KinematicTarget(std::vector<KinematicGroup> groups, double stiffness)
    : m_groups(std::move(groups)), m_k(stiffness) {}

double KinematicTarget::energy(const VecX& x) const {
  double e = 0.0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i) {
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      e += 0.5 * m_k * (x.segment<3>(3 * group.vertices[i]) - target).squaredNorm();
    }
  return e;
}

void KinematicTarget::add_gradient(const VecX& x, VecX& g) const {
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i) {
      const int v = group.vertices[i];
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      g.segment<3>(3 * v) += m_k * (x.segment<3>(3 * v) - target);
    }
}

void KinematicTarget::bind(const SpMat& pattern, const DofMap& dofs) {
  m_slots.clear();
  for (const KinematicGroup& group : m_groups)
    for (int v : group.vertices)
      for (int c = 0; c < 3; ++c) {
        const int dof = dofs.free_index(3 * v + c);
        m_slots.push_back(dof < 0 ? -1 : find_slot(pattern, dof, dof));
      }
}

void KinematicTarget::add_hessian(const VecX& /*x*/, double* values, bool /*project_psd*/) const {
  for (int slot : m_slots)
    if (slot >= 0) values[slot] += m_k;  // k I_3 per vertex
}

double KinematicTarget::lag(const VecX& x) const {
  double worst = 0.0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i) {
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      worst = std::max(worst, (x.segment<3>(3 * group.vertices[i]) - target).norm());
    }
  return worst;
}

void KinematicTarget::on_iterate(const VecX& x) { m_lag = lag(x); }

void KinematicTarget::add_step_stats(StepStats& stats) const { stats.kinematic_lag = m_lag; }

}  // namespace simrun
