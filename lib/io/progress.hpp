#pragma once
/// Console progress for `simrun run`: on a terminal a one-line bar redrawn in place, otherwise
/// (log file, CI) a plain line every 5 %. Both show percent, step/total, steps/s and ETA. This is
/// the one library class that prints, and only to the stream it is given.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace simrun {

/// Seconds since an arbitrary fixed origin. Injected so tests control time.
using ProgressClock = std::function<double()>;

/// A steady (monotonic) wall clock in seconds.
ProgressClock steady_progress_clock();

/// True when `stream` is attached to a terminal (isatty), e.g. stream_is_terminal(stderr).
bool stream_is_terminal(std::FILE* stream);

/// "h:mm:ss" for a duration (rounded to whole seconds; hours are not capped); "--:--:--" for a
/// negative or non-finite value (unknown).
std::string format_hms(double seconds);

class ProgressReporter {
 public:
  /// Interactive: redraw a bar with '\r' at most every `kRedrawInterval` seconds (and always at
  /// the last step). Non-interactive: one line whenever another 5 % of `total_steps` is done.
  /// The clock starts now; steps/s is the average since construction.
  ProgressReporter(std::ostream& out, int total_steps, bool interactive,
                   ProgressClock clock = steady_progress_clock());
  /// Ends an interrupted bar with a line break so following messages start on their own line.
  ~ProgressReporter();

  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// Reports that `step` steps (0..total) are done.
  void update(int step);
  /// A resumed run: steps up to `step` were done before, so rates and ETA count from there.
  void start_at(int step) { m_first = std::max(step, 0); }

  /// Final line: "<status>: <step>/<total> steps in <seconds> s (<rate> steps/s)". Later calls
  /// to update() or finish() do nothing.
  void finish(std::string_view status);

  /// Average steps per second since construction at the last update; 0 before any progress.
  double steps_per_second() const { return m_rate; }
  /// Estimated seconds remaining at the last update; negative when unknown (no progress yet).
  double eta_seconds() const { return m_eta; }

  static constexpr double kRedrawInterval = 0.1;  ///< seconds between bar redraws (10/s)
  static constexpr int kPlainLines = 20;          ///< plain lines per run: one every 5 %

 private:
  void measure(int step);
  std::string numbers() const;
  void draw_bar();
  void print_plain_line();

  std::ostream& m_out;
  int m_total;
  bool m_interactive;
  ProgressClock m_clock;
  double m_start;
  int m_first = 0;  ///< steps done before this process started (a resumed run)
  double m_now;
  int m_step = 0;
  double m_rate = 0.0;
  double m_eta = -1.0;
  double m_last_draw = 0.0;
  bool m_drawn = false;         // interactive: a bar is on the current line
  int m_drawn_step = -1;        // interactive: the step the bar on screen shows
  std::size_t m_bar_width = 0;  // interactive: length of the last bar, to blank leftovers
  long m_last_bucket = 0;       // non-interactive: 5 % buckets already reported
  bool m_finished = false;
};

}  // namespace simrun
