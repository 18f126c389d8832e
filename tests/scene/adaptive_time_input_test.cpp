// The scene's "time": {"adaptive": ...} (Kharevych time adaptivity): parsed with its defaults,
// and the bad input the parser reports as an InputError (exit 1) naming the JSON pointer.
#include <gtest/gtest.h>

#include "scene/parse_scene.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::SceneFolder;

/// A 2-particle spring with an adaptive "time"; `edit` changes the JSON before it is written.
std::string adaptive_scene(const std::function<void(json&)>& edit = {}) {
  json scene = json::parse(R"({
    "time": {"dt": 0.01, "end": 1.0, "adaptive": {"rule": "energy", "scheme": "symplectic"}},
    "objects": [{"mesh": {"rope": {"particles": 2}},
                 "material": {"model": "mass_spring", "stiffness": 100, "particle_mass": 1},
                 "dirichlet": [{"select": {"vertices": [0]}}]}],
    "gravity": [0, 0, 0],
    "integrator": {"type": "verlet"}
  })");
  if (edit) edit(scene);
  return scene.dump(2);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(AdaptiveTimeInput, ParsesWithDefaults) {
  SceneFolder dir;
  const SceneConfig scene = parse_scene(dir.write("s.json", adaptive_scene()));
  ASSERT_TRUE(scene.time.adaptive.has_value());
  EXPECT_EQ(scene.time.adaptive->rule, "energy");
  EXPECT_EQ(scene.time.adaptive->scheme, "symplectic");
  EXPECT_EQ(scene.time.adaptive->sigma_at, "start");
  EXPECT_EQ(scene.time.adaptive->sigma_min, 1e-3);
  const SceneConfig reversible = parse_scene(dir.write(
      "r.json", adaptive_scene([](json& s) { s["time"]["adaptive"]["scheme"] = "reversible"; })));
  EXPECT_EQ(reversible.time.adaptive->sigma_at, "midpoint");  // its default
  const SceneConfig fixed = parse_scene(
      dir.write("f.json", adaptive_scene([](json& s) { s["time"].erase("adaptive"); })));
  EXPECT_FALSE(fixed.time.adaptive.has_value());
}

TEST(AdaptiveTimeInput, BadInputNamesThePointer) {
  struct Case {
    std::function<void(json&)> edit;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {[](json& s) { s["time"]["adaptive"]["sigma_min"] = 0.0; }, {"/time/adaptive/sigma_min"}},
      {[](json& s) { s["time"]["adaptive"]["sigma_min"] = -1.0; }, {"/time/adaptive/sigma_min"}},
      {[](json& s) { s["time"]["adaptive"]["epsilon"] = 0.0; }, {"/time/adaptive/epsilon"}},
      {[](json& s) { s["time"]["adaptive"]["rule"] = "equispaced"; },
       {"/time/adaptive/rule", "equispaced_poses", "acceleration"}},
      {[](json& s) { s["time"]["adaptive"]["scheme"] = "fancy"; }, {"/time/adaptive/scheme"}},
      {[](json& s) { s["integrator"]["type"] = "be"; }, {"/time/adaptive", "'be'", "verlet"}},
      {[](json& s) { s["time"].erase("end"); }, {"/time/end"}},
      {[](json& s) {
         s["time"]["adaptive"]["scheme"] = "reversible";
         s["time"]["adaptive"]["sigma_at"] = "start";
       },
       {"/time/adaptive/sigma_at", "symmetric"}},
      {[](json& s) {
         s["time"]["adaptive"]["scheme"] = "reversible";
         s["integrator"]["type"] = "symplectic_euler";
       },
       {"/time/adaptive/scheme", "symmetric Lagrangian"}},
      {[](json& s) {
         s["damping"]["viscous"] = {{"k_d", 0.01}};
       },
       {"/damping/viscous", "Rayleigh"}},
      {[](json& s) { s["objects"][0]["dirichlet"][0]["release_time"] = 0.5; },
       {"/objects/0/dirichlet/0/release_time"}},
  };
  for (const Case& c : cases) {
    SceneFolder dir;
    const auto file = dir.write("bad.json", adaptive_scene(c.edit));
    const std::string message = input_error_of([&] { parse_scene(file); });
    for (const auto& part : c.expected)
      EXPECT_TRUE(contains(message, part)) << "missing '" << part << "' in: " << message;
  }
}

}  // namespace
}  // namespace simrun
