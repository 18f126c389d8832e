#include "scene/scene_overrides.hpp"

#include <gtest/gtest.h>

#include "scene/parse_scene.hpp"
#include "scene_test_files.hpp"

namespace simrun {
namespace {

using nlohmann::json;
using test::input_error_of;
using test::minimal_scene;
using test::SceneFolder;

TEST(SceneOverrides, ParsesJsonOrBareString) {
  EXPECT_EQ(parse_override("/a/b=1e6").value, json(1e6));
  EXPECT_EQ(parse_override("/a=\"si\"").value, json("si"));
  EXPECT_EQ(parse_override("/a=si").value, json("si"));
  EXPECT_EQ(parse_override("/a=true").value, json(true));
  EXPECT_EQ(parse_override("/a=[0, 1, 0]").value, json::parse("[0, 1, 0]"));
  EXPECT_EQ(parse_override("/a=out/run=1").value, json("out/run=1"));  // split at the first '='
  EXPECT_EQ(parse_override("/a=").value, json(""));
  EXPECT_EQ(parse_override("/a/b=1").pointer, "/a/b");
  EXPECT_NE(input_error_of([] { parse_override("/a"); }).find("expected /json/pointer=VALUE"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_override("a=1"); }).find("starting with '/'"),
            std::string::npos);
}

TEST(SceneOverrides, WhatLooksLikeJsonMustParse) {
  // Found by a user audit: these became the strings "1e400" and "{" and were reported as
  // "expected number, found string".
  EXPECT_NE(input_error_of([] { parse_override("/t/steps=1e400"); }).find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_override("/t/dt={"); }).find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_override("/a=[1, 2"); }).find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_override("/a=\"open"); }).find("not valid JSON"),
            std::string::npos);
  // Bare words, also those starting with a digit, stay strings.
  EXPECT_EQ(parse_override("/a=3d.obj").value, json("3d.obj"));
  EXPECT_EQ(parse_override("/a=-").value, json("-"));
  EXPECT_EQ(parse_override("/name=007").value, json("007"));
}

TEST(SceneOverrides, AppliedBeforeValidation) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene());
  const SceneConfig s = parse_scene(
      file, {"/objects/0/material/E=2.5e6", "/integrator/type=\"tr_bdf2\"",
             "/objects/0/material/model=neohookean", "/objects/0/mesh/box/cells/0=8",
             "/time={\"steps\": 3}", "/objects/0/dirichlet/-={\"select\": {\"side\": \"+x\"}}",
             "/output/dir=results"});
  EXPECT_EQ(s.objects[0].material.E, 2.5e6);                         // number
  EXPECT_EQ(s.integrator.type, "tr_bdf2");                           // JSON string
  EXPECT_EQ(s.objects[0].material.model, "neohookean");              // bare word
  EXPECT_EQ(s.objects[0].mesh.box_cells, Eigen::Vector3i(8, 1, 1));  // array index
  EXPECT_EQ(s.time.steps, 3);  // object replaced, then defaults
  EXPECT_EQ(s.time.dt, 0.01);
  ASSERT_EQ(s.objects[0].dirichlet.size(), 2u);  // appended
  EXPECT_EQ(s.objects[0].dirichlet[1].select.side, "+x");
  EXPECT_EQ(s.output.dir, std::filesystem::current_path() / "results");  // where simrun runs
  EXPECT_EQ(s.normalized["integrator"]["type"], "tr_bdf2");
}

TEST(SceneOverrides, BadPointersAndValuesAreReported) {
  SceneFolder dir;
  const auto file = dir.write("s.json", minimal_scene());
  const auto error = [&](const std::string& o) {
    return input_error_of([&] { parse_scene(file, {o}); });
  };
  EXPECT_NE(error("/objects/3/material/E=1")
                .find("--set /objects/3/material/E: /objects/3 does not exist"),
            std::string::npos);
  EXPECT_NE(error("/nothing/here=1").find("/nothing does not exist"), std::string::npos);
  EXPECT_NE(error("/objects/0/mesh/box/cells/5=1").find("expected an index 0..2 or '-'"),
            std::string::npos);
  EXPECT_NE(error("/time/dt/x=1").find("/time/dt is a number"), std::string::npos);
  // A new key in an existing object is created, and validation then names it.
  const std::string typo = error("/objects/0/material/densty=5");
  EXPECT_NE(typo.find("/objects/0/material/densty: unknown key 'densty' (did you mean 'density'?) "
                      "(from --set /objects/0/material/densty=5)"),
            std::string::npos)
      << typo;
  // A bare word where a number is expected.
  const std::string word = error("/objects/0/material/E=abc");
  EXPECT_NE(word.find("/objects/0/material/E: expected number, found string \"abc\""),
            std::string::npos)
      << word;
  // "extends" is read before the overrides: setting it would be silently ignored.
  const std::string extends = error("/extends=/nonexistent.json");
  EXPECT_NE(extends.find("--set /extends: \"extends\" is read before the overrides"),
            std::string::npos)
      << extends;
}

}  // namespace
}  // namespace simrun
