// The scene's "solver": the Jacobi-PCG baseline takes the same contact steps as CHOLMOD (to its
// tolerance), stats.csv counts its CG iterations, and bad solver settings name their pointer.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;

TEST(SolverCli, PcgTakesTheSameContactStepsAsCholmod) {
  TempDir tmp;
  const auto scene = tmp.write("drop.json", cli::contact_drop_scene("be"));
  for (const char* solver : {"cholmod", "pcg"}) {
    const Result r = cli::run({"run", scene.string(), "-o", (tmp / solver).string(), "--quiet",
                               "--set", std::string("/solver/type=\"") + solver + "\"", "--set",
                               "/solver/tolerance=1e-10"});
    ASSERT_EQ(r.code, 0) << r.describe();
  }
  const auto cg_direct = cli::column(tmp / "cholmod" / "stats.csv", "cg_iters");
  const auto cg_pcg = cli::column(tmp / "pcg" / "stats.csv", "cg_iters");
  const auto newton = cli::column(tmp / "pcg" / "stats.csv", "newton_iters");
  for (size_t k = 0; k < cg_pcg.size(); ++k) {
    EXPECT_EQ(cg_direct[k], 0.0);
    // At least one CG iteration per Newton iteration (each solves a non-zero residual).
    EXPECT_GE(cg_pcg[k], newton[k]) << "step " << k + 1;
  }
  // The same trajectory: a linear solve to 1e-10 changes Newton's iterates by about that much.
  for (const char* column : {"kinetic", "elastic", "py", "contact"}) {
    const auto a = cli::column(tmp / "cholmod" / "energy.csv", column);
    const auto b = cli::column(tmp / "pcg" / "energy.csv", column);
    ASSERT_EQ(a.size(), b.size());
    double scale = 0.0;
    for (double v : a) scale = std::max(scale, std::abs(v));
    for (size_t k = 0; k < a.size(); ++k)
      EXPECT_NEAR(a[k], b[k], 1e-5 * scale) << column << " row " << k;
  }
}

TEST(SolverCli, BadSolverSettingsNameThePointer) {
  TempDir tmp;
  const auto scene = tmp.write("drop.json", cli::contact_drop_scene("be"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/solver/tolerance=0", "/solver/tolerance"},
      {"/solver/max_iterations=0", "/solver/max_iterations"},
      {"/solver/type=\"pgc\"", "pcg"},
  };
  for (const auto& [set, expected] : cases) {
    const Result r = cli::run(
        {"run", scene.string(), "-o", (tmp / "out").string(), "--quiet", "--force", "--set", set});
    EXPECT_EQ(r.code, 1) << set;
    EXPECT_NE(r.err.find(expected), std::string::npos) << set << ": " << r.err;
  }
}

}  // namespace

namespace {

/// The JSON header line of a checkpoint file (the second line of state.bin).
json checkpoint_header(const std::filesystem::path& file) {
  const auto lines = cli::lines(file);
  return json::parse(lines.at(1));
}

TEST(SolverCli, StartFromACheckpointTakesTheUninterruptedRunsSteps) {
  TempDir tmp;
  const auto scene = tmp.write("drop.json", cli::contact_drop_scene("bdf2"));
  const auto run = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", scene.string(), "-o", (tmp / out).string(), "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli::run(args);
  };
  ASSERT_EQ(run("whole", {}).code, 0);
  ASSERT_EQ(run("first", {"--steps", "25", "--checkpoint-every", "25"}).code, 0);
  // The checkpoint keeps the barrier stiffness the run had adapted to.
  const json header = checkpoint_header(tmp / "first" / "checkpoint" / "state.bin");
  const auto kappa = cli::column(tmp / "first" / "stats.csv", "barrier_stiffness");
  EXPECT_EQ(header.at("systems").at(0).at("terms").at("contact/kappa").get<double>(), kappa.at(24));
  const Result rest = run("rest", {"--start-from", (tmp / "first").string()});
  ASSERT_EQ(rest.code, 0) << rest.describe();
  // BDF2's previous step and kappa come from the checkpoint: the same bits as without a stop.
  const auto whole = cli::lines(tmp / "whole" / "energy.csv");
  const auto resumed = cli::lines(tmp / "rest" / "energy.csv");
  ASSERT_EQ(resumed.size(), whole.size() - 26);  // rows 26..40 (whole: rows 0..40)
  for (size_t k = 1; k < resumed.size(); ++k) EXPECT_EQ(resumed[k], whole[k + 26]);
  EXPECT_EQ(cli::read_json(tmp / "rest" / "run.json").at("start_from").at("step"), 25);

  // A checkpoint at or past the run's end, or none at all: bad input naming the file.
  const Result late = run("late", {"--start-from", (tmp / "first").string(), "--steps", "20"});
  EXPECT_EQ(late.code, 1);
  EXPECT_NE(late.err.find("state.bin"), std::string::npos) << late.err;
  const Result missing = run("missing", {"--start-from", (tmp / "whole").string()});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("checkpoint"), std::string::npos) << missing.err;
}

}  // namespace
