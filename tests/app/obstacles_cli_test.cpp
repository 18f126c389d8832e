// "obstacles" end to end (docs/obstacles.md): validate shows the defaults and round-trips, a run
// writes the floor's energy column and the sphere's stats counter, and an obstacle that starts
// inside an object is bad input (exit 1, the obstacle's pointer, the object and vertex).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// A 3 x 3 cloth (0.2 m) 2 cm above a sphere of radius 0.1 at the origin, and a 5 cm block 2 cm
/// above a penalty floor at y = -1, both falling; 40 steps of 5 ms (the cloth lands after about
/// 64 ms, the block after about 64 ms too).
json falling_scene() {
  return json::parse(R"({
    "name": "obstacles",
    "time": { "dt": 0.005, "steps": 40 },
    "objects": [
      { "name": "cloth",
        "mesh": { "cloth": { "size": [0.2, 0.2], "particles": [3, 3] },
                  "transform": { "translate": [-0.1, 0.12, -0.1] } },
        "material": { "model": "mass_spring", "stiffness": 100, "particle_mass": 0.01 } },
      { "name": "block",
        "mesh": { "box": { "size": [0.05, 0.05, 0.05], "cells": [1, 1, 1] },
                  "transform": { "translate": [1, -0.98, 0] } },
        "material": { "model": "neohookean", "E": 1e6, "nu": 0.3, "density": 1000 } }
    ],
    "obstacles": [ { "sphere": { "radius": 0.1 } },
                   { "plane": { "point": [0, -1, 0], "stiffness": 1e4 } } ],
    "integrator": { "type": "si" },
    "output": { "every": 10 }
  })");
}

TEST(ObstaclesCli, ValidateShowsDefaultsAndRoundTrips) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", falling_scene());
  const Result first = cli::run({"validate", scene.string()});
  ASSERT_EQ(first.code, 0) << first.describe();
  const json a = json::parse(first.out);
  EXPECT_EQ(a.at("/obstacles/0/sphere/center"_json_pointer), json::parse("[0, 0, 0]"));
  EXPECT_EQ(a.at("/obstacles/1/plane/normal"_json_pointer), json::parse("[0, 1, 0]"));
  EXPECT_EQ(a.at("/obstacles/1/plane/stiffness"_json_pointer), 1e4);
  const auto normalized = tmp.write("normalized.json", first.out);
  const Result second = cli::run({"validate", normalized.string()});
  ASSERT_EQ(second.code, 0) << second.describe();
  EXPECT_EQ(json::parse(second.out), a);
}

TEST(ObstaclesCli, RunWritesFloorEnergyAndProjectionCounter) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", falling_scene());
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  // The floor is a term of the total; the sphere is not an energy.
  const std::vector<double> floor = cli::column(out / "energy.csv", "obstacles");
  ASSERT_EQ(floor.size(), 41u);
  EXPECT_EQ(floor.front(), 0.0);
  EXPECT_GT(*std::max_element(floor.begin(), floor.end()), 0.0);  // the block landed
  const std::vector<double> projected = cli::column(out / "stats.csv", "obstacle_projections");
  ASSERT_EQ(projected.size(), 40u);
  EXPECT_GT(*std::max_element(projected.begin(), projected.end()), 0.0);  // the cloth landed
  EXPECT_EQ(projected.front(), 0.0);  // still falling in the first step
  EXPECT_NE(cli::read_file(out / "simrun.log").find("obstacles: 1 penalty plane(s), 1 projected"),
            std::string::npos);
}

/// `simrun run` on a scene that must be rejected: exit 1, the expected parts in the message, no
/// internal error, no output folder.
void expect_bad_input(const json& scene_json, const std::vector<std::string>& expected) {
  TempDir tmp;
  const auto scene = tmp.write("start_inside.json", scene_json);
  const fs::path out = tmp / "out_must_not_exist";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--quiet"});
  EXPECT_EQ(r.code, 1) << r.describe();
  for (const auto& s : expected)
    EXPECT_NE(r.all().find(s), std::string::npos) << "missing '" << s << "' in\n" << r.describe();
  EXPECT_EQ(r.all().find("internal error"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(out));
}

TEST(ObstaclesCli, ObjectStartingBelowThePlaneIsBadInput) {
  json s = cli::tiny_scene();  // the box spans y in [0, 0.2]
  s["obstacles"] = json::parse(R"([{"plane": {"point": [0, 0.05, 0], "stiffness": 1e4}}])");
  // Every y = 0 vertex is 5 cm below; the first of them (vertex 0) is reported.
  expect_bad_input(s, {"start_inside.json", "/obstacles/0", "vertex 0 of object 'object0'",
                       "(/objects/0)", "0.05 m below the plane", "10 vertices below"});
}

TEST(ObstaclesCli, ObjectStartingInsideTheSphereNamesObjectAndVertex) {
  json s = cli::tiny_scene();
  s["objects"].push_back(json::parse(R"({
      "name": "cube",
      "mesh": { "box": { "size": [0.1, 0.1, 0.1], "cells": [1, 1, 1] },
                "transform": { "translate": [3, 0, 0] } } })"));
  // The sphere holds the cube's vertex 0 (at its center: 0.05 m deep) and no vertex of the bar.
  s["obstacles"] = json::parse(R"([{"plane": {"point": [0, -1, 0], "stiffness": 1e4}},
                                   {"sphere": {"center": [3, 0, 0], "radius": 0.05}}])");
  expect_bad_input(s, {"/obstacles/1", "vertex 0 of object 'cube' (/objects/1)",
                       "0.05 m inside the sphere", "1 vertex inside"});
}

// A sphere in the bar's first cell (0.25 x 0.2 x 0.2 m, vertices at its corners only), 3 cm
// across: no vertex inside it, but it starts inside the body.
TEST(ObstaclesCli, SphereInsideTheBodyWithNoVertexInsideIsBadInput) {
  json s = cli::tiny_scene();
  s["obstacles"] = json::parse(R"([{"sphere": {"center": [0.1, 0.1, 0.1], "radius": 0.03}}])");
  expect_bad_input(s, {"/obstacles/0", "the sphere starts inside object 'object0' (/objects/0)",
                       "its centre lies in tet", "no vertex inside the sphere"});
}

// Centre 1 cm above the top face (y = 0.2) between its vertices, radius 2 cm: the sphere cuts
// 1 cm into the bar through the face, but holds no vertex and its centre is outside. The sphere
// acts on vertices only (a body resting on a ball by its corners), so this is a valid start.
TEST(ObstaclesCli, ABodyWhoseFaceCutsIntoTheSphereMayStart) {
  json s = cli::tiny_scene();
  s["obstacles"] = json::parse(R"([{"sphere": {"center": [0.1, 0.21, 0.1], "radius": 0.02}}])");
  TempDir tmp;
  const auto scene = tmp.write("face.json", s);
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
}

TEST(ObstaclesCli, PlaneWithoutStiffnessGetsTheDefault) {
  // The interface contract's example: a floor with only point and normal.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["obstacles"] = json::parse(R"([{"plane": {"point": [0, -0.01, 0], "normal": [0, 1, 0]}}])");
  const auto scene = tmp.write("contract.json", s);
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
  const std::string log = cli::read_file(tmp / "out" / "simrun.log");
  EXPECT_NE(log.find("/obstacles/0/plane/stiffness not given"), std::string::npos) << log;
  EXPECT_NE(log.find("period of 10 steps"), std::string::npos) << log;
}

TEST(ObstaclesCli, ObjectRestingOnThePlaneIsFine) {
  TempDir tmp;
  json s = cli::tiny_scene();  // bottom face exactly at y = 0
  s["obstacles"] = json::parse(R"([{"plane": {"stiffness": 1e4}}])");
  const auto scene = tmp.write("touching.json", s);
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
}

TEST(ObstaclesCli, PressureStiffnessIsLoggedAndItsConflictsNameThePointer) {
  TempDir tmp;
  json s = cli::tiny_scene();  // a 1 x 0.2 x 0.2 m bar: 0.88 m^2 of boundary
  s["obstacles"] =
      json::parse(R"([{"plane": {"point": [0, -0.01, 0], "pressure_stiffness": 1e6}}])");
  const auto scene = tmp.write("pressure.json", s);
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const std::string log = cli::read_file(tmp / "out" / "simrun.log");
  EXPECT_NE(log.find("/obstacles/0/plane: pressure stiffness 1e+06 Pa/m on 0.88 m^2 of boundary"),
            std::string::npos)
      << log;

  s["obstacles"][0]["plane"]["stiffness"] = 1e4;
  expect_bad_input(s, {"/obstacles/0/plane", "'stiffness' or 'pressure_stiffness', found both"});
  s = falling_scene();  // a cloth (particles, no boundary) and a block
  s["obstacles"][1]["plane"].erase("stiffness");
  s["obstacles"][1]["plane"]["pressure_stiffness"] = 1e6;
  expect_bad_input(s, {"/obstacles/1/plane/pressure_stiffness", "/objects/0", "no boundary area"});
}

}  // namespace
