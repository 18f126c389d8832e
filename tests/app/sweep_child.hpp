#pragma once
/// A simrun process that a test starts, signals and waits for with a time limit (cli::run waits
/// for its child at once), and a look at /proc for processes left behind.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app/cli.hpp"

namespace sweep_child {

class Child {
 public:
  /// Starts `simrun args...` with stdout and stderr going to one temporary file.
  explicit Child(const std::vector<std::string>& args) {
    m_log = std::tmpfile();
    if (!m_log) throw std::runtime_error("tmpfile failed");
    std::vector<std::string> storage = {cli::kBinary.string()};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);
    m_pid = fork();
    if (m_pid < 0) throw std::runtime_error("fork failed");
    if (m_pid == 0) {
      dup2(fileno(m_log), STDOUT_FILENO);
      dup2(fileno(m_log), STDERR_FILENO);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~Child() {
    stop();
    std::fclose(m_log);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  void signal(int number) const {
    if (m_code < 0) kill(m_pid, number);
  }

  /// The exit code (128 + signal when killed), or -1 when it is still running after `seconds`.
  int wait(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (m_code < 0) {
      int status = 0;
      const pid_t done = waitpid(m_pid, &status, WNOHANG);
      if (done == m_pid) {
        m_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      } else if (std::chrono::steady_clock::now() > end) {
        return -1;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    return m_code;
  }

  /// Kills the process if it still runs (SIGKILL) and returns what it printed.
  std::string stop() {
    if (m_code < 0) {
      kill(m_pid, SIGKILL);
      wait(10.0);
    }
    return output();
  }

  /// stdout and stderr so far.
  std::string output() const {
    std::fflush(m_log);
    return cli::read_stream(m_log);
  }

 private:
  pid_t m_pid = -1;
  int m_code = -1;
  std::FILE* m_log = nullptr;
};

/// Polls `condition` every 20 ms for up to `seconds`.
inline bool wait_until(const std::function<bool()>& condition, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

/// Live processes (zombies have no command line) whose command line contains `text`.
inline int processes_mentioning(const std::string& text) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid()))
      continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    if (cmdline.find(text) != std::string::npos) ++count;
  }
  return count;
}

}  // namespace sweep_child
