// Checkpoint and restart (issue "users first", section 3): a run of 100 steps and a run of 50
// steps resumed to 100 write bit-identical energy.csv, stats.csv (but for wall times), frames and
// frames.pvd, for a multistep integrator, a moving constraint with a release and wind; an
// interrupted run resumes from the checkpoint it writes on the signal.
#include <gtest/gtest.h>

#include <csignal>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// A bar fixed at -x whose +x end is dragged along z and released at step 30, in gusty wind.
json driven_scene(const std::string& integrator) {
  json s = cli::tiny_scene();
  s["time"] = {{"dt", 0.01}, {"steps", 100}};
  s["objects"][0]["material"]["model"] = "neohookean";
  s["objects"][0]["dirichlet"].push_back(
      {{"select", {{"side", "+x"}}},
       {"motion", {{"translate", {{"velocity", {0.0, 0.0, 0.3}}}}}},
       {"release_step", 30}});
  s["wind"] = {{"pressure", 2.0},
               {"direction", {0, 1, 0}},
               {"gust", {{"amplitude", 0.5}, {"frequency", 3}}}};
  s["integrator"] = {{"type", integrator}};
  s["output"] = {{"every", 5}};
  return s;
}

/// stats.csv without its wall-time columns (wall_s and every other "..._s" column).
std::string stats_without_wall_time(const fs::path& file) {
  std::istringstream in(cli::read_file(file));
  std::string line, out;
  std::vector<bool> keep;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (keep.empty())
      for (const std::string& name : cells)
        keep.push_back(name.size() < 2 || name.compare(name.size() - 2, 2, "_s") != 0);
    for (size_t i = 0; i < cells.size(); ++i)
      if (i < keep.size() && keep[i]) out += cells[i] + ",";
    out += "\n";
  }
  return out;
}

/// Byte equality of two files' texts, reported by name and size (not by content).
#define EXPECT_SAME_TEXT(a, b, what)                                                            \
  do {                                                                                          \
    const std::string text_a = (a), text_b = (b);                                               \
    EXPECT_TRUE(text_a == text_b) << (what) << ": " << text_a.size() << " vs " << text_b.size() \
                                  << " bytes differ";                                           \
  } while (0)

void expect_same_outputs(const fs::path& a, const fs::path& b, const std::string& what) {
  EXPECT_SAME_TEXT(cli::read_file(a / "energy.csv"), cli::read_file(b / "energy.csv"),
                   what + " energy.csv");
  EXPECT_SAME_TEXT(stats_without_wall_time(a / "stats.csv"),
                   stats_without_wall_time(b / "stats.csv"), what + " stats.csv");
  EXPECT_SAME_TEXT(cli::read_file(a / "frames.pvd"), cli::read_file(b / "frames.pvd"),
                   what + " frames.pvd");
  int frames = 0;
  for (const auto& entry : fs::directory_iterator(a / "frames")) {
    const fs::path other = b / "frames" / entry.path().filename();
    ASSERT_TRUE(fs::exists(other)) << what << ": " << other;
    EXPECT_SAME_TEXT(cli::read_file(entry.path()), cli::read_file(other), other.string());
    ++frames;
  }
  EXPECT_EQ(frames, cli::count_files(b / "frames", ".vtu")) << what;
}

TEST(Checkpoint, FiftyPlusResumedFiftyStepsEqualAHundredBitForBit) {
  // bdf2: multistep history; si: the affine force's reference point; be: its predictor history.
  for (const std::string integrator : {"bdf2", "si", "be", "newmark"}) {
    TempDir tmp;
    const auto scene = tmp.write("s.json", driven_scene(integrator));
    const fs::path straight = tmp / "straight", split = tmp / "split";
    ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
    const Result first = cli::run({"run", scene.string(), "-o", split.string(), "--quiet",
                                   "--steps", "50", "--checkpoint-every", "25"});
    ASSERT_EQ(first.code, 0) << first.describe();
    ASSERT_TRUE(fs::exists(split / "checkpoint" / "state.bin"));
    const Result resumed = cli::run({"resume", split.string(), "--steps", "100", "--quiet"});
    ASSERT_EQ(resumed.code, 0) << resumed.describe();
    expect_same_outputs(straight, split, integrator);
    const json record = cli::read_json(split / "run.json");
    EXPECT_EQ(record.at("status"), "finished");
    EXPECT_EQ(record.at("/counts/steps_done"_json_pointer), 100);
    EXPECT_EQ(record.at("resumes").at(0).at("from_step"), 50);
    // The first segment's times are kept: wall_seconds is only the resumed segment's.
    EXPECT_GT(record.at("resumes").at(0).at("/previous_wall_seconds/total"_json_pointer), 0.0);
  }
}

TEST(Checkpoint, AnAdaptiveRunResumedWithAStepCapEndsAtItsEndTimeBitForBit) {
  // Adaptive runs end at time.end (time.steps is only their cap): `resume --steps N` raises the
  // cap and keeps the end time; the symplectic adaptivity's history (E_1, the last step) comes
  // back from the checkpoint, so the continuation takes the uninterrupted run's steps.
  TempDir tmp;
  json s = cli::read_json(cli::kSourceDir / "scenes" / "kharevych_three_masses.json");
  s["time"]["end"] = 1.0;
  s["output"] = {{"every", 10}};  // VTU frames of the springs every 10 steps
  const auto scene = tmp.write("adaptive.json", s);
  const fs::path straight = tmp / "straight", split = tmp / "split";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
  const Result first = cli::run({"run", scene.string(), "-o", split.string(), "--quiet", "--steps",
                                 "100", "--checkpoint-every", "50"});
  ASSERT_EQ(first.code, 0) << first.describe();
  const Result resumed = cli::run({"resume", split.string(), "--steps", "100000", "--quiet"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  EXPECT_GT(cli::lines(straight / "energy.csv").size(), 300u);  // well past the 100 steps
  expect_same_outputs(straight, split, "adaptive");
  EXPECT_EQ(cli::read_json(split / "run.json").at("status"), "finished");
}

TEST(Checkpoint, ASlidingBlockWithFrictionResumesBitForBit) {
  // IPC contact with lagged friction: the barrier stiffness and the friction lag come back from
  // the checkpoint, and energy.csv's friction_dissipated carries its sum over the kept rows.
  TempDir tmp;
  json s = cli::read_json(cli::kSourceDir / "scenes" / "ipc_inclined_plane.json");
  s["time"]["steps"] = 100;
  s["output"] = {{"every", 10}};
  const auto scene = tmp.write("incline.json", s);
  const fs::path straight = tmp / "straight", split = tmp / "split";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
  const Result first = cli::run({"run", scene.string(), "-o", split.string(), "--quiet", "--steps",
                                 "50", "--checkpoint-every", "50"});
  ASSERT_EQ(first.code, 0) << first.describe();
  const Result resumed = cli::run({"resume", split.string(), "--steps", "100", "--quiet"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  EXPECT_GT(cli::column(straight / "energy.csv", "friction_dissipated").back(), 0.0);
  expect_same_outputs(straight, split, "friction");
}

TEST(Checkpoint, ARunWithFrictionFromBeforeTheDissipationColumnResumes) {
  // energy.csv of a run started before friction_dissipated existed: continued without it.
  TempDir tmp;
  json s = cli::read_json(cli::kSourceDir / "scenes" / "ipc_inclined_plane.json");
  s["time"]["steps"] = 30;
  const auto scene = tmp.write("incline.json", s);
  const fs::path out = tmp / "out";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "20",
                      "--checkpoint-every", "20"})
                .code,
            0);
  std::string without;
  for (const std::string& line : cli::lines(out / "energy.csv"))
    without += line.substr(0, line.rfind(',')) + "\n";  // the last column is friction_dissipated
  tmp.write("out/energy.csv", without);
  const Result resumed = cli::run({"resume", out.string(), "--steps", "30", "--quiet"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  const auto rows = cli::lines(out / "energy.csv");
  EXPECT_EQ(rows.size(), 32u);  // the header and steps 0..30
  EXPECT_EQ(rows.at(0).find("friction_dissipated"), std::string::npos) << rows.at(0);
}

TEST(Checkpoint, ARunEndedBetweenFrameStepsResumesToTheSameFrames) {
  // A run that ends at step 48 writes a frame there (its last step), which the uninterrupted run
  // does not (frames every 5 steps, or every 0.023 s): the resumed run drops it.
  for (const json& output : {json{{"every", 5}}, json{{"interval", 0.023}}}) {
    TempDir tmp;
    json s = driven_scene("bdf2");
    s["output"] = output;
    const auto scene = tmp.write("s.json", s);
    const fs::path straight = tmp / "straight", split = tmp / "split";
    ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
    ASSERT_EQ(cli::run({"run", scene.string(), "-o", split.string(), "--quiet", "--steps", "48",
                        "--checkpoint-every", "48"})
                  .code,
              0);
    EXPECT_TRUE(fs::exists(split / "frames" / "000048.vtu"));
    const Result resumed = cli::run({"resume", split.string(), "--steps", "100", "--quiet"});
    ASSERT_EQ(resumed.code, 0) << resumed.describe();
    expect_same_outputs(straight, split, output.dump());
  }
}

TEST(Checkpoint, AResumeFromAnEarlierCheckpointDropsTheRowsAndFramesAfterIt) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", driven_scene("bdf2"));
  const fs::path straight = tmp / "straight", split = tmp / "split";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
  // Checkpoint at 40; the run goes on to 60, as if killed (SIGKILL) before the next checkpoint.
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", split.string(), "--quiet", "--steps", "60",
                      "--checkpoint-every", "40"})
                .code,
            0);
  const Result resumed = cli::run({"resume", split.string(), "--steps", "100", "--quiet"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  expect_same_outputs(straight, split, "from 40 with rows to 60");
}

TEST(Checkpoint, AnInterruptedRunResumesFromTheCheckpointItWroteOnTheSignal) {
  TempDir tmp;
  json s = driven_scene("bdf2");
  s["time"]["steps"] = 3000;
  s["output"]["every"] = 500;
  const auto scene = tmp.write("s.json", s);
  const fs::path straight = tmp / "straight", split = tmp / "split";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", straight.string(), "--quiet"}).code, 0);
  const Result stopped =
      cli::run({"run", scene.string(), "-o", split.string(), "--quiet", "--threads", "1"}, {},
               [&](pid_t pid) {
                 for (int i = 0; i < 3000; ++i) {
                   std::error_code ec;
                   if (fs::file_size(split / "energy.csv", ec) > 4000 && !ec) break;
                   std::this_thread::sleep_for(std::chrono::milliseconds(20));
                 }
                 ::kill(pid, SIGTERM);
               });
  ASSERT_EQ(stopped.code, 128 + SIGTERM) << stopped.describe();
  ASSERT_EQ(cli::read_json(split / "run.json").at("status"), "interrupted");
  EXPECT_TRUE(stopped.err.find("simrun resume") != std::string::npos) << stopped.err;
  const Result resumed = cli::run({"resume", split.string(), "--quiet"});
  ASSERT_EQ(resumed.code, 0) << resumed.describe();
  EXPECT_SAME_TEXT(cli::read_file(straight / "energy.csv"), cli::read_file(split / "energy.csv"),
                   "energy.csv");
}

TEST(Checkpoint, ATimeLimitStopsTheRunLikeAnInterruptionAndItResumesBitForBit) {
  TempDir tmp;
  json s = driven_scene("bdf2");
  s["time"]["steps"] = 1000000;  // hours: only the limit ends it
  s["output"]["every"] = 500;
  const auto scene = tmp.write("s.json", s);
  const fs::path limited = tmp / "limited", straight = tmp / "straight";
  const Result stopped = cli::run({"run", scene.string(), "-o", limited.string(), "--quiet",
                                   "--threads", "1", "--time-limit", "0.5s"});
  ASSERT_EQ(stopped.code, 2) << stopped.describe();  // did not finish; not a signal
  const json record = cli::read_json(limited / "run.json");
  EXPECT_EQ(record.at("status"), "interrupted");
  EXPECT_NE(record.at("message").get<std::string>().find("time limit of 0.5 s"), std::string::npos)
      << record.dump();
  const long done = record.at("/counts/steps_done"_json_pointer);
  ASSERT_GE(done, 1);
  EXPECT_LT(done, 1000000);
  // run.json's total starts its stepping clock a little after the limit's clock.
  EXPECT_GE(record.at("/wall_seconds/total"_json_pointer).get<double>(), 0.45);
  EXPECT_TRUE(fs::exists(limited / "checkpoint" / "state.bin"));
  // The continuation takes the steps a straight run takes.
  const std::string total = std::to_string(done + 7);
  ASSERT_EQ(cli::run({"resume", limited.string(), "--quiet", "--steps", total}).code, 0);
  ASSERT_EQ(
      cli::run({"run", scene.string(), "-o", straight.string(), "--quiet", "--steps", total}).code,
      0);
  EXPECT_SAME_TEXT(cli::read_file(straight / "energy.csv"), cli::read_file(limited / "energy.csv"),
                   "energy.csv");
  for (const char* bad : {"0", "-1", "5x", "inf", "nan", "m"}) {
    const Result r = cli::run(
        {"run", scene.string(), "-o", (tmp / "bad").string(), "--quiet", "--time-limit", bad});
    EXPECT_EQ(r.code, 1) << bad << ": " << r.describe();
    EXPECT_NE(r.err.find("expected a wall time"), std::string::npos) << r.describe();
    EXPECT_FALSE(fs::exists(tmp / "bad")) << bad;
  }
}

TEST(Checkpoint, ResumeErrorsNameTheFolderAndWhatToDo) {
  TempDir tmp;
  const auto scene = tmp.write("s.json", driven_scene("si"));
  const fs::path out = tmp / "out";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "10"}).code,
            0);
  // No checkpoint was asked for.
  fs::remove_all(out / "checkpoint");
  const Result none = cli::run({"resume", out.string()});
  EXPECT_EQ(none.code, 1) << none.describe();
  EXPECT_TRUE(none.err.find("--checkpoint-every") != std::string::npos) << none.err;
  // A finished run: resume needs a larger --steps.
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", out.string(), "--quiet", "--steps", "10",
                      "--checkpoint-every", "5"})
                .code,
            0);
  const Result done = cli::run({"resume", out.string()});
  EXPECT_EQ(done.code, 1) << done.describe();
  EXPECT_TRUE(done.err.find("--steps") != std::string::npos) << done.err;
  // ... also when its last checkpoint is before its end (step 9 of 10): resuming used to redo
  // and rewrite step 10.
  const fs::path late = tmp / "late";
  ASSERT_EQ(cli::run({"run", scene.string(), "-o", late.string(), "--quiet", "--steps", "10",
                      "--checkpoint-every", "3"})
                .code,
            0);
  const std::string energy = cli::read_file(late / "energy.csv");
  const Result redo = cli::run({"resume", late.string()});
  EXPECT_EQ(redo.code, 1) << redo.describe();
  EXPECT_NE(redo.err.find("already finished (10 steps)"), std::string::npos) << redo.err;
  EXPECT_EQ(cli::read_file(late / "energy.csv"), energy);
  // A scene edited in run.json so that the checkpoint no longer fits: the error names the
  // checkpoint, and run.json is left as it was (the outputs are intact).
  json record = cli::read_json(out / "run.json");
  record["scene"]["objects"][0]["mesh"]["box"]["cells"] = {2, 1, 1};
  tmp.write("out/run.json", record);
  const Result changed = cli::run({"resume", out.string(), "--steps", "20", "--quiet"});
  EXPECT_EQ(changed.code, 1) << changed.describe();
  EXPECT_NE(changed.err.find((out / "checkpoint" / "state.bin").string()), std::string::npos)
      << changed.err;
  EXPECT_EQ(cli::read_json(out / "run.json"), record);
  // A bad --checkpoint-every.
  const Result bad =
      cli::run({"run", scene.string(), "-o", (tmp / "b").string(), "--checkpoint-every", "soon"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_TRUE(bad.err.find("30s") != std::string::npos) << bad.err;
}

}  // namespace
