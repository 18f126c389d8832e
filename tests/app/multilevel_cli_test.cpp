// "solver": {"type": "multilevel"} (Trusty et al.; docs/multilevel.md): the multilevel Newton
// directions reach the same contact steps as CHOLMOD (Newton converges to the same tolerance),
// stats.csv splits the work by level, and scenes it cannot serve are refused by pointer.
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

/// The drop and pair scenes with 4x4x4-cell boxes (384 tets each), so that 4 partitions per
/// box leave every partition neighbours.
json refined(json scene) {
  for (auto& object : scene["objects"]) object["mesh"]["box"]["cells"] = {4, 4, 4};
  scene["time"]["steps"] = 25;
  scene["integrator"]["newton"]["max_iterations"] = 100;  // contact steps need more than 20
  return scene;
}

void expect_same_energies(const std::filesystem::path& a, const std::filesystem::path& b,
                          const std::vector<const char*>& columns, double relative) {
  for (const char* column : columns) {
    const auto x = cli::column(a / "energy.csv", column);
    const auto y = cli::column(b / "energy.csv", column);
    ASSERT_EQ(x.size(), y.size()) << column;
    double scale = 0.0;
    for (double v : x) scale = std::max(scale, std::abs(v));
    for (size_t k = 0; k < x.size(); ++k)
      EXPECT_NEAR(x[k], y[k], relative * scale) << column << " row " << k << " of " << b;
  }
}

TEST(MultilevelCli, TakesTheSameContactStepsAsCholmodWithBothSubspaceSolves) {
  TempDir tmp;
  for (const char* integrator : {"be", "bdf2"}) {
    json scene = refined(cli::contact_drop_scene(integrator));
    scene["contact"]["friction"] = 0.3;
    scene["objects"][0]["initial"]["velocity"] = {0.5, -1, 0};
    const auto file = tmp.write(std::string(integrator) + ".json", scene);
    const std::string base = integrator;
    const Result direct =
        cli::run({"run", file.string(), "-o", (tmp / (base + "_direct")).string(), "--quiet"});
    ASSERT_EQ(direct.code, 0) << direct.describe();
    for (const char* products : {"matrix_free", "assembled"}) {
      const auto out = tmp / (base + "_" + products);
      const Result r =
          cli::run({"run", file.string(), "-o", out.string(), "--set",
                    "/solver/type=\"multilevel\"", "--set", "/solver/partitions=4", "--set",
                    std::string("/solver/subspace_products=\"") + products + "\""});
      ASSERT_EQ(r.code, 0) << r.describe();
      EXPECT_NE(r.err.find("multilevel: "), std::string::npos) << r.err;
      expect_same_energies(tmp / (base + "_direct"), out, {"kinetic", "elastic", "py", "contact"},
                           1e-5);
      const auto fine = cli::column(out / "stats.csv", "ml_fine_iters");
      const auto sms = cli::column(out / "stats.csv", "ml_sms_iters");
      const auto newton = cli::column(out / "stats.csv", "newton_iters");
      double fine_total = 0.0, sms_total = 0.0;
      for (size_t k = 0; k < fine.size(); ++k) {
        fine_total += fine[k];
        sms_total += sms[k];
        EXPECT_LE(fine[k], 20.0 * newton[k]) << "step " << k + 1;  // the fixed polish count
      }
      EXPECT_GT(fine_total, 0.0);
      if (std::string(products) == "matrix_free")
        EXPECT_GT(sms_total, 0.0);
      else
        EXPECT_EQ(sms_total, 0.0);  // exact subspace solves: no CG
    }
  }
}

TEST(MultilevelCli, ServesSeveralObjectsEachWithItsOwnHandles) {
  TempDir tmp;
  const auto file = tmp.write("pair.json", refined(cli::contact_pair_scene()));
  ASSERT_EQ(cli::run({"run", file.string(), "-o", (tmp / "direct").string(), "--quiet"}).code, 0);
  const Result r = cli::run({"run", file.string(), "-o", (tmp / "ml").string(), "--set",
                             "/solver/type=\"multilevel\"", "--set", "/solver/partitions=6"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_NE(r.err.find("over 2 objects"), std::string::npos) << r.err;
  // Newton's step-size stop (|dx| <= h tol) also ends multilevel solves, and a short inexact
  // direction is not a converged step: through the 20 m/s impact the two runs drift apart by up
  // to 3.4e-4 of the kinetic energy's scale (measured in CI); the issue asks for about 1 %.
  expect_same_energies(tmp / "direct", tmp / "ml", {"kinetic", "elastic"}, 2e-3);
  // The barrier energy is steep in the gap: the same drift is 1.2e-2 of its scale.
  expect_same_energies(tmp / "direct", tmp / "ml", {"contact"}, 3e-2);
}

TEST(MultilevelCli, CubatureAndLaggedElasticHessianTakeTheSameStepsWithFewerAssemblies) {
  // The paper's full method (Trusty et al. Alg. 1, Secs. 3.7.2 and 3.8): the subspace levels use
  // the cubature elastic Hessian, the polish the lagged one. Newton converges to the same
  // tolerance, so the motion is CHOLMOD's; the full elastic Hessian is assembled once per step
  // plus the triggered refreshes.
  TempDir tmp;
  json scene = refined(cli::contact_drop_scene("be"));
  scene["contact"]["friction"] = 0.3;
  scene["objects"][0]["initial"]["velocity"] = {0.5, -1, 0};
  scene["output"]["frames"] = {"vtu"};
  const auto file = tmp.write("drop.json", scene);
  ASSERT_EQ(cli::run({"run", file.string(), "-o", (tmp / "direct").string(), "--quiet"}).code, 0);
  const auto out = tmp / "paper";
  const Result r =
      cli::run({"run", file.string(), "-o", out.string(), "--set", "/solver/type=\"multilevel\"",
                "--set", "/solver/partitions=4", "--set", "/solver/cubature=true", "--set",
                "/solver/lag_elastic_hessian=true"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_NE(r.err.find("multilevel: cubature"), std::string::npos) << r.err;
  // Measured: at most 9.2e-10 of each energy's scale (py); the bound leaves 1000x for other
  // machines and thread counts, and is 10x tighter than the whole-Hessian test's.
  expect_same_energies(tmp / "direct", out, {"kinetic", "elastic", "py"}, 1e-6);
  const auto refreshes = cli::column(out / "stats.csv", "ml_lag_refreshes");
  const auto newton = cli::column(out / "stats.csv", "newton_iters");
  const auto cubature_s = cli::column(out / "stats.csv", "ml_cubature_s");
  double refresh_total = 0.0, newton_total = 0.0, cubature_total = 0.0;
  for (size_t k = 0; k < newton.size(); ++k) {
    if (newton[k] > 0) {
      EXPECT_GE(refreshes[k], 1.0) << "step " << k + 1;  // each step's start
    }
    EXPECT_LE(refreshes[k], newton[k]) << "step " << k + 1;
    refresh_total += refreshes[k];
    newton_total += newton[k];
    cubature_total += cubature_s[k];
  }
  EXPECT_LT(refresh_total, newton_total);
  EXPECT_GT(cubature_total, 0.0);
  // The rule is in the frames: cell data cubature_weight (docs/multilevel.md).
  std::string frame;
  for (const auto& line : cli::lines(out / "frames" / "000025.vtu")) frame += line;
  EXPECT_NE(frame.find("Name=\"cubature_weight\""), std::string::npos);

  // With a cache folder the fitted rule is saved, and the next run loads it and takes the same
  // steps.
  std::vector<std::string> cached = {"--set", "/solver/type=\"multilevel\"",
                                     "--set", "/solver/partitions=4",
                                     "--set", "/solver/cubature=true",
                                     "--set", "/solver/lag_elastic_hessian=true",
                                     "--set", "/solver/cache=\"" + (tmp / "cache").string() + "\""};
  for (const char* name : {"first", "second"}) {
    std::vector<std::string> args = {"run", file.string(), "-o", (tmp / name).string()};
    args.insert(args.end(), cached.begin(), cached.end());
    const Result c = cli::run(args);
    ASSERT_EQ(c.code, 0) << c.describe();
    const bool second = std::string(name) == "second";
    EXPECT_EQ(c.err.find("cubature saved to") != std::string::npos, !second) << c.err;
    EXPECT_EQ(c.err.find("loaded from") != std::string::npos, second) << c.err;
  }
  expect_same_energies(tmp / "first", tmp / "second", {"kinetic", "elastic", "py"}, 1e-12);
}

TEST(MultilevelCli, RefusesScenesItCannotServeNamingThePointer) {
  TempDir tmp;
  // Integrators that solve no incremental potential: the linearly implicit si, and the explicit
  // ones (issue 10's bad input: a multilevel solver on an explicit integrator).
  std::vector<std::pair<json, std::string>> cases;
  for (const char* integrator : {"si", "fe", "verlet", "symplectic_euler"}) {
    json explicit_scene = refined(cli::contact_drop_scene(integrator));
    explicit_scene.erase("contact");  // contact would refuse these integrators first
    explicit_scene["solver"]["type"] = "multilevel";
    cases.emplace_back(explicit_scene,
                       "'be' and 'bdf2'; the integrator is '" + std::string(integrator) + "'");
  }
  json release = refined(cli::contact_drop_scene("be"));
  release["solver"]["type"] = "multilevel";
  release["objects"][0]["dirichlet"] =
      json::parse(R"([{ "select": { "vertices": [0, 1] }, "release_step": 5 }])");
  cases.emplace_back(release, "releases Dirichlet");
  for (const auto& [scene, expected] : cases) {
    const auto file = tmp.write("bad.json", scene);
    const Result r = cli::run({"run", file.string(), "-o", (tmp / "out").string(), "--force"});
    EXPECT_EQ(r.code, 1) << r.describe();
    EXPECT_NE(r.err.find("/solver/type"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  }
}

TEST(MultilevelCli, ACubatureFitThatMissesItsToleranceContinuesOrStopsAsAsked) {
  // Issue 10's bad input: a cubature fit that does not reach its tolerance. Three points per
  // partition cannot integrate the moments of the handles overlapping it (45 rows for two
  // handles, 1 + 4h + 4h(4h + 1)/2), so the fit misses; "continue" runs with the rule and logs the
  // residual, "stop" is bad input before anything is simulated (exit 1, no output folder).
  TempDir tmp;
  const auto file = tmp.write("drop.json", refined(cli::contact_drop_scene("be")));
  const std::vector<std::string> capped = {"--set", "/solver/type=\"multilevel\"",
                                           "--set", "/solver/partitions=4",
                                           "--set", "/solver/cubature=true",
                                           "--set", "/solver/cubature_max_points=3",
                                           "--set", "/time/steps=2"};
  std::vector<std::string> args = {"run", file.string(), "-o", (tmp / "continue").string()};
  args.insert(args.end(), capped.begin(), capped.end());
  const Result go = cli::run(args);
  ASSERT_EQ(go.code, 0) << go.describe();
  std::string log;
  for (const auto& line : cli::lines(tmp / "continue" / "simrun.log")) log += line + "\n";
  EXPECT_NE(log.find("warning: the cubature fit missed its tolerance with at most 3 points"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("worst partition residual"), std::string::npos) << log;
  EXPECT_NE(log.find("partitions above the tolerance"), std::string::npos) << log;

  args = {"run", file.string(), "-o", (tmp / "stop").string()};
  args.insert(args.end(), capped.begin(), capped.end());
  args.insert(args.end(), {"--set", "/solver/cubature_on_miss=\"stop\""});
  const Result stop = cli::run(args);
  EXPECT_EQ(stop.code, 1) << stop.describe();
  EXPECT_NE(stop.err.find("/solver/cubature_on_miss"), std::string::npos) << stop.err;
  EXPECT_NE(stop.err.find("worst partition residual"), std::string::npos) << stop.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "stop"));

  // Without the cap the fit reaches its tolerance and "stop" has nothing to stop.
  args = {"run",   file.string(),
          "-o",    (tmp / "uncapped").string(),
          "--set", "/solver/type=\"multilevel\"",
          "--set", "/solver/partitions=4",
          "--set", "/solver/cubature=true",
          "--set", "/solver/cubature_on_miss=\"stop\"",
          "--set", "/time/steps=2"};
  const Result fine = cli::run(args);
  EXPECT_EQ(fine.code, 0) << fine.describe();
  EXPECT_EQ(fine.err.find("missed its tolerance"), std::string::npos) << fine.err;
}

TEST(MultilevelCli, ThePapersDirectionStopEndsStepsEarlierAndStaysClose) {
  // Newton stops once |d_s| / (h |V|) < 1e-3 m/s (Trusty et al. Sec. 3.9): fewer iterations
  // than the residual test; kinetic and gravitational energy within 1 % of the converged run's
  // scale.
  TempDir tmp;
  json scene = refined(cli::contact_drop_scene("be"));
  scene["output"]["frames"] = {"vtu"};
  const auto file = tmp.write("drop.json", scene);
  const std::vector<std::string> multilevel = {"--set", "/solver/type=\"multilevel\"", "--set",
                                               "/solver/partitions=4"};
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", file.string(), "-o", (tmp / name).string(), "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = cli::run(args);
    EXPECT_EQ(r.code, 0) << r.describe();
  };
  run("converged", multilevel);
  std::vector<std::string> loose = multilevel;
  loose.insert(loose.end(), {"--set", "/integrator/newton/direction_tolerance=1e-3"});
  run("loose", loose);
  double converged = 0.0, stopped = 0.0;
  for (double k : cli::column(tmp / "converged" / "stats.csv", "newton_iters")) converged += k;
  for (double k : cli::column(tmp / "loose" / "stats.csv", "newton_iters")) stopped += k;
  EXPECT_LT(stopped, 0.8 * converged);
  expect_same_energies(tmp / "converged", tmp / "loose", {"kinetic", "py"}, 1e-2);
  // The elastic energy is quadratic in the strain and the stop leaves a small strain error.
  expect_same_energies(tmp / "converged", tmp / "loose", {"elastic"}, 5e-2);
  // The frames carry the partition and the handles (docs/multilevel.md).
  const auto frame = cli::lines(tmp / "loose" / "frames" / "000025.vtu");
  std::string text;
  for (const auto& line : frame) text += line;
  for (const char* field :
       {"\"partition\"", "\"handle_origin\"", "\"handle_count\"", "\"weight_max\""})
    EXPECT_NE(text.find(std::string("Name=") + field), std::string::npos) << field;
}

}  // namespace
