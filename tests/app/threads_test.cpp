// --threads N means N for every thread pool: simrun's OpenMP loops, CHOLMOD's OpenMP regions and
// OpenBLAS's pthreads (which start when the library loads). run.json says what was used.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <thread>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

json thread_use(const TempDir& dir, const std::string& threads) {
  const cli::Result r =
      cli::run({"run", (cli::kSourceDir / "scenes" / "quickstart.json").string(), "-o",
                (dir / "out").string(), "--steps", "20", "--threads", threads, "--quiet"});
  EXPECT_EQ(r.code, 0) << r.describe();
  std::ifstream in(dir / "out" / "run.json");
  const json record = json::parse(in);
  EXPECT_EQ(record.at("threads"), std::stoi(threads));
  return record.at("thread_use");
}

TEST(Threads, OneThreadRunCreatesNoWorkerThreads) {
  TempDir dir;
  const json use = thread_use(dir, "1");
  EXPECT_EQ(use.at("alive"), 1) << use.dump();  // the main thread only, at the end of the run
  EXPECT_EQ(use.at("openmp"), 1);
  EXPECT_EQ(use.at("openmp_limit"), 1);  // caps CHOLMOD's own OpenMP regions too
  if (use.at("blas") != -1) {            // -1: the BLAS is not OpenBLAS
    EXPECT_EQ(use.at("blas"), 1);
  }
}

TEST(Threads, EveryPoolGetsTheRequestedCount) {
  TempDir dir;
  const json use = thread_use(dir, "2");
  EXPECT_EQ(use.at("openmp"), 2) << use.dump();
  EXPECT_EQ(use.at("openmp_limit"), 2);
  // OpenBLAS never runs more threads than the machine has cores.
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (use.at("blas") != -1) {
    EXPECT_EQ(use.at("blas"), std::min(2L, cores));
  }
}

TEST(Threads, MoreThanAThousandThreadsIsBadInputNamingWhereItCameFrom) {
  // libgomp crashed (SIGSEGV, run.json left "running") when asked for 99999 threads.
  TempDir dir;
  const std::string scene = (cli::kSourceDir / "scenes" / "quickstart.json").string();
  const auto expect_refused = [&](const cli::Result& r, const std::string& source) {
    EXPECT_EQ(r.code, 1) << r.describe();
    EXPECT_NE(r.err.find(source), std::string::npos) << r.describe();
    EXPECT_NE(r.err.find("at most 1024"), std::string::npos) << r.describe();
    EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
  };
  expect_refused(cli::run({"run", scene, "-o", (dir / "out").string(), "--threads", "99999"}),
                 "--threads");
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const std::string saved = omp ? omp : "";
  setenv("OMP_NUM_THREADS", "99999", 1);
  const cli::Result from_environment = cli::run({"run", scene, "-o", (dir / "out").string()});
  if (omp)
    setenv("OMP_NUM_THREADS", saved.c_str(), 1);
  else
    unsetenv("OMP_NUM_THREADS");
  expect_refused(from_environment, "OMP_NUM_THREADS");
  const cli::Result scene_value = cli::run({"validate", scene, "--set", "/threads=5000"});
  EXPECT_EQ(scene_value.code, 1) << scene_value.describe();
  EXPECT_NE(scene_value.err.find("/threads"), std::string::npos) << scene_value.describe();
}

TEST(Threads, ASceneFromAPipeRunsWithoutTheRestart) {
  // The restart would read the scene a second time; a FIFO can be read once.
  TempDir dir;
  const std::string fifo = (dir / "scene.json").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::ifstream source(cli::kSourceDir / "scenes" / "quickstart.json");
  const std::string text((std::istreambuf_iterator<char>(source)),
                         std::istreambuf_iterator<char>());
  std::thread writer([&] { std::ofstream(fifo) << text; });
  const cli::Result r = cli::run(
      {"run", fifo, "-o", (dir / "out").string(), "--steps", "5", "--threads", "3", "--quiet"});
  writer.join();
  EXPECT_EQ(r.code, 0) << r.describe();
}

}  // namespace
