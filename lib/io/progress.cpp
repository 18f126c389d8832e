#include "io/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <utility>

namespace simrun {

namespace {

/// Rate with about three significant digits: "1234", "12.3", "1.23".
std::string format_rate(double rate) {
  char buffer[32];
  if (rate >= 100.0) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", rate);
  } else if (rate >= 10.0) {
    std::snprintf(buffer, sizeof(buffer), "%.1f", rate);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%.2f", rate);
  }
  return buffer;
}

}  // namespace

ProgressClock steady_progress_clock() {
  return [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
}

bool stream_is_terminal(std::FILE* stream) {
  return stream != nullptr && ::isatty(::fileno(stream)) == 1;
}

std::string format_hms(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) return "--:--:--";
  const long long total = std::llround(seconds);
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                total % 60);
  return buffer;
}

ProgressReporter::ProgressReporter(std::ostream& out, int total_steps, bool interactive,
                                   ProgressClock clock)
    : m_out(out),
      m_total(std::max(total_steps, 0)),
      m_interactive(interactive),
      m_clock(clock ? std::move(clock) : steady_progress_clock()),
      m_start(m_clock()),
      m_now(m_start) {}

ProgressReporter::~ProgressReporter() {
  if (m_interactive && m_drawn && !m_finished) {
    m_out << '\n';
    m_out.flush();
  }
}

void ProgressReporter::measure(int step) {
  m_step = std::clamp(step, 0, m_total);
  m_now = m_clock();
  const double elapsed = m_now - m_start;
  const int done_here = m_step - m_first;
  m_rate = (done_here > 0 && elapsed > 0.0) ? done_here / elapsed : 0.0;
  m_eta = m_rate > 0.0 ? (m_total - m_step) / m_rate : (m_step >= m_total ? 0.0 : -1.0);
}

std::string ProgressReporter::numbers() const {
  const int percent = m_total > 0 ? static_cast<int>(100LL * m_step / m_total) : 100;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%3d%%  %d/%d  ", percent, m_step, m_total);
  std::string text = buffer;
  text += m_rate > 0.0 ? format_rate(m_rate) : "--";
  text += " steps/s  ETA ";
  text += format_hms(m_eta);
  return text;
}

void ProgressReporter::update(int step) {
  if (m_finished) return;
  measure(step);
  if (m_interactive) {
    const bool last = m_step >= m_total;
    if (!m_drawn || last || m_now - m_last_draw >= kRedrawInterval) {
      if (m_drawn_step != m_step) draw_bar();
    }
    return;
  }
  // Bucket b (1..20) is complete once step >= b/20 of total.
  const long bucket = m_total > 0 ? static_cast<long>(kPlainLines * 1LL * m_step / m_total) : 0;
  if (bucket > m_last_bucket) {
    m_last_bucket = bucket;
    print_plain_line();
  }
}

void ProgressReporter::draw_bar() {
  constexpr int k_width = 30;
  const int filled =
      m_total > 0 ? static_cast<int>(static_cast<long long>(k_width) * m_step / m_total) : k_width;
  std::string line = "[";
  line.append(filled, '#');
  line.append(k_width - filled, '-');
  line += "] ";
  line += numbers();
  const std::size_t width = line.size();
  // '\r' returns to the start of the line; spaces blank what a longer previous bar left behind.
  if (line.size() < m_bar_width) line.append(m_bar_width - line.size(), ' ');
  m_out << '\r' << line;
  m_out.flush();
  m_bar_width = width;
  m_drawn = true;
  m_drawn_step = m_step;
  m_last_draw = m_now;
}

void ProgressReporter::print_plain_line() {
  m_out << "step " << numbers() << "  elapsed " << format_hms(m_now - m_start) << '\n';
  m_out.flush();
}

void ProgressReporter::finish(std::string_view status) {
  if (m_finished) return;
  measure(m_step);
  if (m_interactive && m_drawn) {
    if (m_drawn_step != m_step) draw_bar();
    m_out << '\n';
  }
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.2f", m_now - m_start);
  m_out << status << ": " << m_step << '/' << m_total << " steps, " << seconds
        << " s stepping and writing (" << (m_rate > 0.0 ? format_rate(m_rate) : "--")
        << " steps/s)\n";
  m_out.flush();
  m_finished = true;
}

}  // namespace simrun
