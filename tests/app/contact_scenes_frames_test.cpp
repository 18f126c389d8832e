// IPC's guarantee over frames in more scenes (issue 14, evidence; app/frame_check.hpp):
// self-contact of one object, the pcg and multilevel solvers with friction, a failed step, every
// IPC scene in scenes/, and materials whose energy allows inversion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.hpp"
#include "app/frame_check.hpp"

namespace {

using cli::check_frames;
using cli::frame_surfaces_intersect;
using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

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
  json scene = cli::framed_drop_scene("be");
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
  EXPECT_TRUE(frame_surfaces_intersect(tmp / "blind" / "frames" / "000020.vtu"));
}

TEST(ContactFrames, EverySolverAndFrictionKeepTheFramesApart) {
  // The two-box collision with friction, through each Newton linear solver (the IPC-PCG baseline
  // and the multilevel solver take their own inexact directions), and the drop with BDF2 and
  // friction: every frame is checked.
  const std::vector<std::pair<std::string, json>> cases = [] {
    std::vector<std::pair<std::string, json>> list;
    for (const char* solver : {"pcg", "multilevel"}) {
      json scene = cli::framed_pair_scene();
      scene["contact"]["friction"] = 0.3;
      scene["solver"] = {{"type", solver}};
      if (std::string(solver) == "multilevel") scene["solver"]["partitions"] = 4;
      list.emplace_back(solver, scene);
    }
    json drop = cli::framed_drop_scene("bdf2");
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
  json scene = cli::framed_pair_scene();
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
  std::snprintf(name, sizeof name, "%06d.vtu", steps + 1);
  EXPECT_FALSE(fs::exists(tmp / "out" / "frames" / name)) << "the failed step was written";
  EXPECT_EQ(check_frames(tmp / "out", "capped"), steps + 1);
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
  // are held to positive volumes by the contact line search as neo-Hookean is
  // (FactoryTest.ContactBoundsTheLineSearchOfMaterialsThatAllowInversion checks the bound). A
  // soft 3x3x3-cell box at 8 m/s onto the plane inverted tets without it; with it, the impact
  // step could only converge through an inversion, so each run stops as failed (exit 2) within
  // two steps, with clean frames and the log saying why, where neo-Hookean finishes. At 2 m/s
  // and 1e5 Pa every material finishes its 30 steps, every frame clean.
  for (const char* model :
       {"linear", "corotated", "stvk", "arap", "stable_neohookean", "neohookean"}) {
    for (const bool violent : {true, false}) {
      TempDir tmp;
      json scene = cli::framed_drop_scene("be");
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
      const bool inverting = std::string(model) != "neohookean";
      const json record = cli::read_json(tmp / "out" / "run.json");
      const int steps = record.at("/counts/steps_done"_json_pointer).get<int>();
      if (violent && inverting) {
        EXPECT_EQ(r.code, 2) << what << ": " << r.describe();
        EXPECT_EQ(record.at("status"), "failed") << what;
        EXPECT_LE(steps, 2) << what;
      } else {
        EXPECT_EQ(r.code, 0) << what << ": " << r.describe();
        EXPECT_EQ(steps, 30) << what;
      }
      EXPECT_EQ(check_frames(tmp / "out", what), steps + 1) << what;
      const std::string log = cli::read_file(tmp / "out" / "simrun.log");
      EXPECT_EQ(log.find("whose energy allows inverted tets") != std::string::npos, inverting)
          << what << "\n"
          << log;
    }
  }
}

}  // namespace
