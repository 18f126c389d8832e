// Obstacles in motion (docs/obstacles.md): a block dropped on the penalty floor bounces, sinks in
// less as the stiffness grows and, under implicit midpoint at a small step, conserves the total
// energy including the floor's column; a cloth dropped on the projected sphere ends on its
// surface with no inward velocity, for single- and multistep integrators alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mesh/boundary.hpp"
#include "scene/factory.hpp"
#include "scene/parse_scene.hpp"
#include "scene_builders.hpp"
#include "sim/energy_table.hpp"
#include "sim/simulation.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

constexpr double kDrop = 0.05;  ///< height of the block's bottom face above the floor [m]
constexpr double kSize = 0.1;   ///< block edge [m]; density 1000: mass 1 kg

/// A 0.1 m neo-Hookean cube (E = 1e7 Pa: its first mode, ~2.5 kHz, is stiffer than the floor
/// contact, so it lands nearly as a rigid body), bottom face kDrop above a floor at y = 0.
SceneConfig block_on_floor(double k) {
  SceneConfig scene = testing::box_scene(Vec3::Constant(kSize), Eigen::Vector3i(1, 1, 1), 6, 1e8,
                                         0.3, 1000.0, false, true);
  scene.objects[0].material.model = "neohookean";
  scene.objects[0].mesh.transform.translate = Vec3(0, kDrop, 0);
  scene.gravity = Vec3(0, -9.81, 0);
  ObstacleConfig floor;
  floor.kind = ObstacleConfig::Kind::kPlane;
  floor.point = Vec3::Zero();
  floor.normal = Vec3(0, 1, 0);
  floor.stiffness = k;
  scene.obstacles.push_back(floor);
  return scene;
}

struct DropResult {
  double lowest = 0.0;        ///< lowest vertex height over the run [m]
  double rebound = 0.0;       ///< highest bottom-face height after the first contact [m]
  double max_drift = 0.0;     ///< max |total(t) - total(0)| [J]
  double max_obstacle = 0.0;  ///< largest value of the "obstacles" column [J]
  bool left_floor = false;    ///< every vertex above the floor again after the contact
};

DropResult drop(double k, const std::string& integrator, double h, double t_end) {
  const SceneConfig scene = block_on_floor(k);
  BuiltModel built = build_model(scene);
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-10;
  auto stepper = make_integrator(integrator, settings);
  State state = built.initial;
  const Model& model = *built.model;
  const double total0 = EnergyTable::measure(model, state.q, state.v).total;
  DropResult r;
  r.lowest = kDrop;
  bool touched = false;
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int i = 0; i < steps; ++i) {
    StepStats stats;
    EXPECT_EQ(stepper->step(*built.model, state, h, stats), Status::kSuccess) << "step " << i;
    const VecX x = model.full_positions(state.q);
    double low = 1e300;
    for (Eigen::Index v = 0; v < x.size() / 3; ++v) low = std::min(low, x[3 * v + 1]);
    r.lowest = std::min(r.lowest, low);
    if (low < 0.0) touched = true;
    if (touched && low > 0.0) {
      r.left_floor = true;
      r.rebound = std::max(r.rebound, low);
    }
    const auto energies = model.energies(state.q, state.v);
    double total = 0.0;
    for (const auto& [name, value] : energies) {
      total += value;
      if (name == "obstacles") r.max_obstacle = std::max(r.max_obstacle, value);
    }
    r.max_drift = std::max(r.max_drift, std::abs(total - total0));
  }
  return r;
}

TEST(PenaltyFloor, BlockBouncesAndSinksLessAsStiffnessGrows) {
  // Falling kDrop = 5 cm: impact speed u = sqrt(2 g kDrop) = 0.99 m/s. A rigid 1 kg block on 4
  // vertex springs k sinks u sqrt(m / (4 k)); the block's own compression and the weight add a
  // few percent (measured 5.1, 1.6, 0.51 mm against the estimates 4.95, 1.57, 0.50 mm), so 1.2
  // times the estimate bounds it. The block rebounds to 99.9 %, 99.4 % and 92.5 % of its drop
  // height (the stiffest contact puts the most energy into the block's vibration); 80 % says it
  // bounced, 0.67 (a third lost) would be BE's dissipation.
  const double u = std::sqrt(2 * 9.81 * kDrop);
  double previous = 0.0;
  for (double k : {1e4, 1e5, 1e6}) {
    const DropResult r = drop(k, "im", 2e-4, 0.25);
    const double rigid = u * std::sqrt(1.0 / (4 * k));
    std::printf("k %g N/m: deepest %.3g mm (rigid estimate %.3g mm), rebound %.1f %% of the drop\n",
                k, -1e3 * r.lowest, 1e3 * rigid, 100 * r.rebound / kDrop);
    EXPECT_TRUE(r.left_floor) << "k " << k;
    EXPECT_LT(r.lowest, 0.0) << "k " << k;
    EXPECT_GT(r.lowest, -1.2 * rigid) << "k " << k;
    EXPECT_GT(r.rebound, 0.8 * kDrop) << "k " << k;
    if (previous != 0.0) {
      EXPECT_GT(r.lowest, previous) << "k " << k;
    }
    previous = r.lowest;
  }
}

TEST(PenaltyFloor, ImplicitMidpointConservesTheTotalWithTheFloorColumn) {
  // mgH = 1 kg * 9.81 * 0.05 = 0.49 J changes hands gravity -> kinetic -> obstacles -> kinetic.
  // IM at h = 2e-4 (about 20 steps per contact) keeps the total within 2.6e-4 J (5e-4 mgH; the
  // error arises during the contact, in the steps that straddle the floor's kink at d = 0: it is
  // 7e-12 J before the impact and 3.7e-5 J at h = 5e-5); 2e-3 mgH is the bound. BE at the same
  // step loses a third of it (0.16 J), so the bound tells conserving from dissipating.
  const double mgh = 1.0 * 9.81 * kDrop;
  const DropResult im = drop(1e5, "im", 2e-4, 0.25);
  const DropResult be = drop(1e5, "be", 2e-4, 0.25);
  std::printf("k 1e5 N/m, h 2e-4: max |total - total0| im %.3g J, be %.3g J (mgH %.3g J)\n",
              im.max_drift, be.max_drift, mgh);
  EXPECT_LT(im.max_drift, 2e-3 * mgh);
  // At the deepest point the floor holds nearly all of it: the column is really in the total.
  EXPECT_GT(im.max_obstacle, 0.9 * mgh);
  EXPECT_GT(be.max_drift, 0.1 * mgh);
}

constexpr double kSphereRadius = 0.3;  ///< sphere at the origin [m]

ObjectConfig small_cloth(const std::string& name, const Vec3& corner) {
  ObjectConfig cloth;
  cloth.name = name;
  cloth.mesh.kind = MeshConfig::Kind::kCloth;
  cloth.mesh.cloth_size = Eigen::Vector2d(0.4, 0.4);
  cloth.mesh.cloth_particles = Eigen::Vector2i(5, 5);
  cloth.mesh.transform.translate = corner;
  cloth.material.model = "mass_spring";
  cloth.material.stiffness = 100.0;  // the thesis' cloth: K_l = 100 N/m, 10 g particles
  cloth.material.particle_mass = 0.01;
  return cloth;
}

/// A 5 x 5 cloth 5 cm above a sphere of radius 0.3 m at the origin, and a second one far away
/// (x = 2 m) that falls freely beside it.
SceneConfig cloths_over_sphere(bool with_sphere, const std::string& integrator) {
  SceneConfig scene;
  scene.name = "cloth_on_sphere";
  scene.objects.push_back(small_cloth("draped", Vec3(-0.2, kSphereRadius + 0.05, -0.2)));
  scene.objects.push_back(small_cloth("free", Vec3(1.8, kSphereRadius + 0.05, -0.2)));
  scene.integrator.type = integrator;
  scene.time.dt = 0.005;
  scene.time.steps = 100;
  if (with_sphere) {
    ObstacleConfig sphere;
    sphere.kind = ObstacleConfig::Kind::kSphere;
    sphere.center = Vec3::Zero();
    sphere.radius = kSphereRadius;
    scene.obstacles.push_back(sphere);
  }
  return scene;
}

/// After every step: no vertex inside the sphere, and every vertex on its surface (those just
/// projected) without inward normal velocity.
class SphereContactCheck final : public StepObserver {
 public:
  void after_step(const Simulation& simulation, const StepRecord& record) override {
    const VecX x = simulation.primary().full_positions();
    const VecX v = simulation.primary().full_velocities();
    int on_surface = 0;
    for (Eigen::Index i = 0; i < x.size() / 3; ++i) {
      const Vec3 p = x.segment<3>(3 * i);
      const double d = p.norm() - kSphereRadius;
      deepest = std::min(deepest, d);
      if (std::abs(d) > 1e-12) continue;  // projected points land on it to rounding
      ++on_surface;
      min_normal_velocity = std::min(min_normal_velocity, v.segment<3>(3 * i).dot(p / p.norm()));
    }
    // Each projected vertex is on the surface (a vertex resting there from the step before has
    // moved off it by rounding at least, or was projected again).
    EXPECT_LE(record.stats->obstacle_projections, on_surface) << "step " << record.step;
    projections += record.stats->obstacle_projections;
    last_on_surface = on_surface;
  }
  double deepest = 1e300;
  double min_normal_velocity = 1e300;
  double projections = 0.0;
  int last_on_surface = 0;
};

VecX final_positions(const SceneConfig& scene, SphereContactCheck* check) {
  auto simulation = build_simulation(scene);
  if (check) {
    auto observer = std::make_unique<SphereContactCheck>();
    SphereContactCheck* raw = observer.get();
    simulation->add_observer(std::move(observer));
    const RunResult result = simulation->run(run_settings(scene));
    EXPECT_EQ(result.status, RunStatus::kFinished) << result.message;
    *check = *raw;
  } else {
    EXPECT_EQ(simulation->run(run_settings(scene)).status, RunStatus::kFinished);
  }
  return simulation->primary().full_positions();
}

class SphereProjection : public ::testing::TestWithParam<std::string> {};

TEST_P(SphereProjection, ClothEndsOnTheSurfaceWithoutInwardVelocity) {
  SphereContactCheck check;
  const VecX with = final_positions(cloths_over_sphere(true, GetParam()), &check);
  // Vertices are never left inside (to the rounding of c + R n), and none on the surface moves
  // inward (the projection zeroes the inward normal velocity exactly, up to rounding).
  EXPECT_GT(check.deepest, -1e-12);
  EXPECT_GT(check.min_normal_velocity, -1e-12);
  EXPECT_GT(check.projections, 0.0);
  EXPECT_GT(check.last_on_surface, 0);  // still lying on the sphere at the end (0.5 s)
  const VecX without = final_positions(cloths_over_sphere(false, GetParam()), nullptr);
  const Eigen::Index free_begin = 3 * 25;
  EXPECT_GT((with.head(free_begin) - without.head(free_begin)).cwiseAbs().maxCoeff(), 0.01);
  const double free_difference = (with.tail(75) - without.tail(75)).cwiseAbs().maxCoeff();
  if (GetParam() != "bdf2") {
    // The free cloth never meets the sphere: it moves exactly as in a run without obstacles
    // (the two cloths share the linear systems: agreement to solver rounding, not bitwise).
    EXPECT_LT(free_difference, 1e-9);
  } else {
    // BDF2's history belongs to the whole system: every step that projects restarts it with a
    // backward Euler step, for the free cloth too. Free fall under BE lags the exact parabola by
    // g t h / 2 = 9.81 * 0.5 * 0.005 / 2 = 12 mm at t = 0.5 s, which bounds the difference
    // (measured 9.7 mm: most steps after the landing project).
    EXPECT_GT(free_difference, 1e-4);
    EXPECT_LT(free_difference, 9.81 * 0.5 * 0.005 / 2);
  }
}

// Single-step, Newton-based and multistep integrators: a projection restarts BDF2's history and
// Newmark's acceleration (same_state), which must not fail a step.
INSTANTIATE_TEST_SUITE_P(Integrators, SphereProjection,
                         ::testing::Values("si", "be", "im", "bdf2", "newmark",
                                           "symplectic_euler"));

/// Lowest vertex height of the primary system after every step.
class LowestVertex final : public StepObserver {
 public:
  void after_step(const Simulation& simulation, const StepRecord&) override {
    const VecX x = simulation.primary().full_positions();
    double low = 1e300;
    for (Eigen::Index i = 0; i < x.size() / 3; ++i) low = std::min(low, x[3 * i + 1]);
    heights.push_back(low);
  }
  std::vector<double> heights;
};

SceneConfig repo_scene(const std::string& name) {
  return parse_scene(std::string(SIMRUN_SOURCE_DIR) + "/scenes/" + name);
}

TEST(ObstacleScenes, ClothDrapesOnTheSphere) {
  const SceneConfig scene = repo_scene("chen_cloth_on_sphere.json");
  ASSERT_EQ(scene.obstacles.size(), 1u);
  const Vec3 c = scene.obstacles[0].center;
  const double R = scene.obstacles[0].radius;
  auto simulation = build_simulation(scene);
  ASSERT_EQ(simulation->run(run_settings(scene)).status, RunStatus::kFinished);
  const VecX x = simulation->primary().full_positions();
  int on_surface = 0;
  double deepest = 1e300;
  for (Eigen::Index i = 0; i < x.size() / 3; ++i) {
    const double d = (Vec3(x.segment<3>(3 * i)) - c).norm() - R;
    deepest = std::min(deepest, d);
    if (std::abs(d) < 1e-9) ++on_surface;
  }
  // After 5 s the 11 x 11 cloth lies on the sphere (measured: 101 particles on it, the middle
  // one on top) and none is inside but for rounding.
  std::printf("cloth on sphere after %g s: %d of %d particles on the surface, deepest %.3g m\n",
              simulation->state().t, on_surface, static_cast<int>(x.size() / 3), deepest);
  EXPECT_GT(deepest, -1e-12);
  EXPECT_GT(on_surface, 60);
  EXPECT_LT((Vec3(x.segment<3>(3 * 60)) - (c + R * Vec3::UnitY())).norm(), 1e-6);
}

// "pressure_stiffness" (docs/obstacles.md): a rigid-like block resting on the floor sinks until
// its bottom vertices' springs k_A A_v carry its weight: d = m g / (k_A sum A_v), which tends to
// the continuum's rho g H / k_A as the mesh is refined (the bottom edge's vertices also carry a
// third of the side triangles they touch, a share that shrinks with the cells). With one
// stiffness per vertex a finer mesh, with more bottom vertices, sinks ever less.
struct Resting {
  double depth = 0.0;        ///< of the bottom vertices below the floor, mean by their areas [m]
  double bottom_area = 0.0;  ///< sum of the bottom vertices' boundary areas [m^2]
};

Resting resting_on_floor(int cells, double per_vertex, double per_area) {
  SceneConfig scene = block_on_floor(per_vertex);
  scene.objects[0].mesh.box_cells = Eigen::Vector3i::Constant(cells);
  scene.objects[0].mesh.transform.translate = Vec3(0, 1e-4, 0);
  scene.objects[0].material.model = "linear";
  scene.obstacles[0].stiffness = per_vertex;
  scene.obstacles[0].pressure_stiffness = per_area;
  scene.damping.mass = 200.0;  // brings the block to rest within the run
  BuiltModel built = build_model(scene);
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-12;
  auto stepper = make_integrator("be", settings);
  State state = built.initial;
  for (int i = 0; i < 400; ++i) {
    StepStats stats;
    EXPECT_EQ(stepper->step(*built.model, state, 2e-3, stats), Status::kSuccess) << "step " << i;
  }
  EXPECT_LT(state.v.norm(), 1e-6) << "not at rest";
  const VecX x = built.model->full_positions(state.q);
  const TetMesh& mesh = built.frames.mesh;
  const VecX area = boundary_vertex_areas(mesh);
  // Unequal A_v (the 6-tet split's diagonals) tilt the block slightly, so the depth is the
  // bottom vertices' mean weighted by A_v: their springs' forces sum to the weight,
  // k_A sum A_v d_v = m g, whatever the tilt.
  Resting r;
  double weighted = 0.0;
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    if (mesh.vertices(v, 1) > 1e-4 + 1e-12) continue;
    EXPECT_LT(x[3 * v + 1], 0.0) << "bottom vertex " << v << " off the floor";
    r.bottom_area += area[v];
    weighted += area[v] * -x[3 * v + 1];
  }
  r.depth = weighted / r.bottom_area;
  return r;
}

TEST(PenaltyFloor, PressureStiffnessSinksByTheWeightOverTheBottomAreaOnEveryMesh) {
  const double k_area = 1e7;  // Pa/m
  const double weight = 1000 * kSize * kSize * kSize * 9.81;
  const double continuum = weight / (k_area * kSize * kSize);  // rho g H / k_A = 98 um
  double previous_error = 1e300;
  for (const int cells : {1, 2, 4}) {
    const Resting r = resting_on_floor(cells, 0.0, k_area);
    const double expected = weight / (k_area * r.bottom_area);
    std::printf(
        "pressure floor, %d^3 cells: rests %.4g um deep; m g / (k_A sum A) = %.4g um, "
        "rho g H / k_A = %.4g um\n",
        cells, 1e6 * r.depth, 1e6 * expected, 1e6 * continuum);
    // A linear 1e8 Pa block squashes by rho g H^2 / 2E ~ 5e-9 m: rigid next to the floor.
    EXPECT_NEAR(r.depth, expected, 0.01 * expected);
    const double error = std::abs(r.depth - continuum);
    EXPECT_LT(error, 0.8 * previous_error) << "no closer to the continuum at " << cells;
    previous_error = error;
  }
  // One stiffness per vertex instead, sized to sink the 1-cell mesh as deep: the 4-cell mesh,
  // with 25 bottom vertices, not 4, sinks 25 / 4 times less, away from the continuum.
  const Resting coarse = resting_on_floor(1, 0.0, k_area);
  const double per_vertex = weight / (4 * coarse.depth);
  EXPECT_NEAR(resting_on_floor(1, per_vertex, 0.0).depth, coarse.depth, 0.01 * coarse.depth);
  const double fine_per_vertex = resting_on_floor(4, per_vertex, 0.0).depth;
  EXPECT_NEAR(fine_per_vertex, 4.0 / 25.0 * coarse.depth, 0.01 * coarse.depth);
}

TEST(ObstacleScenes, BallBouncesOnTheFloor) {
  const SceneConfig scene = repo_scene("chen_bouncing_ball.json");
  auto simulation = build_simulation(scene);
  auto observer = std::make_unique<LowestVertex>();
  const LowestVertex& lowest = *observer;
  simulation->add_observer(std::move(observer));
  ASSERT_EQ(simulation->run(run_settings(scene)).status, RunStatus::kFinished);
  const std::vector<double>& h = lowest.heights;
  const auto first_contact = std::find_if(h.begin(), h.end(), [](double y) { return y < 0.0; });
  ASSERT_NE(first_contact, h.end());
  // SI sees the floor from the step after a vertex crosses it: the ball (3 m/s at impact) sinks
  // up to a fraction of a step's travel, 3 * 0.005 = 15 mm (measured 5.4 mm), then rebounds
  // (measured 1.6 cm: SI's damping, Chen thesis Fig. 6.10b) and rests 28 um deep (its weight
  // over the bottom vertices' 1e6 N/m).
  std::printf(
      "ball: deepest %.3g mm, rebound to %.3g cm after the first contact, rests %.3g um deep\n",
      -1e3 * *std::min_element(h.begin(), h.end()), 1e2 * *std::max_element(first_contact, h.end()),
      -1e6 * h.back());
  EXPECT_GT(*std::min_element(h.begin(), h.end()), -0.015);
  EXPECT_GT(*std::max_element(first_contact, h.end()), 0.005);
  EXPECT_LT(h.back(), 0.0);
  EXPECT_GT(h.back(), -1e-4);
}

}  // namespace
}  // namespace simrun
