// run.json's "counts" and the precomputation's "wall_seconds": what a scene was built into (the
// model, each object, the reference mesh, the multilevel setup), as numbers that agree with
// simrun.log's notes, which scripts used to parse for them.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// The first number captured by `pattern` in OUT/simrun.log (-1 when the log has no match).
long log_number(const fs::path& out, const std::string& pattern) {
  std::smatch match;
  const std::string log = cli::read_file(out / "simrun.log");
  return std::regex_search(log, match, std::regex(pattern)) ? std::stol(match[1]) : -1;
}

/// Runs `scene` for its steps; returns run.json.
json run_scene(TempDir& tmp, const std::string& name, const json& scene) {
  const auto file = tmp.write(name + ".json", scene);
  const Result r = cli::run({"run", file.string(), "-o", (tmp / name).string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
  return cli::read_json(tmp / name / "run.json");
}

TEST(RunRecordCounts, NameTheModelAndEachObject) {
  // tiny_scene's clamped 4x1x1-cell box (20 vertices, 4 of them at -x) and a 5-particle rope
  // hanging from its first particle.
  TempDir tmp;
  json scene = cli::tiny_scene();
  scene["objects"][0]["name"] = "bar";
  scene["objects"].push_back(json::parse(R"({
    "name": "rope",
    "mesh": { "rope": { "particles": 5, "length": 0.4 },
              "transform": { "translate": [0, 1, 0] } },
    "material": { "model": "mass_spring", "stiffness": 100, "particle_mass": 0.01 },
    "dirichlet": [ { "select": { "vertices": [0] } } ] })"));
  const json record = run_scene(tmp, "two", scene);
  const json& counts = record.at("counts");
  const int bar_tets = 4 * record.at("/scene/objects/0/mesh/box/split"_json_pointer).get<int>();
  ASSERT_EQ(counts.at("objects").size(), 2u) << counts.dump();
  EXPECT_EQ(counts.at("objects")[0],
            json({{"name", "bar"}, {"vertices", 20}, {"tets", bar_tets}, {"springs", 0}}));
  EXPECT_EQ(counts.at("objects")[1],
            json({{"name", "rope"}, {"vertices", 5}, {"tets", 0}, {"springs", 4}}));
  EXPECT_EQ(counts.at("vertices"), 25);
  EXPECT_EQ(counts.at("tets"), bar_tets);
  EXPECT_EQ(counts.at("springs"), 4);
  EXPECT_EQ(counts.at("constrained_vertices"), 5);
  EXPECT_EQ(counts.at("free_dofs"), 3 * (25 - 5));
  EXPECT_EQ(counts.at("steps_done"), 3);  // the step loop's entries beside the setup's
  // The log's model line says the same.
  EXPECT_EQ(counts.at("vertices"), log_number(tmp / "two", R"(model: (\d+) vertices)"));
  EXPECT_EQ(counts.at("tets"), log_number(tmp / "two", R"(model: \d+ vertices, (\d+) tets)"));
  EXPECT_FALSE(counts.contains("multilevel"));
  EXPECT_FALSE(counts.contains("reference"));
  EXPECT_FALSE(record.at("wall_seconds").contains("multilevel_partition"));
  EXPECT_TRUE(record.at("wall_seconds").contains("total"));
}

TEST(RunRecordCounts, NameTheMultilevelPrecomputation) {
  // Two 4x4x4-cell boxes, 6 partitions over both, the paper's cubature, one step.
  TempDir tmp;
  json scene = cli::contact_pair_scene();
  for (auto& object : scene["objects"]) object["mesh"]["box"]["cells"] = {4, 4, 4};
  scene["time"]["steps"] = 1;
  scene["solver"] = {{"type", "multilevel"}, {"partitions", 6}, {"cubature", true}};
  const json record = run_scene(tmp, "ml", scene);
  const fs::path out = tmp / "ml";
  const json& ml = record.at("/counts/multilevel"_json_pointer);
  EXPECT_EQ(ml.at("sms_handles"), log_number(out, R"(multilevel: (\d+) SMS handles)"));
  EXPECT_GE(ml.at("sms_handles").get<int>(), 2);  // at least one per object
  EXPECT_EQ(ml.at("affine_handles"), 2);
  EXPECT_EQ(ml.at("polish_iterations"), log_number(out, R"(multilevel: (\d+) polish iterations)"));
  EXPECT_EQ(ml.at("cubature_points"), log_number(out, R"(cubature (\d+) points)"));
  EXPECT_GT(ml.at("cubature_points").get<long>(), 0);
  EXPECT_LE(ml.at("cubature_points").get<long>(), record.at("/counts/tets"_json_pointer));
  const json& seconds = record.at("wall_seconds");
  for (const char* part : {"multilevel_partition", "multilevel_bases", "cubature_fit"}) {
    ASSERT_TRUE(seconds.contains(part)) << seconds.dump();
    EXPECT_GE(seconds.at(part).get<double>(), 0.0) << part;
    EXPECT_LE(seconds.at(part).get<double>(), seconds.at("setup").get<double>()) << part;
  }
}

TEST(RunRecordCounts, NameTheReferenceMesh) {
  // A DAC bar: 8x2x2 cells, reference 16x4x4, no reference run, one step.
  TempDir tmp;
  const json scene = json::parse(R"({
    "name": "bar",
    "time": { "dt": 0.01, "steps": 1 },
    "objects": [ {
      "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [8, 2, 2] } },
      "reference": { "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [16, 4, 4] } } },
      "eigenfit": { "method": "dac", "modes": 2 },
      "material": { "model": "linear", "E": 1e5, "nu": 0.45, "density": 1000 },
      "dirichlet": [ { "select": { "side": "-x" } } ] } ],
    "integrator": { "type": "si" },
    "reference": { "run": false },
    "output": { "frames": [] } })");
  const json record = run_scene(tmp, "dac", scene);
  const int split = record.at("/scene/objects/0/mesh/box/split"_json_pointer);
  const int fine_split = record.at("/scene/objects/0/reference/mesh/box/split"_json_pointer);
  EXPECT_EQ(record.at("/counts/reference"_json_pointer),
            json({{"vertices", 17 * 5 * 5}, {"tets", 16 * 4 * 4 * fine_split}}));
  EXPECT_EQ(record.at("/counts/vertices"_json_pointer), 9 * 3 * 3);  // the run's (coarse) mesh
  EXPECT_EQ(record.at("/counts/tets"_json_pointer), 8 * 2 * 2 * split);
}

}  // namespace
