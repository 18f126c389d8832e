#include "model/kinematic_target.hpp"

#include <algorithm>
#include <limits>

namespace simrun {

namespace {

/// Relative tolerance on the lag: of the largest motion the step prescribes (Li et al. 2020 stop
/// the augmented Lagrangian when 99.9% of the prescribed motion is reached).
constexpr double kLagOfMotion = 1e-3;
/// Smallest lag tolerance, relative to the kinematic vertices' rest box diagonal (a step that
/// prescribes no motion still holds its vertices to round-off).
constexpr double kLagOfSize = 1e-9;

}  // namespace

KinematicTarget::KinematicTarget(std::vector<KinematicGroup> groups, double stiffness)
    : m_groups(std::move(groups)), m_k(stiffness) {
  Eigen::Index n = 0;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const KinematicGroup& group : m_groups) {
    n += static_cast<Eigen::Index>(group.vertices.size());
    for (Eigen::Index i = 0; i < group.rest.rows(); ++i) {
      lo = lo.cwiseMin(group.rest.row(i).transpose());
      hi = hi.cwiseMax(group.rest.row(i).transpose());
    }
  }
  m_lambda = VecX::Zero(3 * n);
  m_start = VecX::Zero(3 * n);
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (Eigen::Index i = 0; i < group.rest.rows(); ++i, k += 3)
      m_start.segment<3>(k) = group.rest.row(i).transpose();
  m_floor = n > 0 ? kLagOfSize * (hi - lo).norm() : 0.0;
}

double KinematicTarget::energy(const VecX& x) const {
  double e = 0.0;
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i, k += 3) {
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      const Vec3 d = x.segment<3>(3 * group.vertices[i]) - target;
      e += 0.5 * m_k * d.squaredNorm() - m_lambda.segment<3>(k).dot(d);
    }
  return e;
}

void KinematicTarget::add_gradient(const VecX& x, VecX& g) const {
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i, k += 3) {
      const int v = group.vertices[i];
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      g.segment<3>(3 * v) += m_k * (x.segment<3>(3 * v) - target) - m_lambda.segment<3>(k);
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

void KinematicTarget::begin_step(const VecX& x) {
  m_lambda.setZero();
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (int v : group.vertices) {
      m_start.segment<3>(k) = x.segment<3>(3 * v);
      k += 3;
    }
}

double KinematicTarget::lag_tolerance() const {
  // The step's prescribed motion: from the start positions to the targets at the step's end.
  double motion = 0.0;
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i, k += 3) {
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      motion = std::max(motion, (target - m_start.segment<3>(k)).norm());
    }
  return std::max(kLagOfMotion * motion, m_floor);
}

bool KinematicTarget::update_multipliers(const VecX& x) {
  m_lag = lag(x);
  if (m_lag <= lag_tolerance()) return false;
  Eigen::Index k = 0;
  for (const KinematicGroup& group : m_groups)
    for (size_t i = 0; i < group.vertices.size(); ++i, k += 3) {
      const Vec3 target = group.motion.position(group.rest.row(i).transpose(), m_t);
      m_lambda.segment<3>(k) -= m_k * (x.segment<3>(3 * group.vertices[i]) - target);
    }
  return true;
}

void KinematicTarget::add_step_stats(StepStats& stats) const { stats.kinematic_lag = m_lag; }

}  // namespace simrun
