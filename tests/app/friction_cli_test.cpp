// IPC friction end to end (docs/contact.md), the inclined-plane evidence of issue 14: a stiff
// block resting on a plane under gravity tilted by theta = 30 degrees (scenes/
// ipc_inclined_plane.json) sticks when mu > tan(theta) (its centre moves less than eps_v over
// the run: sticking creeps below eps_v) and slides with the Coulomb acceleration
// g (sin theta - mu cos theta) within 2 % when mu < tan(theta) (a parabola fitted to the
// centre's tangential position after the landing transient). stats.csv has friction_work,
// energy.csv its running sum friction_dissipated, which closes the energy balance.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr double kTheta = 30.0 * M_PI / 180.0;
constexpr double kG = 9.81;

/// The mean x of the vertices of surface/NNNNNN.obj (the block's surface centre along the
/// slope), with the step number of each file.
struct Track {
  std::vector<double> t, x;
};

Track surface_centre_x(const fs::path& dir, double dt) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  Track track;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::string line;
    double sum = 0.0;
    int n = 0;
    while (std::getline(in, line)) {
      if (line.rfind("v ", 0) != 0) continue;
      std::istringstream fields(line.substr(2));
      double x = 0.0;
      fields >> x;
      sum += x;
      ++n;
    }
    track.t.push_back(std::stoi(file.stem().string()) * dt);
    track.x.push_back(sum / n);
  }
  return track;
}

/// Runs the inclined-plane scene with friction mu (and extra lag updates); returns the centre
/// track.
Track run_block(double mu, TempDir& tmp, int lag_updates = 0) {
  json scene = cli::read_json(cli::kSourceDir / "scenes" / "ipc_inclined_plane.json");
  scene["contact"]["friction"] = mu;
  scene["contact"]["lag_updates"] = lag_updates;
  const fs::path out = tmp / ("mu" + std::to_string(mu));
  const Result r = cli::run({"run", tmp.write("incline.json", scene).string(), "-o", out.string(),
                             "--quiet", "--threads", "1"});
  EXPECT_EQ(r.code, 0) << r.describe();
  const auto updates = cli::column(out / "stats.csv", "lag_updates");
  double updates_total = 0.0;
  for (double u : updates) updates_total += u;
  // The landing changes the normal forces within a step: re-lagging there needs a new solve.
  if (lag_updates > 0) {
    EXPECT_GT(updates_total, 0.0);
  } else {
    EXPECT_EQ(updates_total, 0.0);
  }
  const auto work = cli::column(out / "stats.csv", "friction_work");
  double total = 0.0;
  for (double w : work) total += w;
  EXPECT_GT(total, 0.0);
  EXPECT_NE(cli::lines(out / "energy.csv").at(0).find("friction"), std::string::npos);
  return surface_centre_x(out / "surface", scene["time"]["dt"].get<double>());
}

/// Least-squares fit x(t) = c0 + c1 t + c2 t^2 / 2 over t >= 0.1 s (after the landing
/// transient): (c0, c1, c2), c2 the acceleration.
Eigen::Vector3d fit_parabola(const Track& track) {
  std::vector<size_t> rows;
  for (size_t i = 0; i < track.t.size(); ++i)
    if (track.t[i] >= 0.1 - 1e-12) rows.push_back(i);
  EXPECT_GT(rows.size(), 10u);
  Eigen::MatrixXd A(rows.size(), 3);
  Eigen::VectorXd b(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const double t = track.t[rows[r]];
    A.row(static_cast<Eigen::Index>(r)) << 1.0, t, 0.5 * t * t;
    b[static_cast<Eigen::Index>(r)] = track.x[rows[r]];
  }
  return A.colPivHouseholderQr().solve(b);
}

TEST(FrictionCli, ABlockSticksWhenMuExceedsTanTheta) {
  TempDir tmp;
  const double mu = 0.8, epsv = 1e-3;  // tan 30 deg = 0.577; eps_v of the scene
  ASSERT_GT(mu, std::tan(kTheta));
  const Track track = run_block(mu, tmp);
  ASSERT_GT(track.t.size(), 10u);
  const double drift = std::abs(track.x.back() - track.x.front());
  const Eigen::Vector3d c = fit_parabola(track);
  // Sticking is a creep below eps_v: mu lambda f1(y) = m g sin(theta) with lambda = m g
  // cos(theta) gives y / s = 1 - sqrt(1 - tan(theta) / mu) per step.
  const double creep = epsv * (1.0 - std::sqrt(1.0 - std::tan(kTheta) / mu));
  std::printf(
      "[ friction ] mu %.2f: centre drift %.3e m over %.2f s, creep %.4e m/s (model %.4e), "
      "acceleration %.2e m/s^2\n",
      mu, drift, track.t.back(), c[1], creep, c[2]);
  EXPECT_LT(drift, 2.0 * epsv * track.t.back());
  EXPECT_LT(std::abs(c[1]), epsv);
  EXPECT_NEAR(c[1], creep, 0.05 * creep);
  EXPECT_LT(std::abs(c[2]), 1e-3);
}

TEST(FrictionCli, ABlockSlidesWithTheCoulombAccelerationWhenMuIsBelowTanTheta) {
  for (const double mu : {0.1, 0.3}) {
    TempDir tmp;
    const Track track = run_block(mu, tmp);
    const Eigen::Vector3d c = fit_parabola(track);
    const double analytic = kG * (std::sin(kTheta) - mu * std::cos(kTheta));
    std::printf("[ friction ] mu %.2f: fitted acceleration %.5f m/s^2, analytic %.5f (%.4f %%)\n",
                mu, c[2], analytic, 100.0 * (c[2] / analytic - 1.0));
    EXPECT_NEAR(c[2], analytic, 0.02 * analytic) << mu;
  }
}

TEST(FrictionCli, FrictionDissipatedIsTheCoulombWorkAndClosesTheEnergyBalance) {
  // energy.csv friction_dissipated is the running sum of stats.csv friction_work. While the
  // block slides (t >= 0.1 s, |dx| per step >> eps_v h, so f1 = 1) friction does the Coulomb
  // work mu N dx with N = m g cos(theta) (m = 1 kg); and the total lost from step 0 is what
  // friction dissipated, but for backward Euler's own dissipation (measured 1 %).
  TempDir tmp;
  const double mu = 0.3, mass = 1.0, dt = 0.002;
  json scene = cli::read_json(cli::kSourceDir / "scenes" / "ipc_inclined_plane.json");
  scene["contact"]["friction"] = mu;
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", tmp.write("incline.json", scene).string(), "-o", out.string(),
                             "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto dissipated = cli::column(out / "energy.csv", "friction_dissipated");
  const auto total = cli::column(out / "energy.csv", "total");
  const auto work = cli::column(out / "stats.csv", "friction_work");
  ASSERT_EQ(dissipated.size(), work.size() + 1);
  double sum = 0.0;
  for (size_t i = 0; i < work.size(); ++i) {
    sum += work[i];
    EXPECT_GE(work[i], 0.0) << "step " << i + 1;
    EXPECT_DOUBLE_EQ(dissipated[i + 1], sum) << "step " << i + 1;
  }
  EXPECT_EQ(dissipated[0], 0.0);

  const Track track = surface_centre_x(out / "surface", dt);
  size_t first = 0;
  while (track.t[first] < 0.1 - 1e-12) ++first;
  const size_t step_a = static_cast<size_t>(std::lround(track.t[first] / dt));
  const size_t step_b = static_cast<size_t>(std::lround(track.t.back() / dt));
  const double coulomb = mu * mass * kG * std::cos(kTheta) * (track.x.back() - track.x[first]);
  const double measured = dissipated[step_b] - dissipated[step_a];
  const double lost = total.front() - total.back();
  std::printf(
      "[ friction ] mu %.2f: dissipated %.5f J while sliding, Coulomb mu N dx %.5f J; "
      "total lost %.5f J, friction_dissipated %.5f J\n",
      mu, measured, coulomb, lost, dissipated.back());
  EXPECT_NEAR(measured, coulomb, 0.02 * coulomb);
  EXPECT_NEAR(lost, dissipated.back(), 0.03 * dissipated.back());
  EXPECT_GE(lost, dissipated.back());  // backward Euler only dissipates more
}

TEST(FrictionCli, ExtraLagUpdatesKeepTheCoulombAcceleration) {
  TempDir tmp;
  const double mu = 0.3;
  const Track track = run_block(mu, tmp, /*lag_updates=*/3);
  const Eigen::Vector3d c = fit_parabola(track);
  const double analytic = kG * (std::sin(kTheta) - mu * std::cos(kTheta));
  EXPECT_NEAR(c[2], analytic, 0.02 * analytic);
}

}  // namespace
