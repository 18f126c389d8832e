#pragma once
/// Tiny scenes for the CLI tests: each runs a few steps in well under a second.
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli.hpp"

namespace cli {

/// A 4x1x1-cell box (24 tets, 20 vertices) clamped at -x, linear material, 3 steps.
inline nlohmann::json tiny_scene() {
  return nlohmann::json::parse(R"({
    "name": "tiny",
    "time": { "dt": 0.01, "steps": 3 },
    "objects": [ {
      "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [4, 1, 1] } },
      "material": { "model": "linear", "E": 1e5, "nu": 0.3, "density": 1000 },
      "dirichlet": [ { "select": { "side": "-x" } } ]
    } ],
    "integrator": { "type": "si" },
    "output": { "every": 1 }
  })");
}

/// The same object with its mesh read from `file` (a path as written into the scene).
inline nlohmann::json file_scene(const std::string& file) {
  nlohmann::json scene = tiny_scene();
  scene["objects"][0]["mesh"] = {{"file", file}};
  scene["objects"][0]["dirichlet"] = nlohmann::json::array();
  return scene;
}

/// Absolute path of a file of tests/data/meshes, as a string for a scene.
inline std::string data_mesh(const std::string& name) {
  return (kTestData / "meshes" / name).string();
}

}  // namespace cli
