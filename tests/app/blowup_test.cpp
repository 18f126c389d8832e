// The energy blow-up test of the step loop: forward Euler far beyond its stability limit must
// stop with exit code 2 and "energy blow-up" long before the numbers overflow, with and without
// a moving boundary (which does work on the body, so the test compares against the energy
// change seen 10 steps earlier).
#include <gtest/gtest.h>

#include "cli.hpp"
#include "scenes.hpp"

namespace simrun {
namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;

Result run_unstable(const TempDir& tmp, bool moving_boundary, json& record) {
  json s = cli::tiny_scene();
  // Just past forward Euler's limit: the energy grows by a modest factor per step. Before the
  // lagged comparison, the moving-boundary run "finished" all 400 steps at ~1e300 J.
  s["time"] = {{"dt", 0.008}, {"steps", 400}};
  s["integrator"] = {{"type", "fe"}};
  s["gravity"] = {0, -9.81, 0};  // excites the unstable modes
  if (moving_boundary) {
    s["objects"][0]["dirichlet"][0]["motion"] = {{"translate", {{"velocity", {0.0, 0.01, 0.0}}}}};
  }
  const auto scene = tmp.write("unstable.json", s);
  const auto out = tmp / "out";
  const Result r =
      cli::run({"run", scene.string(), "-o", out.string(), "--threads", "1", "--quiet"});
  record = cli::read_json(out / "run.json");
  return r;
}

TEST(Blowup, ExplicitEulerBeyondItsLimitStopsAsEnergyBlowUp) {
  for (bool moving : {false, true}) {
    TempDir tmp;
    json record;
    const Result r = run_unstable(tmp, moving, record);
    EXPECT_EQ(r.code, 2) << r.describe();
    EXPECT_EQ(record.at("status"), "diverged") << record.dump(2);
    const std::string message = record.value("message", "");
    EXPECT_NE(message.find("energy blow-up"), std::string::npos)
        << "moving " << moving << ": " << message;
    // Measured: caught at step 29 in both cases (the energy has grown ~1e9-fold by then).
    const int steps = record.at("/counts/steps_done"_json_pointer).get<int>();
    EXPECT_LT(steps, 60) << "moving " << moving;
    // The last good state is the last frame.
    char name[32];
    std::snprintf(name, sizeof name, "%06d.vtu", steps);
    EXPECT_TRUE(std::filesystem::exists(tmp / "out" / "frames" / name)) << name;
  }
}

TEST(Blowup, NonFiniteValuesInsideAStepAreADivergenceSaidInWords) {
  // A step so large that the integrator's own solve overflows: before, "failed: step 1: si
  // numerical_issue", a status for broken solvers and an enum name for a message.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"] = {{"dt", 1e300}, {"steps", 5}};
  s["gravity"] = {0, -9.81, 0};
  const auto out = tmp / "out";
  const Result r = cli::run({"run", tmp.write("huge_dt.json", s).string(), "-o", out.string(),
                             "--threads", "1", "--quiet"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "diverged") << record.dump(2);
  EXPECT_NE(record.value("message", "").find("si produced non-finite values"), std::string::npos)
      << record.value("message", "");
  EXPECT_TRUE(std::filesystem::exists(out / "frames" / "000000.vtu"));  // the last good state
}

}  // namespace
}  // namespace simrun
