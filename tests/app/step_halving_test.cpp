// The thesis' step-halving rule (integrator.newton.step_halving): on the Table 2.1 chain with a
// stiff spring and a tight Newton cap, BE cannot converge at the full step; with halving it
// retakes failing steps as half steps and finishes, with time still advancing by h per step.
#include <gtest/gtest.h>

#include "cli.hpp"

namespace simrun {
namespace {

using cli::Result;
using cli::TempDir;

Result run_chain(const TempDir& tmp, bool halving) {
  const auto scene = cli::kSourceDir / "scenes" / "chen_table21_chain.json";
  return cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet", "--threads", "1",
                   "--set", "/objects/0/material/stiffness=1e4", "--set",
                   "/integrator/newton/max_iterations=3", "--set",
                   std::string("/integrator/newton/step_halving=") + (halving ? "true" : "false")});
}

TEST(StepHalving, StiffChainFailsAtFullStepsAndFinishesWithHalving) {
  {
    TempDir tmp;
    const Result r = run_chain(tmp, false);
    EXPECT_EQ(r.code, 2) << r.describe();
    EXPECT_EQ(cli::read_json(tmp / "out" / "run.json").at("status"), "failed");
  }
  TempDir tmp;
  const Result r = run_chain(tmp, true);
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto energy = cli::lines(tmp / "out" / "energy.csv");
  ASSERT_EQ(energy.size(), 22u);  // header + steps 0..20
  // Step 20 at t = 20 h = 2 s: the half steps add up to whole steps.
  EXPECT_NEAR(std::stod(cli::split(energy.back())[1]), 2.0, 1e-12);
  // Some step needed more Newton iterations than the cap allows one solve: it was halved.
  int most = 0;
  const auto stats = cli::lines(tmp / "out" / "stats.csv");
  for (size_t i = 1; i < stats.size(); ++i)
    most = std::max(most, static_cast<int>(std::stod(cli::split(stats[i])[3])));
  EXPECT_GT(most, 3);
}

}  // namespace
}  // namespace simrun
