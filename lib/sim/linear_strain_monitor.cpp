#include "sim/linear_strain_monitor.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "core/error.hpp"
#include "sim/simulation.hpp"

namespace simrun {

namespace {

/// Edge matrix [x1 - x0, x2 - x0, x3 - x0] of tet `e` over positions given by `at`.
template <typename At>
Mat3 edge_matrix(const MatX4i& tets, Eigen::Index e, const At& at) {
  Mat3 d;
  for (int k = 0; k < 3; ++k) d.col(k) = at(tets(e, k + 1)) - at(tets(e, 0));
  return d;
}

}  // namespace

LinearStrainMonitor::LinearStrainMonitor(const MatX3& rest, const MatX4i& tets,
                                         std::vector<int> linear_tets,
                                         std::vector<std::string> object_of_tet, double threshold,
                                         int check_every)
    : m_tets(static_cast<Eigen::Index>(linear_tets.size()), 4),
      m_object(std::move(object_of_tet)),
      m_threshold(threshold),
      m_every(std::max(1, check_every)) {
  m_rest_inverse.reserve(linear_tets.size());
  const auto rest_at = [&](int i) -> Vec3 { return rest.row(i).transpose(); };
  for (size_t k = 0; k < linear_tets.size(); ++k) {
    m_tets.row(static_cast<Eigen::Index>(k)) = tets.row(linear_tets[k]);
    m_rest_inverse.push_back(edge_matrix(m_tets, static_cast<Eigen::Index>(k), rest_at).inverse());
  }
}

double LinearStrainMonitor::max_strain(const VecX& x, int& where) const {
  double worst = 0.0;
  where = -1;
  const auto at = [&](int i) -> Vec3 { return x.segment<3>(3 * i); };
  for (Eigen::Index e = 0; e < m_tets.rows(); ++e) {
    const Mat3 F = edge_matrix(m_tets, e, at) * m_rest_inverse[static_cast<size_t>(e)];
    const Mat3 eps = 0.5 * (F + F.transpose()) - Mat3::Identity();
    const Vec3 principal =
        Eigen::SelfAdjointEigenSolver<Mat3>(eps, Eigen::EigenvaluesOnly).eigenvalues();
    const double strain = principal.cwiseAbs().maxCoeff();
    if (strain > worst) {
      worst = strain;
      where = static_cast<int>(e);
    }
  }
  return worst;
}

void LinearStrainMonitor::check(const Simulation& simulation, const StepRecord& record) {
  int where = -1;
  const double strain = max_strain(simulation.primary().full_positions(), where);
  if (strain <= m_threshold || where < 0) return;
  m_warning = m_object[static_cast<size_t>(where)] + ": the linear material reaches a strain of " +
              short_number(strain, 2) + " at step " + std::to_string(record.step) +
              " (t = " + short_number(record.t, 6) +
              " s), beyond the few percent where it holds (its strain sym(F) - I also counts "
              "rotation); use \"corotated\" or \"neohookean\" for large deformation";
}

void LinearStrainMonitor::after_step(const Simulation& simulation, const StepRecord& record) {
  if (!m_warning.empty() || m_tets.rows() == 0) return;
  if (record.step % m_every == 0 || record.last) check(simulation, record);
}

void LinearStrainMonitor::finish(const Simulation&, RunResult& result) {
  if (!m_warning.empty()) result.warnings.push_back(m_warning);
}

}  // namespace simrun
