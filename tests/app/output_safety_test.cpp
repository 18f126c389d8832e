// Issue "users first", section 1: safe output folders (refusal, --force, lock, unwritable
// paths), interruption by a signal, the last good frame of a stopped run, and the errors a new
// user hit (validate checking what run checks, CLI ranges, the cells cap).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>

#include <csignal>
#include <fstream>
#include <functional>
#include <thread>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Result run_tiny(const TempDir& tmp, const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run", tmp.write("tiny.json", cli::tiny_scene()).string(), "-o",
                                   out.string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return cli::run(args);
}

TEST(OutputFolder, RefusesAFolderWithOtherFilesUnlessForced) {
  TempDir tmp;
  const fs::path out = tmp / "mine";
  tmp.write("mine/thesis.tex", std::string("precious"));
  const Result refused = run_tiny(tmp, out);
  EXPECT_EQ(refused.code, 1) << refused.describe();
  EXPECT_TRUE(contains(refused.err, out.string())) << refused.err;
  EXPECT_TRUE(contains(refused.err, "--force")) << refused.err;
  EXPECT_FALSE(fs::exists(out / "run.json"));

  const Result forced = run_tiny(tmp, out, {"--force"});
  ASSERT_EQ(forced.code, 0) << forced.describe();
  EXPECT_TRUE(fs::exists(out / "run.json"));
  EXPECT_EQ(cli::read_file(out / "thesis.tex"), "precious");  // not simrun's: kept
}

TEST(OutputFolder, ReplacesItsOwnPreviousRunOfTheSameSceneWithoutStaleFiles) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  ASSERT_EQ(run_tiny(tmp, out, {"--set", "/output/surface=true"}).code, 0);
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 4);
  EXPECT_FALSE(fs::exists(out / "checkpoint"));  // none asked for, none written: no empty folder
  // Same scene again, fewer steps, no surface: nothing of the first run survives.
  const Result again = run_tiny(tmp, out, {"--steps", "1"});
  ASSERT_EQ(again.code, 0) << again.describe();
  EXPECT_EQ(cli::count_files(out / "frames", ".vtu"), 2);
  EXPECT_FALSE(fs::exists(out / "surface"));
  EXPECT_EQ(cli::column(out / "energy.csv", "step").size(), 2u);

  // Another scene into the same folder: refused.
  json other = cli::tiny_scene();
  other["name"] = "other";
  const Result refused =
      cli::run({"run", tmp.write("other.json", other).string(), "-o", out.string(), "--quiet"});
  EXPECT_EQ(refused.code, 1) << refused.describe();
  EXPECT_TRUE(contains(refused.err, "'tiny'")) << refused.err;
}

TEST(OutputFolder, ASceneOfTheSameNameFromAnotherFileIsAnotherScene) {
  // a/x.json and b/x.json are both named "x" by default: b's run does not replace a's.
  TempDir tmp;
  const fs::path out = tmp / "out";
  json scene = cli::tiny_scene();
  scene.erase("name");
  const fs::path a = tmp.write("a/x.json", scene);
  ASSERT_EQ(cli::run({"run", a.string(), "-o", out.string(), "--quiet"}).code, 0);
  EXPECT_EQ(cli::read_json(out / "run.json").at("scene_file"), fs::weakly_canonical(a).string());
  scene["objects"][0]["material"]["E"] = 2e5;
  const fs::path b = tmp.write("b/x.json", scene);
  const Result refused = cli::run({"run", b.string(), "-o", out.string(), "--quiet"});
  EXPECT_EQ(refused.code, 1) << refused.describe();
  EXPECT_TRUE(contains(refused.err, "another scene named 'x'")) << refused.err;
  EXPECT_TRUE(contains(refused.err, a.string())) << refused.err;
  // The same file again (edited) replaces its own run; --force lets b's run in.
  EXPECT_EQ(cli::run({"run", a.string(), "-o", out.string(), "--quiet"}).code, 0);
  EXPECT_EQ(cli::run({"run", b.string(), "-o", out.string(), "--quiet", "--force"}).code, 0);
}

TEST(OutputFolder, ForceNeverDeletesAFolderThatNoSimrunRunRecordClaims) {
  // A user's folder that happens to be named like one of simrun's outputs, and no run.json:
  // --force does not make it simrun's to delete.
  TempDir tmp;
  const fs::path out = tmp / "mine";
  tmp.write("mine/reference/measurements.csv", std::string("1,2,3"));
  const Result r = run_tiny(tmp, out, {"--force"});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "'reference'")) << r.err;
  EXPECT_EQ(cli::read_file(out / "reference" / "measurements.csv"), "1,2,3");
  EXPECT_FALSE(fs::exists(out / "run.json"));
}

TEST(OutputFolder, ASecondRunIntoALockedFolderIsRefused) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  fs::create_directories(out);
  // Hold the lock as a running simrun would.
  const int fd = ::open((out / ".simrun.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const Result r = run_tiny(tmp, out);
  ::close(fd);
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "another simrun")) << r.err;
  EXPECT_FALSE(fs::exists(out / "energy.csv"));
  EXPECT_EQ(run_tiny(tmp, out).code, 0);  // free again
}

TEST(OutputFolder, AnUnwritablePathIsBadInput) {
  TempDir tmp;
  tmp.write("file", std::string("not a folder"));
  const Result r = run_tiny(tmp, tmp / "file" / "out");
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, (tmp / "file" / "out").string())) << r.err;
  EXPECT_FALSE(contains(r.err, "internal error")) << r.err;
  // The other commands that write a folder: modes, and a sweep (was exit 3, "filesystem error").
  const fs::path scene = tmp.write("tiny.json", cli::tiny_scene());
  tmp.write("sweep.json",
            json::parse(R"({"scene": "tiny.json", "parameters": {"/time/steps": [1]}})"));
  for (const auto& args :
       {std::vector<std::string>{"modes", scene.string(), "-n", "2", "-o", (tmp / "file").string()},
        std::vector<std::string>{"sweep", (tmp / "sweep.json").string(), "-o",
                                 (tmp / "file" / "sweep").string()}}) {
    const Result other = cli::run(args);
    EXPECT_EQ(other.code, 1) << args[0] << ": " << other.describe();
    EXPECT_TRUE(contains(other.err, "cannot create it")) << other.err;
  }
}

TEST(Validate, ChecksTheOutputFolderAsRunWouldWithoutTouchingIt) {
  TempDir tmp;
  tmp.write("file", std::string("not a folder"));
  json s = cli::tiny_scene();
  s["output"]["dir"] = (tmp / "file" / "out").string();
  const Result uncreatable = cli::run({"validate", tmp.write("a.json", s).string()});
  EXPECT_EQ(uncreatable.code, 1) << uncreatable.describe();
  EXPECT_TRUE(contains(uncreatable.err, "cannot create it")) << uncreatable.err;
  // A folder `run` refuses without --force: a warning, since the run may pass --force.
  tmp.write("mine/thesis.tex", std::string("precious"));
  s["output"]["dir"] = (tmp / "mine").string();
  const Result foreign = cli::run({"validate", tmp.write("b.json", s).string()});
  EXPECT_EQ(foreign.code, 0) << foreign.describe();
  EXPECT_TRUE(contains(foreign.err, "warning: output folder")) << foreign.err;
  EXPECT_TRUE(contains(foreign.err, "without --force")) << foreign.err;
  EXPECT_FALSE(fs::exists(tmp / "mine" / "run.json"));
}

/// tiny_scene for hours (10^7 steps), a frame every 1000: runs until a test stops it.
json endless_scene() {
  json s = cli::tiny_scene();
  s["time"]["steps"] = 10000000;
  s["output"]["every"] = 1000;
  return s;
}

/// Waits (at most 60 s, for the set-up) until the run into `out` has written a few energy rows.
void wait_until_stepping(const fs::path& out) {
  for (int i = 0; i < 3000; ++i) {
    std::error_code ec;
    if (fs::exists(out / "energy.csv", ec) && fs::file_size(out / "energy.csv", ec) > 2000) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

/// Runs endless_scene into `out`: `during` gets the pid once it is stepping; `in_child` as
/// cli::run's.
Result run_endless(const TempDir& tmp, const fs::path& out,
                   const std::function<void(pid_t)>& during,
                   const std::function<void()>& in_child = {}) {
  return cli::run(
      {"run", tmp.write("long.json", endless_scene()).string(), "-o", out.string(), "--quiet",
       "--threads", "1"},
      {},
      [&](pid_t pid) {
        wait_until_stepping(out);
        during(pid);
      },
      in_child);
}

TEST(OutputFolder, ModesIntoAFolderARunIsWritingIsRefused) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  Result modes;
  const Result run = run_endless(tmp, out, [&](pid_t pid) {
    modes = cli::run({"modes", (tmp / "long.json").string(), "-n", "2", "-o", out.string()});
    ::kill(pid, SIGINT);
  });
  EXPECT_EQ(run.code, 128 + SIGINT) << run.describe();
  EXPECT_EQ(modes.code, 1) << modes.describe();
  EXPECT_TRUE(contains(modes.err, "another simrun is writing there")) << modes.err;
  EXPECT_FALSE(fs::exists(out / "modes.csv"));
}

/// Runs a long scene and sends `signal` once it has written a few energy rows.
Result run_and_interrupt(const TempDir& tmp, const fs::path& out, int signal) {
  return run_endless(tmp, out, [signal](pid_t pid) { ::kill(pid, signal); });
}

const char* strsignal_name(int signal) {
  return signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "SIGHUP";
}

TEST(Interrupt, SigtermSigintAndSighupEndTheRunCleanlyWithItsLastGoodFrame) {
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    TempDir tmp;
    const fs::path out = tmp / "out";
    const Result r = run_and_interrupt(tmp, out, signal);
    EXPECT_EQ(r.code, 128 + signal) << r.describe();
    const json record = cli::read_json(out / "run.json");
    EXPECT_EQ(record.at("status"), "interrupted") << record.dump(2);
    EXPECT_TRUE(contains(record.value("message", ""), strsignal_name(signal)));
    const long steps = record.at("/counts/steps_done"_json_pointer).get<long>();
    EXPECT_GT(steps, 0);
    EXPECT_TRUE(record.contains("wall_seconds"));
    // energy.csv holds every step done; the last good state is a frame, listed in frames.pvd.
    const std::vector<double> step = cli::column(out / "energy.csv", "step");
    ASSERT_FALSE(step.empty());
    EXPECT_EQ(static_cast<long>(step.back()), steps);
    char name[32];
    std::snprintf(name, sizeof name, "%06ld.vtu", steps);
    EXPECT_TRUE(fs::exists(out / "frames" / name)) << name;
    EXPECT_TRUE(contains(cli::read_file(out / "frames.pvd"), name));
    EXPECT_TRUE(contains(cli::read_file(out / "simrun.log"), "interrupted"));
  }
}

TEST(Interrupt, ARunStartedWithSighupIgnoredLikeNohupOutlivesAHangup) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r = run_endless(
      tmp, out,
      [](pid_t pid) {
        ::kill(pid, SIGHUP);  // the terminal closes: nohup's run goes on
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ::kill(pid, SIGTERM);
      },
      [] { std::signal(SIGHUP, SIG_IGN); });
  EXPECT_EQ(r.code, 128 + SIGTERM) << r.describe();
  EXPECT_TRUE(contains(cli::read_json(out / "run.json").value("message", ""), "SIGTERM"));
}

/// Whether the process has a handler for SIGABRT (bit 6 of /proc/PID/status SigCgt): METIS (in
/// CHOLMOD's ordering) installs one, with one for SIGTERM, only while it orders a matrix.
/// -1 when the process has ended (a zombie, or gone).
int metis_traps_signals(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("State:", 0) == 0 && line.find('Z') != std::string::npos) return -1;
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> 5) & 1;
  }
  return -1;
}

TEST(Interrupt, ASignalDuringTheSetUpEndsTheRunBeforeItTouchesTheFolder) {
  // `--force` into a finished run, stopped by Ctrl-C while the new one is still setting up: the
  // process ends at once and the earlier run's outputs are untouched.
  TempDir tmp;
  const fs::path out = tmp / "out";
  ASSERT_EQ(run_tiny(tmp, out).code, 0);
  const std::string before = cli::read_file(out / "run.json");
  json s = cli::read_json(cli::kSourceDir / "scenes" / "quickstart.json");
  s["name"] = "tiny";
  s["objects"][0]["mesh"]["box"]["cells"] = {200, 20, 20};  // seconds of set-up
  const Result r = cli::run({"run", tmp.write("big.json", s).string(), "-o", out.string(),
                             "--force", "--quiet", "--threads", "1"},
                            {}, [](pid_t pid) {
                              std::this_thread::sleep_for(std::chrono::milliseconds(100));
                              ::kill(pid, SIGINT);
                            });
  EXPECT_EQ(r.code, 128 + SIGINT) << r.describe();
  EXPECT_EQ(cli::read_file(out / "run.json"), before);
}

TEST(Interrupt, ASigtermWhileMetisOrdersTheMatrixIsNotLost) {
  // A SIGTERM delivered while METIS had its own handler installed went to METIS and was lost:
  // the run went on to the end (a Slurm job at its time limit would be killed without its
  // checkpoint). The signal is sent the moment METIS is seen ordering (polling SigCgt); the
  // run must stop as interrupted. When the poll misses the window the test still checks a
  // plain interruption and says so.
  TempDir tmp;
  json s = cli::read_json(cli::kSourceDir / "scenes" / "quickstart.json");
  // Large enough that CHOLMOD's analysis tries METIS (after AMD), for about a second.
  s["objects"][0]["mesh"]["box"]["cells"] = {120, 12, 12};
  s["time"]["steps"] = 40;
  s["output"] = {{"every", 1000}};
  const fs::path out = tmp / "out";
  bool in_metis = false;
  const Result r = cli::run(
      {"run", tmp.write("bar.json", s).string(), "-o", out.string(), "--quiet", "--threads", "1"},
      {}, [&](pid_t pid) {
        for (int state = 0; state == 0;) {
          state = metis_traps_signals(pid);
          in_metis = state == 1;
          if (state == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
        ::kill(pid, SIGTERM);
      });
  std::printf("[ interrupt ] SIGTERM sent %s METIS ordered the matrix\n",
              in_metis ? "while" : "(the poll never saw)");
  EXPECT_EQ(r.code, 128 + SIGTERM) << r.describe();
  const json record = cli::read_json(out / "run.json");
  EXPECT_EQ(record.at("status"), "interrupted") << record.dump(2);
  EXPECT_LT(record.at("/counts/steps_done"_json_pointer).get<long>(), 40);
}

TEST(Validate, ChecksWhatRunChecks) {
  TempDir tmp;
  // A mesh file that cannot be read: run rejects it, so validate must too.
  tmp.write("broken.off", std::string("OFF\n3 1 0\n0 0 0\n"));
  json s = cli::file_scene((tmp / "broken.off").string());
  const Result r = cli::run({"validate", tmp.write("s.json", s).string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "broken.off")) << r.err;
}

TEST(Cli, RangeErrorsAreShort) {
  TempDir tmp;
  const Result r = run_tiny(tmp, tmp / "out", {"--threads", "0"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "--threads")) << r.err;
  EXPECT_LT(r.err.size(), 200u) << r.err;  // no 309-digit largest double
  const Result steps = run_tiny(tmp, tmp / "out", {"--steps", "-1"});
  EXPECT_EQ(steps.code, 1);
  EXPECT_TRUE(contains(steps.err, "--steps")) << steps.err;
  // Too large for the option: the range, not CLI11's "Could not convert".
  const Result huge = run_tiny(tmp, tmp / "out", {"--steps", "2000000000000"});
  EXPECT_EQ(huge.code, 1);
  EXPECT_TRUE(contains(huge.err, "--steps: expected a whole number from 0 to 2147483647"))
      << huge.err;
  const Result jobs =
      cli::run({"sweep", (cli::kSourceDir / "scenes/sweeps/quickstart_refinement.json").string(),
                "-o", (tmp / "sweep").string(), "-j", "0"});
  EXPECT_EQ(jobs.code, 1);
  EXPECT_TRUE(contains(jobs.err, "--jobs")) << jobs.err;
  EXPECT_LT(jobs.err.size(), 200u) << jobs.err;
}

TEST(Cli, TheCellsCapNamesTheSceneAndPointer) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {2000, 2000, 2000};
  const auto file = tmp.write("huge.json", s);
  // On a machine with memory to spare for it the cap still holds (elsewhere the memory
  // estimate refuses the scene first).
  ::setenv("SIMRUN_MEMORY_LIMIT", "1e30", 1);
  const Result r = cli::run({"validate", file.string()});
  ::unsetenv("SIMRUN_MEMORY_LIMIT");
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, file.string() + ": /objects/0/mesh/box")) << r.err;
}

TEST(Run, ALinearMaterialFarPastSmallStrainIsWarnedAbout) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["time"] = {{"dt", 0.005}, {"steps", 60}};
  s["objects"][0]["material"]["E"] = 1e4;  // a 1 m bar that droops far
  const fs::path out = tmp / "out";
  const Result r = cli::run({"run", tmp.write("soft.json", s).string(), "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "warning: /objects/0")) << r.err;
  const json record = cli::read_json(out / "run.json");
  ASSERT_TRUE(record.contains("warnings"));
  EXPECT_TRUE(contains(record["warnings"][0].get<std::string>(), "corotated"));

  s["objects"][0]["material"]["E"] = 1e9;  // stiff: small strain, no warning
  const Result stiff =
      cli::run({"run", tmp.write("stiff.json", s).string(), "-o", (tmp / "stiff").string()});
  ASSERT_EQ(stiff.code, 0);
  EXPECT_FALSE(contains(stiff.err, "warning")) << stiff.err;
  EXPECT_FALSE(cli::read_json(tmp / "stiff" / "run.json").contains("warnings"));
}

}  // namespace

namespace {

TEST(Memory, ModesPastTheMachinesMemoryAreRefusedBeforeTheEigensolve) {
  // Thousands of modes: Spectra's Krylov basis and dense work matrices, not the mesh, need the
  // memory (-n 4000 of 9.5k DOFs: ~2.7 GB). Before, the allocation failed midway.
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {40, 8, 8};
  const auto file = tmp.write("modes.json", s);
  cli::ScopedEnv limit("SIMRUN_MEMORY_LIMIT", "1e9");
  const Result r = cli::run({"modes", file.string(), "-n", "4000", "-o", (tmp / "out").string()});
  EXPECT_EQ(r.code, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "modes: -n 4000 needs about")) << r.err;
  EXPECT_TRUE(contains(r.err, "Krylov basis")) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out" / "modes.csv"));
}

TEST(Memory, AScenePastTheMachinesMemoryIsRefusedWithTheEstimate) {
  TempDir tmp;
  json s = cli::tiny_scene();
  // 3.3k vertices: ~37 MB for the model, ~31 MB more for a Cholesky factor.
  s["objects"][0]["mesh"]["box"]["cells"] = {40, 8, 8};
  const auto file = tmp.write("big.json", s);
  ::setenv("SIMRUN_MEMORY_LIMIT", "50e6", 1);  // a 50 MB machine
  const Result refused = cli::run({"run", file.string(), "-o", (tmp / "out").string()});
  const Result explicit_run = cli::run({"validate", file.string(), "--set", "/integrator/type=fe"});
  ::unsetenv("SIMRUN_MEMORY_LIMIT");
  EXPECT_EQ(refused.code, 1) << refused.describe();
  EXPECT_TRUE(
      contains(refused.err, file.string() + ": /objects/0/mesh/box/cells: the run needs about"))
      << refused.err;
  EXPECT_TRUE(contains(refused.err, "Cholesky factor")) << refused.err;
  EXPECT_FALSE(fs::exists(tmp / "out"));
  // Without a factorization the same mesh fits.
  EXPECT_EQ(explicit_run.code, 0) << explicit_run.describe();
}

/// The reference (fine) meshes of coarsening and EigenFit are built and factorized in the set-up
/// too: they are estimated before, and refused naming their pointer (before, only the run's own
/// meshes were, and a large reference died of std::bad_alloc or the kernel's OOM killer).
TEST(Memory, AReferenceMeshPastTheMachinesMemoryIsRefusedWithTheEstimate) {
  TempDir tmp;
  json s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {8, 2, 2};  // fits 50 MB
  s["objects"][0]["reference"]["mesh"] = {
      {"box", {{"size", {1.0, 0.2, 0.2}}, {"cells", {40, 8, 8}}}}};
  s["objects"][0]["coarsening"]["method"] = "harmonic";
  const auto coarsened = tmp.write("coarsened.json", s);
  s["objects"][0].erase("coarsening");
  s["objects"][0]["eigenfit"] = {{"method", "eigenfit"}, {"modes", 3}};
  const auto eigenfit = tmp.write("eigenfit.json", s);
  cli::ScopedEnv limit("SIMRUN_MEMORY_LIMIT", "50e6");  // a 50 MB machine
  const Result c = cli::run({"run", coarsened.string(), "-o", (tmp / "c").string()});
  EXPECT_EQ(c.code, 1) << c.describe();
  EXPECT_TRUE(contains(
      c.err, coarsened.string() + ": /objects/0/reference/mesh/box/cells: the run needs about"))
      << c.err;
  const Result e = cli::run({"run", eigenfit.string(), "-o", (tmp / "e").string()});
  EXPECT_EQ(e.code, 1) << e.describe();
  EXPECT_TRUE(contains(e.err, "in the reference meshes")) << e.err;
  EXPECT_TRUE(contains(e.err, "/objects/0/mesh/box/cells: the run needs about")) << e.err;
  EXPECT_FALSE(fs::exists(tmp / "c"));
  EXPECT_FALSE(fs::exists(tmp / "e"));
}

}  // namespace

namespace {

TEST(Validate, AFolderNameThatIsNotUtf8IsNoInternalError) {
  TempDir tmp;
  const fs::path folder = tmp / "scenes_\xff";  // Latin-1 byte, not UTF-8
  const fs::path file = folder / "tiny.json";
  fs::create_directories(folder);
  std::ofstream(file) << cli::tiny_scene().dump();
  const Result r = cli::run({"validate", file.string()});
  EXPECT_EQ(r.code, 0) << r.describe();  // was exit 3: nlohmann type_error 316 printing the path
  const Result run = cli::run({"run", file.string(), "-o", (folder / "out").string(), "--quiet"});
  EXPECT_EQ(run.code, 0) << run.describe();
}

}  // namespace
