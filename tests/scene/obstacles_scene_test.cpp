// The scene's "obstacles" (docs/obstacles.md): parsing into SceneConfig with the defaults filled,
// and the input errors the parser reports with the file and JSON pointer.
#include <gtest/gtest.h>

#include "scene/parse_scene.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::SceneFolder;

/// minimal_scene() with "obstacles" set to `obstacles` (JSON text).
std::string scene_with_obstacles(const std::string& obstacles) {
  json scene = json::parse(test::minimal_scene());
  scene["obstacles"] = json::parse(obstacles);
  return scene.dump(2);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ObstaclesScene, ParsesPlaneAndSphereWithDefaults) {
  SceneFolder dir;
  const auto file = dir.write("s.json", scene_with_obstacles(R"([
      {"plane": {"stiffness": 1e5}},
      {"plane": {"point": [0, -1, 0], "normal": [0, 0, 2], "stiffness": 50}},
      {"sphere": {"radius": 0.5}},
      {"sphere": {"center": [1, 2, 3], "radius": 0.25}}])"));
  const SceneConfig scene = parse_scene(file);
  ASSERT_EQ(scene.obstacles.size(), 4u);
  EXPECT_EQ(scene.obstacles[0].kind, ObstacleConfig::Kind::kPlane);
  EXPECT_EQ(scene.obstacles[0].point, Vec3::Zero());
  EXPECT_EQ(scene.obstacles[0].normal, Vec3::UnitY());
  EXPECT_EQ(scene.obstacles[0].stiffness, 1e5);
  EXPECT_EQ(scene.obstacles[1].point, Vec3(0, -1, 0));
  EXPECT_EQ(scene.obstacles[1].normal, Vec3(0, 0, 2));  // normalized by the factory
  EXPECT_EQ(scene.obstacles[2].kind, ObstacleConfig::Kind::kSphere);
  EXPECT_EQ(scene.obstacles[2].center, Vec3::Zero());
  EXPECT_EQ(scene.obstacles[2].radius, 0.5);
  EXPECT_EQ(scene.obstacles[3].center, Vec3(1, 2, 3));
  // The normalized scene shows the defaults, and its text reads back to the same scene.
  const json& n = scene.normalized;
  EXPECT_EQ(n["obstacles"][0]["plane"]["point"], json::parse("[0, 0, 0]"));
  EXPECT_EQ(n["obstacles"][0]["plane"]["normal"], json::parse("[0, 1, 0]"));
  EXPECT_EQ(n["obstacles"][2]["sphere"]["center"], json::parse("[0, 0, 0]"));
  const auto again = dir.write("again.json", normalized_scene_text(scene.normalized));
  EXPECT_EQ(parse_scene(again).normalized["obstacles"], n["obstacles"]);
}

TEST(ObstaclesScene, NoObstaclesKeyMeansNone) {
  SceneFolder dir;
  const SceneConfig scene = parse_scene(dir.write("s.json", test::minimal_scene()));
  EXPECT_TRUE(scene.obstacles.empty());
  EXPECT_FALSE(scene.normalized.contains("obstacles"));  // existing scenes normalize as before
}

TEST(ObstaclesScene, BadValuesNameFileAndPointer) {
  struct Case {
    std::string obstacles;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {R"([{"plane": {"normal": [0, 0, 0], "stiffness": 1}}])",
       {"/obstacles/0/plane/normal", "non-zero plane normal", "[0,0,0]"}},
      {R"([{"sphere": {"radius": 0.5}}, {"sphere": {"radius": 0}}])",
       {"/obstacles/1/sphere/radius", "> 0", "found 0"}},
      {R"([{"sphere": {"radius": -2}}])", {"/obstacles/0/sphere/radius", "found -2"}},
      {R"([{"plane": {"stiffness": -1}}])", {"/obstacles/0/plane/stiffness", "> 0"}},
      {R"([{"plane": {"stiffness": 0}}])", {"/obstacles/0/plane/stiffness", "> 0"}},
      {R"([{"sphere": {"center": [0, 0, 0]}}])",
       {"/obstacles/0/sphere", "missing required key 'radius'"}},
      {R"([{"plane": {"stifness": 10}}])", {"/obstacles/0/plane/stifness", "did you mean"}},
      {R"([{"sphere": {"radius": 1}, "plane": {"stiffness": 1}}])",
       {"/obstacles/0", "exactly one of the keys"}},
      {R"([{"mesh": {"transform": {}}}])", {"/obstacles/0/mesh", "missing required key 'file'"}},
      {R"([{"mesh": {"file": ""}}])", {"/obstacles/0/mesh/file"}},
      {R"({"sphere": {"radius": 1}})", {"/obstacles", "expected array"}},
  };
  for (const Case& c : cases) {
    SceneFolder dir;
    const auto file = dir.write("bad.json", scene_with_obstacles(c.obstacles));
    const std::string message = input_error_of([&] { parse_scene(file); });
    EXPECT_TRUE(contains(message, file.string())) << message;
    for (const auto& part : c.expected)
      EXPECT_TRUE(contains(message, part)) << "missing '" << part << "' in: " << message;
  }
}

}  // namespace
}  // namespace simrun
