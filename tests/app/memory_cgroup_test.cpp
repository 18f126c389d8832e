// Memory limits set by a cgroup, as a batch system sets them (Slurm's --mem): the memory estimate
// refuses a run that does not fit the cgroup's room, and a sweep run killed by the kernel's
// out-of-memory killer is "failed" with that reason, not "interrupted". The tests make a real
// memory cgroup below their own (cgroup v1's memory controller or v2) and are skipped, with the
// reason printed, where none can be made.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// A memory cgroup below this process's own with a limit, removed at the end. reason() says why
/// none could be made (no memory controller, no permission, v2 without a delegated subtree).
class MemoryCgroup {
 public:
  explicit MemoryCgroup(long long limit_bytes) {
    std::ifstream self("/proc/self/cgroup");
    std::string line;
    const std::string name = "simrun_test_" + std::to_string(::getpid());
    while (std::getline(self, line) && m_dir.empty()) {
      // "ID:CONTROLLERS:PATH"; v1's memory controller lists "memory", v2's line is "0::PATH".
      const std::size_t first = line.find(':'), second = line.find(':', first + 1);
      if (second == std::string::npos) continue;
      std::string controllers = ",";  // piece by piece: GCC 12's -Wrestrict false positive
      controllers += line.substr(first + 1, second - first - 1);
      controllers += ',';
      const std::string path = line.substr(second + 1);
      if (controllers.find(",memory,") != std::string::npos)
        make(fs::path("/sys/fs/cgroup/memory" + path), "/sys/fs/cgroup/memory", name,
             "memory.limit_in_bytes", limit_bytes);
      else if (controllers == ",," && line.rfind("0:", 0) == 0)
        make(fs::path("/sys/fs/cgroup" + path), "/sys/fs/cgroup", name, "memory.max", limit_bytes);
    }
    if (m_dir.empty() && m_reason.empty()) m_reason = "no memory cgroup in /proc/self/cgroup";
  }
  ~MemoryCgroup() {
    if (m_dir.empty()) return;
    // The children have been reaped; the kernel may take a moment to let the cgroup go.
    for (int attempt = 0; attempt < 50 && ::rmdir(m_dir.c_str()) != 0 && errno == EBUSY; ++attempt)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;

  bool ok() const { return !m_dir.empty(); }
  const std::string& reason() const { return m_reason; }

  /// In a forked child before exec: moves the calling process into the cgroup (async-signal-safe
  /// calls only). Exits 125 when it cannot.
  void enter() const {
    char digits[24];
    int n = 0;
    for (pid_t pid = ::getpid(); pid > 0; pid /= 10)
      digits[n++] = static_cast<char>('0' + pid % 10);
    char text[24];
    for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
    const int fd = ::open(m_procs.c_str(), O_WRONLY);
    if (fd < 0 || ::write(fd, text, n) != n) _exit(125);
    ::close(fd);
  }

 private:
  void make(fs::path parent, const fs::path& root, const std::string& name, const char* limit_file,
            long long limit_bytes) {
    if (!fs::exists(parent)) parent = root;  // a container may see its cgroup as the root
    const fs::path dir = parent / name;
    if (::mkdir(dir.c_str(), 0755) != 0) {
      m_reason = "cannot make the cgroup " + dir.string() + ": " + std::strerror(errno);
      return;
    }
    std::ofstream limit(dir / limit_file);
    limit << limit_bytes << std::flush;
    if (!limit) {
      m_reason = "cannot set " + (dir / limit_file).string();
      ::rmdir(dir.c_str());
      return;
    }
    m_dir = dir.string();
    m_procs = (dir / "cgroup.procs").string();
  }

  std::string m_dir, m_procs, m_reason;
};

/// A bar of 100 x 20 x 20 box cells (44k vertices): about 1.1 GB with its Cholesky factor.
json big_bar() {
  json s = cli::tiny_scene();
  s["objects"][0]["mesh"]["box"]["cells"] = {100, 20, 20};
  s["integrator"]["type"] = "be";
  s["time"]["steps"] = 1;
  return s;
}

constexpr long long kCgroupLimit = 150'000'000;  // bytes: room for simrun itself, not the bar

/// AddressSanitizer's shadow memory and quarantine alone take simrun past 150 MB: a sanitized
/// build is OOM-killed before it reads the scene, so these tests say why and skip there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#define SKIP_UNDER_ASAN() \
  if (kSanitized) GTEST_SKIP() << "an ASan build of simrun does not fit a 150 MB cgroup"

TEST(MemoryCgroup, ARunPastItsCgroupsLimitIsRefusedWithTheEstimate) {
  SKIP_UNDER_ASAN();
  MemoryCgroup cgroup(kCgroupLimit);
  if (!cgroup.ok()) GTEST_SKIP() << cgroup.reason();
  TempDir tmp;
  const fs::path scene = tmp.write("big.json", big_bar());
  const Result inside =
      cli::run({"validate", scene.string()}, {}, {}, [&cgroup] { cgroup.enter(); });
  EXPECT_EQ(inside.code, 1) << inside.describe();
  EXPECT_NE(inside.err.find("/objects/0/mesh/box/cells: the run needs about"), std::string::npos)
      << inside.err;
  EXPECT_NE(inside.err.find("MB are available"), std::string::npos) << inside.err;
  // Outside the cgroup this machine has the room.
  const Result outside = cli::run({"validate", scene.string()});
  EXPECT_EQ(outside.code, 0) << outside.describe();
}

TEST(MemoryCgroup, ASweepRunKilledByTheOutOfMemoryKillerFailsAndSaysSo) {
  SKIP_UNDER_ASAN();
  MemoryCgroup cgroup(kCgroupLimit);
  if (!cgroup.ok()) GTEST_SKIP() << cgroup.reason();
  {
    std::ifstream vmstat("/proc/vmstat");
    std::string text((std::istreambuf_iterator<char>(vmstat)), std::istreambuf_iterator<char>());
    if (text.find("oom_kill ") == std::string::npos)
      GTEST_SKIP() << "this kernel's /proc/vmstat has no oom_kill count";
  }
  TempDir tmp;
  tmp.write("base.json", big_bar());
  const fs::path sweep = tmp.write(
      "sweep.json", json::parse(R"({"scene": "base.json", "parameters": {"/time/steps": [1]}})"));
  // The estimate would refuse the run; with it out of the way the run allocates until the
  // kernel kills it.
  cli::ScopedEnv no_estimate("SIMRUN_MEMORY_LIMIT", "1e12");
  const fs::path out = tmp / "sweep";
  const Result r = cli::run({"sweep", sweep.string(), "-o", out.string(), "--threads", "1"}, {}, {},
                            [&cgroup] { cgroup.enter(); });
  ASSERT_NE(r.code, 0) << r.describe();
  const std::string summary = cli::read_file(out / "summary.csv");
  EXPECT_NE(summary.find(",failed,"), std::string::npos) << summary << r.describe();
  EXPECT_NE(summary.find("out-of-memory killer"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("interrupted"), std::string::npos) << summary;
}

}  // namespace
