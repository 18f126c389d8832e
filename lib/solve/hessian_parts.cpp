/// The elastic-Hessian lag trigger (see hessian_parts.hpp).
#include "solve/hessian_parts.hpp"

#include <algorithm>
#include <numeric>

namespace simrun {

namespace {
/// Step lengths kept: more than any window a scene asks for is never read.
constexpr size_t kStepHistory = 64;
}  // namespace

bool ElasticLagTrigger::refresh_due(const ElasticLagSettings& settings) const {
  if (!settings.enabled || m_stale) return true;
  if (m_iterations_since_refresh < settings.interval) return false;
  const size_t window = static_cast<size_t>(std::max(settings.window, 1));
  if (m_steps.size() < window) return false;
  const double mean =
      std::accumulate(m_steps.end() - static_cast<long>(window), m_steps.end(), 0.0) /
      static_cast<double>(window);
  return mean < settings.threshold;
}

void ElasticLagTrigger::refreshed() {
  m_stale = false;
  m_iterations_since_refresh = 0;
}

void ElasticLagTrigger::record_step(double alpha) {
  ++m_iterations_since_refresh;
  m_steps.push_back(alpha);
  if (m_steps.size() > kStepHistory) m_steps.pop_front();
}

}  // namespace simrun
