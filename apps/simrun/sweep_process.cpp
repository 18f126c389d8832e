#include "sweep_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <string>

namespace simrun::app {

namespace {

// The one piece of global state: a signal handler can reach the sweep's loops only through it.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int signal) { g_stop_signal = signal; }

std::vector<char*> c_arguments(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

std::string read_all(std::FILE* f) {
  std::string text;
  std::rewind(f);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  return text;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return exit_code_of(status);
}

/// In a forked child before exec: default signal dispositions and an empty signal mask (the
/// sweep blocks or catches SIGINT and SIGTERM; exec keeps ignored signals and the mask).
void reset_signals() {
  for (int s : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD}) std::signal(s, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;  // no SA_RESTART: a sleep ends when a signal arrives
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &m_previous_interrupt);
  sigaction(SIGTERM, &action, &m_previous_terminate);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &m_previous_interrupt, nullptr);
  sigaction(SIGTERM, &m_previous_terminate, nullptr);
}

int StopSignals::received() const { return g_stop_signal; }

void sleep_seconds(double seconds) {
  timespec t{};
  t.tv_sec = static_cast<time_t>(seconds);
  t.tv_nsec = static_cast<long>((seconds - static_cast<double>(t.tv_sec)) * 1e9);
  nanosleep(&t, nullptr);
}

std::string shell_quote(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-+./:=,@%") == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string shell_command(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& a : argv) {
    if (!line.empty()) line += ' ';
    line += shell_quote(a);
  }
  return line;
}

long long oom_kill_count() {
  std::ifstream vmstat("/proc/vmstat");
  std::string name;
  long long value = 0;
  while (vmstat >> name >> value)
    if (name == "oom_kill") return value;
  return -1;
}

int exit_code_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

CapturedRun capture(const std::vector<std::string>& argv, const std::filesystem::path& cwd) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  if (!out || !err) throw std::runtime_error("sweep: cannot create temporary files");
  std::vector<char*> args = c_arguments(argv);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("sweep: fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    reset_signals();
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
      std::fprintf(stderr, "cannot enter %s: %s\n", cwd.c_str(), std::strerror(errno));
      _exit(127);
    }
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    execvp(args[0], args.data());
    std::fprintf(stderr, "%s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  CapturedRun run;
  run.code = wait_for(pid);
  run.out = read_all(out);
  run.err = read_all(err);
  std::fclose(out);
  std::fclose(err);
  return run;
}

pid_t spawn_logged(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0)
    throw std::runtime_error("sweep: cannot create " + log.string() + ": " + std::strerror(errno));
  std::vector<char*> args = c_arguments(argv);
  const pid_t parent = getpid();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    throw std::runtime_error(std::string("sweep: fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(128 + SIGTERM);  // the sweep died before prctl
    reset_signals();
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    execv(args[0], args.data());
    std::fprintf(stderr, "sweep: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(log_fd);
  return pid;
}

}  // namespace simrun::app
