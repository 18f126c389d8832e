// `simrun sweep` through the binary: expansion and folder names (--dry-run), bad sweep files,
// a 2x2 grid run two at a time and resumed, a diverging point, --collect with error metrics, and
// Ctrl-C. The Slurm path is tested by scripts/slurm/sweep_slurm_test.sh (ctest sweep_slurm).
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>

#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"
#include "app/sweep_child.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// tiny_scene under gravity for 10 steps, so that runs differ in displacement and energy.
json falling_bar() {
  json s = cli::tiny_scene();
  s["gravity"] = {0, -9.81, 0};
  s["time"]["steps"] = 10;
  return s;
}

/// Writes base.json and sweep.json into `tmp` and returns the sweep file. The sweep is text: the
/// order of its parameters matters, and nlohmann::json would sort them.
fs::path write_sweep(const TempDir& tmp, const std::string& sweep,
                     const json& base = falling_bar()) {
  tmp.write("base.json", base);
  return tmp.write("sweep.json", sweep);
}

const char* const kGrid2x2 = R"({"scene": "base.json", "mode": "grid",
    "parameters": {"/objects/0/material/E": [1e5, 1e6], "/time/dt": [0.01, 0.005]}})";

/// One CSV line split into fields, with RFC 4180 quotes ("a,b" and "say ""hi""").
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

/// summary.csv as one map per row, keyed by column name (no field of these tests spans lines).
std::vector<std::map<std::string, std::string>> read_summary(const fs::path& file) {
  const auto lines = cli::lines(file);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  const auto header = csv_fields(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = csv_fields(lines[i]);
    EXPECT_EQ(fields.size(), header.size()) << lines[i];
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size(); ++c)
      row[header[c]] = c < fields.size() ? fields[c] : "";
    rows.push_back(row);
  }
  return rows;
}

/// The cores this process may use (what simrun divides among the runs of -j).
int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

std::vector<std::string> point_names(const json& dry_run) {
  std::vector<std::string> names;
  for (const auto& p : dry_run.at("points")) names.push_back(p.at("name"));
  return names;
}

// ---- expansion and names (--dry-run: nothing is written) ---------------------------------------

TEST(SweepExpand, GridCrossesValuesFirstParameterSlowest) {
  TempDir tmp;
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json",
      "parameters": {"/objects/0/material/E": [1e5, 1e6], "/time/dt": [0.01, 0.005, 2.5e-7]}})");
  const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string(), "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const json plan = json::parse(r.out);
  EXPECT_EQ(plan.at("mode"), "grid");  // the default
  EXPECT_EQ(point_names(plan),
            (std::vector<std::string>{"E=1e5_dt=0.01", "E=1e5_dt=0.005", "E=1e5_dt=2.5e-7",
                                      "E=1e6_dt=0.01", "E=1e6_dt=0.005", "E=1e6_dt=2.5e-7"}));
  const json& p4 = plan.at("points").at(4);
  EXPECT_EQ(p4.at("index"), 4);
  EXPECT_EQ(p4.at("/parameters/~1objects~10~1material~1E"_json_pointer), 1e6);
  EXPECT_EQ(p4.at("/parameters/~1time~1dt"_json_pointer), 0.005);
  // The command line runs this binary on the base scene with both values and its own folder.
  const std::string command = p4.at("command");
  EXPECT_NE(command.find(" run " + (tmp / "base.json").string()), std::string::npos) << command;
  EXPECT_NE(command.find("--set /objects/0/material/E=1000000.0"), std::string::npos) << command;
  EXPECT_NE(command.find("--set /time/dt=0.005"), std::string::npos) << command;
  EXPECT_NE(command.find("-o " + (tmp / "out" / "E=1e6_dt=0.005").string()), std::string::npos)
      << command;
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

TEST(SweepExpand, ZipPairsTheListsInOrder) {
  // A value may repeat within a zip list (here "be"), as long as the points differ.
  TempDir tmp;
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json", "mode": "zip",
      "parameters": {"/time/dt": [0.01, 0.005, 0.0025], "/time/steps": [5, 10, 20],
                     "/integrator/type": ["si", "be", "be"]}})");
  const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string(), "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(point_names(json::parse(r.out)),
            (std::vector<std::string>{"dt=0.01_steps=5_type=si", "dt=0.005_steps=10_type=be",
                                      "dt=0.0025_steps=20_type=be"}));
}

TEST(SweepExpand, SetFixesPointersForEveryPointOutsideTheNames) {
  TempDir tmp;
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json", "mode": "zip",
      "set": {"/output/frames": [], "/time/steps": 3},
      "parameters": {"/time/dt": [0.01, 0.005]}})");
  const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string(), "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const json plan = json::parse(r.out);
  EXPECT_EQ(point_names(plan), (std::vector<std::string>{"dt=0.01", "dt=0.005"}));
  EXPECT_EQ(plan.at("set").at("/time/steps"), 3);
  for (const auto& point : plan.at("points")) {
    // The fixed settings come first, so that a point's own values are the last word.
    const std::string command = point.at("command");
    const auto frames = command.find("--set '/output/frames=[]'");
    const auto steps = command.find("--set /time/steps=3");
    const auto dt = command.find("--set /time/dt=");
    ASSERT_NE(frames, std::string::npos) << command;
    ASSERT_NE(steps, std::string::npos) << command;
    EXPECT_LT(steps, dt) << command;
  }
  // They reach the runs: 3 steps each, and no frames.
  const Result run = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string()});
  ASSERT_EQ(run.code, 0) << run.describe();
  for (const char* name : {"dt=0.01", "dt=0.005"}) {
    const json record = cli::read_json(tmp / "out" / name / "run.json");
    EXPECT_EQ(record.at("/counts/steps_done"_json_pointer), 3) << name;
    const fs::path frames = tmp / "out" / name / "frames";
    EXPECT_EQ(fs::exists(frames) ? cli::count_files(frames, ".vtu") : 0, 0) << name;
  }
}

TEST(SweepExpand, TimeLimitIsPassedToEveryRun) {
  TempDir tmp;
  const auto sweep = write_sweep(tmp, kGrid2x2);
  const Result r = cli::run(
      {"sweep", sweep.string(), "-o", (tmp / "out").string(), "--dry-run", "--time-limit", "5m"});
  ASSERT_EQ(r.code, 0) << r.describe();
  // Parsed into a variable: a range-for over .at() of a temporary reads freed memory (found by
  // ASan: the temporary dies before the loop runs).
  const json plan = json::parse(r.out);
  for (const auto& point : plan.at("points")) {
    const std::string command = point.at("command");
    EXPECT_NE(command.find(" --time-limit 5m"), std::string::npos) << command;
  }
  const Result bad =
      cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string(), "--time-limit", "0"});
  EXPECT_EQ(bad.code, 1) << bad.describe();
  EXPECT_NE(bad.err.find("expected a wall time"), std::string::npos) << bad.describe();
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

TEST(SweepExpand, NamesAreShortDistinctAndFilesystemSafe) {
  TempDir tmp;
  json base = falling_bar();
  base["objects"][1] = base["objects"][0];
  base["objects"][1]["name"] = "second";
  base["objects"][0]["name"] = "first";
  // Same last token: the short names take the tokens before it until they differ.
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json", "mode": "zip",
      "parameters": {"/objects/0/material/E": [1e5, 2e5], "/objects/1/material/E": [3e5, 4e5]}})",
                                 base);
  const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string(), "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_EQ(point_names(json::parse(r.out)),
            (std::vector<std::string>{"0.material.E=1e5_1.material.E=3e5",
                                      "0.material.E=2e5_1.material.E=4e5"}));
  // Characters other than letters, digits and ". + - _" become '-'; a name that then repeats an
  // earlier one gets "~2".
  const auto names = write_sweep(
      tmp, R"({"scene": "base.json", "parameters": {"/name": ["a/b", "a b", "a.b", "x:\\y*"]}})");
  const Result n = cli::run({"sweep", names.string(), "-o", (tmp / "out").string(), "--dry-run"});
  ASSERT_EQ(n.code, 0) << n.describe();
  EXPECT_EQ(point_names(json::parse(n.out)),
            (std::vector<std::string>{"name=a-b", "name=a-b~2", "name=a.b", "name=x--y-"}));
}

TEST(SweepExpand, RepositorySweepsAreValid) {
  TempDir tmp;
  int sweeps = 0;
  for (const auto& entry : fs::directory_iterator(cli::kSourceDir / "scenes" / "sweeps")) {
    if (entry.path().extension() != ".json") continue;
    ++sweeps;
    const Result r =
        cli::run({"sweep", entry.path().string(), "-o", (tmp / "out").string(), "--dry-run"});
    ASSERT_EQ(r.code, 0) << entry.path() << "\n" << r.describe();
    EXPECT_GE(json::parse(r.out).at("points").size(), 2u) << entry.path();
  }
  EXPECT_GE(sweeps, 2);
}

// ---- bad sweep files: exit 1 before anything runs, naming the file and the pointer ------------

TEST(SweepBadInput, EachProblemIsNamedAndNothingRuns) {
  struct Case {
    std::string sweep;                  // sweep.json text
    std::vector<std::string> expected;  // substrings of the message (besides the file name)
  };
  const std::vector<Case> cases = {
      {R"({"scene": "base.json", "parameters": {"/time/dt": [0.01]})", {"JSON syntax error"}},
      {R"({"parameters": {"/time/dt": [0.01]}})", {"/scene", "missing"}},
      {R"({"scene": "nowhere.json", "parameters": {"/time/dt": [0.01]}})",
       {"/scene", "nowhere.json", "does not exist"}},
      {R"({"scene": "base.json"})", {"/parameters", "missing"}},
      {R"({"scene": "base.json", "paramters": {"/time/dt": [0.01]}})",
       {"/paramters", "did you mean 'parameters'"}},
      {R"({"scene": "base.json", "mode": "cross", "parameters": {"/time/dt": [0.01]}})",
       {"/mode", "\"grid\" or \"zip\"", "cross"}},
      {R"({"scene": "base.json", "mode": "zip",
           "parameters": {"/time/dt": [0.01, 0.02], "/time/steps": [1, 2, 3]}})",
       {"/time/steps", "equal length", "3 value(s)"}},
      {R"({"scene": "base.json", "parameters": {"/time/dt": []}})", {"/time/dt", "non-empty list"}},
      {R"({"scene": "base.json", "parameters": {"/time/dt": 0.01}})",
       {"/time/dt", "non-empty list"}},
      {R"({"scene": "base.json", "parameters": {"time/dt": [0.01]}})", {"time/dt", "JSON pointer"}},
      {R"({"scene": "base.json", "parameters": {"/time/dt": [0.01, 0.01]}})",
       {"/time/dt", "listed twice"}},
      {R"({"scene": "base.json", "set": [1], "parameters": {"/time/dt": [0.01]}})",
       {"/set", "expected an object"}},
      {R"({"scene": "base.json", "set": {"time/steps": 3}, "parameters": {"/time/dt": [0.01]}})",
       {"set \"time/steps\"", "JSON pointer"}},
      {R"({"scene": "base.json", "set": {"/time/dt": 0.02}, "parameters": {"/time/dt": [0.01]}})",
       {"/time/dt", "also in \"set\""}},
      {R"({"scene": "base.json", "set": {"/time/stepz": 3}, "parameters": {"/time/dt": [0.01]}})",
       {"stepz", "point 0"}},
      {R"({"scene": "base.json", "mode": "zip",
           "parameters": {"/time/dt": [0.01, 0.01], "/time/steps": [5, 5]}})",
       {"zip items 0 and 1", "dt=0.01_steps=5"}},
      // Pointers the base scene does not have, and values it rejects: the scene parser's message.
      {R"({"scene": "base.json", "parameters": {"/objects/0/material/Ee": [1e5]}})",
       {"Ee", "point 0"}},
      {R"({"scene": "base.json", "parameters": {"/objects/2/material/E": [1e5]}})",
       {"/objects/2", "does not exist"}},
      {R"({"scene": "base.json", "parameters": {"/objects/0/material/nu": [0.3, 0.5]}})",
       {"/objects/0/material/nu", "point 1", "nu=0.5"}},
      {R"({"scene": "base.json", "parameters": {"/time/dt": [0.01, -1]}})",
       {"/time/dt", "point 1"}},
  };
  for (const auto& c : cases) {
    TempDir tmp;
    tmp.write("base.json", falling_bar());
    const auto sweep = tmp.write("sweep.json", c.sweep);
    const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string()});
    EXPECT_EQ(r.code, 1) << c.sweep << "\n" << r.describe();
    EXPECT_NE(r.err.find(sweep.string()), std::string::npos) << c.sweep << "\n" << r.describe();
    for (const auto& text : c.expected)
      EXPECT_NE(r.err.find(text), std::string::npos)
          << "'" << text << "' missing for " << c.sweep << "\n"
          << r.describe();
    EXPECT_FALSE(fs::exists(tmp / "out")) << c.sweep;
  }
}

TEST(SweepBadInput, ForeignNonEmptyOutputFolderIsRefused) {
  TempDir tmp;
  const auto sweep = write_sweep(tmp, kGrid2x2);
  tmp.write("out/notes.txt", std::string("mine"));
  const Result r = cli::run({"sweep", sweep.string(), "-o", (tmp / "out").string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_NE(r.err.find("sweep.json"), std::string::npos) << r.describe();
  EXPECT_EQ(cli::count_files(tmp / "out", ""), 1);
}

// ---- running -----------------------------------------------------------------------------------

TEST(SweepRun, GridRunsTwoAtATimeWritesSummaryAndResumes) {
  TempDir tmp;
  const auto sweep = write_sweep(tmp, kGrid2x2);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const std::vector<std::string> names = {"E=1e5_dt=0.01", "E=1e5_dt=0.005", "E=1e6_dt=0.01",
                                          "E=1e6_dt=0.005"};
  EXPECT_NE(r.err.find("4 to run, 2 at a time"), std::string::npos) << r.describe();
  for (const auto& name : names)  // one progress line each, "[k/4] NAME finished 0.1 s"
    EXPECT_TRUE(
        std::regex_search(r.err, std::regex("\\[[1-4]/4\\] " + name + " finished [0-9.e-]+ s\n")))
        << name << "\n"
        << r.describe();
  EXPECT_EQ(cli::lines(out / "commands.txt").size(), 4u);

  const auto rows = read_summary(out / "summary.csv");
  ASSERT_EQ(rows.size(), 4u) << cli::read_file(out / "summary.csv");
  EXPECT_EQ(
      cli::split(cli::lines(out / "summary.csv")[0]),
      (std::vector<std::string>{"name", "/objects/0/material/E", "/time/dt", "status", "wall_s",
                                "steps", "kinetic", "elastic", "gravity", "total",
                                "peak_displacement", "max_pos_err", "mean_pos_err", "message"}));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& row = rows[k];
    ASSERT_EQ(row.at("name"), names[k]);
    const fs::path dir = out / names[k];
    const json record = cli::read_json(dir / "run.json");
    EXPECT_EQ(record.at("status"), "finished");
    EXPECT_EQ(row.at("status"), "finished");
    // -j 2 on this machine's cores: each run gets cores / 2 threads (at least 1).
    EXPECT_EQ(record.at("threads").get<int>(), std::max(1, available_cores() / 2)) << names[k];
    EXPECT_EQ(std::stod(row.at("/objects/0/material/E")),
              record.at("/scene/objects/0/material/E"_json_pointer).get<double>());
    EXPECT_EQ(std::stod(row.at("/time/dt")),
              record.at("/scene/time/dt"_json_pointer).get<double>());
    EXPECT_EQ(std::stod(row.at("wall_s")),
              record.at("/wall_seconds/total"_json_pointer).get<double>());
    EXPECT_EQ(row.at("steps"), "10");
    // Final energies: the last row of the run's energy.csv, to the digit (round-trip form).
    for (const char* column : {"kinetic", "elastic", "gravity", "total"})
      EXPECT_EQ(std::stod(row.at(column)), cli::column(dir / "energy.csv", column).back())
          << names[k] << " " << column;
    EXPECT_EQ(row.at("max_pos_err"), "");  // no reference in the scene
    EXPECT_EQ(row.at("message"), "");
    EXPECT_GT(std::stod(row.at("peak_displacement")), 0.0) << names[k];
  }

  // Resume: nothing left to run, the run folders are untouched.
  const auto before = fs::last_write_time(out / names[0] / "run.json");
  const Result again = cli::run({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  ASSERT_EQ(again.code, 0) << again.describe();
  EXPECT_NE(again.err.find("all 4 point(s) finished earlier"), std::string::npos)
      << again.describe();
  EXPECT_EQ(again.err.find("differs"), std::string::npos) << again.describe();
  EXPECT_EQ(fs::last_write_time(out / names[0] / "run.json"), before);

  // A point whose run.json does not say "finished" is run again, into its own folder.
  json record = cli::read_json(out / names[2] / "run.json");
  record["status"] = "diverged";
  tmp.write("out/" + names[2] + "/run.json", record);
  const Result third = cli::run({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  ASSERT_EQ(third.code, 0) << third.describe();
  EXPECT_NE(third.err.find("3 finished earlier, 1 to run"), std::string::npos) << third.describe();
  EXPECT_NE(third.err.find("[1/1] " + names[2] + " finished"), std::string::npos)
      << third.describe();
  EXPECT_EQ(cli::read_json(out / names[2] / "run.json").at("status"), "finished");
  EXPECT_EQ(fs::last_write_time(out / names[0] / "run.json"), before);
}

TEST(SweepRun, PeakDisplacementOfARigidTranslationIsSpeedTimesTime) {
  // A free bar with an initial velocity and no gravity translates rigidly: every vertex is at
  // u = v t, so the peak over the frames is |v| t_end = |v| * 10 steps * 0.01 s. Frames with
  // zlib-compressed and with plain arrays are read alike.
  TempDir tmp;
  json base = falling_bar();
  base["gravity"] = {0, 0, 0};
  base["objects"][0]["dirichlet"] = json::array();
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json",
      "parameters": {"/objects/0/initial/velocity": [[1, 2, 2], [0, 0, -0.5]],
                     "/output/compress": [true, false]}})",
                                 base);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto rows = read_summary(out / "summary.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].at("name"), "velocity=1_2_2_compress=true");
  EXPECT_EQ(rows[0].at("/objects/0/initial/velocity"), "[1,2,2]");  // JSON, quoted in the CSV
  EXPECT_EQ(rows[1].at("name"), "velocity=1_2_2_compress=false");
  EXPECT_EQ(rows[3].at("name"), "velocity=0_0_-0.5_compress=false");
  EXPECT_NE(cli::read_file(out / rows[0].at("name") / "frames" / "000010.vtu").find("ZLib"),
            std::string::npos);
  EXPECT_EQ(cli::read_file(out / rows[1].at("name") / "frames" / "000010.vtu").find("ZLib"),
            std::string::npos);
  // Zero strain, zero force: the steps are exact up to rounding in t = sum of dt.
  for (int k : {0, 1}) EXPECT_NEAR(std::stod(rows[k].at("peak_displacement")), 3.0 * 0.1, 1e-12);
  for (int k : {2, 3}) EXPECT_NEAR(std::stod(rows[k].at("peak_displacement")), 0.5 * 0.1, 1e-12);
}

TEST(SweepRun, DivergedPointIsListedWithItsLogAndExitCodeTwo) {
  TempDir tmp;
  json base = falling_bar();
  // Forward Euler past its limit diverges (tests/app/blowup_test.cpp); SI is stable there.
  base["time"] = {{"dt", 0.008}, {"steps", 60}};
  const auto sweep = write_sweep(
      tmp, R"({"scene": "base.json", "parameters": {"/integrator/type": ["si", "fe"]}})", base);
  const fs::path out = tmp / "out";
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  EXPECT_EQ(r.code, 2) << r.describe();
  const auto rows = read_summary(out / "summary.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("status"), "finished");
  EXPECT_EQ(rows[1].at("status"), "diverged");
  EXPECT_NE(rows[1].at("message").find("energy blow-up"), std::string::npos)
      << rows[1].at("message");
  EXPECT_LT(std::stod(rows[1].at("steps")), 60);
  EXPECT_NE(r.err.find("1/2 finished"), std::string::npos) << r.describe();
  const fs::path log = out / "logs" / "type=fe.log";
  EXPECT_TRUE(fs::exists(log));
  EXPECT_NE(r.err.find("type=fe: diverged"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("log: " + log.string()), std::string::npos) << r.describe();
}

TEST(SweepRun, PointRefusedWhenItsModelIsBuiltFailsWithTheReason) {
  // The scene parser accepts a mesh file that exists; the mesh reader, which runs only when the
  // model is built, refuses its content. That point fails (exit 1, no run.json), the other runs.
  TempDir tmp;
  tmp.write("bad.node", std::string("garbage\n"));
  tmp.write("bad.ele", std::string("garbage\n"));
  const auto sweep = write_sweep(tmp, R"({"scene": "base.json", "parameters": {"/objects/0/mesh":
      [{"file": "bad.node"}, {"box": {"size": [1, 0.2, 0.2], "cells": [4, 1, 1]}}]}})");
  const fs::path out = tmp / "out";
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string()});
  EXPECT_EQ(r.code, 2) << r.describe();
  const fs::path log = out / "logs" / "mesh=file-bad.node.log";
  EXPECT_NE(r.err.find("mesh=file-bad.node: failed (exit 1: "), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("log: " + log.string()), std::string::npos) << r.describe();
  for (const char* option : {"", "--collect"}) {  // the same verdict from the folders alone
    if (*option) {
      ASSERT_EQ(cli::run({"sweep", sweep.string(), "-o", out.string(), option}).code, 2);
    }
    const auto rows = read_summary(out / "summary.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("name"), "mesh=file-bad.node");
    EXPECT_EQ(rows[0].at("/objects/0/mesh"), R"({"file":"bad.node"})");
    EXPECT_EQ(rows[0].at("status"), "failed") << option;
    EXPECT_NE(rows[0].at("message").find("bad.node"), std::string::npos) << rows[0].at("message");
    EXPECT_EQ(rows[1].at("name"), "mesh=box-cells-4_1_1_size-1_0.2_0.2");
    EXPECT_EQ(rows[1].at("status"), "finished") << option;
  }
}

TEST(SweepRun, CollectRewritesSummaryWithErrorMetricsAndWithoutFrames) {
  TempDir tmp;
  const auto sweep = write_sweep(
      tmp, R"({"scene": "base.json", "parameters": {"/output/frames": [["vtu"], []]}})");
  const fs::path out = tmp / "out";
  ASSERT_EQ(cli::run({"sweep", sweep.string(), "-o", out.string()}).code, 0);
  // Written by hand: a run with a reference would write error.csv in this form.
  tmp.write("out/frames=vtu/error.csv",
            std::string("step,t,max_pos_err,mean_pos_err,max_vel_err,mean_vel_err\n"
                        "0,0,0,0,0,0\n1,0.01,0.004,0.001,0,0\n2,0.02,0.003,0.002,0,0\n"));
  fs::remove(out / "summary.csv");
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string(), "--collect"});
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto rows = read_summary(out / "summary.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("name"), "frames=vtu");
  EXPECT_EQ(std::stod(rows[0].at("max_pos_err")), 0.004);
  EXPECT_DOUBLE_EQ(std::stod(rows[0].at("mean_pos_err")), 0.001);  // (0 + 0.001 + 0.002) / 3
  EXPECT_GT(std::stod(rows[0].at("peak_displacement")), 0.0);
  EXPECT_EQ(rows[1].at("name"), "frames=empty");
  EXPECT_EQ(rows[1].at("peak_displacement"), "");  // no frames, nothing to measure
  EXPECT_EQ(rows[1].at("max_pos_err"), "");
  EXPECT_EQ(rows[1].at("status"), "finished");
}

TEST(SweepRun, AnInterruptedPointGoesOnFromItsCheckpoint) {
  // A point stopped by --time-limit (as a Slurm --time would stop it) resumes from the checkpoint
  // it wrote, instead of starting over: the second sweep finishes it, and its energy.csv equals
  // a straight run's.
  TempDir tmp;
  json base = cli::tiny_scene();
  base["objects"][0]["mesh"]["box"]["cells"] = {20, 4, 4};
  base["time"] = {{"dt", 0.001}, {"steps", 12000}};  // ~3 s
  base["output"] = {{"every", 4000}};
  const auto sweep = write_sweep(
      tmp, R"({"scene": "base.json", "parameters": {"/objects/0/material/E": [1e5]}})", base);
  const fs::path out = tmp / "out";
  const Result first = cli::run(
      {"sweep", sweep.string(), "-o", out.string(), "--threads", "1", "--time-limit", "1s"});
  ASSERT_EQ(read_summary(out / "summary.csv").at(0).at("status"), "interrupted")
      << first.describe();
  const Result second = cli::run({"sweep", sweep.string(), "-o", out.string(), "--threads", "1"});
  EXPECT_EQ(second.code, 0) << second.describe();
  EXPECT_NE(second.err.find("1 to run (1 from their checkpoints)"), std::string::npos)
      << second.err;
  const fs::path point = out / "E=1e5";
  const json record = cli::read_json(point / "run.json");
  EXPECT_EQ(record.at("status"), "finished");
  ASSERT_TRUE(record.contains("resumes")) << record.dump(2);
  EXPECT_GT(record["resumes"][0].at("from_step").get<long>(), 0);

  const Result straight = cli::run({"run", (tmp / "base.json").string(), "-o",
                                    (tmp / "straight").string(), "--quiet", "--threads", "1"});
  ASSERT_EQ(straight.code, 0) << straight.describe();
  EXPECT_EQ(cli::read_file(point / "energy.csv"), cli::read_file(tmp / "straight" / "energy.csv"));
}

TEST(SweepRun, CtrlCStopsTheRunsAndLeavesNoChild) {
  TempDir tmp;
  json base = cli::tiny_scene();
  base["time"]["steps"] = 10000000;  // would run for hours
  base["output"]["frames"] = json::array();
  const auto sweep =
      write_sweep(tmp, R"({"scene": "base.json", "parameters": {"/time/dt": [0.01, 0.02]}})", base);
  const fs::path out = tmp / "out";
  sweep_child::Child sweep_process({"sweep", sweep.string(), "-o", out.string(), "-j", "2"});
  // Both runs have started once each has written its run.json ("running").
  ASSERT_TRUE(sweep_child::wait_until(
      [&] {
        return fs::exists(out / "dt=0.01" / "run.json") && fs::exists(out / "dt=0.02" / "run.json");
      },
      20.0))
      << sweep_process.stop();
  sweep_process.signal(SIGINT);
  const int code = sweep_process.wait(30.0);
  EXPECT_EQ(code, 130) << sweep_process.output();
  EXPECT_NE(sweep_process.output().find("stopped by a signal"), std::string::npos)
      << sweep_process.output();
  EXPECT_EQ(sweep_child::processes_mentioning(out.string()), 0) << "a run outlived the sweep";
  const auto rows = read_summary(out / "summary.csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) EXPECT_EQ(row.at("status"), "interrupted") << row.at("name");
}

}  // namespace
