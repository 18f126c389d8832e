#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "scene/parse_scene.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;

// Every scene shipped in scenes/ must load: schema, defaults, extends, semantic checks.
TEST(RepoScenes, EverySceneLoads) {
  const fs::path folder = fs::path(SIMRUN_SOURCE_DIR) / "scenes";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    try {
      const SceneConfig scene = parse_scene(entry.path());
      EXPECT_FALSE(scene.objects.empty());
      EXPECT_FALSE(scene.name.empty());
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_GT(count, 0) << "no scenes in " << folder;
}

}  // namespace
}  // namespace simrun
