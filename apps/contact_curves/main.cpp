// contact_curves: the contact functions of lib/contact sampled as CSV on stdout, so the figures
// of the Ascher et al. survey, Secs. 5.1-5.2 (Figs. 8 and 9), are drawn from the simulator's
// own code rather than from a re-implementation.
//
//   contact_curves barrier [--points N] [--max-distance D] DHAT...
//     d, then b(d^2, dhat^2) per dhat: the barrier exactly as the contact term evaluates it on
//     squared distances (contact/barrier.hpp). Survey eq. (28) is b(x; delta) with
//     x = d^2, delta = dhat^2. d runs over (0, D], D = 1.25 max(dhat) by default.
//   contact_curves friction [--points N] [--dt H] [--max-speed V] EPSV...
//     y, v, then f1 and f0 per eps_v (contact/friction_pair.hpp). y is the tangential
//     displacement over one step [m] and v = y / H its speed [m/s]; the mollifier's threshold is
//     s = eps_v H (FrictionTerm::threshold() in contact/friction.hpp, H the scene's dt), so
//     f1(y, eps_v H) as a function of v is the survey's s(v; eps_v), eq. (32c).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "contact/barrier.hpp"
#include "contact/friction.hpp"
#include "contact/friction_pair.hpp"

namespace {

/// n points evenly spaced on (0, end]: the barrier is +inf at d = 0, so 0 itself is left out.
std::vector<double> open_grid(double end, int n) {
  std::vector<double> grid(n);
  for (int i = 0; i < n; ++i) grid[i] = end * (i + 1) / n;
  return grid;
}

/// n points evenly spaced on [0, end].
std::vector<double> closed_grid(double end, int n) {
  std::vector<double> grid(n);
  for (int i = 0; i < n; ++i) grid[i] = end * i / (n - 1);
  return grid;
}

void print_barrier(const std::vector<double>& dhats, int points, double max_distance) {
  const double end =
      max_distance > 0.0 ? max_distance : 1.25 * *std::max_element(dhats.begin(), dhats.end());
  std::printf("d");
  for (double dhat : dhats) std::printf(",b_dhat=%g", dhat);
  std::printf("\n");
  for (double d : open_grid(end, points)) {
    std::printf("%.17g", d);
    for (double dhat : dhats) std::printf(",%.17g", simrun::barrier(d * d, dhat * dhat));
    std::printf("\n");
  }
}

void print_friction(const std::vector<double>& epsvs, int points, double dt, double max_speed) {
  const double end =
      max_speed > 0.0 ? max_speed : 2.0 * *std::max_element(epsvs.begin(), epsvs.end());
  std::vector<double> thresholds;
  for (double epsv : epsvs) {
    simrun::FrictionSettings settings;
    settings.epsv = epsv;
    settings.dt = dt;
    thresholds.push_back(settings.epsv * settings.dt);  // FrictionTerm::threshold()
  }
  std::printf("y,v");
  for (double epsv : epsvs) std::printf(",f1_epsv=%g", epsv);
  for (double epsv : epsvs) std::printf(",f0_epsv=%g", epsv);
  std::printf("\n");
  for (double v : closed_grid(end, points)) {
    const double y = v * dt;
    std::printf("%.17g,%.17g", y, v);
    for (double s : thresholds) std::printf(",%.17g", simrun::friction_f1(y, s));
    for (double s : thresholds) std::printf(",%.17g", simrun::friction_f0(y, s));
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sample lib/contact's barrier and friction mollifier as CSV on stdout"};
  app.require_subcommand(1);
  app.fallthrough();  // --points after the subcommand too
  int points = 400;
  app.add_option("--points", points, "Samples per curve")->check(CLI::Range(2, 10000000));

  std::vector<double> dhats;
  double max_distance = 0.0;
  CLI::App* barrier = app.add_subcommand("barrier", "d, then b(d^2, dhat^2) for each dhat");
  barrier->add_option("dhat", dhats, "Activation distances d_hat [m]")
      ->required()
      ->check(CLI::PositiveNumber);
  barrier->add_option("--max-distance", max_distance, "Largest d (default 1.25 max dhat)")
      ->check(CLI::PositiveNumber);

  std::vector<double> epsvs;
  double dt = simrun::FrictionSettings{}.dt;
  double max_speed = 0.0;
  CLI::App* friction =
      app.add_subcommand("friction", "y, v = y/dt, then f1(y, eps_v dt) and f0 per eps_v");
  friction->add_option("epsv", epsvs, "Smoothing velocities eps_v [m/s]")
      ->required()
      ->check(CLI::PositiveNumber);
  friction->add_option("--dt", dt, "Time step h [s]: s = eps_v h")->check(CLI::PositiveNumber);
  friction->add_option("--max-speed", max_speed, "Largest v (default 2 max eps_v)")
      ->check(CLI::PositiveNumber);

  CLI11_PARSE(app, argc, argv);
  if (barrier->parsed()) print_barrier(dhats, points, max_distance);
  if (friction->parsed()) print_friction(epsvs, points, dt, max_speed);
  return 0;
}
