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
  std::string copy_;
  char* map_ = nullptr;
  std::size_t map_bytes_ = 0;  // the mapping's length: size_ and the padding
  std::size_t size_ = 0;
};
Result<InputText> ReadInputText(const std::string& path);

// ReadInputStreaming of the file `path` ("-": standard input redirected from
// one) when it is a regular file holding one JSON List
// (ReadListFileStreaming, kube/secret.h: read through a reused buffer, never
// whole), with CurrentReadLimits(), as "<stdin>" or `path`. nullopt, with
// nothing handed out, for a pipe, an input given with ProvideInput and any
// other file: the caller reads those with ReadInputText and
// ReadInputStreaming, which also report a file that cannot be opened.
std::optional<Status> StreamListFile(const std::string& path, Input* header,
                                     const std::function<Status(InputObject)>& on_object);

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
