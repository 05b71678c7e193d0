#include "io/standard_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

namespace zs::tools {

namespace {

// std::cout's buffer in the zarf-state process (UseCheckedStandardOutput):
// writes to descriptor 1 and keeps the first write error, with its errno,
// so that the message can say why (the C stdio buffer behind the default
// one keeps only a flag). After an error every write fails.
class CheckedFdBuffer final : public std::streambuf {
 public:
  explicit CheckedFdBuffer(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }
  bool failed() const { return failed_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!Drain()) return traits_type::eof();
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < epptr() - pptr()) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    // Large pieces (a migrated List streams 1 MiB chunks) go straight out.
    if (!Drain() || !WriteAll(s, static_cast<std::size_t>(n))) return 0;
    return n;
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  bool Drain() {
    const bool ok = WriteAll(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buf_, buf_ + sizeof buf_);
    return ok;
  }
  bool WriteAll(const char* p, std::size_t n) {
    while (n > 0 && !failed_) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        failed_ = true;
        error_ = w < 0 ? errno : ENOSPC;
        break;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return !failed_;
  }

  int fd_;
  bool failed_ = false;
  int error_ = 0;
  char buf_[1 << 16];
};

// Never destroyed: std::cout is flushed at exit, after function statics go.
CheckedFdBuffer* checked_stdout = nullptr;

// Set once FlushOutput has returned a failure of std::cout: the command
// reported it, and CloseStandardOutput does not repeat it.
bool stdout_failure_returned = false;

Status WriteFailed(std::string_view what, int error) {
  std::string message = std::string(what) + ": write failed";
  if (error != 0) message += std::string(": ") + std::strerror(error);
  return Status::IOError(message);
}

// Flushes `out`; false, with the reason in `*error` (0 when unknown), when
// any write to it failed.
bool FlushStream(std::ostream& out, int* error) {
  errno = 0;
  out.flush();
  *error = errno;
  const bool is_stdout = &out == &std::cout;
  if (is_stdout && checked_stdout != nullptr && out.rdbuf() == checked_stdout) {
    if (checked_stdout->failed()) *error = checked_stdout->error();
    return out.good() && !checked_stdout->failed();
  }
  if (is_stdout && std::fflush(stdout) != 0) out.setstate(std::ios::badbit);
  return out.good() && !(is_stdout && std::ferror(stdout) != 0);
}

}  // namespace

void UseCheckedStandardOutput() {
  // A descriptor 0-2 the process was started without (`cmd >&-`) would be
  // the next file opened - a cache file could receive the output. Each
  // gets /dev/null opened read-only: reading it is the end of input, and a
  // write to it fails (EBADF), as a write to the closed descriptor would.
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int null_fd = ::open("/dev/null", O_RDONLY);
      if (null_fd >= 0 && null_fd != fd) {
        ::dup2(null_fd, fd);
        ::close(null_fd);
      }
    }
  }
  if (checked_stdout == nullptr) checked_stdout = new CheckedFdBuffer(STDOUT_FILENO);
  std::cout.rdbuf(checked_stdout);
}

Status FlushOutput(std::ostream& out, std::string_view what) {
  int error = 0;
  if (FlushStream(out, &error)) return Status::OK();
  if (&out == &std::cout) stdout_failure_returned = true;
  return WriteFailed(what, error);
}

Status CloseStandardOutput() {
  int error = 0;
  const bool flushed = FlushStream(std::cout, &error);
  errno = 0;
  const bool stdio_ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if (!stdio_ok && error == 0) error = errno;
  errno = 0;
  const bool closed = ::close(STDOUT_FILENO) == 0;
  const int close_error = errno;
  if (flushed && stdio_ok && closed) return Status::OK();
  if (stdout_failure_returned) return Status::OK();  // the command said so
  return WriteFailed("standard output", flushed && stdio_ok ? close_error : error);
}

}  // namespace zs::tools
