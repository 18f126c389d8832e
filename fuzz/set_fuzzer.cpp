// libFuzzer target for `--set` (docs/fuzzing.md): each line of the input is one
// "/json/pointer=VALUE" override, applied to a small valid scene and taken through parse_scene
// and the normalized print, as `simrun validate SCENE --set ...` does. simrun::InputError is the
// expected rejection; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "input_file.hpp"
#include "scene/parse_scene.hpp"

namespace {

const char* const kScene = R"({
  "name": "fuzz_base",
  "time": {"dt": 0.01, "steps": 2},
  "objects": [{
    "mesh": {"box": {"size": [1, 0.1, 0.1], "cells": [2, 1, 1]}},
    "material": {"model": "neohookean", "E": 1e6, "nu": 0.3, "density": 1000},
    "regions": [{"select": {"box": {"min": [0.4, -1, -1], "max": [0.6, 1, 1]}}, "E": 1e7}],
    "dirichlet": [{"select": {"side": "-x"}}],
    "initial": {"velocity": [0, 0, 0]}
  }],
  "gravity": [0, -9.81, 0],
  "integrator": {"type": "si"},
  "output": {"frames": []}
})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto scene = simrun::fuzz::input_folder().write("base.json", kScene);
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> overrides;
  for (std::size_t begin = 0; begin <= input.size() && overrides.size() < 16;) {
    const std::size_t end = input.find('\n', begin);
    overrides.push_back(input.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  try {
    const simrun::SceneConfig parsed = simrun::parse_scene(scene, overrides);
    simrun::normalized_scene_text(parsed);
  } catch (const simrun::InputError&) {
  }
  return 0;
}
