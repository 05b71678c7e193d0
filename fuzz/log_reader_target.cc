#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>

#include "engine/file_event_log.h"
#include "engine/internal/log_format.h"
#include "fuzz/targets.h"

namespace zs::fuzz {
namespace {

// The bytes as a file of their own (the log reads a path).
class TempLog {
 public:
  explicit TempLog(std::string_view bytes) {
    static std::atomic<unsigned> counter{0};
    path_ = "/tmp/zs-fuzz-log-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    std::ofstream(path_, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<long>(bytes.size()));
  }
  ~TempLog() { std::remove(path_.c_str()); }
  TempLog(const TempLog&) = delete;
  TempLog& operator=(const TempLog&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Input that is not a log becomes the entries of one framed chunk (flags
// from its first byte), so that the fuzzer gets past the checksum.
std::string Framed(std::string_view data) {
  if (data.substr(0, engine::internal::kLogMagic.size()) == engine::internal::kLogMagic) {
    return std::string(data);
  }
  const std::uint32_t flags = data.empty() ? 0 : static_cast<unsigned char>(data[0]) & 3;
  if (!data.empty()) data.remove_prefix(1);
  return engine::internal::FileHeader() +
         engine::internal::EncodeChunk(flags, "p", "", 1, 1, data);
}

std::string CheckLog(const std::string& path) {
  engine::FileEventLogOptions options;
  options.read_only = true;
  auto log = engine::FileEventLog::Open(path, options);
  if (!log.ok()) return "Open failed: " + log.status().ToString();
  auto check = (*log)->Check();
  if (!check.ok()) return check.status().message().empty() ? "a check error without a message" : "";
  for (const engine::LogSkip& s : check->damaged) {
    if (s.bytes == 0 || s.reason.empty()) return "a damaged region without bytes or a reason";
  }
  for (const std::string& package : check->packages) {
    auto records = (*log)->Read(package);
    if (!records.ok()) continue;  // a record that does not decode: an error, reported
    auto tail = (*log)->ReadTail(package);
    if (!tail.ok()) continue;
    // The tail is the end of the history: never more records than it.
    if (tail->records.size() > records->size()) return "the tail holds more records than the history";
  }
  return "";
}

}  // namespace

std::string LogReader(std::string_view data) {
  TempLog as_is(data);
  if (std::string why = CheckLog(as_is.path()); !why.empty()) return why;
  TempLog framed(Framed(data));
  return CheckLog(framed.path());
}

}  // namespace zs::fuzz
