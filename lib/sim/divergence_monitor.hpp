#pragma once
/// Detects a blown-up run from the total energy of each step: the energy rising above its start
/// by blowup_factor times the energy scale (initial kinetic + elastic, or the weight times the
/// body size, or what a moving boundary can put in), or becoming non-finite. Runs driven by
/// moving boundaries or varying loads gain energy legitimately, so for them a rise counts only
/// when it exceeds blowup_factor times the largest change seen up to kLag steps earlier (an
/// instability that grows even 2x per step trips it within kLag steps).
#include <deque>
#include <string>
#include <vector>

#include "sim/simulated_system.hpp"

namespace simrun {

class DivergenceMonitor {
 public:
  DivergenceMonitor(const SimulatedSystem& system, double initial_total, double blowup_factor);
  /// Empty when the step is fine, otherwise why it is not ("energy blow-up (total ...)").
  std::string check(double total);

  /// For checkpoints: the start energy, and {scale, driven scale, recent changes...}.
  double total0() const { return m_total0; }
  std::vector<double> memory() const;
  void restore(double total0, const std::vector<double>& memory);

 private:
  static constexpr int kLag = 10;
  double m_total0;
  double m_factor;
  double m_scale;
  double m_driven_scale;
  bool m_driven;
  std::deque<double> m_recent_changes;  ///< |total - total0| of the last kLag steps
};

}  // namespace simrun
