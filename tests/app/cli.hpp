#pragma once
/// Helpers for end-to-end tests of the simrun executable: run it as a child process (fork/exec,
/// stdout and stderr captured separately, exit code returned), write scenes into a unique
/// temporary folder, and read back the files a run writes.
#include <gtest/gtest.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/test_paths.hpp"

namespace cli {

namespace fs = std::filesystem;

inline const fs::path kBinary = SIMRUN_BINARY;
inline const fs::path kSourceDir = SIMRUN_SOURCE_DIR;
inline const fs::path kTestData = SIMRUN_TEST_DATA;

struct Result {
  int code = -1;    ///< exit status; 128 + signal number when the child was killed by a signal
  std::string out;  ///< stdout
  std::string err;  ///< stderr
  std::string all() const { return out + err; }
  /// For failure messages: what the child printed.
  std::string describe() const {
    return "exit code " + std::to_string(code) + "\n--- stdout ---\n" + out + "--- stderr ---\n" +
           err;
  }
};

inline std::string read_stream(std::FILE* f) {
  std::string text;
  std::rewind(f);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  return text;
}

/// Runs `simrun args...` in `cwd` (the test's working directory when empty). `during`, when
/// given, is called with the child's pid while it runs (e.g. to send it a signal); `in_child`
/// in the forked child before exec (async-signal-safe calls only, e.g. entering a cgroup).
inline Result run(const std::vector<std::string>& args, const fs::path& cwd = {},
                  const std::function<void(pid_t)>& during = {},
                  const std::function<void()>& in_child = {}) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  if (!out || !err) throw std::runtime_error("tmpfile failed");
  std::vector<std::string> storage;
  storage.push_back(kBinary.string());
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    std::signal(SIGHUP, SIG_DFL);  // a ctest under nohup must not pass its SIG_IGN on
    if (in_child) in_child();
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  if (during) during(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  Result r;
  if (WIFEXITED(status))
    r.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.code = 128 + WTERMSIG(status);
  r.out = read_stream(out);
  r.err = read_stream(err);
  std::fclose(out);
  std::fclose(err);
  return r;
}

/// A unique folder under the system temp folder, removed at destruction (kept when the
/// environment variable SIMRUN_KEEP_TEST_OUTPUT is set, for debugging).
/// Sets an environment variable for the current scope (the children cli::run starts inherit it)
/// and restores its previous value, or its absence, at the end.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_previous = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (m_previous)
      ::setenv(m_name, m_previous->c_str(), 1);
    else
      ::unsetenv(m_name);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_previous;
};

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    m_path = fs::temp_directory_path() / ("simrun_app_test_" + std::to_string(getpid()) + "_" +
                                          std::to_string(counter++) + "_" + std::to_string(stamp));
    fs::create_directories(m_path);
  }
  ~TempDir() {
    if (std::getenv("SIMRUN_KEEP_TEST_OUTPUT")) return;
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return m_path; }
  fs::path operator/(const fs::path& p) const { return m_path / p; }

  /// Writes `text` to path()/name (creating folders) and returns the full path.
  fs::path write(const fs::path& name, const std::string& text) const {
    const fs::path file = m_path / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  fs::path write(const fs::path& name, const nlohmann::json& scene) const {
    return write(name, scene.dump(2));
  }
  /// Copies a file of tests/data (e.g. "meshes/two_tets.node") to path()/to.
  fs::path copy_data(const fs::path& from, const fs::path& to) const {
    const fs::path file = m_path / to;
    fs::create_directories(file.parent_path());
    fs::copy_file(kTestData / from, file, fs::copy_options::overwrite_existing);
    return file;
  }

 private:
  fs::path m_path;
};

inline std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Non-empty lines of a text file.
inline std::vector<std::string> lines(const fs::path& file) {
  std::vector<std::string> result;
  std::istringstream in(read_file(file));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) result.push_back(line);
  }
  return result;
}

inline std::vector<std::string> split(const std::string& line, char sep = ',') {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) fields.push_back(field);
  return fields;
}

/// Column `name` of a CSV file as numbers (fails the test when it is missing).
inline std::vector<double> column(const fs::path& csv, const std::string& name) {
  const std::vector<std::string> rows = lines(csv);
  const std::vector<std::string> header = split(rows.at(0));
  const auto it = std::find(header.begin(), header.end(), name);
  EXPECT_NE(it, header.end()) << name << " not in " << rows.at(0);
  std::vector<double> values;
  if (it == header.end()) return values;
  const size_t c = static_cast<size_t>(it - header.begin());
  for (size_t r = 1; r < rows.size(); ++r) values.push_back(std::stod(split(rows[r]).at(c)));
  return values;
}

inline nlohmann::json read_json(const fs::path& file) {
  return nlohmann::json::parse(read_file(file));
}

/// Number of regular files in `dir` whose name ends with `suffix` (0 when dir is missing).
inline int count_files(const fs::path& dir, const std::string& suffix) {
  if (!fs::is_directory(dir)) return 0;
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      ++n;
  }
  return n;
}

/// Occurrences of `needle` in `haystack`.
inline int count_of(const std::string& haystack, const std::string& needle) {
  int n = 0;
  for (std::size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size()))
    ++n;
  return n;
}

}  // namespace cli
