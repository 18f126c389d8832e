// Bad input (interface contract: exit code 1, nothing simulated, the output folder is not
// created, and the message names the file / JSON pointer / mesh element and the problem).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// Runs `simrun run SCENE -o OUT extra...` and checks the bad-input contract: exit code 1, every
/// string of `expected` in the output, no stack trace or "internal error", OUT not created.
Result expect_bad_input(const TempDir& tmp, const fs::path& scene,
                        const std::vector<std::string>& expected,
                        const std::vector<std::string>& extra = {}) {
  const fs::path out = tmp / "out_must_not_exist";
  std::vector<std::string> args = {"run", scene.string(), "-o", out.string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const Result r = cli::run(args);
  EXPECT_EQ(r.code, 1) << r.describe();
  for (const auto& s : expected)
    EXPECT_NE(r.all().find(s), std::string::npos) << "missing '" << s << "' in\n" << r.describe();
  EXPECT_EQ(r.all().find("internal error"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(out)) << "bad input must not create the output folder " << out;
  return r;
}

TEST(BadInput, MalformedJsonNamesFileLineAndColumn) {
  TempDir tmp;
  // The missing comma after line 2 makes line 3 the first bad token.
  const auto scene = tmp.write("malformed.json", std::string("{ \"time\": { \"dt\": 0.01 }\n"
                                                             "  \"objects\": [] }\n"));
  const Result r = expect_bad_input(tmp, scene, {"malformed.json"});
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(malformed\.json:2:[0-9]+)"))) << r.describe();
}

TEST(BadInput, TruncatedJson) {
  TempDir tmp;
  const auto scene = tmp.write("cut.json", std::string("{ \"objects\": [ { \"mesh\": "));
  expect_bad_input(tmp, scene, {"cut.json"});
}

TEST(BadInput, UnknownKeyNamesPointerAndSuggestion) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["materal"] = s["objects"][0]["material"];
  s["objects"][0].erase("material");
  const auto scene = tmp.write("unknown.json", s);
  expect_bad_input(tmp, scene,
                   {"unknown.json", "/objects/0/materal", "did you mean", "'material'"});
}

TEST(BadInput, UnknownTopLevelKey) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["gravty"] = {0, -9.81, 0};
  const auto scene = tmp.write("top.json", s);
  expect_bad_input(tmp, scene, {"/gravty", "did you mean", "gravity"});
}

TEST(BadInput, WrongTypeNamesPointerExpectedAndFound) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["material"]["E"] = "big";
  const auto scene = tmp.write("wrong_type.json", s);
  expect_bad_input(tmp, scene, {"wrong_type.json", "/objects/0/material/E", "number", "string"});
}

TEST(BadInput, WrongTypeInArray) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["gravity"] = {0, "down", 0};
  const auto scene = tmp.write("wrong_array.json", s);
  expect_bad_input(tmp, scene, {"/gravity/1", "number"});
}

TEST(BadInput, MissingSceneFile) {
  TempDir tmp;
  expect_bad_input(tmp, tmp / "no_such_scene.json", {"no_such_scene.json"});
}

TEST(BadInput, MissingSceneFileForValidateAndModes) {
  TempDir tmp;
  for (const std::string command : {"validate", "modes"}) {
    const Result r = cli::run({command, (tmp / "no_such_scene.json").string()});
    EXPECT_EQ(r.code, 1) << command << ": " << r.describe();
    EXPECT_NE(r.err.find("no_such_scene.json"), std::string::npos) << r.describe();
  }
}

TEST(BadInput, MissingMeshFileNamesFileAndPointer) {
  TempDir tmp;
  const auto scene = tmp.write("missing_mesh.json", cli::file_scene("meshes/nope.node"));
  expect_bad_input(tmp, scene, {"/objects/0/mesh/file", "nope.node"});
}

TEST(BadInput, MissingEleBesideNode) {
  TempDir tmp;
  tmp.copy_data("meshes/two_tets.node", "lonely.node");
  const auto scene = tmp.write("missing_ele.json", cli::file_scene("lonely.node"));
  expect_bad_input(tmp, scene, {"lonely.ele"});
}

TEST(BadInput, UnknownMeshExtension) {
  TempDir tmp;
  tmp.write("shape.xyz", std::string("0 0 0\n"));
  const auto scene = tmp.write("ext.json", cli::file_scene("shape.xyz"));
  expect_bad_input(tmp, scene, {"/objects/0/mesh/file", "shape.xyz", ".node"});
}

TEST(BadInput, InvertedTetsAreReorientedAndReported) {
  // Not an error: a negatively oriented tet is flipped, the log says how many (inverted.ele has
  // exactly one), and the run finishes.
  TempDir tmp;
  const auto scene = tmp.write("inverted.json", cli::file_scene(cli::data_mesh("inverted.node")));
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string()});
  EXPECT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(re-oriented 1\b)"))) << r.describe();
  EXPECT_TRUE(fs::exists(out / "run.json"));
  EXPECT_EQ(cli::read_json(out / "run.json").at("status"), "finished");
}

TEST(BadInput, DegenerateTetNamesFileAndElementIndex) {
  TempDir tmp;
  const auto scene =
      tmp.write("degenerate.json", cli::file_scene(cli::data_mesh("degenerate.node")));
  // Tet 1 (0-based) of degenerate.ele is flat.
  expect_bad_input(tmp, scene, {"degenerate.ele", "tetrahedron 1", "degenerate"});
}

TEST(BadInput, TruncatedNodeFile) {
  TempDir tmp;
  const auto scene = tmp.write("truncated.json", cli::file_scene(cli::data_mesh("truncated.node")));
  // The header promises 5 points, the file has 3.
  expect_bad_input(tmp, scene, {"truncated.node", "end of file"});
}

TEST(BadInput, TruncatedEleFile) {
  TempDir tmp;
  const auto mesh = (cli::kTestData / "app" / "truncated_ele.node").string();
  const auto scene = tmp.write("truncated_ele.json", cli::file_scene(mesh));
  // The header promises 2 tets, the file lists 1: the message names tet 1 (0-based).
  expect_bad_input(tmp, scene, {"truncated_ele.ele", "tetrahedron 1", "end of file"});
}

TEST(BadInput, EleRowWithTooFewIndices) {
  TempDir tmp;
  const auto mesh = (cli::kTestData / "app" / "short_row.node").string();
  const auto scene = tmp.write("short_row.json", cli::file_scene(mesh));
  // Line 4 of short_row.ele has an index and 3 vertices.
  expect_bad_input(tmp, scene, {"short_row.ele:4"});
}

TEST(BadInput, NonClosedSurfaceNamesAnEdge) {
  TempDir tmp;
  const auto scene = tmp.write("open.json", cli::file_scene(cli::data_mesh("open_cube.off")));
  const Result r = expect_bad_input(tmp, scene, {"open_cube.off", "closed"});
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(edge \(\d+, \d+\))"))) << r.describe();
}

TEST(BadInput, BinaryGmshIsRejectedWithAMessage) {
  TempDir tmp;
  const auto scene = tmp.write("binary.json", cli::file_scene(cli::data_mesh("binary.msh")));
  expect_bad_input(tmp, scene, {"binary.msh"});
}

// Impossible parameters, written into the scene file (so the message names the scene file).
struct ParameterCase {
  const char* name;
  const char* pointer;
  const char* value;     // JSON
  const char* expected;  // what the message must say about the value
};

class ImpossibleParameter : public ::testing::TestWithParam<ParameterCase> {};

TEST_P(ImpossibleParameter, IsRejectedWithPointerAndValue) {
  const ParameterCase& c = GetParam();
  TempDir tmp;
  json s = cli::tiny_scene();
  s[json::json_pointer(c.pointer)] = json::parse(c.value);
  const auto scene = tmp.write("params.json", s);
  expect_bad_input(tmp, scene, {"params.json", c.pointer, c.expected});
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, ImpossibleParameter,
    ::testing::Values(
        ParameterCase{"nu_half", "/objects/0/material/nu", "0.5", "0.5"},
        ParameterCase{"nu_0_7", "/objects/0/material/nu", "0.7", "0.7"},
        ParameterCase{"nu_minus_one", "/objects/0/material/nu", "-1", "-1"},
        ParameterCase{"dt_zero", "/time/dt", "0", "0"},
        ParameterCase{"dt_negative", "/time/dt", "-1", "-1"},
        ParameterCase{"density_negative", "/objects/0/material/density", "-1000", "-1000"},
        ParameterCase{"E_zero", "/objects/0/material/E", "0", "0"},
        ParameterCase{"steps_negative", "/time/steps", "-1", "-1"},
        ParameterCase{"every_zero", "/output/every", "0", "0"},
        ParameterCase{"cells_zero", "/objects/0/mesh/box/cells/1", "0", "0"},
        ParameterCase{"integrator_typo", "/integrator/type", "\"bee\"", "did you mean 'be'"},
        ParameterCase{"material_typo", "/objects/0/material/model", "\"neohooken\"",
                      "did you mean 'neohookean'"},
        ParameterCase{"material_unknown", "/objects/0/material/model", "\"foo\"", "'foo'"},
        ParameterCase{"krylov_dimension_one", "/integrator/krylov/dimension", "1", "1"},
        ParameterCase{"krylov_tolerance_zero", "/integrator/krylov/tolerance", "0", "0"},
        ParameterCase{"eigen_refresh_zero", "/integrator/eigen_refresh", "0", "0"},
        ParameterCase{"modes_negative", "/integrator/modes", "-1", "-1"},
        ParameterCase{"mssi_form_typo", "/integrator/mssi_form", "\"literall\"", "'literal'"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BadInput, SetAppliesBeforeValidation) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"/objects/0/material/nu", "0.5", "--set"},
                   {"--set", "/objects/0/material/nu=0.5"});
  expect_bad_input(tmp, scene, {"/time/dt", "--set"}, {"--set", "/time/dt=0"});
  expect_bad_input(tmp, scene, {"/integrator/type", "did you mean 'si'"},
                   {"--set", "/integrator/type=sii"});
}

TEST(BadInput, SetWithPointerToMissingArrayItem) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"/objects/3"}, {"--set", "/objects/3/material/E=1"});
}

TEST(BadInput, SetThroughANumber) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"/objects/0/material/E"}, {"--set", "/objects/0/material/E/x=1"});
}

TEST(BadInput, SetWithoutPointer) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"nopointer", "/json/pointer=VALUE"}, {"--set", "nopointer"});
}

TEST(BadInput, SetUnknownKeySuggests) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"/time/step", "did you mean 'steps'"}, {"--set", "/time/step=3"});
}

TEST(BadInput, NegativeStepsOption) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"--steps"}, {"--steps", "-1"});
}

TEST(BadInput, ZeroThreadsOption) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());
  expect_bad_input(tmp, scene, {"--threads"}, {"--threads", "0"});
}

TEST(BadInput, DirichletSelectingNothingNamesItsPointer) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["dirichlet"][0]["select"] =
      json::parse(R"({"box": {"min": [5, 5, 5], "max": [6, 6, 6]}})");
  const auto scene = tmp.write("empty_dirichlet.json", s);
  expect_bad_input(tmp, scene, {"/objects/0/dirichlet/0", "selects no vertex"});
}

TEST(BadInput, DirichletVertexIndexOutOfRangeNamesItsPointer) {
  TempDir tmp;
  json s = cli::tiny_scene();  // 20 vertices
  s["objects"][0]["dirichlet"][0]["select"] = json::parse(R"({"vertices": [0, 999]})");
  const auto scene = tmp.write("bad_vertex.json", s);
  expect_bad_input(tmp, scene, {"/objects/0/dirichlet/0", "999"});
}

TEST(BadInput, ModesWithMoreModesThanDofs) {
  TempDir tmp;
  const auto scene = tmp.write("good.json", cli::tiny_scene());  // 48 free DOFs
  const fs::path out = tmp / "modes_out";
  const Result r = cli::run({"modes", scene.string(), "-n", "500", "-o", out.string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.err.find("500"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(out));
}

TEST(BadInput, MoreSplitModesThanFreeDofsNamesThePointer) {
  for (const char* type : {"siere", "sbdf2ere", "str_sbdf2ere"}) {
    TempDir tmp;
    json s = cli::tiny_scene();  // 48 free DOFs
    s["integrator"] = {{"type", type}, {"modes", 49}};
    const auto scene = tmp.write("modes.json", s);
    expect_bad_input(tmp, scene, {"modes.json", "/integrator/modes", "49", "48"});
  }
}

TEST(BadInput, UnknownExponentialIntegratorSettingsNameThePointer) {
  // A misspelt setting is an error with a suggestion, never silently a default.
  for (const char* type : {"ere", "siere", "sbdf2ere", "str_sbdf2ere", "mssi"}) {
    TempDir tmp;
    json s = cli::tiny_scene();
    s["integrator"] = {{"type", type}, {"mods", 3}};
    expect_bad_input(tmp, tmp.write("mods.json", s),
                     {"mods.json", "/integrator/mods", "did you mean 'modes'"});
    s["integrator"] = {{"type", type}, {"krylov", {{"dimenson", 20}}}};
    expect_bad_input(tmp, tmp.write("krylov.json", s),
                     {"krylov.json", "/integrator/krylov/dimenson", "did you mean 'dimension'"});
    s["integrator"] = {{"type", type}, {"eigensolver", {{"max_iteration", 20}}}};
    expect_bad_input(
        tmp, tmp.write("eigen.json", s),
        {"eigen.json", "/integrator/eigensolver/max_iteration", "did you mean 'max_iterations'"});
    s["integrator"] = {{"type", type}, {"eigensolver", {{"max_iterations", 0}}}};
    expect_bad_input(tmp, tmp.write("eigen0.json", s),
                     {"eigen0.json", "/integrator/eigensolver/max_iterations"});
  }
}

// Found by a user audit: errors that named no pointer, settings taken silently, and an
// allocation failure reported as an internal error.
TEST(BadInput, WhatAUserAuditFoundNamesItsSource) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["dirichlet"] = json::parse(R"([{"select": {"all": true}}])");
  expect_bad_input(tmp, tmp.write("fixed.json", s),
                   {"fixed.json", "/objects/0/dirichlet", "nothing to simulate"});
  s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {400, 40, 40};
  expect_bad_input(tmp, tmp.write("huge.json", s),
                   {"huge.json", "/objects/0/mesh/box/cells", "the run needs about"});

  const Result empty_output =
      cli::run({"run", tmp.write("ok.json", cli::tiny_scene()).string(), "-o", "", "--quiet"});
  EXPECT_EQ(empty_output.code, 1) << empty_output.describe();
  EXPECT_NE(empty_output.err.find("empty path"), std::string::npos) << empty_output.describe();

  setenv("SIMRUN_MEMORY_LIMIT", "abc", 1);
  const Result limit = cli::run({"validate", (tmp / "ok.json").string()});
  unsetenv("SIMRUN_MEMORY_LIMIT");
  EXPECT_EQ(limit.code, 1) << limit.describe();
  EXPECT_NE(limit.err.find("SIMRUN_MEMORY_LIMIT='abc'"), std::string::npos) << limit.describe();

  const Result quiet = cli::run({"validate", "-q", (tmp / "ok.json").string()});
  EXPECT_EQ(quiet.code, 0) << quiet.describe();
  EXPECT_TRUE(quiet.out.empty()) << quiet.out;
}

TEST(BadInput, ASettingOfAnotherIntegratorTypeIsAWarning) {
  // Valid (the settings are one flat object), but it changes nothing: say so.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["integrator"] = json::parse(R"({"type": "ere", "modes": 10, "mssi_form": "literal"})");
  const Result ere = cli::run({"validate", tmp.write("ere.json", s).string()});
  EXPECT_EQ(ere.code, 0) << ere.describe();
  EXPECT_NE(ere.err.find("/integrator/modes = 10 has no effect with 'ere'"), std::string::npos)
      << ere.err;
  EXPECT_NE(ere.err.find("/integrator/mssi_form"), std::string::npos) << ere.err;
  s["integrator"] = json::parse(R"({"type": "siere", "modes": 10})");
  const Result siere = cli::run({"validate", tmp.write("siere.json", s).string()});
  EXPECT_EQ(siere.code, 0) << siere.describe();
  EXPECT_EQ(siere.err.find("no effect"), std::string::npos) << siere.err;
}

// A 400 degree twist of a bar of 4 cubes (20 tets) turns some of its tets inside out: the
// neo-Hookean energy (log J) is not defined there, so the run would stop at step 1; a material
// that allows inversion starts from it.
TEST(BadInput, AnInitialTwistThatInvertsNeoHookeanTetsNamesThePointer) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["material"]["model"] = "neohookean";
  s["objects"][0]["dirichlet"] = json::array();
  s["objects"][0]["initial"] = json::parse(R"({"twist": {"axis": "x", "angle_deg": 400}})");
  const auto scene = tmp.write("twisted.json", s);
  expect_bad_input(tmp, scene,
                   {"twisted.json", "/objects/0/initial", "the initial state inverts", "of 20 tets",
                    "'neohookean'", "stable_neohookean"});
  const Result validated = cli::run({"validate", scene.string()});
  EXPECT_EQ(validated.code, 1) << validated.describe();
  s["objects"][0]["material"]["model"] = "stable_neohookean";
  const auto allowed = tmp.write("allowed.json", s);
  const Result r = cli::run({"run", allowed.string(), "-o", (tmp / "out").string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
}

TEST(BadInput, ValidateRejectsWhatRunRejectsInTheScene) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["material"]["nu"] = 0.5;
  const auto scene = tmp.write("nu.json", s);
  const Result r = cli::run({"validate", scene.string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.err.find("/objects/0/material/nu"), std::string::npos) << r.describe();
  EXPECT_TRUE(r.out.empty()) << "no normalized scene for a bad scene:\n" << r.out;
}

// Issue 8's bad input for the Kharevych viscous damping: a non-positive k_D, an integrator or a
// material it does not apply to, and the implicit form with an explicit alpha, each named.
TEST(BadInput, ViscousDampingNamesWhatDoesNotFit) {
  TempDir tmp;
  json scene = cli::tiny_scene();
  scene["objects"][0]["material"]["model"] = "neohookean";
  scene["integrator"]["type"] = "variational_midpoint";
  scene["damping"]["viscous"] = {{"k_d", 0.01}};
  const auto good = tmp.write("viscous.json", scene.dump());
  const Result ok = cli::run({"validate", good.string()});
  EXPECT_EQ(ok.code, 0) << ok.describe();
  expect_bad_input(tmp, good, {"viscous.json", "/damping/viscous/k_d"},
                   {"--set", "/damping/viscous/k_d=0"});
  expect_bad_input(tmp, good, {"/damping/viscous", "variational", "'si'"},
                   {"--set", "/integrator/type=si"});
  expect_bad_input(tmp, good, {"/objects/0/material/model", "'linear'", "/damping/stiffness"},
                   {"--set", "/objects/0/material/model=linear"});
  expect_bad_input(tmp, good, {"/damping/viscous/form", "alpha = 1"},
                   {"--set", "/damping/viscous/form=implicit", "--set",
                    "/integrator/type=variational_alpha", "--set", "/integrator/alpha=1"});
  const Result implicit =
      cli::run({"validate", good.string(), "--set", "/damping/viscous/form=implicit"});
  EXPECT_EQ(implicit.code, 0) << implicit.describe();
}

// Kharevych's reversible corotational integrator splits the corotated material only.
TEST(BadInput, ReversibleCorotatedNeedsTheCorotatedMaterial) {
  TempDir tmp;
  json scene = cli::tiny_scene();
  scene["objects"][0]["material"]["model"] = "corotated";
  scene["integrator"]["type"] = "reversible_corotated";
  const auto good = tmp.write("corot.json", scene.dump());
  const Result ok = cli::run({"validate", good.string()});
  EXPECT_EQ(ok.code, 0) << ok.describe();
  expect_bad_input(tmp, good,
                   {"corot.json", "/objects/0/material/model", "'corotated'", "'linear'"},
                   {"--set", "/objects/0/material/model=linear"});
}

}  // namespace
