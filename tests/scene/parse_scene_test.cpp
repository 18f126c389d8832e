#include "scene/parse_scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "scene/json_file.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::minimal_scene;
using test::SceneFolder;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ParseScene, FillsDefaults) {
  SceneFolder dir;
  const auto file = dir.write("scene.json", minimal_scene());
  const SceneConfig scene = parse_scene(file);
  const json& n = scene.normalized;
  EXPECT_EQ(n["integrator"]["type"], "si");
  EXPECT_EQ(n["integrator"]["newton"]["max_iterations"], 20);
  EXPECT_EQ(n["mass"], "lumped");
  EXPECT_EQ(n["gravity"], json::parse("[0, -9.81, 0]"));
  EXPECT_EQ(n["name"], "scene");                  // file stem
  EXPECT_EQ(n["objects"][0]["name"], "object0");  // position
  EXPECT_EQ(n["objects"][0]["mesh"]["box"]["split"], 5);
  EXPECT_EQ(n["objects"][0]["dirichlet"][0]["select"]["tol"], 1e-6);  // inside array items
  EXPECT_EQ(n["output"]["frames"], json::parse(R"(["vtu"])"));
  EXPECT_EQ(scene.integrator.type, "si");
  // Default out/NAME, relative to where simrun runs (as any command-line tool's output).
  EXPECT_EQ(scene.output.dir, std::filesystem::current_path() / "out" / "scene");
  EXPECT_EQ(scene.source, file);
  EXPECT_EQ(scene.time.steps, 10);
  EXPECT_TRUE(scene.lumped_mass);
  EXPECT_EQ(scene.objects.at(0).mesh.kind, MeshConfig::Kind::kBox);
  EXPECT_EQ(scene.objects.at(0).mesh.box_cells, Eigen::Vector3i(4, 1, 1));
  EXPECT_EQ(scene.objects.at(0).mesh.transform.scale, Vec3::Ones());
  // The text round-trips to the same JSON.
  EXPECT_EQ(json::parse(normalized_scene_text(scene)), n);
}

TEST(ParseScene, AContrastCapBetweenZeroAndOneNamesItsPointer) {
  SceneFolder dir;
  json scene = json::parse(minimal_scene());
  scene["solver"] = {{"contrast_cap", 0.5}};
  const auto file = dir.write("cap.json", scene.dump());
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_NE(message.find("/solver/contrast_cap: expected 0 (no cap) or a ratio >= 1, found 0.5"),
            std::string::npos)
      << message;
  scene["solver"]["contrast_cap"] = 3;
  EXPECT_EQ(parse_scene(dir.write("ok.json", scene.dump())).solver.contrast_cap, 3.0);
}

TEST(ParseScene, ContactScenesGetTheContactNewtonCapUnlessTheyGiveOne) {
  SceneFolder dir;
  json scene = json::parse(minimal_scene());
  scene["integrator"] = {{"type", "be"}};
  scene["contact"] = json::object();
  EXPECT_EQ(parse_scene(dir.write("contact.json", scene.dump())).integrator.newton.max_iterations,
            kContactNewtonIterations);
  scene["integrator"]["newton"]["max_iterations"] = 7;
  EXPECT_EQ(parse_scene(dir.write("given.json", scene.dump())).integrator.newton.max_iterations, 7);
  // A --set of the cap wins too, and a scene without contact keeps 20.
  scene["integrator"]["newton"].erase("max_iterations");
  EXPECT_EQ(
      parse_scene(dir.write("set.json", scene.dump()), {"/integrator/newton/max_iterations=9"})
          .integrator.newton.max_iterations,
      9);
  scene.erase("contact");
  EXPECT_EQ(parse_scene(dir.write("plain.json", scene.dump())).integrator.newton.max_iterations,
            20);
}

TEST(ParseScene, ContractExampleLoads) {
  SceneFolder dir;
  const auto file = dir.write("cantilever.json", R"({
  "name": "cantilever_si",
  "time": { "dt": 0.01, "steps": 200 },
  "objects": [ {
      "name": "bar",
      "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [20, 4, 4] } },
      "material": { "model": "neohookean", "E": 1e5, "nu": 0.45, "density": 1000 },
      "regions": [ { "select": { "box": { "min": [0.4,-1,-1], "max": [0.6,1,1] } }, "E": 1e7 } ],
      "dirichlet": [ { "select": { "side": "-x", "tol": 1e-6 } } ],
      "initial": { "velocity": [0, 0, 0] }
  } ],
  "gravity": [0, -9.81, 0],
  "mass": "lumped",
  "damping": { "mass": 0.0, "stiffness": 0.01, "stiffness_at": "rest" },
  "integrator": { "type": "si" },
  "output": { "dir": "out", "every": 1, "frames": ["vtu"], "surface": false }
})");
  const SceneConfig s = parse_scene(file);
  EXPECT_EQ(s.name, "cantilever_si");
  EXPECT_EQ(s.time.dt, 0.01);
  ASSERT_EQ(s.objects.size(), 1u);
  const ObjectConfig& bar = s.objects[0];
  EXPECT_EQ(bar.name, "bar");
  EXPECT_EQ(bar.mesh.box_size, Vec3(1.0, 0.2, 0.2));
  EXPECT_EQ(bar.material.model, "neohookean");
  EXPECT_EQ(bar.material.nu, 0.45);
  ASSERT_EQ(bar.regions.size(), 1u);
  EXPECT_EQ(bar.regions[0].E, 1e7);
  EXPECT_FALSE(bar.regions[0].nu.has_value());
  EXPECT_EQ(bar.regions[0].select.kind, Selection::Kind::kBox);
  ASSERT_EQ(bar.dirichlet.size(), 1u);
  EXPECT_EQ(bar.dirichlet[0].select.side, "-x");
  EXPECT_EQ(s.damping.stiffness, 0.01);
  EXPECT_EQ(s.damping.stiffness_at, DampingConfig::StiffnessAt::kRest);
  EXPECT_EQ(s.output.dir, std::filesystem::current_path() / "out");
}

TEST(ParseScene, UnknownKeySuggestsNearestName) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene(R"({"E": 1e6, "densty": 1000})"));
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(message, file.string() + ": /objects/0/material/densty")) << message;
  EXPECT_TRUE(contains(message, "did you mean 'density'?")) << message;
}

TEST(ParseScene, WrongTypeNamesPointerExpectedAndFound) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene(R"({"E": "abc"})"));
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(message, "/objects/0/material/E: expected number, found string \"abc\""))
      << message;
}

TEST(ParseScene, ReportsAllErrorsAtOnceOnePerLine) {
  SceneFolder dir;
  const auto file = dir.write("s.json", R"({
  "time": {"dt": 0, "steps": -1},
  "objects": [{"mesh": {"box": {"size": [1, 1, 1], "cells": [2, 0, 2]}},
               "material": {"model": "neohooken", "nu": 0.5}}],
  "mass": "lumpd",
  "integrator": {"typ": "si"}
})");
  const std::string message = input_error_of([&] { parse_scene(file); });
  for (const std::string part :
       {"/time/dt: expected a number > 0, found 0", "/time/steps: expected a number >= 0, found -1",
        "/objects/0/mesh/box/cells/1: expected a number >= 1, found 0",
        "/objects/0/material/model: expected one of", "(did you mean 'neohookean'?)",
        "/objects/0/material/nu: expected a number < 0.5, found 0.5",
        "/mass: expected one of 'lumped', 'consistent'; found 'lumpd' (did you mean 'lumped'?)",
        "/integrator/typ: unknown key 'typ' (did you mean 'type'?)"})
    EXPECT_TRUE(contains(message, part)) << "missing: " << part << "\nin:\n" << message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 6) << message;  // 7 lines
  // Every line names the file.
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);)
    EXPECT_EQ(line.rfind(file.string() + ": ", 0), 0u) << line;
}

TEST(ParseScene, RejectsImpossibleParameters) {
  SceneFolder dir;
  const auto nu = dir.write("nu.json", minimal_scene(R"({"nu": 0.5})"));
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(nu); }),
                       "/objects/0/material/nu: expected a number < 0.5, found 0.5"));
  const auto nu_low = dir.write("nu_low.json", minimal_scene(R"({"nu": -1})"));
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(nu_low); }),
                       "/objects/0/material/nu: expected a number > -1, found -1"));
  const auto e = dir.write("e.json", minimal_scene(R"({"E": 0})"));
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(e); }),
                       "/objects/0/material/E: expected a number > 0"));
  const auto dt = dir.write(
      "dt.json",
      R"({"time": {"dt": 0}, "objects": [{"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1]}}}]})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(dt); }),
                       "/time/dt: expected a number > 0, found 0"));
  const auto every = dir.write(
      "every.json",
      R"({"output": {"every": 0}, "objects": [{"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1]}}}]})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(every); }),
                       "/output/every: expected a number >= 1, found 0"));
  const auto split = dir.write(
      "split.json",
      R"({"objects": [{"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1], "split": 4}}}]})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(split); }),
                       "/objects/0/mesh/box/split: expected one of 5, 6; found 4"));
}

TEST(ParseScene, StructuralProblems) {
  SceneFolder dir;
  const auto none = dir.write("none.json", R"({"objects": []})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(none); }),
                       "/objects: expected at least 1 item(s), found 0"));
  const auto missing = dir.write("missing.json", R"({"time": {}})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(missing); }),
                       "(root): missing required key 'objects'"));
  const auto no_mesh = dir.write("no_mesh.json", R"({"objects": [{"name": "a"}]})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(no_mesh); }),
                       "/objects/0: missing required key 'mesh'"));
  const auto array = dir.write("array.json", "[1, 2]");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(array); }),
                       "expected a JSON object at the top level, found array"));
  const auto mesh = dir.write(
      "mesh.json",
      R"({"objects": [{"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1]}, "file": "a.off"}}]})");
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(mesh); }),
                       "/objects/0/mesh: expected an object with exactly one of the keys 'box', "
                       "'rope', 'cloth', 'file', found keys 'box', 'file'"));
}

TEST(ParseScene, SemanticChecksNamePointers) {
  SceneFolder dir;
  const auto file = dir.write("s.json", R"({"objects": [
    {"name": "a", "mesh": {"file": "nowhere.off"},
     "regions": [{"select": {"box": {"min": [1, 0, 0], "max": [0, 1, 1]}}}]},
    {"name": "a", "mesh": {"file": "bad.xyz"}},
    {"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1]}, "transform": {"rotate": {"axis": [0,0,0], "angle_deg": 90}}}}
  ]})");
  const std::string message = input_error_of([&] { parse_scene(file); });
  for (const std::string& part : std::vector<std::string>{
           "/objects/0/mesh/file: mesh file not found: " + (dir.root() / "nowhere.off").string(),
           "/objects/0/regions/0/select/box: expected min <= max",
           "/objects/0/regions/0: expected at least one of 'E', 'nu', 'density'",
           "/objects/1/name: duplicate object name 'a' (also /objects/0/name)",
           "/objects/1/mesh/file: expected a mesh file ending in",
           "/objects/2/mesh/transform/rotate/axis: expected a non-zero rotation axis"})
    EXPECT_TRUE(contains(message, part)) << "missing: " << part << "\nin:\n" << message;
}

TEST(ParseScene, MeshFileIsResolvedAndConverted) {
  SceneFolder dir;
  dir.write("meshes/ball.off", "OFF\n0 0 0\n");
  const auto file = dir.write("s.json", R"({"objects": [{"mesh": {"file": "meshes/ball.off",
    "tetgen": {"target_tets": 5000}, "transform": {"scale": [1, 2, 3], "translate": [0, 1, 0],
    "rotate": {"axis": [1, 0, 0], "angle_deg": 90}}},
    "initial": {"twist": {"axis": "y", "angle_deg": 180}, "angular_velocity": [0, 0, 1]}}]})");
  const SceneConfig s = parse_scene(file);
  const MeshConfig& m = s.objects.at(0).mesh;
  EXPECT_EQ(m.kind, MeshConfig::Kind::kFile);
  EXPECT_EQ(m.file, dir.root() / "meshes/ball.off");
  EXPECT_EQ(m.tetgen.target_tets, 5000);
  EXPECT_EQ(m.tetgen.quality, 2.0);
  EXPECT_EQ(m.transform.scale, Vec3(1, 2, 3));
  EXPECT_EQ(m.transform.rotate_axis, Vec3(1, 0, 0));
  EXPECT_EQ(m.transform.rotate_deg, 90);
  EXPECT_EQ(m.transform.translate, Vec3(0, 1, 0));
  const InitialConfig& init = s.objects.at(0).initial;
  ASSERT_TRUE(init.twist.has_value());
  EXPECT_EQ(init.twist->axis, 1);
  EXPECT_EQ(init.twist->angle_deg, 180);
  EXPECT_EQ(init.angular_velocity, Vec3(0, 0, 1));
}

TEST(ParseScene, SyntaxErrorGivesLineAndColumn) {
  SceneFolder dir;
  const auto file =
      dir.write("s.json", "{\n  \"time\": { \"dt\": 0.01, },\n  \"objects\": []\n}\n");
  const std::string message = input_error_of([&] { parse_scene(file); });
  // Line 2 is `  "time": { "dt": 0.01, },`; the '}' after the trailing comma is column 25.
  EXPECT_TRUE(contains(message, file.string() + ":2:25: JSON syntax error")) << message;
  EXPECT_FALSE(contains(message, "json.exception")) << message;
}

TEST(ParseScene, SyntaxErrorAtEndOfFile) {
  SceneFolder dir;
  const auto file = dir.write("s.json", "{\n  \"time\": {\"dt\": 0.01}\n");
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(message, file.string() + ":3:")) << message;
}

TEST(ParseScene, DuplicateKeysAreErrors) {
  SceneFolder dir;
  const auto file = dir.write("s.json", R"({"objects": [{"mesh": {"box": {"size": [1, 1, 1],
    "cells": [1, 1, 1]}}}, {"mesh": {"file": "a.off"}, "material": {"E": 1, "nu": 0.3, "E": 2}}],
    "time": {"dt": 0.1}, "time": {"steps": 1}})");
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(message, file.string() + ": /objects/1/material: duplicate key 'E'"))
      << message;
  EXPECT_TRUE(contains(message, file.string() + ": (root): duplicate key 'time'")) << message;
}

TEST(ParseScene, MissingFileNamesThePath) {
  SceneFolder dir;
  const auto file = dir.root() / "does_not_exist.json";
  const std::string message = input_error_of([&] { parse_scene(file); });
  EXPECT_TRUE(contains(message, file.string())) << message;
  EXPECT_TRUE(contains(message, "file not found")) << message;
  EXPECT_TRUE(contains(input_error_of([&] { parse_scene(dir.root()); }), "is a folder"));
}

TEST(ParseScene, TextPosition) {
  EXPECT_EQ(text_position("ab\ncd", 0).line, 1);
  EXPECT_EQ(text_position("ab\ncd", 4).line, 2);
  EXPECT_EQ(text_position("ab\ncd", 4).column, 2);
}

}  // namespace
}  // namespace simrun

namespace simrun {
namespace {

TEST(ParseScene, MassSpringMeshesFillDefaults) {
  test::SceneFolder dir;
  const auto file = dir.write("s.json", R"({
  "objects": [{"mesh": {"rope": {"particles": 5}}, "material": {"model": "mass_spring"}},
              {"mesh": {"cloth": {"particles": [11, 11]}},
               "material": {"model": "mass_spring", "stiffness": 20, "particle_mass": 0.5}}]
})");
  const SceneConfig scene = parse_scene(file);
  const MeshConfig& rope = scene.objects.at(0).mesh;
  EXPECT_EQ(rope.kind, MeshConfig::Kind::kRope);
  EXPECT_EQ(rope.rope_particles, 5);
  EXPECT_EQ(rope.rope_length, 1.0);
  EXPECT_EQ(scene.objects.at(0).material.stiffness, 100.0);
  EXPECT_EQ(scene.objects.at(0).material.particle_mass, 0.1);
  const MeshConfig& cloth = scene.objects.at(1).mesh;
  EXPECT_EQ(cloth.kind, MeshConfig::Kind::kCloth);
  EXPECT_EQ(cloth.cloth_particles, Eigen::Vector2i(11, 11));
  EXPECT_EQ(cloth.cloth_size, Eigen::Vector2d(1, 1));
  EXPECT_TRUE(cloth.cloth_shear);
  EXPECT_EQ(scene.objects.at(1).material.stiffness, 20.0);
  EXPECT_EQ(scene.objects.at(1).material.particle_mass, 0.5);
}

TEST(ParseScene, MassSpringModelAndGraphMeshGoTogether) {
  test::SceneFolder dir;
  const auto file = dir.write("s.json", R"({
  "objects": [{"mesh": {"rope": {"particles": 3}}},
              {"mesh": {"box": {"size": [1, 1, 1], "cells": [1, 1, 1]}},
               "material": {"model": "mass_spring"}}]
})");
  const std::string message = test::input_error_of([&] { parse_scene(file); });
  EXPECT_NE(message.find("/objects/0/material/model: a rope or cloth mesh"), std::string::npos)
      << message;
  EXPECT_NE(message.find("/objects/1/material/model: 'mass_spring' needs"), std::string::npos)
      << message;
  const auto one = dir.write("one.json", R"({"objects": [{"mesh": {"rope": {"particles": 1}},
      "material": {"model": "mass_spring"}}]})");
  EXPECT_NE(test::input_error_of([&] { parse_scene(one); }).find("/objects/0/mesh"),
            std::string::npos);
}

}  // namespace
}  // namespace simrun
