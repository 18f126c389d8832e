#include "sim/divergence_monitor.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace simrun {

namespace {

/// Energy scale: initial kinetic + elastic energy, or the weight times the bounding-box diagonal
/// (what gravity can add over one body length), whichever is larger.
double energy_scale(const Model& model, const State& s) {
  double scale = 0.0;
  for (const auto& [name, value] : model.energies(s.q, s.v)) {
    if (name != "gravity") scale += std::abs(value);
  }
  const auto x = as_rows(model.rest_positions());
  const double diagonal = (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
  VecX g;
  model.potential_gradient(model.restrict_vector(model.rest_positions()), g);
  // At rest the elastic gradient is zero, so |g| sums the nodal weights.
  return std::max({scale, g.cwiseAbs().sum() * diagonal, 1e-12});
}

std::string number(double value) { return short_number(value, 6); }

}  // namespace

DivergenceMonitor::DivergenceMonitor(const SimulatedSystem& system, double initial_total,
                                     double blowup_factor)
    : m_total0(initial_total), m_factor(blowup_factor), m_driven(system.is_driven()) {
  m_scale = energy_scale(system.model(), system.state());
  // What the prescribed motion can put in as kinetic energy: the whole body at the top speed.
  const double speed = system.max_prescribed_speed();
  m_scale = std::max(m_scale, 0.5 * system.model().lumped_mass().sum() / 3.0 * speed * speed);
  m_driven_scale = m_scale;
}

std::string DivergenceMonitor::check(double total) {
  if (!std::isfinite(total)) return "non-finite state";
  bool blown = total - m_total0 > m_factor * m_scale;
  if (blown && m_driven) blown = total - m_total0 > m_factor * m_driven_scale;
  if (blown) {
    return "energy blow-up (total " + number(total) + " J from " + number(m_total0) + " J)";
  }
  if (m_driven) {
    m_recent_changes.push_back(std::abs(total - m_total0));
    if (static_cast<int>(m_recent_changes.size()) > kLag) {
      m_driven_scale = std::max(m_driven_scale, m_recent_changes.front());
      m_recent_changes.pop_front();
    }
  }
  return {};
}

std::vector<double> DivergenceMonitor::memory() const {
  std::vector<double> memory = {m_scale, m_driven_scale};
  memory.insert(memory.end(), m_recent_changes.begin(), m_recent_changes.end());
  return memory;
}

void DivergenceMonitor::restore(double total0, const std::vector<double>& memory) {
  if (memory.size() < 2) return;
  m_total0 = total0;
  m_scale = memory[0];
  m_driven_scale = memory[1];
  m_recent_changes.assign(memory.begin() + 2, memory.end());
}

}  // namespace simrun
