// energy.csv's discrete_energy column (issue 8, part 2): E_d = -dL_d/dh of the variational
// integrators' discrete Lagrangian, per step. For a linear body the variational midpoint rule is
// a fixed rotation of the scaled phase space, so E_d is conserved exactly (to the linear solve);
// adaptive symplectic runs hold it at E_1 + lambda; schemes without a discrete Lagrangian write no
// column.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;

/// tiny_scene's linear cantilever sagging from rest under gravity for `steps` steps.
json cantilever(const std::string& integrator, int steps) {
  json scene = cli::tiny_scene();
  scene["integrator"]["type"] = integrator;
  scene["time"]["steps"] = steps;
  scene["output"]["frames"] = json::array();
  return scene;
}

TEST(DiscreteEnergy, TheLinearMidpointRuleConservesIt) {
  TempDir tmp;
  const Result r =
      cli::run({"run", tmp.write("vm.json", cantilever("variational_midpoint", 200)).string(), "-o",
                (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const std::vector<double> e = cli::column(tmp / "out" / "energy.csv", "discrete_energy");
  const std::vector<double> kinetic = cli::column(tmp / "out" / "energy.csv", "kinetic");
  ASSERT_EQ(e.size(), 201u);
  EXPECT_TRUE(std::isnan(e[0]));  // no step taken yet
  const double scale = *std::max_element(kinetic.begin(), kinetic.end());
  ASSERT_GT(scale, 0.0);
  for (size_t k = 1; k < e.size(); ++k) EXPECT_NEAR(e[k], e[1], 1e-8 * scale) << "step " << k;
  // It is not the nodal energy: E_d mixes q_k and q_k+1 (kinetic energy of the mean velocity
  // plus the potential at the midpoint), so it is not the total, which stays 0 from rest.
  EXPECT_GT(std::abs(e[1]), 1e-6 * scale);
  EXPECT_LT(std::abs(cli::column(tmp / "out" / "energy.csv", "total").back()), 1e-8 * scale);
}

TEST(DiscreteEnergy, SchemesWithoutADiscreteLagrangianWriteNoColumn) {
  TempDir tmp;
  const Result r = cli::run({"run", tmp.write("be.json", cantilever("be", 3)).string(), "-o",
                             (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(cli::read_file(tmp / "out" / "energy.csv").find("discrete_energy"), std::string::npos);
}

TEST(DiscreteEnergy, AdaptiveSymplecticRunsHoldItAtTheFirstStepsValuePlusLambda) {
  TempDir tmp;
  json scene =
      json::parse(cli::read_file(cli::kSourceDir / "scenes" / "kharevych_three_masses.json"));
  scene["time"]["end"] = 1.0;
  scene["output"] = {{"every", 1}, {"frames", json::array()}};
  const Result r = cli::run(
      {"run", tmp.write("three.json", scene).string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const std::vector<double> e = cli::column(tmp / "out" / "energy.csv", "discrete_energy");
  const std::vector<double> lambda = cli::column(tmp / "out" / "energy.csv", "lambda");
  ASSERT_GT(e.size(), 10u);
  EXPECT_TRUE(std::isnan(e[0]));
  for (size_t k = 1; k < e.size(); ++k)
    EXPECT_NEAR(e[k] - lambda[k], e[1] - lambda[1], 1e-9 * std::abs(e[1])) << "step " << k;
}

}  // namespace
