// Starting, stopping and capturing child processes for tests and
// benchmarks: the one fork/exec helper behind tests/run_binary.h, the kill
// harness (tests/kill_harness.h), the signal and terminal tests and the
// benchmarks' fresh-process probes. Header-only and free of gtest, so a
// benchmark can use it too.
//
// Thread safety: not thread-safe. SpawnChild forks; the child only sets up
// its descriptors and execs, so it must not be called while another thread
// holds a lock the child would need (tests and benchmarks here do not).
#ifndef ZARF_STATE_TESTS_SUBPROCESS_RUNNER_H_
#define ZARF_STATE_TESTS_SUBPROCESS_RUNNER_H_

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace zs::testing {

// How to start a child. Each standard stream comes from (or goes to) the
// descriptor when it is >= 0, else the file named (written files are
// created or truncated).
struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path; no PATH search
  std::string stdin_path = "/dev/null";
  int stdin_fd = -1;
  std::string stdout_path = "/dev/null";
  int stdout_fd = -1;
  std::string stderr_path = "/dev/null";
  int stderr_fd = -1;
  // NAME=VALUE entries set on top of this process's environment.
  std::vector<std::string> env;
  // The largest file the child may write (0: no limit). Past it a write
  // fails with EFBIG, as on a full disk; SIGXFSZ, which would kill it
  // instead, is ignored.
  rlim_t file_size_limit = 0;
  // The child's address-space limit, `ulimit -v` (0: none).
  rlim_t address_space_limit = 0;
};

// How a child ended.
struct ChildExit {
  int exit_code = -1;      // -1 when it did not exit normally
  int signal = 0;          // the signal that ended it, if any
  bool timed_out = false;  // WaitChild's timeout passed and it was killed
  long max_rss_kib = 0;    // its peak resident memory
};

// Starts the child `spec` describes. Returns its pid, or -1 when fork
// fails; a program that cannot be executed exits 127.
inline pid_t SpawnChild(const ChildSpec& spec) {
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The environment is built before the fork: the child only execs.
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry = *e;
    bool overridden = false;
    for (const std::string& set : spec.env) {
      overridden |= entry.substr(0, entry.find('=') + 1) == set.substr(0, set.find('=') + 1);
    }
    if (!overridden) env_text.emplace_back(entry);
  }
  env_text.insert(env_text.end(), spec.env.begin(), spec.env.end());
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  auto stream = [](int fd, const std::string& path, int flags, int target) {
    ::dup2(fd >= 0 ? fd : ::open(path.c_str(), flags, 0600), target);
  };
  stream(spec.stdin_fd, spec.stdin_path, O_RDONLY, 0);
  stream(spec.stdout_fd, spec.stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 1);
  stream(spec.stderr_fd, spec.stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 2);
  if (spec.file_size_limit != 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // inherited across exec
    const struct rlimit limit = {spec.file_size_limit, spec.file_size_limit};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  if (spec.address_space_limit != 0) {
    const struct rlimit limit = {spec.address_space_limit, spec.address_space_limit};
    ::setrlimit(RLIMIT_AS, &limit);
  }
  ::execve(argv[0], argv.data(), envp.data());
  ::_exit(127);
}

// Waits for `pid` to end and reaps it. With a timeout above zero, a child
// still running after it is sent SIGKILL (timed_out is then true). A pid
// that is not a child of this process gives exit_code -1.
inline ChildExit WaitChild(pid_t pid,
                           std::chrono::milliseconds timeout = std::chrono::milliseconds(0)) {
  ChildExit r;
  int status = 0;
  struct rusage usage {};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool poll = timeout.count() > 0;
  for (;;) {
    const pid_t got = ::wait4(pid, &status, poll ? WNOHANG : 0, &usage);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) return r;
    if (got == 0 && std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      r.timed_out = true;
      poll = false;
    } else if (got == 0) {
      ::usleep(10000);
    }
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.max_rss_kib = usage.ru_maxrss;
  return r;
}

// Sends `signal` to `pid` and reaps it.
inline ChildExit SignalChild(pid_t pid, int signal) {
  ::kill(pid, signal);
  return WaitChild(pid);
}

// A pipe a child writes one of its streams into (ChildSpec::stdout_fd or
// stderr_fd = write_end()) while the test reads it. Close the write end
// after SpawnChild, or the reads never see the end.
class ChildPipe {
 public:
  ChildPipe() {
    if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
  }
  ~ChildPipe() {
    CloseWriteEnd();
    if (fds_[0] >= 0) ::close(fds_[0]);
  }
  ChildPipe(const ChildPipe&) = delete;
  ChildPipe& operator=(const ChildPipe&) = delete;

  bool ok() const { return fds_[0] >= 0; }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void CloseWriteEnd() {
    if (fds_[1] >= 0) ::close(fds_[1]);
    fds_[1] = -1;
  }

  // Reads into `*seen` until it holds `marker`: true then, false when the
  // stream ends first.
  bool ReadUntil(std::string_view marker, std::string* seen) {
    while (seen->find(marker) == std::string::npos) {
      if (!ReadSome(seen)) return false;
    }
    return true;
  }
  // Everything up to the end of the stream.
  std::string ReadAll() {
    std::string text;
    while (ReadSome(&text)) {
    }
    return text;
  }
  // Appends what one read gives: false at the end of the stream.
  bool ReadSome(std::string* out) {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fds_[0], buf, sizeof buf)) < 0 && errno == EINTR) {
    }
    if (n <= 0) return false;
    out->append(buf, static_cast<std::size_t>(n));
    return true;
  }

 private:
  int fds_[2] = {-1, -1};
};

// What RunChild captured.
struct ChildRun {
  ChildExit exit;
  std::string out;
  std::string err;
};

// Runs `spec` to its end (or its timeout, see WaitChild), capturing stdout
// and stderr through pipes (spec's own stdout and stderr settings are not
// used). stdin is as `spec` says.
inline ChildRun RunChild(ChildSpec spec,
                         std::chrono::milliseconds timeout = std::chrono::milliseconds(0)) {
  ChildPipe out, err;
  spec.stdout_fd = out.write_end();
  spec.stderr_fd = err.write_end();
  const pid_t pid = SpawnChild(spec);
  out.CloseWriteEnd();
  err.CloseWriteEnd();
  ChildRun r;
  if (pid < 0) return r;
  // Both streams at once, so that a child filling one pipe never blocks;
  // the deadline also covers a child that keeps its pipes open forever.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  struct pollfd fds[2] = {{out.read_end(), POLLIN, 0}, {err.read_end(), POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  ChildPipe* pipes[2] = {&out, &err};
  int open = 2;
  while (open > 0) {
    int wait_ms = -1;
    if (timeout.count() > 0) {
      wait_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     deadline - std::chrono::steady_clock::now())
                                     .count());
      if (wait_ms <= 0) break;
    }
    if (::poll(fds, 2, wait_ms) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && fds[i].revents != 0 && !pipes[i]->ReadSome(sinks[i])) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
  r.exit = WaitChild(pid, open > 0 ? std::chrono::milliseconds(1) : std::chrono::milliseconds(0));
  return r;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_SUBPROCESS_RUNNER_H_
