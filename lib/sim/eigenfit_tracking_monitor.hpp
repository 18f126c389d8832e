#pragma once
/// Warns (simrun.log, stderr and run.json "warnings") when EigenFit's per-step mode-tracking
/// test failed (Chen et al. 2019 (EigenFit), Sec. 3.5: fewer than half of the fitted modes still
/// look like their rest modes, |U^T M U_rest| > 0.6): the ratios may then be applied to other
/// modes' shapes. stats.csv's eigenfit_tracking_failed has it per step; this says so once, with the
/// count, the first step and what the run did about it.
#include <string>

#include "sim/step_observer.hpp"

namespace simrun {

class EigenFitTrackingMonitor final : public StepObserver {
 public:
  /// `plain_fallback`: the scene's "on_tracking_failure" is "plain" (plain FEM on those steps).
  EigenFitTrackingMonitor(std::string object, bool plain_fallback);
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;
  void finish(const Simulation& simulation, RunResult& result) override;

 private:
  std::string m_object;
  bool m_plain;
  long m_failed = 0, m_steps = 0, m_first = -1;
  long m_resumed_at = -1;  ///< a resumed run counts its own steps only
  double m_first_t = 0.0;
};

}  // namespace simrun
