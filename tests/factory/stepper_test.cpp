// The stepper: end times and shortened last steps, output intervals, time-based motion and
// release keys equal to their step-count forms, observers, and companion systems stepped
// alongside the primary one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scene/factory.hpp"
#include "scene/parse_scene.hpp"
#include "scene/scene_test_files.hpp"
#include "sim/output_observers.hpp"

namespace simrun {
namespace {

/// A neo-Hookean bar with its -x end shaken and its +x end held then released; BE.
std::string bar_scene(const std::string& time, const std::string& motion_length,
                      const std::string& release, const std::string& output = "") {
  return R"({"time": )" + time + R"(, "gravity": [0, -9.81, 0], "integrator": {"type": "bdf2"},
    "output": {"frames": [] )" +
         output + R"(},
    "objects": [{"mesh": {"box": {"size": [1, 0.1, 0.1], "cells": [6, 1, 1]}},
      "material": {"model": "neohookean", "E": 1e5, "nu": 0.3, "density": 1000},
      "dirichlet": [
        {"select": {"side": "-x"}, "motion": {"shake": {"direction": [0, 1, 0], "amplitude": 0.02,
           "frequency": 5, )" +
         motion_length + R"(}}},
        {"select": {"side": "+x"}, )" +
         release + R"(}]}]})";
}

/// Runs a scene file, keeping every step's (t, full positions).
struct Trajectory {
  RunResult result;
  std::vector<double> t;
  std::vector<VecX> x;
};

Trajectory run_scene(const std::filesystem::path& file,
                     const std::vector<std::string>& overrides = {}) {
  const SceneConfig scene = parse_scene(file, overrides);
  auto simulation = build_simulation(scene);
  Trajectory out;
  out.result = simulation->run(run_settings(scene), [&](long) {
    out.t.push_back(simulation->state().t);
    out.x.push_back(simulation->primary().full_positions());
  });
  return out;
}

TEST(Stepper, TimeKeysGiveTheSameRunAsStepKeys) {
  test::SceneFolder dir;
  // 0.2 s = 20 steps of 0.01; the shake runs 10 steps (0.1 s); the +x end is released at step 13
  // (free in steps that start at 0.12 s).
  const auto by_steps = dir.write(
      "steps.json",
      bar_scene(R"({"dt": 0.01, "steps": 20})", R"("steps": 10)", R"("release_step": 13)"));
  const auto by_time = dir.write(
      "time.json",
      bar_scene(R"({"dt": 0.01, "end": 0.2})", R"("duration": 0.1)", R"("release_time": 0.12)"));
  const Trajectory a = run_scene(by_steps), b = run_scene(by_time);
  ASSERT_EQ(a.result.status, RunStatus::kFinished);
  ASSERT_EQ(b.result.status, RunStatus::kFinished);
  ASSERT_EQ(a.x.size(), 20u);
  ASSERT_EQ(b.x.size(), 20u);
  for (size_t k = 0; k < a.x.size(); ++k) EXPECT_EQ(a.x[k], b.x[k]) << "step " << k + 1;
  // The release happened: the +x end moved after step 13, not before.
  const VecX& rest = a.x.front();
  EXPECT_GT((a.x.back() - rest).cwiseAbs().maxCoeff(), 1e-3);
}

TEST(Stepper, EndTimeShortensTheLastStepAndCapsWithSteps) {
  test::SceneFolder dir;
  const auto file = dir.write("s.json", bar_scene(R"({"dt": 0.01, "end": 0.105})", R"("steps": 10)",
                                                  R"("release_step": 13)"));
  const Trajectory run = run_scene(file);
  ASSERT_EQ(run.result.status, RunStatus::kFinished);
  ASSERT_EQ(run.t.size(), 11u);  // 10 steps of 0.01 and one of 0.005
  EXPECT_NEAR(run.t.back(), 0.105, 1e-15);
  EXPECT_NEAR(run.result.t_end, 0.105, 1e-15);
  // With a step cap as well, whichever comes first.
  const Trajectory capped = run_scene(file, {"/time/steps=4"});
  EXPECT_EQ(capped.t.size(), 4u);
}

TEST(Stepper, OutputIntervalWritesAFrameWheneverTPassesAMultiple) {
  test::SceneFolder dir;
  // dt = 0.03 and an interval of 0.05: multiples 0.05, 0.10, 0.15 are passed at steps 2, 4, 5,
  // plus step 0 and the last step (7, t = 0.2: the last step is 0.02).
  const auto file =
      dir.write("s.json", bar_scene(R"({"dt": 0.03, "end": 0.2})", R"("steps": 2)",
                                    R"("release_step": 3)", R"(, "interval": 0.05, "dir": "out")"));
  SceneConfig scene = parse_scene(file, {"/output/frames=[\"vtu\"]"});
  auto simulation = build_simulation(scene);
  const RunSettings settings = run_settings(scene);
  add_output_observers(*simulation, settings);
  const RunResult result = simulation->run(settings);
  ASSERT_EQ(result.status, RunStatus::kFinished);
  std::vector<std::string> frames;
  for (const auto& entry : std::filesystem::directory_iterator(settings.out_dir / "frames"))
    frames.push_back(entry.path().filename().string());
  std::sort(frames.begin(), frames.end());
  EXPECT_EQ(frames, (std::vector<std::string>{"000000.vtu", "000002.vtu", "000004.vtu",
                                              "000005.vtu", "000007.vtu"}));
  EXPECT_EQ(result.frames_written, 5);
  // stats.csv carries the step size of every step.
  std::ifstream stats(settings.out_dir / "stats.csv");
  std::string header;
  std::getline(stats, header);
  EXPECT_NE(header.find(",dt"), std::string::npos) << header;
}

TEST(Stepper, AlternativeKeysTogetherAreErrorsWithTheirPointer) {
  test::SceneFolder dir;
  const auto file = dir.write(
      "s.json",
      bar_scene(R"({"dt": 0.01, "steps": 5})", R"("steps": 2, "duration": 0.02)",
                R"("release_step": 3, "release_time": 0.02)", R"(, "every": 2, "interval": 0.1)"));
  const std::string message = test::input_error_of([&] { parse_scene(file); });
  EXPECT_NE(message.find("/objects/0/dirichlet/0/motion/shake: expected 'steps' or 'duration'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("/objects/0/dirichlet/1: expected 'release_step' or 'release_time'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("/output: expected 'every' or 'interval'"), std::string::npos) << message;
}

/// Counts what it sees.
class CountingObserver final : public StepObserver {
 public:
  void begin(const Simulation&, const StepRecord& initial) override { initial_step = initial.step; }
  void after_step(const Simulation&, const StepRecord& record) override {
    ++steps;
    last = record.last;
    newton += record.stats->newton_iters;
  }
  void finish(const Simulation&, RunResult& result) override { finished_with = result.status; }
  long initial_step = -1;
  int steps = 0;
  bool last = false;
  double newton = 0;
  RunStatus finished_with = RunStatus::kFailed;
};

TEST(Stepper, ObserversSeeTheStartEveryStepAndTheEnd) {
  test::SceneFolder dir;
  const auto file = dir.write(
      "s.json", bar_scene(R"({"dt": 0.01, "steps": 6})", R"("steps": 2)", R"("release_step": 3)"));
  const SceneConfig scene = parse_scene(file);
  auto simulation = build_simulation(scene);
  auto observer = std::make_unique<CountingObserver>();
  CountingObserver* seen = observer.get();
  simulation->add_observer(std::move(observer));
  simulation->begin(run_settings(scene));
  int calls = 0;
  while (simulation->step()) ++calls;
  const RunResult result = simulation->finish();
  EXPECT_EQ(calls, 5);  // step() is false after the last step
  EXPECT_EQ(seen->initial_step, 0);
  EXPECT_EQ(seen->steps, 6);
  EXPECT_TRUE(seen->last);
  EXPECT_GT(seen->newton, 0);
  EXPECT_EQ(seen->finished_with, RunStatus::kFinished);
  EXPECT_EQ(result.steps_done, 6);
}

TEST(Stepper, ACompanionIsSteppedAlongsideAndMatchesItsOwnRun) {
  test::SceneFolder dir;
  const auto coarse = dir.write("coarse.json", bar_scene(R"({"dt": 0.01, "steps": 8})",
                                                         R"("steps": 4)", R"("release_step": 6)"));
  const auto fine = dir.write("fine.json", bar_scene(R"({"dt": 0.01, "steps": 8})", R"("steps": 4)",
                                                     R"("release_step": 6)"));
  const SceneConfig fine_scene = parse_scene(fine, {"/objects/0/mesh/box/cells=[12, 2, 2]"});
  // Alone.
  auto alone = build_simulation(fine_scene);
  ASSERT_EQ(alone->run(run_settings(fine_scene)).status, RunStatus::kFinished);
  // As the companion of the coarse run.
  const SceneConfig coarse_scene = parse_scene(coarse);
  auto simulation = build_simulation(coarse_scene);
  simulation->add_companion(std::move(build_simulation(fine_scene)->primary()));
  ASSERT_EQ(simulation->run(run_settings(coarse_scene)).status, RunStatus::kFinished);
  ASSERT_EQ(simulation->companions().size(), 1u);
  const SimulatedSystem& companion = simulation->companions().front();
  EXPECT_EQ(companion.state().t, alone->state().t);
  EXPECT_EQ(companion.full_positions(), alone->primary().full_positions());
  EXPECT_NE(companion.model().num_vertices(), simulation->model().num_vertices());
}

TEST(Stepper, AFailingCompanionLeavesEverySystemAtTheLastGoodStep) {
  test::SceneFolder dir;
  const auto file = dir.write(
      "s.json", bar_scene(R"({"dt": 0.01, "steps": 8})", R"("steps": 4)", R"("release_step": 6)"));
  const SceneConfig scene = parse_scene(file, {"/integrator/type=be"});
  // The companion cannot converge: one Newton iteration to a tolerance no step reaches.
  const SceneConfig hopeless = parse_scene(
      file, {"/integrator/type=be", "/integrator/newton/max_iterations=1",
             "/integrator/newton/tolerance=1e-30", "/integrator/newton/line_search=false"});
  auto simulation = build_simulation(scene);
  const VecX x0 = simulation->primary().full_positions();
  simulation->add_companion(std::move(build_simulation(hopeless)->primary()));
  const RunResult result = simulation->run(run_settings(scene));
  EXPECT_EQ(result.status, RunStatus::kFailed);
  EXPECT_EQ(result.steps_done, 0);
  EXPECT_NE(result.message.find("step 1: "), std::string::npos) << result.message;
  EXPECT_EQ(simulation->state().t, 0.0);
  EXPECT_EQ(simulation->primary().full_positions(), x0);  // the primary's step was undone
}

}  // namespace
}  // namespace simrun
