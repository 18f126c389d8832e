// What a run prints and records for people (issue 12, section 1): one closing line, times without
// the round-off of t = n dt, no "-0" in the tables, a message in run.json on success, a frame
// count that counts frames; every input the fuzzers found is bad input (exit 1) naming its file
// and line through `simrun run`; checkpoints by wall time.
#include <gtest/gtest.h>

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

/// The tiny bar, free and weightless, for 200 steps of 0.01 s: t adds up to 1.9999999999999793.
json resting_scene() {
  json scene = cli::tiny_scene();
  scene["time"]["steps"] = 200;
  scene["gravity"] = {0.0, 0.0, 0.0};
  scene["objects"][0]["dirichlet"] = json::array();
  scene["output"]["frames"] = json::array();
  return scene;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST(OutputText, ARunClosesWithOneLineAndRecordsItsMessage) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r = cli::run(
      {"run", tmp.write("s.json", resting_scene()).string(), "-o", out.string(), "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.describe();
  int closing = 0;
  for (const std::string& line : lines_of(r.err)) closing += line.rfind("finished", 0) == 0;
  EXPECT_EQ(closing, 1) << r.err;

  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "finished");
  const std::string message = record.at("message");
  EXPECT_TRUE(std::regex_match(message, std::regex(R"(200 steps to t = 2 s in [0-9.e-]+ s)")))
      << message;
  EXPECT_EQ(record.at("/counts/t_end"_json_pointer).get<double>(), 2.0);
  // No frames were asked for: none are counted (the count was the number of output steps).
  EXPECT_EQ(record.at("/counts/frames"_json_pointer), 0);
  const std::string log = cli::read_file(out / "simrun.log");
  EXPECT_NE(log.find("finished: 200/200 steps, 0 frames"), std::string::npos) << log;
}

TEST(OutputText, TablesHoldNoNegativeZeroAndShortTimes) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r =
      cli::run({"run", tmp.write("s.json", resting_scene()).string(), "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  for (const char* table : {"energy.csv", "stats.csv"}) {
    const std::vector<std::string> rows = cli::lines(out / table);
    ASSERT_EQ(rows.size(), std::string(table) == "energy.csv" ? 202u : 201u) << table;
    for (const std::string& row : rows)
      for (const std::string& cell : cli::split(row))
        EXPECT_TRUE(cell.rfind("-0", 0) != 0 || (cell.size() > 2 && cell[2] == '.'))
            << table << ": " << row;
  }
  // The t column of the last row is the decimal the user meant, not 1.9999999999999793.
  EXPECT_EQ(cli::split(cli::lines(out / "energy.csv").back())[1], "2");
}

/// Every input the fuzzers found to crash or exhaust a reader (tests/data/fuzz) is, through
/// `simrun run`, bad input: exit 1 with "error: FILE:LINE:" and no internal error.
TEST(OutputText, EveryFuzzFindingIsBadInputNamingItsFileAndLine) {
  TempDir tmp;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(cli::kTestData / "fuzz")) {
    const fs::path file = entry.path();
    const std::string extension = file.extension().string();
    fs::path scene;
    std::string named = file.string();
    if (extension == ".json") {
      scene = file;
    } else if (extension == ".mesh" || extension == ".msh" || extension == ".off" ||
               extension == ".node") {
      scene = tmp.write(file.filename().string() + ".json", cli::file_scene(file.string()));
      named = (file.parent_path() / file.stem()).string() + ".";  // or in a .node's .ele
    } else {
      continue;  // .ele (read with its .node), .set (a --set argument: parser tests)
    }
    const Result r = cli::run(
        {"run", scene.string(), "-o", (tmp / ("out_" + file.filename().string())).string()});
    ++checked;
    EXPECT_EQ(r.code, 1) << file << "\n" << r.describe();
    EXPECT_NE(r.err.find("error: " + named), std::string::npos) << file << "\n" << r.err;
    // FILE:LINE:, or for a JSON error with no place in the text (an "extends" target) the
    // JSON pointer: FILE: /pointer.
    EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\.(json|mesh|msh|off|node|ele):[0-9]+:)")) ||
                (extension == ".json" && std::regex_search(r.err, std::regex(R"(\.json: /)"))))
        << file << "\n"
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << file << "\n" << r.err;
  }
  EXPECT_GE(checked,
            14);  // 3 scenes, 3 Medit, 1 Gmsh, 1 OFF, 6 TetGen pairs at the time of writing
}

TEST(OutputText, CheckpointsByWallTimeAreWrittenWhenTheTimeHasPassed) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", resting_scene());
  // 200 steps take a few milliseconds: a checkpoint every millisecond writes some, one an hour
  // writes none (and so leaves no checkpoint folder).
  const Result often = cli::run(
      {"run", scene.string(), "-o", (tmp / "often").string(), "--checkpoint-every", "0.001s"});
  const Result rarely = cli::run(
      {"run", scene.string(), "-o", (tmp / "rarely").string(), "--checkpoint-every", "1h"});
  ASSERT_EQ(often.code, 0) << often.describe();
  ASSERT_EQ(rarely.code, 0) << rarely.describe();
  EXPECT_TRUE(fs::exists(tmp / "often" / "checkpoint" / "state.bin"));
  EXPECT_FALSE(fs::exists(tmp / "rarely" / "checkpoint"));
  // The wall-time checkpoint continues like a step-count one.
  const Result resumed = cli::run({"resume", (tmp / "often").string(), "--steps", "250"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  EXPECT_EQ(cli::lines(tmp / "often" / "energy.csv").size(), 252u);
}

}  // namespace
