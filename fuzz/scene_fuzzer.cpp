// libFuzzer target for the scene parser (docs/fuzzing.md): the input is a scene file, taken
// through parse_scene (JSON, "extends", schema validation with defaults, semantic checks,
// conversion to SceneConfig) and printed normalized as `simrun validate` does.
// simrun::InputError is the expected rejection; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "core/error.hpp"
#include "input_file.hpp"
#include "scene/parse_scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = simrun::fuzz::input_folder().write("scene.json", data, size);
  try {
    const simrun::SceneConfig scene = simrun::parse_scene(path);
    simrun::normalized_scene_text(scene);
  } catch (const simrun::InputError&) {
  }
  return 0;
}
