// The independent check of IPC's guarantee over frames (issue 14, evidence): the contact scenes
// of ContactCli (a box dropped on a plane with be and bdf2, two boxes thrown at each other) run
// WITH frames, and every frame's surfaces are checked with the exact face-face intersection test
// (contact/intersection.hpp) and every tet for a positive signed volume. Also: objects that
// overlap deeply at t = 0 are bad input naming both objects and a face pair.
#include <gtest/gtest.h>

#include <Eigen/LU>  // determinant
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"
#include "contact/collision_mesh_build.hpp"
#include "contact/intersection.hpp"
#include "io/base64.hpp"
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

/// Checks every frame in out/frames: no two surface faces intersect (adjacent faces excepted)
/// and every tet has a positive signed volume. Returns the number of frames checked.
int check_frames(const fs::path& out, const std::string& what) {
  int frames = 0;
  for (const auto& entry : fs::directory_iterator(out / "frames")) {
    if (entry.path().extension() != ".vtu") continue;
    const simrun::TetMesh mesh = read_frame(entry.path());
    // One object with self contact: faces of different boxes never share a vertex, so only
    // adjacent faces of one box are skipped.
    const simrun::CollisionMesh surface = simrun::build_collision_mesh(
        mesh, std::vector<int>(static_cast<size_t>(mesh.num_tets()), 0), {true});
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
