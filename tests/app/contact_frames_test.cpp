// The independent check of IPC's guarantee over frames (issue 14, evidence): the contact scenes
// of ContactCli (a box dropped on a plane with be and bdf2, two boxes thrown at each other) run
// WITH frames, and every frame's surfaces are checked with the exact face-face intersection test
// (contact/intersection.hpp) and every tet for a positive signed volume. Also: objects that
// overlap deeply at t = 0 are bad input naming both objects and a face pair.
#include <gtest/gtest.h>

#include <Eigen/LU>  // determinant
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"
#include "contact/collision_mesh_build.hpp"
#include "contact/intersection.hpp"
#include "io/base64.hpp"
#include "mesh/read_surface.hpp"
#include "mesh/tet_mesh.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// ContactCli's drop scene, writing an uncompressed VTU every step.
json drop_scene(const std::string& integrator) {
  json scene = cli::contact_drop_scene(integrator);
  scene["output"] = {{"frames", {"vtu"}}, {"compress", false}, {"every", 1}};
  return scene;
}

/// ContactCli's two-box collision, writing an uncompressed VTU every step.
json pair_scene() {
  json scene = cli::contact_pair_scene();
  scene["output"] = {{"frames", {"vtu"}}, {"compress", false}, {"every", 1}};
  return scene;
}

/// The raw bytes of the uncompressed inline-binary DataArray named `name` (io/vtu_writer.hpp:
/// base64 over a UInt64 byte count and the data).
std::vector<std::uint8_t> data_array(const std::string& xml, const std::string& name) {
  const size_t tag = xml.find("Name=\"" + name + "\"");
  if (tag == std::string::npos) throw std::runtime_error("no DataArray " + name);
  const size_t open = xml.find('>', tag) + 1;
  const size_t close = xml.find("</DataArray>", open);
  std::vector<std::uint8_t> bytes = simrun::base64_decode(xml.substr(open, close - open));
  std::uint64_t count = 0;
  std::memcpy(&count, bytes.data(), sizeof count);
  if (bytes.size() != sizeof count + count) throw std::runtime_error("bad size of " + name);
  bytes.erase(bytes.begin(), bytes.begin() + sizeof count);
  return bytes;
}

/// Points and tets of one of our uncompressed VTU frames.
simrun::TetMesh read_frame(const fs::path& file) {
  const std::string xml = cli::read_file(file);
  if (xml.find("compressor=") != std::string::npos) throw std::runtime_error("compressed frame");
  const auto points = data_array(xml, "Points");
  const auto connectivity = data_array(xml, "connectivity");
  simrun::TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(points.size() / 24), 3);
  std::memcpy(mesh.vertices.data(), points.data(), points.size());
  std::vector<std::int64_t> ids(connectivity.size() / 8);
  std::memcpy(ids.data(), connectivity.data(), connectivity.size());
  mesh.tets.resize(static_cast<Eigen::Index>(ids.size() / 4), 4);
  for (size_t i = 0; i < ids.size(); ++i) mesh.tets.data()[i] = static_cast<int>(ids[i]);
  return mesh;
}

/// The mesh obstacles a run wrote (OUT/obstacles/obstacle_<k>.obj), in obstacle order.
std::vector<simrun::SurfaceMesh> obstacle_surfaces(const fs::path& out) {
  std::vector<std::pair<int, fs::path>> files;
  if (fs::exists(out / "obstacles"))
    for (const auto& entry : fs::directory_iterator(out / "obstacles")) {
      const std::string stem = entry.path().stem().string();
      if (entry.path().extension() == ".obj" && stem.rfind("obstacle_", 0) == 0)
        files.emplace_back(std::stoi(stem.substr(9)), entry.path());
    }
  std::sort(files.begin(), files.end());
  std::vector<simrun::SurfaceMesh> surfaces;
  for (const auto& [index, file] : files) surfaces.push_back(simrun::read_surface(file));
  return surfaces;
}

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
  const auto points = data_array(xml, "Points");
  frame.points.resize(static_cast<Eigen::Index>(points.size() / 24), 3);
  std::memcpy(frame.points.data(), points.data(), points.size());
  frame.types = data_array(xml, "types");
  const auto ids = data_array(xml, "obstacle");
  frame.obstacle.resize(ids.size() / 4);
  std::memcpy(frame.obstacle.data(), ids.data(), ids.size());
  return frame;
}

/// Checks every frame in out/frames: no two surface faces intersect (adjacent faces excepted)
/// and every tet has a positive signed volume. Returns the number of frames checked.
int check_frames(const fs::path& out, const std::string& what) {
  int frames = 0;
  for (const auto& entry : fs::directory_iterator(out / "frames")) {
    if (entry.path().extension() != ".vtu") continue;
    const simrun::TetMesh mesh = read_frame(entry.path());
    // One object with self contact: faces of different boxes never share a vertex, so only
    // adjacent faces of one box are skipped.
    simrun::CollisionMesh surface = simrun::build_collision_mesh(
        mesh, std::vector<int>(static_cast<size_t>(mesh.num_tets()), 0), {true});
    // Mesh obstacles: their vertices are the frame's last points, in obstacle order.
    const auto obstacles = obstacle_surfaces(out);
    int first = mesh.num_vertices();
    for (const auto& o : obstacles) first -= o.num_vertices();
    for (const auto& o : obstacles) {
      simrun::append_static_surface(surface, o.faces.array() + first, mesh.vertices);
      first += o.num_vertices();
    }
    std::string which;
    EXPECT_FALSE(simrun::surfaces_intersect(surface, simrun::as_flat(mesh.vertices), &which))
        << what << " " << entry.path().filename() << ": " << which;
    int inverted = 0;
    for (int e = 0; e < mesh.num_tets(); ++e) {
      const simrun::Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
      simrun::Mat3 edges;
      for (int k = 0; k < 3; ++k)
        edges.col(k) = mesh.vertices.row(mesh.tets(e, k + 1)).transpose() - x0;
      if (!(edges.determinant() > 0.0)) ++inverted;
    }
    EXPECT_EQ(inverted, 0) << what << " " << entry.path().filename();
    ++frames;
  }
  return frames;
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
  const simrun::TetMesh mesh = read_frame(tmp / "out" / "frames" / "000000.vtu");
  const simrun::CollisionMesh surface = simrun::build_collision_mesh(
      mesh, std::vector<int>(static_cast<size_t>(mesh.num_tets()), 0), {true});
  EXPECT_TRUE(simrun::surfaces_intersect(surface, simrun::as_flat(mesh.vertices)));
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
  const auto bytes = data_array(cli::read_file(file), name);
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
      data_array(cli::read_file(tmp / "out" / "frames" / "000040.vtu"), "contact_force");
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

namespace {

/// A U lying on its side (0.35 x 0.13 x 0.1 m, opening along +x): two 5 cm arms 3 cm apart,
/// joined by a 5 cm base. A closed, outward-oriented surface for TetGen.
constexpr const char* kUShapeOff =
    "OFF\n16 28 0\n"
    "0 0 0\n0.35 0 0\n0.35 0.05 0\n0.05 0.05 0\n0.05 0.08 0\n0.35 0.08 0\n0.35 0.13 0\n0 0.13 0\n"
    "0 0 0.1\n0.35 0 0.1\n0.35 0.05 0.1\n0.05 0.05 0.1\n0.05 0.08 0.1\n0.35 0.08 0.1\n"
    "0.35 0.13 0.1\n0 0.13 0.1\n"
    "3 0 2 1\n3 0 3 2\n3 0 4 3\n3 0 7 4\n3 7 5 4\n3 7 6 5\n"
    "3 8 9 10\n3 8 10 11\n3 8 11 12\n3 8 12 15\n3 15 12 13\n3 15 13 14\n"
    "3 0 1 9\n3 0 9 8\n3 1 2 10\n3 1 10 9\n3 2 3 11\n3 2 11 10\n3 3 4 12\n3 3 12 11\n"
    "3 4 5 13\n3 4 13 12\n3 5 6 14\n3 5 14 13\n3 6 7 15\n3 6 15 14\n3 7 0 8\n3 7 8 15\n";

/// The U resting on the plane y = 0 (1 mm above it), soft enough (1e5 Pa) that its upper arm
/// sags onto the lower one within about 9 steps of 10 ms.
json folding_scene(bool self_contact) {
  json scene = drop_scene("be");
  scene["time"]["steps"] = 20;
  scene["contact"]["self"] = self_contact;
  json& u = scene["objects"][0];
  u["name"] = "u";
  u["mesh"] = {{"file", "u.off"},
               {"tetgen", {{"quality", 2.0}, {"target_tets", 600}}},
               {"transform", {{"translate", {0, 0.001, 0}}}}};
  u["initial"]["velocity"] = {0, 0, 0};
  scene["integrator"]["newton"]["max_iterations"] = 100;
  return scene;
}

TEST(ContactFrames, AnArmFoldingOntoItsOwnBodyNeverIntersectsIt) {
  // Self-contact of one object: with it, the sagging arm lands on the lower arm and every frame
  // is intersection-free; without it ("self": false, the plane still acts) the same arm passes
  // into the lower one, which the frame check sees.
  TempDir tmp;
  tmp.write("u.off", std::string(kUShapeOff));
  const Result r = cli::run({"run", tmp.write("fold.json", folding_scene(true)).string(), "-o",
                             (tmp / "self").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto contacts = cli::column(tmp / "self" / "stats.csv", "contacts");
  // Before the arms meet only the lower arm's bottom touches the plane; then the pairs between
  // the arms join them (measured: 141 -> 736 at step 9).
  EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 2.0 * contacts.front());
  for (double d : cli::column(tmp / "self" / "stats.csv", "min_distance")) EXPECT_GT(d, 0.0);
  EXPECT_GE(check_frames(tmp / "self", "fold"), 20);

  const Result blind = cli::run({"run", tmp.write("pass.json", folding_scene(false)).string(), "-o",
                                 (tmp / "blind").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(blind.code, 0) << blind.describe();
  const simrun::TetMesh last = read_frame(tmp / "blind" / "frames" / "000020.vtu");
  const simrun::CollisionMesh surface = simrun::build_collision_mesh(
      last, std::vector<int>(static_cast<size_t>(last.num_tets()), 0), {true});
  EXPECT_TRUE(simrun::surfaces_intersect(surface, simrun::as_flat(last.vertices)));
}

TEST(ContactFrames, EverySolverAndFrictionKeepTheFramesApart) {
  // The two-box collision with friction, through each Newton linear solver (the IPC-PCG baseline
  // and the multilevel solver take their own inexact directions), and the drop with BDF2 and
  // friction: every frame is checked.
  const std::vector<std::pair<std::string, json>> cases = [] {
    std::vector<std::pair<std::string, json>> list;
    for (const char* solver : {"pcg", "multilevel"}) {
      json scene = pair_scene();
      scene["contact"]["friction"] = 0.3;
      scene["solver"] = {{"type", solver}};
      if (std::string(solver) == "multilevel") scene["solver"]["partitions"] = 4;
      list.emplace_back(solver, scene);
    }
    json drop = drop_scene("bdf2");
    drop["contact"]["friction"] = 0.5;
    drop["objects"][0]["initial"]["velocity"] = {1.0, -1.0, 0.0};  // lands sliding
    list.emplace_back("bdf2 friction", drop);
    return list;
  }();
  for (const auto& [name, scene] : cases) {
    TempDir tmp;
    const Result r = cli::run({"run", tmp.write("scene.json", scene).string(), "-o",
                               (tmp / "out").string(), "--quiet", "--threads", "1"});
    ASSERT_EQ(r.code, 0) << name << ": " << r.describe();
    const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
    EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0) << name;
    EXPECT_GE(check_frames(tmp / "out", name), 40) << name;
  }
}

TEST(ContactFrames, AStepThatDoesNotConvergeStopsTheRunWithCleanFrames) {
  // Newton capped at 2 iterations cannot finish the impact step of the two boxes: the run stops
  // as failed (exit 2) with its outputs, the last good state as the last frame, and no frame
  // written intersects (a failed step's iterate is never written).
  TempDir tmp;
  json scene = pair_scene();
  scene["integrator"]["newton"]["max_iterations"] = 2;
  const Result r = cli::run({"run", tmp.write("capped.json", scene).string(), "-o",
                             (tmp / "out").string(), "--quiet", "--threads", "1"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const json record = cli::read_json(tmp / "out" / "run.json");
  EXPECT_EQ(record.at("status"), "failed") << record.dump(2);
  const int steps = record.at("/counts/steps_done"_json_pointer).get<int>();
  // Free flight needs no Newton iteration; the boxes meet in step 6 (27 iterations uncapped).
  EXPECT_EQ(steps, 5);
  char name[32];
  std::snprintf(name, sizeof name, "%06d.vtu", steps);
  EXPECT_TRUE(fs::exists(tmp / "out" / "frames" / name)) << name;
  EXPECT_GE(check_frames(tmp / "out", "capped"), steps + 1);
}

}  // namespace

namespace {

TEST(ContactFrames, TheShippedContactScenesKeepEveryFrameClean) {
  // Every IPC scene in scenes/, at the coarse sizes and short spans of the figure scripts' quick
  // modes (scripts/figures/ipc_contact.py and others), with an uncompressed frame every step:
  // no frame has an intersecting face pair or an inverted tet.
  const auto coarse_ball = [](int i) {
    const std::string o = "/objects/" + std::to_string(i) + "/mesh/tetgen/";
    return std::vector<std::string>{o + "target_tets=100", o + "quality=0"};
  };
  const auto join = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::vector<std::pair<std::string, std::vector<std::string>>> scenes = {
      {"ipc_ball_drop",
       join(coarse_ball(0), {"/objects/0/mesh/transform/translate=[0,0.12,0]",
                             "/objects/0/initial/velocity=[0,-2,0]", "/time/steps=40"})},
      {"ipc_two_balls", join(join(coarse_ball(0), coarse_ball(1)), {"/time/steps=20"})},
      {"ipc_box_stack",
       {"/objects/0/mesh/box/cells=[2,2,2]", "/objects/1/mesh/box/cells=[2,2,2]",
        "/objects/2/mesh/box/cells=[2,2,2]", "/time/steps=60"}},
      {"ipc_ball_on_spike",
       join(coarse_ball(0), {"/objects/0/mesh/transform/translate=[0,0.225,0]", "/time/steps=40"})},
      {"ipc_stressball",
       {"/objects/0/mesh/tetgen/target_tets=100", "/objects/0/mesh/tetgen/quality=1.6",
        "/time/steps=12"}},
      {"ipc_inclined_plane", {"/time/steps=50"}},
      {"trusty_fig14_ball", {"/objects/0/mesh/tetgen/target_tets=150", "/time/steps=8"}},
      {"trusty_fig4_layers", {"/objects/0/mesh/box/cells=[10,10,1]", "/time/steps=30"}},
      {"trusty_fig8_impact", {"/objects/0/mesh/box/cells=[6,3,6]", "/time/steps=10"}},
  };
  for (const auto& [name, overrides] : scenes) {
    TempDir tmp;
    std::vector<std::string> args = {"run",
                                     (cli::kSourceDir / "scenes" / (name + ".json")).string(),
                                     "-o",
                                     (tmp / "out").string(),
                                     "--quiet",
                                     "--threads",
                                     "1",
                                     "--set",
                                     "/output/every=1",
                                     "--set",
                                     "/output/frames=[\"vtu\"]",
                                     "--set",
                                     "/output/compress=false"};
    for (const std::string& o : overrides) args.insert(args.end(), {"--set", o});
    const Result r = cli::run(args);
    ASSERT_EQ(r.code, 0) << name << ": " << r.describe();
    const auto contacts = cli::column(tmp / "out" / "stats.csv", "contacts");
    EXPECT_GT(*std::max_element(contacts.begin(), contacts.end()), 0.0) << name;
    const int steps = static_cast<int>(contacts.size());
    EXPECT_GE(check_frames(tmp / "out", name), steps + 1) << name;
  }
}

}  // namespace

namespace {

TEST(ContactFrames, NoMaterialInvertsATetInAContactScene) {
  // Materials whose energy allows inversion (linear, corotated, StVK, ARAP, stable neo-Hookean)
  // are held to positive volumes by the contact line search as neo-Hookean is. A soft 3x3x3-cell
  // box at 8 m/s onto the plane inverted tets in 1 to 30 of 30 frames before; its step now
  // needs an inversion to converge, so the run stops as failed (exit 2) with clean frames and
  // the log says why. At 2 m/s and 1e5 Pa every material finishes, every frame clean.
  for (const char* model : {"linear", "corotated", "stvk", "arap", "stable_neohookean"}) {
    for (const bool violent : {true, false}) {
      TempDir tmp;
      json scene = drop_scene("be");
      scene["time"]["steps"] = 30;
      json& box = scene["objects"][0];
      box["mesh"]["box"]["cells"] = {3, 3, 3};
      box["mesh"]["transform"]["translate"] = {0, 0.01, 0};
      box["material"] = {
          {"model", model}, {"E", violent ? 1e4 : 1e5}, {"nu", 0.45}, {"density", 1000}};
      box["initial"]["velocity"] = {0, violent ? -8 : -2, 0};
      scene["integrator"]["newton"]["max_iterations"] = 200;
      const Result r = cli::run({"run", tmp.write("slam.json", scene).string(), "-o",
                                 (tmp / "out").string(), "--quiet", "--threads", "1"});
      const std::string what = std::string(model) + (violent ? " at 8 m/s" : " at 2 m/s");
      const json record = cli::read_json(tmp / "out" / "run.json");
      const int steps = record.at("/counts/steps_done"_json_pointer).get<int>();
      if (violent) {
        EXPECT_TRUE(r.code == 0 || r.code == 2) << what << ": " << r.describe();
      } else {
        EXPECT_EQ(r.code, 0) << what << ": " << r.describe();
      }
      EXPECT_GE(check_frames(tmp / "out", what), steps + 1) << what;
      const std::string log = cli::read_file(tmp / "out" / "simrun.log");
      EXPECT_NE(log.find("whose energy allows inverted tets"), std::string::npos) << log;
    }
  }
}

}  // namespace
