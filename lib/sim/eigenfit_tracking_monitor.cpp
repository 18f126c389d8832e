#include "sim/eigenfit_tracking_monitor.hpp"

#include "core/error.hpp"
#include "core/step_stats.hpp"
#include "sim/simulation.hpp"

namespace simrun {

EigenFitTrackingMonitor::EigenFitTrackingMonitor(std::string object, bool plain_fallback)
    : m_object(std::move(object)), m_plain(plain_fallback) {}

void EigenFitTrackingMonitor::begin(const Simulation&, const StepRecord& initial) {
  if (initial.resumed) m_resumed_at = initial.step;
}

void EigenFitTrackingMonitor::after_step(const Simulation&, const StepRecord& record) {
  if (record.step == 0 || record.stats == nullptr) return;
  ++m_steps;
  if (record.stats->eigenfit_tracking_failed == 0) return;
  if (m_first < 0) {
    m_first = record.step;
    m_first_t = record.t;
  }
  ++m_failed;
}

void EigenFitTrackingMonitor::finish(const Simulation&, RunResult& result) {
  if (m_failed == 0) return;
  result.warnings.push_back(
      m_object + ": EigenFit's mode-tracking test failed in " + std::to_string(m_failed) + " of " +
      plural(static_cast<std::size_t>(m_steps), "step") +
      (m_resumed_at >= 0 ? " since the run resumed at step " + std::to_string(m_resumed_at)
                         : std::string()) +
      " (first at step " + std::to_string(m_first) + ", t = " + short_number(m_first_t, 6) +
      " s): fewer than half of the fitted modes still looked like their rest modes (|U^T M U_rest| "
      "> 0.6), so the ratios may have scaled other modes' shapes; " +
      (m_plain ? "those steps ran plain FEM (\"on_tracking_failure\": \"plain\")"
               : "the correction was applied anyway, as the paper does (\"on_tracking_failure\": "
                 "\"plain\" runs plain FEM on those steps; fewer \"modes\" or a stiffer body "
                 "keep the modes apart)") +
      "; stats.csv eigenfit_tracking_failed marks the steps");
}

}  // namespace simrun
