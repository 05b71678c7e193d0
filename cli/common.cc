#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "json/text_encoding.h"
#include "yaml/yaml.h"
#include "cli/command_status.h"
#include "cli/input_paths.h"
#include "cli/notes.h"
#include "cli/terminal_text.h"
#include "io/bounded_read.h"

namespace zs::tools {

ReadLimits& MutableReadLimits() {
  static ReadLimits limits;
  return limits;
}

void RegisterLimitFlags(CLI::App* app) {
  ReadLimits& limits = MutableReadLimits();
  app->add_option(std::string(kMaxObjectSizeFlag), limits.max_bytes,
                  "Largest input file or document read, in bytes (default 268435456)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  app->add_option(std::string(kMaxDepthFlag), limits.max_depth,
                  "Deepest JSON/YAML nesting accepted (default 512, at most 1024)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  app->fallthrough();
}

Status WithLimitHint(Status status) {
  if (status.code() != Status::Code::kInvalidArgument) return status;
  const std::string m(status.message());
  if (m.find("(raise it with") != std::string::npos) return status;
  if (m.find("exceeds the limit of") != std::string::npos) {
    return Status::InvalidArgument(m + " (raise it with --max-object-size)");
  }
  if (m.find("nesting deeper than") != std::string::npos) {
    return Status::InvalidArgument(m + " (raise it with --max-depth, at most 1024)");
  }
  return status;
}

namespace {

// What the JSON parser needs after a text to read it in place
// (json::ParseOptions::readable_padding).
constexpr std::size_t kParsePadding = 64;

// InvalidArgument when `st`, the fstat of `path`, is a regular file larger
// than the read limit (checked before reading or mapping it).
Status CheckFileSize(const std::string& path, const struct stat& st) {
  const std::size_t max_bytes = CurrentReadLimits().max_bytes;
  if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) <= max_bytes) {
    return Status::OK();
  }
  if (path == "-") {
    // Standard input says what a stream over the limit says (io/bounded_read.h).
    return Status::InvalidArgument("<stdin>: input exceeds the limit of " + std::to_string(max_bytes) +
                                   " bytes (raise it with --max-object-size)");
  }
  return Status::InvalidArgument(path + ": input of " + std::to_string(st.st_size) +
                                 " bytes exceeds the limit of " + std::to_string(max_bytes) +
                                 " bytes (raise it with --max-object-size)");
}

std::string InputLabel(const std::string& path) { return path == "-" ? "<stdin>" : path; }

Status OpenError(const std::string& path) {
  return Status::IOError(path + ": " + std::strerror(errno));
}

std::map<std::string, std::string>& ProvidedInputs() {
  static auto* inputs = new std::map<std::string, std::string>();
  return *inputs;
}

// The text provided under `path` (ProvideInput), taken out, with the
// padding the parser needs; nullopt when none is.
std::optional<std::string> TakeProvidedInput(const std::string& path) {
  auto it = ProvidedInputs().find(path);
  if (it == ProvidedInputs().end()) return std::nullopt;
  std::string text = std::move(it->second);
  ProvidedInputs().erase(it);
  if (text.capacity() - text.size() < kParsePadding) text.reserve(text.size() + kParsePadding);
  return text;
}

}  // namespace

void ProvideInput(const std::string& name, std::string text) {
  ProvidedInputs()[name] = std::move(text);
}

Result<std::string> ReadFileOrStdin(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(InputText input, ReadInputText(path));
  if (!input.map_) return std::move(input.copy_);
  std::string text;
  text.reserve(input.text().size() + kParsePadding);
  text.assign(input.text());
  return text;
}

InputText::InputText(InputText&& other) noexcept
    : copy_(std::move(other.copy_)),
      map_(std::exchange(other.map_, nullptr)),
      map_bytes_(std::exchange(other.map_bytes_, 0)),
      size_(std::exchange(other.size_, 0)) {}

InputText& InputText::operator=(InputText&& other) noexcept {
  // `other` unmaps what this held.
  std::swap(copy_, other.copy_);
  std::swap(map_, other.map_);
  std::swap(map_bytes_, other.map_bytes_);
  std::swap(size_, other.size_);
  return *this;
}

InputText::~InputText() {
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
}

namespace {

// Maps the regular file open on `fd` (fstat `st`, read from its start)
// read-only and populated, with at least kParsePadding readable zero bytes
// after its text: `*map` and `*map_bytes` (the mapping's whole length).
// False when it cannot be mapped (then it is read instead).
bool MapRegularFile(int fd, const struct stat& st, char** map, std::size_t* map_bytes) {
  const auto size = static_cast<std::size_t>(st.st_size);
  // Anonymous pages first, for the padding after the text (they read as
  // zeros), then the file over their start: the bytes of its last page
  // past its end read as zeros too.
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t bytes = (size + kParsePadding + page - 1) / page * page;
  void* area = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED) return false;
  void* file = ::mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
  if (file != area) {
    ::munmap(area, bytes);
    return false;
  }
  *map = static_cast<char*>(area);
  *map_bytes = bytes;
  return true;
}

}  // namespace

Result<InputText> ReadInputText(const std::string& path) {
  InputText input;
  if (std::optional<std::string> text = TakeProvidedInput(path)) {
    input.copy_ = std::move(*text);
    return input;
  }
  const bool is_stdin = path == "-";
  // Opened once: a FIFO or a process substitution's pipe cannot be opened
  // again to be read after a look.
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OpenError(path);
  auto close = [&] {
    if (!is_stdin) ::close(fd);
  };
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular) {
    if (Status s = CheckFileSize(path, st); !s.ok()) {
      close();
      return s;
    }
  }
  // Standard input redirected from a file is mapped as the file is, when
  // it is read from the file's start.
  if (regular && st.st_size > 0 && (!is_stdin || ::lseek(fd, 0, SEEK_CUR) == 0) &&
      MapRegularFile(fd, st, &input.map_, &input.map_bytes_)) {
    close();
    input.size_ = static_cast<std::size_t>(st.st_size);
    return input;
  }
  // A pipe, a terminal, a file that cannot be mapped: read into an
  // anonymous mapping and kept there (no copy).
  std::FILE* f = is_stdin ? stdin : ::fdopen(fd, "rb");
  if (f == nullptr) {
    close();
    return OpenError(path);
  }
  ReadBuffer buffer;
  Status s = ReadBounded(f, InputLabel(path), CurrentReadLimits().max_bytes, kParsePadding,
                         &buffer);
  if (!is_stdin) std::fclose(f);
  ZS_RETURN_IF_ERROR(s);
  input.size_ = buffer.size();
  buffer.Release(&input.map_, &input.map_bytes_);
  return input;
}

Result<json::Value> ReadDocument(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path));
  return ParseDocument(text, path);
}

Result<json::Value> ParseDocument(const std::string& raw, const std::string& path) {
  std::string decoded;
  std::string_view text = raw;
  if (Status s = DecodeToUtf8(&text, &decoded); !s.ok()) return s.WithContext(path);
  if (json::LooksLikeJson(text)) {
    json::ParseOptions options;
    options.max_bytes = CurrentReadLimits().max_bytes;
    options.max_depth = CurrentReadLimits().max_depth;
    auto v = json::ParseJson(text, options);
    if (!v.ok()) return WithLimitHint(v.status().WithContext(path));
    return v;
  }
  auto docs = yaml::ParseDocuments(text, CurrentReadLimits().max_depth);
  if (!docs.ok()) return WithLimitHint(docs.status().WithContext(path));
  if (docs->size() != 1) {
    return Status::InvalidArgument(path + ": expected one document, found " +
                                   std::to_string(docs->size()));
  }
  return std::move((*docs)[0]);
}

void ReportSkipped(const Input& input, std::string_view file, std::ostream& err) {
  if (input.skipped.empty() || NotesQuiet()) return;
  err << SkippedSummary(file == "-" ? "<stdin>" : file, input.skipped) << "\n";
}

bool ForEachObject(const std::vector<std::string>& files, std::ostream& err,
                   const std::function<Status(const InputObject&)>& visit) {
  bool failed = false;
  const std::vector<std::string> stdin_only{"-"};
  for (const std::string& file : files.empty() ? stdin_only : files) {
    auto text = ReadInputText(file);
    ReadLimits limits = CurrentReadLimits();
    if (text.ok()) limits.readable_padding = text->readable_padding();  // parsed in place
    auto input = text.ok() ? ReadInput(text->text(), file == "-" ? "<stdin>" : file, limits)
                           : Result<Input>(text.status());
    if (!input.ok()) input = WithLimitHint(input.status());
    if (!input.ok()) {
      PrintError(err, input.status().message());
      failed = true;
      continue;
    }
    ReportSkipped(*input, file, err);
    for (const InputObject& in : input->objects) {
      Status s = in.error.ok() ? visit(in) : in.error;
      if (!s.ok()) {
        const std::string object = in.error.ok() ? in.label + ": " : "";
        PrintError(err, object + std::string(s.message()));
        failed = true;
      }
    }
  }
  return failed;
}

Result<Timestamp> ParseNow(const std::string& now) {
  if (now.empty()) return Timestamp::Now();
  auto t = ParseRfc3339(now);
  if (!t.ok()) return t.status().WithContext("--now");
  return t;
}

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

std::string DefaultCacheDir() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
  };
  if (std::string db = env("ZARF_STATE_DB"); !db.empty()) return db;
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/zarf-state";
  if (std::string home = env("HOME"); !home.empty()) return home + "/.cache/zarf-state";
  return ".zarf-state-cache";
}

void AddCacheDirOption(CLI::App* cmd, std::string* dir, const std::string& what) {
  *dir = DefaultCacheDir();
  cmd->add_option("--db", *dir, what + " (default: $ZARF_STATE_DB, else $XDG_CACHE_HOME/zarf-state)")
      ->capture_default_str();
}

std::string TerminalChanges(const std::vector<engine::ConfigChange>& changes) {
  std::string out;
  for (const engine::ConfigChange& c : changes) {
    std::string line = engine::FormatChanges({c});
    if (!line.empty() && line.back() == '\n') line.pop_back();
    out += TerminalText(line);
    out += '\n';
  }
  return out;
}

Result<std::unique_ptr<engine::Cache>> OpenCacheReadOnly(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(dir) / "CURRENT", ec)) {
    const bool exists = std::filesystem::exists(dir, ec);
    return Status::NotFound("cache " + dir + ": " +
                            (exists ? "holds no zarf-state cache" : "does not exist") +
                            "; create it with: zarf-state ingest --db " + dir + " -f SECRETS");
  }
  engine::CacheOptions options;
  options.create_if_missing = false;
  options.read_only = true;
  return engine::OpenCache(dir, options);
}

Status RefuseTerminalStdin(const std::vector<std::string>& files, std::string_view command) {
  const bool reads_stdin =
      files.empty() || std::find(files.begin(), files.end(), "-") != files.end();
  if (!reads_stdin || ::isatty(STDIN_FILENO) == 0) return Status::OK();
  return Status::InvalidArgument(
      std::string(command) +
      ": standard input is a terminal; give the Secrets with -f FILE, or pipe them in "
      "(kubectl get secrets -n zarf -o json | zarf-state " + std::string(command) + ")");
}

Status InputIsUsable(const std::vector<std::string>& files, std::string_view command) {
  Status s = RefuseTerminalStdin(files, command);
  if (s.ok()) s = RefuseDirectoryInputs(files);
  return s.ok() ? s : Status::Usage(s.message());
}

}  // namespace zs::tools
