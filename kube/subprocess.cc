#include "kube/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace zs::tools {
namespace {

constexpr std::size_t kMaxErrBytes = 64 << 10;

// Closes a descriptor once, on every path out.
class Fd {
 public:
  Fd() = default;
  ~Fd() { Close(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int* out() { return &fd_; }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

int WaitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Whether `pid` ended before `deadline` (its status in `*status`); a child
// that closed its output but goes on running is waited for until then.
bool EndedBy(pid_t pid, std::chrono::steady_clock::time_point deadline, int* status) {
  for (;;) {
    const pid_t got = ::waitpid(pid, status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    ::usleep(10000);
  }
}

// How long poll may wait: -1 without a timeout, 0 once `deadline` passed.
int PollWait(long timeout_ms, std::chrono::steady_clock::time_point deadline) {
  if (timeout_ms <= 0) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long>(left.count(), 60000));
}

// Reaps `pid`: killed first when `kill_it` or `*timed_out`; with a timeout,
// waited for only until `deadline` (then killed, `*timed_out` set).
int Reap(pid_t pid, bool kill_it, long timeout_ms, std::chrono::steady_clock::time_point deadline,
         bool* timed_out) {
  int status = 0;
  if (!kill_it && !*timed_out && timeout_ms > 0 && !EndedBy(pid, deadline, &status)) {
    *timed_out = true;
  }
  if (kill_it || *timed_out) {
    ::kill(pid, SIGKILL);
    return WaitFor(pid);
  }
  return timeout_ms == 0 ? WaitFor(pid) : status;
}

}  // namespace

Result<pid_t> SpawnProcess(const std::vector<std::string>& argv, int out_fd, int err_fd) {
  const std::string& program = argv.at(0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == ENOENT) return Status::NotFound(program + ": not found on PATH");
  if (spawned != 0) return Status::IOError(program + ": cannot start: " + std::strerror(spawned));
  return pid;
}

Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, std::size_t max_out,
                                 long timeout_ms) {
  const std::string& program = argv.at(0);
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Status::IOError(program + ": pipe: " + std::strerror(errno));
  Fd out_read, out_write, err_read, err_write;
  *out_read.out() = out_pipe[0];
  *out_write.out() = out_pipe[1];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return Status::IOError(program + ": pipe: " + std::strerror(errno));
  *err_read.out() = err_pipe[0];
  *err_write.out() = err_pipe[1];

  ZS_ASSIGN_OR_RETURN(const pid_t pid, SpawnProcess(argv, out_write.get(), err_write.get()));
  out_write.Close();
  err_write.Close();
  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool too_much = false, timed_out = false;
  Status read_error;
  struct pollfd fds[2] = {{out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}};
  int open_fds = 2;
  char buf[1 << 16];
  while (open_fds > 0 && !too_much && read_error.ok()) {
    const int wait_ms = PollWait(timeout_ms, deadline);
    if ((timed_out = wait_ms == 0)) break;
    const int ready = ::poll(fds, 2, wait_ms);
    if (ready == 0) continue;  // the deadline is checked above
    if (ready < 0) {
      if (errno == EINTR) continue;
      read_error = Status::IOError(program + ": poll: " + std::strerror(errno));
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        read_error = Status::IOError(program + ": read: " + std::strerror(errno));
        break;
      }
      if (n == 0) {
        fds[i].fd = -1;  // the Fd objects close them
        --open_fds;
        continue;
      }
      if (i == 0) {
        result.out.append(buf, static_cast<std::size_t>(n));
        too_much = result.out.size() > max_out;
      } else if (result.err.size() < kMaxErrBytes) {
        result.err.append(buf, std::min(static_cast<std::size_t>(n), kMaxErrBytes - result.err.size()));
      }
    }
  }
  const int status = Reap(pid, too_much || !read_error.ok(), timeout_ms, deadline, &timed_out);
  if (timed_out) {
    return Status::IOError(program + ": no answer within " + std::to_string(timeout_ms / 1000) +
                           " s (killed)");
  }
  if (too_much) {
    return Status::InvalidArgument(program + ": output exceeds the limit of " +
                                   std::to_string(max_out) + " bytes (raise it with --max-object-size)");
  }
  if (!read_error.ok()) return read_error;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace zs::tools
