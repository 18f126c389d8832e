#pragma once
/// When a run stops and how long its next step is: a fixed step dt, a step cap and an end time
/// (whichever comes first), the last step shortened to land on the end time.
#include <cmath>
#include <limits>

namespace simrun {

class StepClock {
 public:
  /// max_steps < 0: no cap (then end must be finite).
  StepClock(double dt, long max_steps, double end = std::numeric_limits<double>::infinity())
      : m_dt(dt), m_max_steps(max_steps), m_end(end) {}

  /// True when no further step is due after `steps_done` steps at time t.
  bool finished(long steps_done, double t) const {
    if (m_max_steps >= 0 && steps_done >= m_max_steps) return true;
    return t >= m_end - tolerance();
  }
  /// The size of the step that starts at t: dt, or what is left to the end time when that is
  /// less than dt. Within a sliver of dt either way it is dt: accumulated round-off of t must
  /// neither leave a tiny last step nor turn the last whole step into dt - 1e-17.
  double step_size(double t) const {
    const double left = m_end - t;
    if (left > m_dt - tolerance()) return m_dt;
    return left;
  }
  /// The number of steps the run will take (for progress display).
  long expected_steps() const {
    const double by_time = std::isfinite(m_end) ? std::ceil(m_end / m_dt - 1e-9) : -1.0;
    if (m_max_steps < 0) return static_cast<long>(by_time);
    if (by_time < 0) return m_max_steps;
    return std::min(m_max_steps, static_cast<long>(by_time));
  }
  double dt() const { return m_dt; }

 private:
  /// Steps that start within a millionth of a step of the end do not count.
  double tolerance() const { return 1e-6 * m_dt; }
  double m_dt;
  long m_max_steps;
  double m_end;
};

}  // namespace simrun
