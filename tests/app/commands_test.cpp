// End-to-end tests of simrun's subcommands on tiny scenes: --version, schema, validate, run
// (output folder layout, overrides, path resolution), divergence handling and modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// energy.csv or stats.csv: header fields and numeric rows.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
};

Csv read_csv(const fs::path& file) {
  Csv csv;
  const auto lines = cli::lines(file);
  if (lines.empty()) return csv;
  csv.header = cli::split(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<double> row;
    for (const auto& f : cli::split(lines[i])) row.push_back(std::strtod(f.c_str(), nullptr));
    csv.rows.push_back(row);
  }
  return csv;
}

bool starts_with(const std::vector<std::string>& header, const std::vector<std::string>& prefix) {
  if (header.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), header.begin());
}

// ---- --version, schema, no subcommand ----------------------------------------------------------

TEST(Cli, VersionPrintsNameAndExitsZero) {
  const Result r = cli::run({"--version"});
  EXPECT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^simrun \d+\.\d+\.\d+)"))) << r.describe();
}

TEST(Cli, VersionNamesTheCommitTheBinaryWasBuiltFrom) {
  // The hash is refreshed on every build (cmake/write_version.cmake), not only at configure
  // time: a binary rebuilt after a commit must not claim the older one.
  const std::string command =
      "git -C '" + cli::kSourceDir.string() + "' rev-parse --short HEAD 2>/dev/null";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  const std::string head = cli::read_stream(pipe);
  ::pclose(pipe);
  if (head.empty()) GTEST_SKIP() << "the source folder is not a git checkout";
  const Result r = cli::run({"--version"});
  EXPECT_NE(r.out.find("(" + head.substr(0, head.find('\n'))), std::string::npos)
      << r.out << " vs HEAD " << head;
}

TEST(Cli, SchemaPrintsJsonSchema2020_12) {
  const Result r = cli::run({"schema"});
  ASSERT_EQ(r.code, 0) << r.describe();
  json schema;
  ASSERT_NO_THROW(schema = json::parse(r.out)) << r.out.substr(0, 500);
  ASSERT_TRUE(schema.contains("$schema"));
  EXPECT_NE(schema["$schema"].get<std::string>().find("2020-12"), std::string::npos);
  EXPECT_EQ(schema.at("type"), "object");
  EXPECT_TRUE(schema.at("properties").contains("objects"));
  // The printed schema is the one in schemas/ (the authoritative document).
  EXPECT_EQ(schema, cli::read_json(cli::kSourceDir / "schemas" / "scene.schema.json"));
}

TEST(Cli, NoSubcommandIsBadInput) {
  const Result r = cli::run({});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.all().find("subcommand"), std::string::npos) << r.describe();
}

TEST(Cli, UnknownSubcommandIsBadInput) {
  const Result r = cli::run({"simulate", "x.json"});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.all().find("simulate"), std::string::npos) << r.describe();
}

TEST(Cli, UnknownOptionIsBadInput) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const Result r = cli::run({"run", scene.string(), "--stepz", "3", "-o", (tmp / "out").string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.all().find("--stepz"), std::string::npos) << r.describe();
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

// ---- validate ----------------------------------------------------------------------------------

TEST(Validate, QuickstartPrintsNormalizedSceneWithDefaults) {
  const fs::path quickstart = cli::kSourceDir / "scenes" / "quickstart.json";
  const Result r = cli::run({"validate", quickstart.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  json scene;
  ASSERT_NO_THROW(scene = json::parse(r.out)) << r.out.substr(0, 500);
  const json schema = json::parse(cli::run({"schema"}).out);
  const json& newton_schema = schema["$defs"]["newton"]["properties"];
  ASSERT_TRUE(scene.at("/integrator/newton/max_iterations"_json_pointer).is_number_integer())
      << r.out;
  // Keys quickstart.json leaves out are filled with the schema's defaults.
  const json file = cli::read_json(quickstart);
  if (!file["integrator"].contains("newton")) {
    // The Newton cap's default depends on "contact" (parse_scene.hpp): 20 without.
    EXPECT_FALSE(file.contains("contact"));
    EXPECT_EQ(scene.at("/integrator/newton/max_iterations"_json_pointer), 20);
    EXPECT_EQ(scene.at("/integrator/newton/tolerance"_json_pointer),
              newton_schema["tolerance"]["default"]);
    EXPECT_EQ(scene.at("/integrator/newton/line_search"_json_pointer),
              newton_schema["line_search"]["default"]);
  }
  EXPECT_TRUE(scene.at("/objects/0/material/nu"_json_pointer).is_number());
  EXPECT_TRUE(scene.at("/output/frames"_json_pointer).is_array());
  EXPECT_EQ(scene.at("name"), file.value("name", "quickstart"));
}

TEST(Validate, NormalizedSceneValidatesAgainAndIsStable) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const Result first = cli::run({"validate", scene.string()});
  ASSERT_EQ(first.code, 0) << first.describe();
  const auto normalized = tmp.write("normalized.json", first.out);
  const Result second = cli::run({"validate", normalized.string()});
  ASSERT_EQ(second.code, 0) << second.describe();
  json a = json::parse(first.out), b = json::parse(second.out);
  // The name defaults differ only if the scene has none; tiny_scene has one.
  EXPECT_EQ(a, b);
}

TEST(Validate, SetOverrideShowsInNormalizedScene) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const Result r = cli::run({"validate", scene.string(), "--set", "/time/dt=0.005", "--set",
                             "/integrator/type=be", "--set", "/objects/0/material/E=2e6"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const json s = json::parse(r.out);
  EXPECT_EQ(s.at("/time/dt"_json_pointer), 0.005);
  EXPECT_EQ(s.at("/integrator/type"_json_pointer), "be");
  EXPECT_EQ(s.at("/objects/0/material/E"_json_pointer), 2e6);
}

TEST(Validate, ExtendsMergesBaseScene) {
  TempDir tmp;
  json base = cli::tiny_scene();
  base["time"]["dt"] = 0.002;
  tmp.write("base/base.json", base);
  const auto child =
      tmp.write("child.json", json{{"extends", "base/base.json"}, {"time", {{"steps", 7}}}});
  const Result r = cli::run({"validate", child.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  const json s = json::parse(r.out);
  EXPECT_EQ(s.at("/time/dt"_json_pointer), 0.002);  // from the base
  EXPECT_EQ(s.at("/time/steps"_json_pointer), 7);   // the child wins
  EXPECT_EQ(s.at("/objects/0/material/E"_json_pointer), 1e5);
}

// ---- run ---------------------------------------------------------------------------------------

TEST(Run, WritesTheOutputFolder) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"]["steps"] = 5;
  s["output"]["every"] = 2;
  const auto scene = tmp.write("s.json", s);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();

  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "finished");
  EXPECT_EQ(record.at("threads"), 1);
  EXPECT_EQ(record.at("/scene/name"_json_pointer), "tiny");
  EXPECT_EQ(record.at("/scene/time/steps"_json_pointer), 5);
  EXPECT_TRUE(record.at("/scene/integrator/newton"_json_pointer).is_object()) << "normalized scene";
  EXPECT_TRUE(record.contains("simrun"));
  EXPECT_NE(record.at("command_line").get<std::string>().find("run"), std::string::npos);
  EXPECT_TRUE(record.at("wall_seconds").contains("total"));

  // energy.csv: header, then steps 0..5 at t = step * dt, all finite.
  const Csv energy = read_csv(out / "energy.csv");
  EXPECT_TRUE(starts_with(energy.header, {"step", "t", "kinetic", "elastic", "gravity", "total"}))
      << cli::read_file(out / "energy.csv");
  // The interface contract's momentum columns follow the energies.
  const std::vector<std::string> momentum = {"px", "py", "pz", "lx", "ly", "lz"};
  ASSERT_GE(energy.header.size(), momentum.size());
  EXPECT_TRUE(std::equal(momentum.begin(), momentum.end(), energy.header.end() - 6))
      << cli::read_file(out / "energy.csv");
  ASSERT_EQ(energy.rows.size(), 6u);
  for (std::size_t i = 0; i < energy.rows.size(); ++i) {
    ASSERT_EQ(energy.rows[i].size(), energy.header.size());
    EXPECT_EQ(energy.rows[i][0], static_cast<double>(i));
    EXPECT_NEAR(energy.rows[i][1], 0.01 * i, 1e-12);  // t accumulates dt: a few ulps
    for (double v : energy.rows[i]) EXPECT_TRUE(std::isfinite(v));
  }
  // Gravity pulls the clamped bar down: energy moves from gravity into kinetic/elastic.
  EXPECT_GT(energy.rows.back()[2], 0.0);
  EXPECT_LT(energy.rows.back()[4], 0.0);

  const Csv stats = read_csv(out / "stats.csv");
  EXPECT_TRUE(starts_with(stats.header, {"step", "t", "wall_s"}))
      << cli::read_file(out / "stats.csv");
  ASSERT_EQ(stats.rows.size(), 5u);
  EXPECT_EQ(stats.rows.front()[0], 1.0);
  EXPECT_EQ(stats.rows.back()[0], 5.0);

  // Frames at steps 0, 2, 4 and the last step 5.
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 4);
  EXPECT_EQ(record.at("/counts/frames"_json_pointer), 4);
  const std::string pvd = cli::read_file(out / "frames.pvd");
  EXPECT_EQ(cli::count_of(pvd, "<DataSet"), 4) << pvd;
  std::smatch m;
  std::string rest = pvd;
  std::set<std::string> files;
  while (std::regex_search(rest, m, std::regex(R"(file="([^"]+)\")"))) {
    files.insert(m[1]);
    EXPECT_TRUE(fs::exists(out / m[1].str())) << m[1];
    rest = m.suffix();
  }
  EXPECT_EQ(files.size(), 4u);
  EXPECT_NE(pvd.find("timestep=\"0.05\""), std::string::npos) << pvd;
  // Without a terminal the progress is plain lines and the run ends with a summary line.
  EXPECT_NE(r.err.find("finished"), std::string::npos) << r.describe();
}

TEST(Run, QuietPrintsNothingOnSuccess) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(r.all(), "");
}

TEST(Run, NoFramesWhenFramesListIsEmpty) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["output"]["frames"] = json::array();
  const auto scene = tmp.write("s.json", s);
  const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(fs::exists(tmp / "out" / "energy.csv"));
  EXPECT_EQ(cli::count_files(tmp / "out" / "frames", ".vtu"), 0);
}

TEST(Run, StepsAndSetOverridesReachRunJson) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());  // dt 0.01, 3 steps
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "4",
                             "--set", "/time/dt=0.005", "--set", "/integrator/type=\"be\""});
  ASSERT_EQ(r.code, 0) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("/scene/time/dt"_json_pointer), 0.005);
  EXPECT_EQ(record.at("/scene/time/steps"_json_pointer), 4);
  EXPECT_EQ(record.at("/scene/integrator/type"_json_pointer), "be");
  const Csv energy = read_csv(out / "energy.csv");
  ASSERT_EQ(energy.rows.size(), 5u);
  EXPECT_NEAR(energy.rows.back()[1], 0.02, 1e-12);  // 4 * 0.005, a few ulps of accumulation
  EXPECT_EQ(read_csv(out / "stats.csv").rows.size(), 4u);
}

TEST(Run, ZeroStepsWritesTheInitialState) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "0"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(read_csv(out / "energy.csv").rows.size(), 1u);
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 1);
  EXPECT_EQ(cli::read_json(out / "run.json").at("status"), "finished");
}

TEST(Run, InputPathsResolveAgainstTheSceneFolderOutputAgainstTheWorkingFolder) {
  // Scene in TMP/scenes, mesh in TMP/meshes, run from TMP/elsewhere: the mesh path is relative
  // to the scene's folder, output.dir to the working folder (as for any command-line tool).
  TempDir tmp;
  tmp.copy_data("meshes/two_tets.node", "meshes/two_tets.node");
  tmp.copy_data("meshes/two_tets.ele", "meshes/two_tets.ele");
  json s = cli::file_scene("../meshes/two_tets.node");
  s["output"]["dir"] = "results";
  const auto scene = tmp.write("scenes/rel.json", s);
  fs::create_directories(tmp / "elsewhere");
  const Result r = cli::run({"run", "../scenes/rel.json", "--quiet"}, tmp / "elsewhere");
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(fs::exists(tmp / "elsewhere" / "results" / "run.json"));
  EXPECT_FALSE(fs::exists(tmp / "scenes" / "results"));
  const json record = cli::read_json(tmp / "elsewhere" / "results" / "run.json");
  EXPECT_EQ(record.at("/counts/vertices"_json_pointer), 5);

  // Without output.dir: out/NAME under the working folder.
  s.erase("output");
  tmp.write("scenes/unnamed.json", s);
  ASSERT_EQ(cli::run({"run", "../scenes/unnamed.json", "--quiet"}, tmp / "elsewhere").code, 0);
  EXPECT_TRUE(fs::exists(tmp / "elsewhere" / "out" / "tiny" / "run.json"));
}

TEST(Run, DashOOverridesOutputDir) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["output"]["dir"] = "results";
  tmp.write("scenes/s.json", s);
  fs::create_directories(tmp / "elsewhere");
  // A relative -o is relative to the working directory (an ordinary command-line path).
  const Result r =
      cli::run({"run", "../scenes/s.json", "-o", "custom", "--quiet"}, tmp / "elsewhere");
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(fs::exists(tmp / "elsewhere" / "custom" / "run.json"));
  EXPECT_TRUE(fs::exists(tmp / "elsewhere" / "custom" / "energy.csv"));
  EXPECT_FALSE(fs::exists(tmp / "scenes" / "results"));
  const json record = cli::read_json(tmp / "elsewhere" / "custom" / "run.json");
  EXPECT_EQ(fs::weakly_canonical(record.at("/scene/output/dir"_json_pointer).get<std::string>()),
            fs::weakly_canonical(tmp / "elsewhere" / "custom"));
}

TEST(Run, SurfaceMeshIsTetrahedralized) {
  TempDir tmp;
  const auto scene = tmp.write("cube.json", cli::file_scene(cli::data_mesh("cube.off")));
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "2"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_GE(cli::read_json(out / "run.json").at("/counts/vertices"_json_pointer).get<int>(), 8);
}

TEST(Run, DataSceneWithMeshRelativeToItsFolder) {
  TempDir tmp;
  const fs::path scene = cli::kTestData / "app" / "cantilever.json";
  const Result r =
      cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--quiet"}, tmp.path());
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(cli::read_json(tmp / "out" / "run.json").at("/counts/vertices"_json_pointer), 99);
  EXPECT_FALSE(fs::exists(cli::kTestData / "app" / "out_never_written_by_tests"));
}

// ---- divergence / solver failure ---------------------------------------------------------------

TEST(Divergence, KrylovFailureExitsTwoWithTheReasonInRunJson) {
  // ERE allowed one Krylov substep at a tolerance of 1e-12: the first substep Expokit picks,
  // (1/|J|)(tol / |J|)^(1/m), is far shorter than dt for this bar (|J| ~ 1e5 1/s), so step 1
  // hits the substep cap and says so.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"]["steps"] = 3;
  s["integrator"] =
      json::parse(R"({"type": "ere", "krylov": {"tolerance": 1e-12, "max_substeps": 1}})");
  const auto scene = tmp.write("ere.json", s);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--threads", "1"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "failed");
  EXPECT_NE(record.at("message").get<std::string>().find("Krylov expv used its 1 substeps"),
            std::string::npos)
      << record["message"];
  EXPECT_NE(r.err.find("Krylov"), std::string::npos) << r.describe();
}

TEST(Divergence, EigensolveFailureExitsTwoWithTheReasonInRunJson) {
  // SIERE's per-step Lanczos solve allowed one Spectra iteration at a tolerance of 1e-14: 20
  // Krylov vectors of a 216-DOF bar do not give its 5 lowest modes to 1e-14, so step 1 fails;
  // the same scene with the default settings finishes (the failure is the cap's).
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {8, 2, 2};
  s["integrator"] = json::parse(R"({"type": "siere", "modes": 5})");
  const Result fine = cli::run(
      {"run", tmp.write("ok.json", s).string(), "-o", (tmp / "ok").string(), "--threads", "1"});
  ASSERT_EQ(fine.code, 0) << fine.describe();

  s["integrator"]["eigensolver"] = json::parse(R"({"max_iterations": 1, "tolerance": 1e-14})");
  const fs::path out = tmp / "out";
  const Result r =
      cli::run({"run", tmp.write("capped.json", s).string(), "-o", out.string(), "--threads", "1"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "failed");
  EXPECT_NE(record.at("message").get<std::string>().find("eigensolve"), std::string::npos)
      << record["message"];
  EXPECT_NE(r.err.find("eigensolve"), std::string::npos) << r.describe();
  // The outputs of the last good step (the initial state) are kept.
  EXPECT_EQ(record.at("/counts/steps_done"_json_pointer), 0);
  EXPECT_EQ(read_csv(out / "energy.csv").rows.size(), 1u);
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 1);
}

TEST(Divergence, NewtonFailureExitsTwoAndKeepsOutputs) {
  // Backward Euler with one Newton iteration and a tolerance no floating-point residual reaches:
  // for the (quadratic) linear material the single Newton step solves the step up to roundoff,
  // and a roundoff residual is never <= 1e-300 while gravity loads the bar, so step 1 fails with
  // not_converging on every platform. Deterministic by construction, not by tuning.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"]["steps"] = 5;
  s["integrator"] =
      json::parse(R"({"type": "be", "newton": {"max_iterations": 1, "tolerance": 1e-300}})");
  const auto scene = tmp.write("fail.json", s);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", scene.string(), "-o", out.string(), "--threads", "1"});
  EXPECT_EQ(r.code, 2) << r.describe();
  EXPECT_NE(r.err.find("failed"), std::string::npos) << r.describe();

  ASSERT_TRUE(fs::exists(out / "run.json"));
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "failed");
  ASSERT_TRUE(record.contains("message"));
  EXPECT_NE(record["message"].get<std::string>().find("step 1"), std::string::npos)
      << record["message"];
  EXPECT_EQ(record.at("/counts/steps_done"_json_pointer), 0);
  EXPECT_TRUE(record.contains("scene"));

  // Outputs up to the last good step (0): the initial row and frame only.
  const Csv energy = read_csv(out / "energy.csv");
  EXPECT_TRUE(starts_with(energy.header, {"step", "t", "kinetic", "elastic", "gravity", "total"}));
  ASSERT_EQ(energy.rows.size(), 1u);
  EXPECT_EQ(energy.rows[0][0], 0.0);
  EXPECT_EQ(read_csv(out / "stats.csv").rows.size(), 0u);
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 1);
}

TEST(Divergence, NonFiniteStateExitsTwoAndKeepsOnlyGoodSteps) {
  // SI on a linear material is unconditionally stable, so no finite scene blows up; an absurd
  // gravity of 1e200 m/s^2 makes the elastic energy after one step overflow to inf (the state
  // itself stays finite, ~1e196 m), which the run must treat as divergence at step 1.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"]["steps"] = 5;
  s["gravity"] = {0, -1e200, 0};
  const auto scene = tmp.write("blowup.json", s);
  const fs::path out = tmp / "out";
  const Result r =
      cli::run({"run", scene.string(), "-o", out.string(), "--threads", "1", "--quiet"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "diverged")
      << record.dump(2);  // a non-finite state, not a solver failure
  ASSERT_TRUE(record.contains("message"));
  EXPECT_FALSE(record["message"].get<std::string>().empty());
  const int done = record.at("/counts/steps_done"_json_pointer).get<int>();
  EXPECT_EQ(done, 0);

  // "Outputs up to the last good step are kept": energy.csv ends at step `done`, every value
  // finite; stats.csv has no row past it either.
  const Csv energy = read_csv(out / "energy.csv");
  ASSERT_FALSE(energy.rows.empty());
  EXPECT_EQ(energy.rows.back()[0], static_cast<double>(done)) << cli::read_file(out / "energy.csv");
  for (const auto& row : energy.rows)
    for (double v : row) EXPECT_TRUE(std::isfinite(v)) << cli::read_file(out / "energy.csv");
  const Csv stats = read_csv(out / "stats.csv");
  EXPECT_EQ(stats.rows.size(), static_cast<std::size_t>(done)) << cli::read_file(out / "stats.csv");
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 1);
}

// ---- modes -------------------------------------------------------------------------------------

TEST(Modes, TinyCantileverWritesSortedModes) {
  TempDir tmp;
  const fs::path scene = cli::kTestData / "app" / "cantilever.json";
  const fs::path out = tmp / "modes_out";
  const Result r = cli::run({"modes", scene.string(), "-n", "6", "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  const Csv modes = read_csv(out / "modes.csv");
  EXPECT_EQ(modes.header, (std::vector<std::string>{"mode", "eigenvalue", "frequency_hz"}));
  ASSERT_EQ(modes.rows.size(), 6u);
  for (std::size_t i = 0; i < modes.rows.size(); ++i) {
    EXPECT_EQ(modes.rows[i][0], static_cast<double>(i + 1));
    EXPECT_GT(modes.rows[i][1], 0.0) << "clamped: no rigid modes";
    if (i > 0) {
      EXPECT_GE(modes.rows[i][1], modes.rows[i - 1][1]) << "ascending";
    }
    // frequency = sqrt(lambda) / (2 pi); both printed with 17 digits.
    EXPECT_NEAR(modes.rows[i][2], std::sqrt(modes.rows[i][1]) / (2 * M_PI),
                1e-12 * modes.rows[i][2]);
  }
  // Square cross-section: the first two bending modes pair up (the split-5 mesh is symmetric
  // under y <-> z only up to its tet pattern, so allow 1e-3).
  EXPECT_NEAR(modes.rows[1][1] / modes.rows[0][1], 1.0, 1e-3);
  // Euler-Bernoulli for the 0.5 x 0.1 x 0.1 bar (E 1e5, rho 1000): f1 = 1.875^2/(2 pi) *
  // sqrt(EI / (rho A L^4)) = 0.646 Hz. Coarse linear tets are too stiff (Rayleigh-Ritz upper
  // bound), here by ~20%; [0.6, 1.0] Hz catches unit or mass-matrix errors (factor >= 1.5).
  EXPECT_GT(modes.rows[0][2], 0.6);
  EXPECT_LT(modes.rows[0][2], 1.0);
  EXPECT_EQ(cli::count_files(out / "modes", ".vtu"), 6);
}

TEST(Modes, DefaultCountIsTen) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const fs::path out = tmp / "m";
  const Result r = cli::run({"modes", scene.string(), "-o", out.string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(read_csv(out / "modes.csv").rows.size(), 10u);
  EXPECT_EQ(cli::count_files(out / "modes", ".vtu"), 10);
}

TEST(Modes, CsvOnlyWritesNoShapes) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", cli::tiny_scene());
  const fs::path out = tmp / "m";
  const Result r =
      cli::run({"modes", scene.string(), "-o", out.string(), "--quiet", "-n", "4", "--csv-only"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(read_csv(out / "modes.csv").rows.size(), 4u);
  EXPECT_FALSE(fs::exists(out / "modes"));
}

}  // namespace
