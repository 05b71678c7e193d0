// A program whose standard output is read as it arrives (`kubectl get
// --watch`), and the splitter that cuts that output into the JSON values
// kubectl prints one after another.
//
// Thread safety: a StreamProcess is used by one thread.
#ifndef ZARF_STATE_CLI_STREAM_PROCESS_H_
#define ZARF_STATE_CLI_STREAM_PROCESS_H_

#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "kube/subprocess.h"

namespace zs::tools {

class StreamProcess {
 public:
  // Starts `argv` (searched on PATH) with standard input /dev/null.
  // NotFound when argv[0] is not on PATH; IOError when it cannot start.
  static Result<std::unique_ptr<StreamProcess>> Start(const std::vector<std::string>& argv);
  // Kills (SIGKILL) and reaps a program still running.
  ~StreamProcess();
  StreamProcess(const StreamProcess&) = delete;
  StreamProcess& operator=(const StreamProcess&) = delete;

  // Waits up to `timeout_ms` for output and appends what arrived to `*out`.
  // False once the output has ended (the program closed it or exited).
  Result<bool> Read(std::string* out, int timeout_ms);
  // Asks the program to stop (SIGTERM).
  void Terminate();
  // Waits for the program to exit: its exit code or signal and the first
  // 64 KiB of its standard error (`out` stays empty).
  ProcessResult Wait();

 private:
  StreamProcess(pid_t pid, int out_fd, int err_fd) : pid_(pid), out_fd_(out_fd), err_fd_(err_fd) {}
  void DrainErr();

  pid_t pid_;
  int out_fd_;
  int err_fd_;
  std::string err_;
  bool reaped_ = false;
  int exit_code_ = -1;
  int signal_ = 0;
};

// Cuts a stream of JSON values written one after another (kubectl's
// `-o json --watch`, pretty-printed objects) into whole values, whatever the
// chunks it arrives in.
class JsonValueSplitter {
 public:
  void Feed(std::string_view chunk) { buffer_.append(chunk); }
  // The next complete top-level object or array, if one is buffered.
  bool Next(std::string* value);
  // Bytes buffered that are not yet a whole value (a value cut short).
  std::size_t pending() const { return buffer_.size() - scanned_begin_; }

 private:
  std::string buffer_;
  std::size_t scanned_begin_ = 0;  // start of the value being scanned
  std::size_t pos_ = 0;            // next byte to scan
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_STREAM_PROCESS_H_
