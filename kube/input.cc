#include "kube/input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "io/bounded_read.h"
#include "json/json_reader.h"
#include "json/text_encoding.h"
#include "yaml/yaml.h"

namespace zs::tools {

ReadLimits& MutableReadLimits() {
  static ReadLimits limits;
  return limits;
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

Result<InputText> InputText::ReadOpen(int fd, const std::string& path) {
  const bool is_stdin = path == "-";
  InputText input;
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

namespace {

// Opens `path` ("-": standard input, already open) for reading.
int OpenInput(const std::string& path) {
  return path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

}  // namespace

Result<InputText> ReadInputText(const std::string& path) {
  if (std::optional<std::string> text = TakeProvidedInput(path)) {
    InputText input;
    input.copy_ = std::move(*text);
    return input;
  }
  // Opened once: a FIFO or a process substitution's pipe cannot be opened
  // again to be read after a look.
  const int fd = OpenInput(path);
  if (fd < 0) return OpenError(path);
  return InputText::ReadOpen(fd, path);
}

Result<ObjectInput> ObjectInput::Open(const std::string& path) {
  ObjectInput input;
  input.path_ = path;
  if (ProvidedInputs().count(path) == 0) {
    const int fd = OpenInput(path);
    if (fd < 0) return OpenError(path);
    struct stat st {};
    // Standard input redirected from a file counts as the file when it is
    // read from the file's start.
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (path != "-" || ::lseek(fd, 0, SEEK_CUR) == 0)) {
      input.fd_ = fd;
      input.size_ = static_cast<std::size_t>(st.st_size);
      ZS_RETURN_IF_ERROR(CheckFileSize(path, st));  // the destructor closes it
      return input;
    }
    ZS_ASSIGN_OR_RETURN(InputText text, InputText::ReadOpen(fd, path));
    input.text_ = std::move(text);
    return input;
  }
  ZS_ASSIGN_OR_RETURN(InputText text, ReadInputText(path));
  input.text_ = std::move(text);
  return input;
}

ObjectInput::ObjectInput(ObjectInput&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      text_(std::move(other.text_)) {}

ObjectInput& ObjectInput::operator=(ObjectInput&& other) noexcept {
  // `other` closes what this held.
  std::swap(path_, other.path_);
  std::swap(fd_, other.fd_);
  std::swap(size_, other.size_);
  std::swap(text_, other.text_);
  return *this;
}

ObjectInput::~ObjectInput() {
  if (fd_ >= 0 && path_ != "-") ::close(fd_);
}

Status ObjectInput::Read(Input* header, const std::function<Status(InputObject)>& on_object) {
  const std::string label = InputLabel(path_);
  if (fd_ >= 0) {
    const int fd = std::exchange(fd_, -1);
    std::optional<Status> read =
        ReadListFileStreaming(fd, size_, label, CurrentReadLimits(), header, on_object);
    if (read) {
      if (path_ != "-") ::close(fd);
      return *read;
    }
    // Not one List: read whole, as any other input.
    ZS_ASSIGN_OR_RETURN(InputText text, InputText::ReadOpen(fd, path_));
    text_ = std::move(text);
  } else if (!text_) {
    return Status::IOError(label + ": already read through once");
  }
  ReadLimits limits = CurrentReadLimits();
  limits.readable_padding = text_->readable_padding();
  return ReadInputStreaming(text_->text(), label, limits, header, on_object);
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

}  // namespace zs::tools
