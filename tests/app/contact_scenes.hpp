#pragma once
/// Small IPC contact scenes shared by the contact CLI tests: 0.2 m neo-Hookean boxes (2x2x2
/// cells), a drop on a barrier plane and two boxes thrown at each other.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cli {

/// A box object named `name` with its corner at `at` and initial velocity `v`.
inline nlohmann::json contact_box(const std::string& name, const std::vector<double>& at,
                                  const std::vector<double>& v) {
  nlohmann::json o = nlohmann::json::parse(R"({
    "mesh": { "box": { "size": [0.2, 0.2, 0.2], "cells": [2, 2, 2] } },
    "material": { "model": "neohookean", "E": 1e5, "nu": 0.4, "density": 1000 } })");
  o["name"] = name;
  o["mesh"]["transform"]["translate"] = at;
  o["initial"]["velocity"] = v;
  return o;
}

/// A box dropped at 1 m/s from 2 cm above the plane y = 0, 40 steps of 10 ms, no frames.
inline nlohmann::json contact_drop_scene(const std::string& integrator) {
  nlohmann::json scene = nlohmann::json::parse(R"({
    "name": "drop", "time": { "dt": 0.01, "steps": 40 },
    "obstacles": [ { "plane": { "point": [0, 0, 0], "normal": [0, 1, 0] } } ],
    "contact": { "dhat": 1e-3 },
    "output": { "frames": [] } })");
  scene["objects"] = nlohmann::json::array({contact_box("box", {0, 0.02, 0}, {0, -1, 0})});
  scene["integrator"]["type"] = integrator;
  return scene;
}

/// Two boxes 2 cm apart along x, offset by 5 cm in z, approaching at 4 m/s, no gravity.
inline nlohmann::json contact_pair_scene() {
  nlohmann::json scene = contact_drop_scene("be");
  scene.erase("obstacles");
  scene["gravity"] = {0, 0, 0};
  scene["objects"] = nlohmann::json::array({contact_box("left", {-0.21, 0, 0}, {2, 0, 0}),
                                            contact_box("right", {0.21, 0, 0.05}, {-2, 0, 0})});
  return scene;
}

}  // namespace cli
