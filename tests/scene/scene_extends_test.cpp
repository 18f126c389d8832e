#include "scene/scene_extends.hpp"

#include <gtest/gtest.h>

#include "scene/parse_scene.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::SceneFolder;

TEST(MergeJson, ChildWinsObjectsMergeArraysReplace) {
  const json base =
      json::parse(R"({"a": 1, "o": {"x": 1, "y": {"p": 1, "q": 2}}, "arr": [1, 2, 3]})");
  const json child = json::parse(R"({"b": 2, "o": {"y": {"q": 5}, "z": 3}, "arr": [9]})");
  EXPECT_EQ(
      merge_json(base, child),
      json::parse(R"({"a": 1, "b": 2, "o": {"x": 1, "y": {"p": 1, "q": 5}, "z": 3}, "arr": [9]})"));
  // A non-object replaces an object and vice versa.
  EXPECT_EQ(merge_json(json::parse(R"({"o": {"x": 1}})"), json::parse(R"({"o": 2})")),
            json::parse(R"({"o": 2})"));
}

TEST(SceneExtends, ChildWinsArraysReplacedPathsRelativeToTheirOwnFile) {
  SceneFolder dir;
  dir.write("base/meshes/bunny.off", "OFF\n0 0 0\n");
  dir.write("base/base.json", R"({
    "name": "base",
    "time": {"dt": 0.01, "steps": 100},
    "objects": [{"name": "bunny", "mesh": {"file": "meshes/bunny.off"},
                 "material": {"E": 1e5, "nu": 0.3},
                 "dirichlet": [{"select": {"side": "-y"}}, {"select": {"side": "+y"}}]}],
    "output": {"dir": "base_out"},
    "gravity": [0, 0, -9.81]
  })");
  dir.write("middle/middle.json", R"({"extends": "../base/base.json", "time": {"steps": 50},
                                      "integrator": {"type": "be"}})");
  const auto child = dir.write("child.json", R"({"extends": "middle/middle.json",
                                                 "name": "child", "time": {"dt": 0.005}})");
  const SceneConfig s = parse_scene(child);
  EXPECT_EQ(s.name, "child");
  EXPECT_EQ(s.time.dt, 0.005);  // child
  EXPECT_EQ(s.time.steps, 50);  // middle (merged key by key with the child's "time")
  EXPECT_EQ(s.integrator.type, "be");
  EXPECT_EQ(s.gravity, Vec3(0, 0, -9.81));
  ASSERT_EQ(s.objects.size(), 1u);
  EXPECT_EQ(s.objects[0].mesh.file, dir.root() / "base/meshes/bunny.off");
  EXPECT_EQ(s.output.dir, std::filesystem::current_path() / "base_out");  // where simrun runs
  EXPECT_FALSE(s.normalized.contains("extends"));

  // Arrays are replaced whole: a child's dirichlet list is not appended to the base's.
  const auto arrays = dir.write("arrays.json", R"({"extends": "base/base.json",
    "objects": [{"mesh": {"box": {"size": [1, 1, 1], "cells": [1, 1, 1]}},
                 "dirichlet": [{"select": {"all": true}}]}]})");
  const SceneConfig a = parse_scene(arrays);
  ASSERT_EQ(a.objects.size(), 1u);
  EXPECT_EQ(a.objects[0].name, "object0");
  ASSERT_EQ(a.objects[0].dirichlet.size(), 1u);
  EXPECT_EQ(a.objects[0].dirichlet[0].select.kind, Selection::Kind::kAll);
  EXPECT_EQ(a.objects[0].material.E, 1e5);  // the default, not the base object's (array replaced)
}

TEST(SceneExtends, DefaultOutputDirIsNamedAfterTheExtendingScene) {
  SceneFolder dir;
  dir.write("base/base.json",
            R"({"objects": [{"mesh": {"box": {"size": [1,1,1], "cells": [1,1,1]}}}]})");
  const auto child = dir.write("runs/child.json", R"({"extends": "../base/base.json"})");
  EXPECT_EQ(parse_scene(child).output.dir, std::filesystem::current_path() / "out" / "child");
}

TEST(SceneExtends, CyclesAreErrors) {
  SceneFolder dir;
  const auto a = dir.write("a.json", R"({"extends": "b.json", "objects": []})");
  dir.write("b.json", R"({"extends": "sub/../a.json"})");
  const std::string message = input_error_of([&] { parse_scene(a); });
  EXPECT_NE(message.find("cycle"), std::string::npos) << message;
  EXPECT_NE(message.find("a.json -> "), std::string::npos) << message;
  const auto self = dir.write("self.json", R"({"extends": "self.json"})");
  EXPECT_NE(input_error_of([&] { parse_scene(self); }).find("cycle"), std::string::npos);
}

TEST(SceneExtends, BadExtendsNamesTheFile) {
  SceneFolder dir;
  const auto missing = dir.write("missing.json", R"({"extends": "nope.json"})");
  const std::string message = input_error_of([&] { parse_scene(missing); });
  EXPECT_NE(message.find(missing.string() +
                         ": /extends: file not found: " + (dir.root() / "nope.json").string()),
            std::string::npos)
      << message;
  const auto number = dir.write("number.json", R"({"extends": 3})");
  EXPECT_NE(input_error_of([&] {
              parse_scene(number);
            }).find("/extends: expected the path of a scene file, found 3"),
            std::string::npos);
  dir.write("broken.json", "{\n  \"time\": ,\n}");
  const auto child = dir.write("child.json", R"({"extends": "broken.json"})");
  EXPECT_NE(input_error_of([&] {
              parse_scene(child);
            }).find((dir.root() / "broken.json").string() + ":2:"),
            std::string::npos);
}

}  // namespace
}  // namespace simrun
