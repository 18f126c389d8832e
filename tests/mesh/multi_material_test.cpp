// Multi-material surfaces: nested closed shells become TetGen regions (the -A switch numbers
// each enclosed region), which scenes select with {"region": n}.
#include <gtest/gtest.h>

#include <map>

#include "mesh/load_mesh.hpp"
#include "mesh/orient.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

TEST(MultiMaterialSurface, NestedShellsGiveTwoRegionsWithTheirVolumes) {
  const TetMesh mesh = load_mesh_file(
      std::string(SIMRUN_SOURCE_DIR) + "/scenes/meshes/cube_with_inclusion.off", 2.0, 0.0, 500);
  ASSERT_EQ(static_cast<int>(mesh.regions.size()), mesh.num_tets());
  std::map<int, double> volume;
  for (int t = 0; t < mesh.num_tets(); ++t)
    volume[mesh.regions[t]] += signed_volume6(mesh, t) / 6.0;
  ASSERT_EQ(volume.size(), 2u);
  // TetGen keeps both shells as facets, so the region volumes are exact up to round-off.
  double inner = std::min(volume.begin()->second, volume.rbegin()->second);
  double outer = std::max(volume.begin()->second, volume.rbegin()->second);
  EXPECT_NEAR(inner, 0.4 * 0.4 * 0.4, 1e-12);
  EXPECT_NEAR(outer, 1.0 - 0.064, 1e-12);
}

}  // namespace
}  // namespace simrun
