// The schema's enums and the code's registries are two lists of the same names: they must agree,
// so a name the schema accepts always runs and a name the code has is always documented.
#include <gtest/gtest.h>

#include <algorithm>

#include "contact/obstacle_kinds.hpp"
#include "integrate/integrator.hpp"
#include "material/material.hpp"
#include "scene/parse_scene.hpp"
#include "scene/scene_schema.hpp"
#include "scene_test_files.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {
namespace {

std::vector<std::string> schema_enum(const std::string& pointer) {
  const nlohmann::json& node = scene_schema().at(nlohmann::json::json_pointer(pointer));
  std::vector<std::string> names = node.at("enum").get<std::vector<std::string>>();
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(SchemaRegistry, IntegratorTypesMatchTheRegistry) {
  EXPECT_EQ(schema_enum("/$defs/integrator/properties/type"), sorted(integrator_names()));
}

TEST(SchemaRegistry, MaterialModelsMatchTheRegistry) {
  // mass_spring is not a continuum material: the factory turns such objects into springs.
  std::vector<std::string> names = material_names();
  names.emplace_back("mass_spring");
  EXPECT_EQ(schema_enum("/$defs/material/properties/model"), sorted(names));
}

TEST(SchemaRegistry, LinearSolverTypesMatchTheRegistry) {
  EXPECT_EQ(schema_enum("/properties/solver/properties/type"), sorted(linear_solver_names()));
}

TEST(SchemaRegistry, ObstacleKindsMatchTheRegistry) {
  // Each alternative of an obstacle is told apart by its one required key.
  std::vector<std::string> keys;
  for (const auto& alternative : scene_schema().at("$defs").at("obstacle").at("oneOf")) {
    const auto required = alternative.at("required").get<std::vector<std::string>>();
    ASSERT_EQ(required.size(), 1u);
    keys.push_back(required[0]);
  }
  EXPECT_EQ(sorted(keys), sorted(obstacle_kinds()));
}

TEST(SchemaRegistry, ANameNotImplementedIsRejectedWithFileAndPointer) {
  test::SceneFolder dir;
  const auto file = dir.write("s.json", test::minimal_scene());
  for (const std::string bad : {"/integrator/type=multilevel_newton", "/solver/type=amg"}) {
    const std::string message = test::input_error_of([&] { parse_scene(file, {bad}); });
    const std::string pointer = bad.substr(0, bad.find('='));
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find(pointer), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace simrun
