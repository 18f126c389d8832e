#include "contact/friction.hpp"

#include <algorithm>

#include "contact/stencil_scatter.hpp"

namespace simrun {

FrictionTerm::FrictionTerm(const ContactBarrier& barrier, FrictionSettings settings)
    : m_barrier(barrier), m_settings(settings) {}

FrictionVec12 FrictionTerm::pair_displacement(const FrictionPair& pair, const VecX& x) const {
  FrictionVec12 dx = FrictionVec12::Zero();
  for (int i = 0; i < 4; ++i)
    if (pair.vertices[i] >= 0)
      dx.segment<3>(3 * i) =
          x.segment<3>(3 * pair.vertices[i]) - m_start.segment<3>(3 * pair.vertices[i]);
  return dx;
}

// D(x) = sum_k mu lambda_k f0(|A_k (x - x^n)|) (IPC, Li et al. 2020; Trusty et al. Eq. 2's D).
double FrictionTerm::energy(const VecX& x) const {
  const AssemblyClock clock(m_times);
  double e = 0.0;
  for (const FrictionPair& pair : m_pairs)
    e += friction_pair_energy(pair, pair_displacement(pair, x), m_settings.mu, threshold(), nullptr,
                              nullptr, false);
  return e;
}

void FrictionTerm::add_gradient(const VecX& x, VecX& g) const {
  const AssemblyClock clock(m_times);
  FrictionVec12 local;
  for (const FrictionPair& pair : m_pairs) {
    friction_pair_energy(pair, pair_displacement(pair, x), m_settings.mu, threshold(), &local,
                         nullptr, false);
    for (int a = 0; a < 4; ++a)
      if (pair.vertices[a] >= 0) g.segment<3>(3 * pair.vertices[a]) += local.segment<3>(3 * a);
  }
}

void FrictionTerm::bind(const SpMat& pattern, const DofMap& dofs) {
  m_pattern = &pattern;
  m_dofs = &dofs;
}

void FrictionTerm::add_hessian(const VecX& x, double* values, bool project_psd) const {
  const AssemblyClock clock(m_times);
  FrictionMat12 hessian;
  for (const FrictionPair& pair : m_pairs) {
    friction_pair_energy(pair, pair_displacement(pair, x), m_settings.mu, threshold(), nullptr,
                         &hessian, project_psd);
    scatter_stencil_block(*m_pattern, *m_dofs, pair.vertices, hessian, values);
  }
}

void FrictionTerm::begin_step(const VecX& x) {
  m_times = ContactTimes{};
  m_start = x;
  lag_at(x);
  m_step_work = 0.0;
}

bool FrictionTerm::update_lagged(const VecX& x) {
  if (m_start.size() != x.size()) return false;
  lag_at(x);
  return true;
}

void FrictionTerm::lag_at(const VecX& x) {
  const AssemblyClock clock(m_times);
  m_pairs.clear();
  const double kappa = m_barrier.kappa();
  for (const ContactBarrier::Pair& pair : m_barrier.active_pairs(x)) {
    FrictionPair lagged =
        lagged_friction_pair(pair, x, m_barrier.planes(), kappa, m_barrier.dhat());
    if (lagged.normal_force > 0.0) m_pairs.push_back(lagged);
  }
  // The pairs couple their vertices for the whole step (vertex-plane pairs stay within a tet).
  std::vector<Stencil> stencils;
  for (const FrictionPair& pair : m_pairs)
    if (pair.vertices[1] >= 0) stencils.push_back(pair.vertices);
  std::sort(stencils.begin(), stencils.end());
  if (stencils != m_stencils) {
    m_stencils = std::move(stencils);
    ++m_pattern_version;
  }
}

void FrictionTerm::on_iterate(const VecX& x) {
  if (m_start.size() == x.size()) m_step_work = work(x);
}

double FrictionTerm::work(const VecX& x) const {
  double w = 0.0;
  for (const FrictionPair& pair : m_pairs)
    w += friction_pair_work(pair, pair_displacement(pair, x), m_settings.mu, threshold());
  return w;
}

void FrictionTerm::add_stencils(StencilList& stencils) const {
  stencils.insert(stencils.end(), m_stencils.begin(), m_stencils.end());
}

void FrictionTerm::add_step_stats(StepStats& stats) const {
  stats.friction_work = m_step_work;
  // Pair finding while lagging (the barrier's active set at x_n) counts as assembly here.
  stats.contact_assembly_s += m_times.assembly;
}

}  // namespace simrun
