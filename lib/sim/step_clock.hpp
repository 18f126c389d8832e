#pragma once
/// When a run stops, how long each step is and when it ends: a fixed step dt, a step cap and an
/// end time (whichever comes first), the last step shortened to land on the end time.
///
/// Step n ends at t0 + n dt, computed from n (one rounding), never as a running sum of step
/// sizes: a sum drifts by ~n eps t, so after 1e5 steps of 1e-5 s a comparison with an end or
/// release time at a fixed fraction of dt would be off by a step.
#include <algorithm>
#include <cmath>
#include <limits>

namespace simrun {

class StepClock {
 public:
  /// max_steps < 0: no cap (then end must be finite). t0: the time of the initial state.
  StepClock(double dt, long max_steps, double end = std::numeric_limits<double>::infinity(),
            double t0 = 0.0)
      : m_dt(dt), m_max_steps(max_steps), m_end(end), m_t0(t0) {}

  /// Time at the start of step n (n >= 1), i.e. at the end of step n - 1.
  double start_of(long n) const { return n <= 1 ? m_t0 : end_of(n - 1); }
  /// Time at the end of step n: t0 + n dt, or the end time for the step that reaches it.
  double end_of(long n) const {
    const double t = m_t0 + static_cast<double>(n) * m_dt;
    return t > m_end - tolerance() ? m_end : t;
  }
  /// The size of step n: dt, or what is left to the end time for a last step that would
  /// overshoot it. A step that ends within a sliver (1e-6 dt) of the end time is a whole step.
  double step_size(long n) const {
    const double whole_end = m_t0 + static_cast<double>(n) * m_dt;
    return whole_end > m_end + tolerance() ? m_end - start_of(n) : m_dt;
  }
  /// True when no further step is due after `steps_done` steps.
  bool finished(long steps_done) const {
    if (m_max_steps >= 0 && steps_done >= m_max_steps) return true;
    return steps_done > 0 && end_of(steps_done) >= m_end;
  }
  /// The number of steps the run takes (for progress display and run.json).
  long expected_steps() const {
    long by_time = -1;
    if (std::isfinite(m_end)) {
      // The first n with t0 + n dt > end - tolerance (what end_of and finished use).
      by_time = static_cast<long>(std::floor((m_end - tolerance() - m_t0) / m_dt)) + 1;
      by_time = std::max(by_time, 0L);
    }
    if (m_max_steps < 0) return by_time;
    if (by_time < 0) return m_max_steps;
    return std::min(m_max_steps, by_time);
  }
  double dt() const { return m_dt; }

 private:
  double tolerance() const { return 1e-6 * m_dt; }
  double m_dt;
  long m_max_steps;
  double m_end;
  double m_t0;
};

}  // namespace simrun
