#include "io/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace simrun {
namespace {

/// A clock the test advances by hand.
struct FakeClock {
  double now = 100.0;
  ProgressClock function() {
    return [this] { return now; };
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int count(const std::string& text, char c) {
  int n = 0;
  for (const char x : text) n += x == c;
  return n;
}

TEST(ProgressReporter, PlainModePrintsAboutEveryFivePercentPlusAFinalLine) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressReporter progress(out, 1000, false, clock.function());
    for (int step = 1; step <= 1000; ++step) {
      clock.now += 0.004;  // 250 steps/s
      progress.update(step);
    }
    progress.finish("finished");
  }
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 21u) << out.str();
  EXPECT_EQ(count(out.str(), '\r'), 0);
  for (int i = 0; i < 20; ++i) {
    EXPECT_NE(lines[i].find("ETA"), std::string::npos) << lines[i];
    EXPECT_NE(lines[i].find(std::to_string(50 * (i + 1)) + "/1000"), std::string::npos) << lines[i];
    EXPECT_NE(lines[i].find("250 steps/s"), std::string::npos) << lines[i];
  }
  EXPECT_NE(lines[0].find("  5%"), std::string::npos) << lines[0];
  // 50 steps done at 250 steps/s, 950 to go: 3.8 s -> 0:00:04.
  EXPECT_NE(lines[0].find("ETA 0:00:04"), std::string::npos) << lines[0];
  EXPECT_NE(lines[19].find("100%"), std::string::npos) << lines[19];
  EXPECT_NE(lines[19].find("ETA 0:00:00"), std::string::npos) << lines[19];
  EXPECT_EQ(
      lines[20].rfind("finished: 1000/1000 steps, 4.00 s stepping and writing (250 steps/s)", 0),
      0u)
      << lines[20];
}

TEST(ProgressReporter, PlainModeWithFewStepsPrintsEachStepOnce) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, 3, false, clock.function());
  for (int step = 0; step <= 3; ++step) {
    clock.now += 1.0;
    progress.update(step);
    progress.update(step);  // repeated updates print nothing new
  }
  EXPECT_EQ(lines_of(out.str()).size(), 3u) << out.str();
}

TEST(ProgressReporter, BarRedrawsAtMostTenTimesASecond) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, 10000, true, clock.function());
  // 10000 steps over 2 s: at most ~20 redraws (plus the first and the last).
  for (int step = 1; step <= 10000; ++step) {
    clock.now += 0.0002;
    progress.update(step);
  }
  const int redraws = count(out.str(), '\r');
  EXPECT_GE(redraws, 19);
  EXPECT_LE(redraws, 22);
  EXPECT_EQ(count(out.str(), '\n'), 0);  // one line, redrawn in place
  progress.finish("finished");
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  const std::string last_bar = lines[0].substr(lines[0].rfind('\r') + 1);
  EXPECT_NE(last_bar.find("100%"), std::string::npos) << last_bar;
  EXPECT_NE(last_bar.find("10000/10000"), std::string::npos) << last_bar;
  EXPECT_NE(last_bar.find("5000 steps/s"), std::string::npos) << last_bar;
  EXPECT_NE(last_bar.find("ETA 0:00:00"), std::string::npos) << last_bar;
  EXPECT_EQ(last_bar.rfind("[##############################]", 0), 0u) << last_bar;
  EXPECT_EQ(lines[1].rfind("finished: 10000/10000", 0), 0u) << lines[1];
}

TEST(ProgressReporter, RateAndEtaFollowTheClock) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, 100, false, clock.function());
  progress.update(0);
  EXPECT_EQ(progress.steps_per_second(), 0.0);
  EXPECT_LT(progress.eta_seconds(), 0.0);  // unknown before any progress
  clock.now += 10.0;
  progress.update(25);
  EXPECT_DOUBLE_EQ(progress.steps_per_second(), 2.5);
  EXPECT_DOUBLE_EQ(progress.eta_seconds(), 30.0);
}

TEST(ProgressReporter, InterruptedBarEndsItsLine) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressReporter progress(out, 100, true, clock.function());
    clock.now += 1.0;
    progress.update(10);
  }
  EXPECT_EQ(out.str().back(), '\n');
}

TEST(FormatHms, FormatsHoursMinutesSeconds) {
  EXPECT_EQ(format_hms(0.0), "0:00:00");
  EXPECT_EQ(format_hms(59.4), "0:00:59");
  EXPECT_EQ(format_hms(3661.0), "1:01:01");
  EXPECT_EQ(format_hms(36000.0 * 10), "100:00:00");
  EXPECT_EQ(format_hms(-1.0), "--:--:--");
}

TEST(StreamIsTerminal, AFileIsNotATerminal) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  EXPECT_FALSE(stream_is_terminal(file));
  std::fclose(file);
  EXPECT_FALSE(stream_is_terminal(nullptr));
}

}  // namespace
}  // namespace simrun
