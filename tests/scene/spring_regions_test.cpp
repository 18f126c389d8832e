// Regions on mass-spring objects (issue 13): "stiffness" on the springs whose midpoint a region
// selects, "particle_mass" on the particles it selects; tet keys on a rope, spring keys on a tet
// object, are bad input naming the pointer.
#include <gtest/gtest.h>

#include "scene/object_pieces.hpp"
#include "scene/parse_scene.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

// A rope of 5 particles along -y (0, -0.25, ..., -1 m); the region y < -0.6 holds the last two
// particles and the midpoints of the last two springs (-0.625, -0.875).
const char* kRope = R"({
  "name": "rope_regions", "time": {"dt": 0.01, "steps": 2},
  "objects": [{
    "mesh": {"rope": {"particles": 5, "length": 1.0}},
    "material": {"model": "mass_spring", "stiffness": 100, "particle_mass": 0.1},
    "regions": [{"select": {"box": {"min": [-1, -2, -1], "max": [1, -0.6, 1]}},
                 "stiffness": 1000, "particle_mass": 0.5}],
    "dirichlet": [{"select": {"vertices": [0]}}]
  }]
})";

TEST(SpringRegions, OverrideStiffnessByMidpointAndMassByParticle) {
  test::SceneFolder dir;
  const auto file = dir.write("rope.json", kRope);
  const SceneConfig scene = parse_scene(file, {});
  std::vector<std::string> notes;
  const ObjectPieces p = build_object(scene.objects[0], 0, file.string(), 0.01, notes);
  ASSERT_EQ(p.spring_stiffness.size(), 4);
  ASSERT_EQ(p.particle_mass.size(), 5);
  for (int s = 0; s < 4; ++s) {
    const double mid_y =
        0.5 * (p.mesh.vertices(p.mesh.edges[s][0], 1) + p.mesh.vertices(p.mesh.edges[s][1], 1));
    EXPECT_EQ(p.spring_stiffness[s], mid_y < -0.6 ? 1000.0 : 100.0) << "spring " << s;
  }
  for (int v = 0; v < 5; ++v)
    EXPECT_EQ(p.particle_mass[v], p.mesh.vertices(v, 1) < -0.6 ? 0.5 : 0.1) << "particle " << v;
}

TEST(SpringRegions, KeysOfTheOtherKindOfObjectNameThePointer) {
  test::SceneFolder dir;
  const auto rope = dir.write("rope.json", kRope);
  const std::string m1 =
      test::input_error_of([&] { parse_scene(rope, {"/objects/0/regions/0/E=1e6"}); });
  EXPECT_NE(m1.find("/objects/0/regions/0/E"), std::string::npos) << m1;
  const auto box = dir.write("box.json", test::minimal_scene());
  const std::string m2 = test::input_error_of([&] {
    parse_scene(box, {R"(/objects/0/regions=[{"select": {"side": "-x"}, "stiffness": 5}])"});
  });
  EXPECT_NE(m2.find("/objects/0/regions/0/stiffness"), std::string::npos) << m2;
}

}  // namespace
}  // namespace simrun
