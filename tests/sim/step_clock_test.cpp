// The step clock: exact step times over long runs (no drift from summing step sizes), the last
// step landing on the end time, caps, and the expected step count agreeing with the run.
#include "sim/step_clock.hpp"

#include <gtest/gtest.h>

#include "model/dirichlet_motion.hpp"

namespace simrun {
namespace {

/// Runs the clock as Simulation does; returns (steps, size of the last step, time at the end).
struct ClockRun {
  long steps = 0;
  double last_h = 0.0, t = 0.0;
};
ClockRun run(const StepClock& clock) {
  ClockRun r;
  while (!clock.finished(r.steps)) {
    ++r.steps;
    r.last_h = clock.step_size(r.steps);
    r.t = clock.end_of(r.steps);
  }
  return r;
}

TEST(StepClock, LongRunsTakeExactlyEndOverDtSteps) {
  // A running sum of 1e-5 drifts by ~1e-10 over 1e6 steps: it used to add a 2e-10 s step.
  for (double end : {5.0, 10.0, 20.0}) {
    const StepClock clock(1e-5, -1, end);
    const ClockRun r = run(clock);
    EXPECT_EQ(r.steps, static_cast<long>(end / 1e-5 + 0.5)) << end;
    EXPECT_EQ(r.last_h, 1e-5) << end;
    EXPECT_EQ(r.t, end);
    EXPECT_EQ(clock.expected_steps(), r.steps) << end;
  }
}

TEST(StepClock, TheLastStepIsShortenedToLandOnTheEnd) {
  const StepClock clock(0.01, -1, 0.105);
  const ClockRun r = run(clock);
  EXPECT_EQ(r.steps, 11);
  EXPECT_NEAR(r.last_h, 0.005, 1e-15);
  EXPECT_EQ(r.t, 0.105);
  EXPECT_EQ(clock.step_size(3), 0.01);  // whole steps are exactly dt
  // An end a hair past a whole step is not a tiny extra step.
  const StepClock hair(0.1, -1, 1.000000005);
  EXPECT_EQ(run(hair).steps, 10);
  EXPECT_EQ(hair.expected_steps(), 10);
}

TEST(StepClock, StepCapAndEndTimeWhicheverComesFirst) {
  EXPECT_EQ(run(StepClock(0.01, 4, 1.0)).steps, 4);
  EXPECT_EQ(run(StepClock(0.01, 400, 1.0)).steps, 100);
  EXPECT_EQ(StepClock(0.01, 400, 1.0).expected_steps(), 100);
  EXPECT_EQ(run(StepClock(0.01, 0)).steps, 0);
  EXPECT_EQ(run(StepClock(0.01, 7)).steps, 7);
}

TEST(StepClock, ReleaseStepKIsExactAtStepKInLongRuns) {
  // release_step k means free from the step that starts at (k - 1) dt: with the clock's times
  // that holds at k = 500001 and dt = 1e-5 too (the factory's tolerance is 1e-6 dt).
  const double dt = 1e-5;
  const StepClock clock(dt, 1000000);
  for (long k : {3L, 334587L, 500001L, 999999L}) {
    const DirichletSchedule schedule({DirichletGroup{{0}, {}, (k - 1) * dt}}, VecX::Zero(3),
                                     1e-6 * dt);
    EXPECT_FALSE(schedule.constrained_vertices(clock.start_of(k - 1)).empty()) << k;
    EXPECT_TRUE(schedule.constrained_vertices(clock.start_of(k)).empty()) << k;
  }
}

}  // namespace
}  // namespace simrun
