// Reading what the commands are given: a file or standard input within the
// read limits (--max-object-size, --max-depth) and JSON or YAML documents
// (package definitions, configs). Errors name the input.
//
// Thread safety: not thread-safe (the limits and the provided inputs are
// process-wide).
#ifndef ZARF_STATE_KUBE_INPUT_H_
#define ZARF_STATE_KUBE_INPUT_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "json/json_value.h"
#include "kube/secret.h"

namespace zs::tools {

// Limits on every input the commands read: the global flags
// --max-object-size and --max-depth (RegisterLimitFlags) write them while
// the command line is parsed, before any subcommand runs; in-process callers
// (tests) get the defaults of ReadLimits.
ReadLimits& MutableReadLimits();
inline const ReadLimits& CurrentReadLimits() { return MutableReadLimits(); }

// The global flags that take a value (RegisterLimitFlags).
inline constexpr std::string_view kMaxObjectSizeFlag = "--max-object-size";
inline constexpr std::string_view kMaxDepthFlag = "--max-depth";

// Appends which flag raises the limit to a status that reports one.
Status WithLimitHint(Status status);

// Input the process fetched itself (the cluster's Secrets,
// cli/cluster_input.h), under a name that is not a file's: the next
// ReadFileOrStdin or ReadInputText of `name` returns `text` (moved out, so
// once) instead of opening a file, and errors and reports call the input
// `name`.
void ProvideInput(const std::string& name, std::string text);

// The whole of a file or of standard input ("-"), read one way for every
// command, with at least 64 readable bytes after the text so that the JSON
// parser works on it in place (ReadLimits::readable_padding):
//   - a regular file (standard input redirected from one included) is
//     mapped read-only and populated: its pages come from the page cache,
//     where a copy would first have the kernel hand out and zero as many
//     fresh pages, and nothing is copied;
//   - anything else (a pipe, a FIFO, a terminal) is read into an anonymous
//     mapping that grows in place (io/bounded_read.h) and is kept there.
// IOError naming the path; InvalidArgument for more than
// CurrentReadLimits().max_bytes: a regular file before it is read, a stream
// as soon as one byte over has arrived (peak memory stays near the limit).
// A mapped file must not be truncated while the command runs (reading a
// page it no longer has raises SIGBUS); nothing writes to it.
class InputText {
 public:
  InputText() = default;
  InputText(InputText&& other) noexcept;
  InputText& operator=(InputText&& other) noexcept;
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;
  ~InputText();

  std::string_view text() const { return map_ ? std::string_view(map_, size_) : copy_; }
  // Bytes after text() that may be read.
  std::size_t readable_padding() const {
    return map_ ? map_bytes_ - size_ : copy_.capacity() - copy_.size();
  }

 private:
  friend Result<InputText> ReadInputText(const std::string& path);
  friend Result<std::string> ReadFileOrStdin(const std::string& path);
  friend class ObjectInput;
  // ReadInputText of `fd`, open on `path`; closes it unless it is standard
  // input.
  static Result<InputText> ReadOpen(int fd, const std::string& path);
  std::string copy_;
  char* map_ = nullptr;
  std::size_t map_bytes_ = 0;  // the mapping's length: size_ and the padding
  std::size_t size_ = 0;
};
Result<InputText> ReadInputText(const std::string& path);

// The input of a command that takes Secrets (migrate, ingest, observe),
// read one way for every such command: Open finds what it is and reports an
// input that cannot be opened or is over the limit, with nothing handed out;
// Read hands out its objects as they are read (ReadInputStreaming's objects,
// header and errors), with CurrentReadLimits():
//   - a regular file (standard input redirected from one, read from its
//     start, included) holding one JSON List is read through a reused
//     buffer, never whole (ReadListFileStreaming, kube/secret.h);
//   - anything else (another file, a pipe, an input given with
//     ProvideInput) is read whole as ReadInputText reads it and streamed
//     from there.
// Read once. The file must not change while it is read.
class ObjectInput {
 public:
  // IOError naming the path; InvalidArgument for an input over
  // CurrentReadLimits().max_bytes (a stream: read up to the limit here).
  static Result<ObjectInput> Open(const std::string& path);

  ObjectInput(ObjectInput&& other) noexcept;
  ObjectInput& operator=(ObjectInput&& other) noexcept;
  ObjectInput(const ObjectInput&) = delete;
  ObjectInput& operator=(const ObjectInput&) = delete;
  ~ObjectInput();

  // The error of the first object that stops the read (the objects before
  // it handed out), prefixed with the input's name.
  Status Read(Input* header, const std::function<Status(InputObject)>& on_object);

  // The input's bytes.
  std::size_t size() const { return text_ ? text_->text().size() : size_; }

 private:
  ObjectInput() = default;

  std::string path_;
  int fd_ = -1;           // a regular file not read yet; owned unless standard input
  std::size_t size_ = 0;  // its size
  std::optional<InputText> text_;  // any other input, read whole by Open
};

// ReadInputText's text as a string, for the small documents (a package
// definition, a config, a CSV) whose readers keep or edit it: the same
// read, limit and errors, then one copy.
Result<std::string> ReadFileOrStdin(const std::string& path);

// Reads one JSON or YAML document (a package definition, a config) from a
// file or "-". InvalidArgument when the file holds several documents.
Result<json::Value> ReadDocument(const std::string& path);
// The same for a text already read from `path` (named in errors).
Result<json::Value> ParseDocument(const std::string& text, const std::string& path);

}  // namespace zs::tools

#endif  // ZARF_STATE_KUBE_INPUT_H_
