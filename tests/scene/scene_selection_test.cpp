#include <gtest/gtest.h>

#include "scene/parse_scene.hpp"
#include "scene/scene_from_json.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::SceneFolder;

TEST(SceneSelection, EveryVariantConverts) {
  SceneFolder dir;
  const auto file = dir.write("s.json", R"({"objects": [{
    "mesh": {"box": {"size": [1, 1, 1], "cells": [2, 2, 2]}},
    "dirichlet": [
      {"select": {"side": "+z", "tol": 0.01}},
      {"select": {"box": {"min": [0, 0, 0], "max": [0.5, 1, 1]}}},
      {"select": {"sphere": {"center": [0.5, 0.5, 0.5], "radius": 0.25}}},
      {"select": {"vertices": [0, 3, 7]}},
      {"select": {"all": true}}
    ]}]})");
  const SceneConfig scene = parse_scene(file);
  const auto& d = scene.objects.at(0).dirichlet;
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].select.kind, Selection::Kind::kSide);
  EXPECT_EQ(d[0].select.side, "+z");
  EXPECT_EQ(d[0].select.tol, 0.01);
  EXPECT_EQ(d[1].select.kind, Selection::Kind::kBox);
  EXPECT_EQ(d[1].select.min, Vec3(0, 0, 0));
  EXPECT_EQ(d[1].select.max, Vec3(0.5, 1, 1));
  EXPECT_EQ(d[2].select.kind, Selection::Kind::kSphere);
  EXPECT_EQ(d[2].select.center, Vec3(0.5, 0.5, 0.5));
  EXPECT_EQ(d[2].select.radius, 0.25);
  EXPECT_EQ(d[3].select.kind, Selection::Kind::kVertices);
  EXPECT_EQ(d[3].select.vertices, (std::vector<int>{0, 3, 7}));
  EXPECT_EQ(d[4].select.kind, Selection::Kind::kAll);
  EXPECT_EQ(selection_from_json(json::parse(R"({"side": "-x"})")).tol, 1e-6);
}

TEST(SceneSelection, MalformedSelectionsAreNamed) {
  SceneFolder dir;
  const auto file = dir.write("s.json", R"({"objects": [{
    "mesh": {"box": {"size": [1, 1, 1], "cells": [2, 2, 2]}},
    "dirichlet": [
      {"select": {"side": "x"}},
      {"select": {"sid": "-x"}},
      {"select": {"sphere": {"center": [0, 0, 0]}}},
      {"select": {"vertices": [1, -2]}},
      {"select": {"all": false}},
      {"select": {}},
      {"select": "-x"}
    ]}]})");
  const std::string message = input_error_of([&] { parse_scene(file); });
  for (const std::string part :
       {"/objects/0/dirichlet/0/select/side: expected one of '-x', '+x', '-y', '+y', '-z', '+z'; "
        "found 'x'",
        "/objects/0/dirichlet/1/select: expected an object with exactly one of the keys 'side', "
        "'box', "
        "'sphere', 'vertices', 'region', 'all', found keys 'sid' (did you mean 'side' for 'sid'?)",
        "/objects/0/dirichlet/2/select/sphere: missing required key 'radius'",
        "/objects/0/dirichlet/3/select/vertices/1: expected a number >= 0, found -2",
        "/objects/0/dirichlet/4/select/all: expected true, found false",
        "/objects/0/dirichlet/5/select: expected an object with exactly one of the keys 'side', "
        "'box', 'sphere', 'vertices', 'region', 'all', found an empty object",
        "/objects/0/dirichlet/6/select: expected object, found string \"-x\""})
    EXPECT_NE(message.find(part), std::string::npos) << "missing: " << part << "\nin:\n" << message;
}

}  // namespace
}  // namespace simrun
