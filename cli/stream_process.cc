#include "cli/stream_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace zs::tools {
namespace {

constexpr std::size_t kMaxErrBytes = 64 << 10;

}  // namespace

Result<std::unique_ptr<StreamProcess>> StreamProcess::Start(const std::vector<std::string>& argv) {
  const std::string& program = argv.at(0);
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Status::IOError(program + ": pipe: " + std::strerror(errno));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return Status::IOError(program + ": pipe: " + std::strerror(errno));
  }
  Result<pid_t> pid = SpawnProcess(argv, out_pipe[1], err_pipe[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (!pid.ok()) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return pid.status();
  }
  ::fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  return std::unique_ptr<StreamProcess>(new StreamProcess(*pid, out_pipe[0], err_pipe[0]));
}

StreamProcess::~StreamProcess() {
  if (!reaped_) {
    ::kill(pid_, SIGKILL);
    Wait();
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

void StreamProcess::DrainErr() {
  if (err_fd_ < 0) return;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(err_fd_, buf, sizeof buf);
    if (n > 0) {
      if (err_.size() < kMaxErrBytes) {
        err_.append(buf, std::min(static_cast<std::size_t>(n), kMaxErrBytes - err_.size()));
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {
      ::close(err_fd_);
      err_fd_ = -1;
    }
    return;
  }
}

Result<bool> StreamProcess::Read(std::string* out, int timeout_ms) {
  if (out_fd_ < 0) return false;
  struct pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (::poll(fds, err_fd_ >= 0 ? 2 : 1, timeout_ms) < 0) {
    if (errno == EINTR) return true;
    return Status::IOError(std::string("poll: ") + std::strerror(errno));
  }
  if (fds[1].revents != 0) DrainErr();
  if (fds[0].revents == 0) return true;
  char buf[1 << 16];
  const ssize_t n = ::read(out_fd_, buf, sizeof buf);
  if (n < 0 && errno == EINTR) return true;
  if (n < 0) return Status::IOError(std::string("read: ") + std::strerror(errno));
  if (n == 0) {
    ::close(out_fd_);
    out_fd_ = -1;
    return false;
  }
  out->append(buf, static_cast<std::size_t>(n));
  return true;
}

void StreamProcess::Terminate() {
  if (!reaped_) ::kill(pid_, SIGTERM);
}

ProcessResult StreamProcess::Wait() {
  ProcessResult r;
  if (!reaped_) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (err_fd_ >= 0) {
      ::fcntl(err_fd_, F_SETFL, 0);
      DrainErr();
    }
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    signal_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  r.exit_code = exit_code_;
  r.signal = signal_;
  r.err = err_;
  return r;
}

bool JsonValueSplitter::Next(std::string* value) {
  for (; pos_ < buffer_.size(); ++pos_) {
    const char c = buffer_[pos_];
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    if (depth_ == 0 && c != '{' && c != '[') {
      scanned_begin_ = pos_ + 1;  // blanks (or stray text) between values
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if ((c == '}' || c == ']') && --depth_ == 0) {
      *value = buffer_.substr(scanned_begin_, pos_ + 1 - scanned_begin_);
      ++pos_;
      buffer_.erase(0, pos_);
      pos_ = 0;
      scanned_begin_ = 0;
      return true;
    }
  }
  if (depth_ == 0) {
    buffer_.clear();
    pos_ = 0;
    scanned_begin_ = 0;
  }
  return false;
}

}  // namespace zs::tools
