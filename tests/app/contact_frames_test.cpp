// The independent check of IPC's guarantee over frames (issue 14, evidence): the contact scenes
// of ContactCli (a box dropped on a plane with be and bdf2, two boxes thrown at each other) run
// WITH frames, and every frame's surfaces are checked with the exact face-face intersection test
// (contact/intersection.hpp) and every tet for a positive signed volume. Also: objects that
// overlap deeply at t = 0 are bad input naming both objects and a face pair.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/frame_check.hpp"
#include "mesh/read_surface.hpp"

namespace {

using cli::check_frames;
using cli::frame_surfaces_intersect;
using cli::obstacle_surfaces;
using cli::read_frame;
using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// ContactCli's scenes with an uncompressed VTU every step (app/frame_check.hpp).
json drop_scene(const std::string& integrator) { return cli::framed_drop_scene(integrator); }
json pair_scene() { return cli::framed_pair_scene(); }

/// The files OUT/obstacles.pvd lists, in order (relative to OUT).
std::vector<std::string> obstacle_collection(const fs::path& out) {
  const std::string pvd = cli::read_file(out / "obstacles.pvd");
  std::vector<std::string> files;
  for (size_t at = pvd.find("file=\""); at != std::string::npos; at = pvd.find("file=\"", at)) {
    at += 6;
    files.push_back(pvd.substr(at, pvd.find('"', at) - at));
  }
  return files;
}

/// Points, cell types and the "obstacle" cell array of an uncompressed obstacle VTU.
struct ObstacleFrame {
  simrun::MatX3 points;
  std::vector<std::uint8_t> types;
  std::vector<std::int32_t> obstacle;
};

ObstacleFrame read_obstacle_frame(const fs::path& file) {
  const std::string xml = cli::read_file(file);
  ObstacleFrame frame;
  const auto points = cli::vtu_data_array(xml, "Points");
  frame.points.resize(static_cast<Eigen::Index>(points.size() / 24), 3);
  std::memcpy(frame.points.data(), points.data(), points.size());
  frame.types = cli::vtu_data_array(xml, "types");
  const auto ids = cli::vtu_data_array(xml, "obstacle");
  frame.obstacle.resize(ids.size() / 4);
  std::memcpy(frame.obstacle.data(), ids.data(), ids.size());
  return frame;
}

TEST(ContactFrames, DroppedBoxFramesNeverIntersectOrInvert) {
  for (const char* integrator : {"be", "bdf2"}) {
    TempDir tmp;
    const Result r = cli::run({"run", tmp.write("drop.json", drop_scene(integrator)).string(), "-o",
                               (tmp / "out").string(), "--quiet", "--threads", "1"});
    ASSERT_EQ(r.code, 0) << r.describe();
    EXPECT_GE(check_frames(tmp / "out", integrator), 40) << integrator;
  }
}

TEST(ContactFrames, CollidingBoxesFramesNeverIntersectOrInvert) {
  TempDir tmp;
  const Result r = cli::run({"run", tmp.write("pair.json", pair_scene()).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
  EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0);  // they did collide
  EXPECT_GE(check_frames(tmp / "out", "pair"), 40);
}

TEST(ContactFrames, TheCheckSeesAnIntersectingFrame) {
  // The reader and check on a frame that does intersect: the two boxes written overlapping.
  TempDir tmp;
  json scene = pair_scene();
  scene.erase("contact");
  scene["time"]["steps"] = 1;
  scene["objects"][1]["mesh"]["transform"]["translate"] = {-0.14, 0.031, 0.013};
  const Result r = cli::run({"run", tmp.write("overlap.json", scene).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(frame_surfaces_intersect(tmp / "out" / "frames" / "000000.vtu"));
}

TEST(ContactFrames, DeepOverlapAtTheStartIsBadInputNamingObjectsAndFaces) {
  // Offsets off the 0.1 m grid: no vertex or edge lies on the other box's surface, so no pair is
  // at distance 0; only the face-face test sees the overlap.
  TempDir tmp;
  json scene = pair_scene();
  scene["objects"][1]["mesh"]["transform"]["translate"] = {-0.14, 0.031, 0.013};
  const Result r = cli::run({"run", tmp.write("overlap.json", scene).string(), "-o",
                             (tmp / "out").string(), "--threads", "1"});
  EXPECT_EQ(r.code, 1) << r.describe();
  for (const char* expected :
       {"intersect at t = 0", "'left' (/objects/0)", "'right' (/objects/1)", "face ("})
    EXPECT_NE(r.err.find(expected), std::string::npos) << expected << "\n" << r.err;
}

}  // namespace

namespace {

/// Column sums of the uncompressed 3-component point array `name` of a frame.
simrun::Vec3 point_array_sum(const fs::path& file, const std::string& name) {
  const auto bytes = cli::vtu_data_array(cli::read_file(file), name);
  std::vector<double> values(bytes.size() / sizeof(double));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  simrun::Vec3 sum = simrun::Vec3::Zero();
  for (size_t i = 0; i < values.size(); ++i) sum[static_cast<Eigen::Index>(i % 3)] += values[i];
  return sum;
}

TEST(ContactFrames, FramesCarryTheContactAndFrictionForces) {
  // The 1 kg block sliding down the 30 degree plane (mu = 0.3 < tan 30): once it slides, the
  // plane pushes back with m g cos(theta) along the normal and friction resists with mu times
  // that along -x (quasi-static: the block's normal acceleration is ~0).
  TempDir tmp;
  json scene = cli::read_json(cli::kSourceDir / "scenes" / "ipc_inclined_plane.json");
  scene["time"]["steps"] = 50;
  scene["output"] = {{"frames", {"vtu"}}, {"compress", false}, {"every", 50}};
  const Result r = cli::run(
      {"run", tmp.write("plane.json", scene).string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const fs::path last = tmp / "out" / "frames" / "000050.vtu";
  const simrun::Vec3 normal = point_array_sum(last, "contact_force");
  const simrun::Vec3 friction = point_array_sum(last, "friction_force");
  const double weight_normal = 1.0 * 8.49571;  // m g cos(30 deg), the scene's gravity y
  EXPECT_NEAR(normal.y(), weight_normal, 0.01 * weight_normal);
  EXPECT_NEAR(normal.x(), 0.0, 1e-9);
  EXPECT_NEAR(friction.x(), -0.3 * normal.y(), 0.01 * 0.3 * weight_normal);
  EXPECT_NEAR(friction.y(), 0.0, 1e-9);
  // The first frame (before any step) has no friction yet: the array is there, all zero.
  EXPECT_EQ(point_array_sum(tmp / "out" / "frames" / "000000.vtu", "friction_force").norm(), 0.0);
}

}  // namespace

namespace {

/// A 1 m ground patch with a 5 cm ridge (a flat pyramid of four triangles, an open surface).
constexpr const char* kRidgeObj =
    "v -0.5 0 -0.5\nv 0.5 0 -0.5\nv 0.5 0 0.5\nv -0.5 0 0.5\nv 0 0.05 0\n"
    "f 1 5 2\nf 2 5 3\nf 3 5 4\nf 4 5 1\n";

/// ContactCli's box dropped at 1 m/s onto the ridge's apex, with friction, a frame every step.
json ridge_scene() {
  json scene = drop_scene("be");
  scene.erase("obstacles");
  scene["obstacles"] = json::array({{{"mesh", {{"file", "ridge.obj"}}}}});
  scene["contact"]["friction"] = 0.3;
  scene["objects"][0]["mesh"]["transform"]["translate"] = {-0.1, 0.1, -0.1};
  scene["integrator"]["newton"]["max_iterations"] = 100;
  return scene;
}

TEST(ContactFrames, ABoxLandsOnAMeshObstacleWithoutIntersectingIt) {
  TempDir tmp;
  tmp.write("ridge.obj", std::string(kRidgeObj));
  const Result r = cli::run({"run", tmp.write("ridge.json", ridge_scene()).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  ASSERT_TRUE(fs::exists(tmp / "out" / "obstacles" / "obstacle_0.obj"));
  // A static obstacle: one VTU of its four triangles, listed at every frame's time.
  const std::vector<std::string> listed = obstacle_collection(tmp / "out");
  EXPECT_EQ(listed.size(), cli::column(tmp / "out" / "energy.csv", "t").size());
  for (const std::string& file : listed) EXPECT_EQ(file, "obstacles/obstacles.vtu");
  const ObstacleFrame ridge = read_obstacle_frame(tmp / "out" / "obstacles" / "obstacles.vtu");
  EXPECT_EQ(ridge.types, std::vector<std::uint8_t>(4, 5));
  EXPECT_EQ(ridge.obstacle, std::vector<std::int32_t>(4, 0));
  EXPECT_EQ(ridge.points.row(4), simrun::Vec3(0, 0.05, 0).transpose());
  const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
  EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0);
  for (double d : cli::column(tmp / "out" / "stats.csv", "min_distance")) EXPECT_GT(d, 0.0);
  EXPECT_GE(check_frames(tmp / "out", "ridge"), 40);
  // contact_force on the obstacle's points (the frame's last five) is the reaction: the box is
  // pushed up, the ridge down, equally (the barrier depends on differences of positions only).
  const auto bytes =
      cli::vtu_data_array(cli::read_file(tmp / "out" / "frames" / "000040.vtu"), "contact_force");
  std::vector<double> force(bytes.size() / sizeof(double));
  std::memcpy(force.data(), bytes.data(), bytes.size());
  const size_t ridge_first = force.size() / 3 - 5;
  double on_box = 0.0, on_ridge = 0.0;
  for (size_t v = 0; v < force.size() / 3; ++v)
    (v < ridge_first ? on_box : on_ridge) += force[3 * v + 1];
  EXPECT_GT(on_box, 0.0);
  EXPECT_NEAR(on_ridge, -on_box, 1e-9 * on_box);
}

TEST(ContactFrames, MeshObstaclesThatAreNotSurfacesOrOverlapAreBadInput) {
  TempDir tmp;
  const auto run_with = [&](const std::string& obj, const json& scene) {
    tmp.write("ridge.obj", obj);
    return cli::run({"run", tmp.write("bad.json", scene).string(), "-o", (tmp / "out").string(),
                     "--quiet", "--force"});
  };
  // An edge in three triangles.
  const Result fan = run_with(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 2 5\n", ridge_scene());
  EXPECT_EQ(fan.code, 1);
  EXPECT_NE(fan.err.find("/obstacles/0/mesh"), std::string::npos) << fan.err;
  EXPECT_NE(fan.err.find("not a surface"), std::string::npos) << fan.err;
  // A degenerate triangle.
  const Result flat = run_with("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", ridge_scene());
  EXPECT_EQ(flat.code, 1);
  EXPECT_NE(flat.err.find("degenerate"), std::string::npos) << flat.err;
  // Without contact.
  json no_contact = ridge_scene();
  no_contact.erase("contact");
  const Result plain = run_with(kRidgeObj, no_contact);
  EXPECT_EQ(plain.code, 1);
  EXPECT_NE(plain.err.find("need IPC contact"), std::string::npos) << plain.err;
  // The box crossing the ridge at t = 0: names the object and the obstacle.
  json overlap = ridge_scene();
  overlap["objects"][0]["mesh"]["transform"]["translate"] = {-0.1, -0.02, -0.1};
  const Result crossing = run_with(kRidgeObj, overlap);
  EXPECT_EQ(crossing.code, 1);
  EXPECT_NE(crossing.err.find("the obstacle /obstacles/0"), std::string::npos) << crossing.err;
}

}  // namespace

namespace {

TEST(ContactFrames, AMovingMeshObstaclePushesABoxWithoutIntersectingIt) {
  // A vertical plate (two triangles) translating at 0.5 m/s along x reaches a 1 kg box resting on
  // the plane and pushes it: the box ends moving with the plate, the plate's vertices stay within
  // 1e-6 m of their scripted positions, and no frame intersects (the frames' last points are the
  // plate's moved vertices).
  TempDir tmp;
  tmp.write("plate.obj", std::string("v -0.3 0 -0.2\nv -0.3 0 0.2\nv -0.3 0.15 0.2\n"
                                     "v -0.3 0.15 -0.2\nf 1 2 3\nf 1 3 4\n"));
  json scene = drop_scene("be");
  scene["time"]["steps"] = 40;
  scene["obstacles"].push_back({{"mesh",
                                 {{"file", "plate.obj"},
                                  {"transform", {{"translate", {0, 0.001, 0}}}},
                                  {"motion", {{"translate", {{"velocity", {0.5, 0, 0}}}}}}}}});
  scene["contact"]["friction"] = 0.2;
  json& box = scene["objects"][0];
  box["mesh"]["box"]["size"] = {0.1, 0.1, 0.1};
  box["mesh"]["transform"]["translate"] = {-0.2, 0.0005, -0.05};
  box["initial"]["velocity"] = {0, 0, 0};
  scene["integrator"]["newton"]["max_iterations"] = 100;
  const Result r = cli::run({"run", tmp.write("push.json", scene).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  for (double d : cli::column(tmp / "out" / "stats.csv", "min_distance")) EXPECT_GT(d, 0.0);
  for (double lag : cli::column(tmp / "out" / "stats.csv", "kinematic_lag")) EXPECT_LT(lag, 1e-6);
  const auto px = cli::column(tmp / "out" / "energy.csv", "px");
  EXPECT_NEAR(px.back(), 0.5 * 1.0, 0.05);  // the 1 kg box moves with the plate
  EXPECT_GE(check_frames(tmp / "out", "push"), 40);
  // obstacles.pvd: one VTU per frame, the plane's square (obstacle 0, two triangles) then the
  // plate (obstacle 1) at the frame's positions of its vertices (the frame's last four points).
  const std::vector<std::string> listed = obstacle_collection(tmp / "out");
  ASSERT_EQ(listed.size(), 41u);
  EXPECT_EQ(listed.back(), "obstacles/000040.vtu");
  const ObstacleFrame last = read_obstacle_frame(tmp / "out" / listed.back());
  EXPECT_EQ(last.types, std::vector<std::uint8_t>(4, 5));
  EXPECT_EQ(last.obstacle, (std::vector<std::int32_t>{0, 0, 1, 1}));
  const simrun::TetMesh frame = read_frame(tmp / "out" / "frames" / "000040.vtu");
  EXPECT_EQ(last.points.bottomRows(4), frame.vertices.bottomRows(4));
  EXPECT_NEAR(last.points(4, 0), -0.3 + 0.5 * 40 * scene["time"]["dt"].get<double>(), 1e-6);
  // The square lies in the plane y = 0 (ContactCli's floor) under the box.
  EXPECT_EQ(last.points.topRows(4).col(1).cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace

namespace {

TEST(ContactFrames, APressingObstacleMeetsItsScriptedPositionByAugmentedLagrangian) {
  // A horizontal lid 2 mm above a box resting on the plane moves down 1 cm in two steps and
  // holds: it squeezes the box, whose elastic reaction (about a hundred newtons) holds the lid's
  // penalty-tied vertices back by F / k ~ 1e-8 m, more than the held steps' tolerance (1e-9 of
  // the lid's 0.42 m diagonal). The multiplier updates bring the lag under it (measured: 3e-9 m
  // in the moving steps, under their 5e-6 m tolerance; 1e-15 m after one update when held).
  TempDir tmp;
  tmp.write("lid.obj", std::string("v -0.15 0 -0.15\nv 0.15 0 -0.15\nv 0.15 0 0.15\n"
                                   "v -0.15 0 0.15\nf 1 2 3\nf 1 3 4\n"));
  json scene = drop_scene("be");
  scene["time"]["steps"] = 6;
  scene["obstacles"].push_back(
      {{"mesh",
        {{"file", "lid.obj"},
         {"transform", {{"translate", {0, 0.2025, 0}}}},
         {"motion", {{"translate", {{"velocity", {0, -0.5, 0}}, {"duration", 0.02}}}}}}}});
  json& box = scene["objects"][0];
  box["mesh"]["transform"]["translate"] = {-0.1, 0.0005, -0.1};
  box["initial"]["velocity"] = {0, 0, 0};
  const Result r = cli::run({"run", tmp.write("squeeze.json", scene).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto updates = cli::column(tmp / "out" / "stats.csv", "multiplier_updates");
  const auto lag = cli::column(tmp / "out" / "stats.csv", "kinematic_lag");
  ASSERT_EQ(lag.size(), 6u);
  EXPECT_GT(*std::max_element(updates.begin(), updates.end()), 0.0);
  for (size_t step = 2; step < lag.size(); ++step) EXPECT_LE(lag[step], 0.42e-9) << step;
  for (double d : cli::column(tmp / "out" / "stats.csv", "min_distance")) EXPECT_GT(d, 0.0);
  EXPECT_GE(check_frames(tmp / "out", "squeeze"), 6);
}

}  // namespace
