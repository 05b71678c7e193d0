// Reading a stream of unknown length (standard input, a pipe, a FIFO) under
// the input limit, in memory close to what was read: the bytes go into an
// anonymous mapping that grows in place (mremap moves page-table entries,
// not bytes), so there is never an old and a new copy of the text side by
// side, and reading stops at the first byte past the limit. A 300 MB stream
// under the 256 MiB limit costs about 256 MiB, not the 2.2 x a doubling
// std::string needs while it copies. The mapping asks for transparent huge
// pages, so a large text costs few page faults to fill and to read.
//
// Thread safety: a ReadBuffer is not thread-safe; distinct ones are
// independent.
#ifndef ZARF_STATE_IO_BOUNDED_READ_H_
#define ZARF_STATE_IO_BOUNDED_READ_H_

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::tools {

// Anonymous private memory to read into, mapped on a huge-page boundary and
// asking for transparent huge pages where the system gives them on request
// (Debian's default, "madvise"): filling megabytes of it takes one page
// fault, and one page-table entry, per 2 MiB instead of 512 (for a whole
// huge page, ask for a multiple of kHugePageBytes). Its bytes start as
// zeros; growing keeps them (their page-table entries move, not the bytes).
// Not copyable; moving is not needed by its users and is not offered.
class ReadMemory {
 public:
  static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;  // x86-64's

  ReadMemory() = default;
  ReadMemory(const ReadMemory&) = delete;
  ReadMemory& operator=(const ReadMemory&) = delete;
  ~ReadMemory();

  char* data() const { return data_; }
  // The mapping's length, whole pages.
  std::size_t capacity() const { return capacity_; }

  // Makes room for at least `bytes` in all. IOError naming `label` when the
  // system has no address space or memory for it.
  Status Reserve(std::size_t bytes, std::string_view label);

  // Gives up the mapping: `*data` and `*bytes` (its whole length, for
  // munmap) become the caller's. Empty afterwards.
  void Release(char** data, std::size_t* bytes);

 private:
  char* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// ReadMemory holding size() bytes of text and at least the padding asked
// for after it (zeros). Not copyable; moving is not needed by its users and
// is not offered.
class ReadBuffer {
 public:
  ReadBuffer() = default;
  ReadBuffer(const ReadBuffer&) = delete;
  ReadBuffer& operator=(const ReadBuffer&) = delete;

  std::string_view text() const { return {memory_.data(), size_}; }
  std::size_t size() const { return size_; }

  // Gives up the mapping: `*data` and `*bytes` (its whole length, for
  // munmap) become the caller's. The buffer is empty afterwards.
  void Release(char** data, std::size_t* bytes);

  // Moves the text into a std::string with `padding` spare bytes of
  // capacity, giving the mapping's pages back as they are copied, so the
  // peak is the text plus one step (8 MiB), not two texts. The buffer is
  // empty afterwards.
  std::string TakeString(std::size_t padding);

 private:
  friend Status ReadBounded(std::FILE* f, std::string_view label, std::size_t max_bytes,
                            std::size_t padding, ReadBuffer* out);
  ReadMemory memory_;
  std::size_t size_ = 0;
};

// Reads `f` to its end into `*out` (which must be empty), leaving at least
// `padding` zero bytes after the text. Never holds more than `max_bytes` + 1
// bytes of text: InvalidArgument "<label>: input exceeds the limit of N
// bytes (raise it with --max-object-size)" as soon as one byte more has
// arrived. IOError "<label>: read error" when reading fails, or naming the
// size when no memory can be had for the text. Does not close `f`.
Status ReadBounded(std::FILE* f, std::string_view label, std::size_t max_bytes,
                   std::size_t padding, ReadBuffer* out);

}  // namespace zs::tools

#endif  // ZARF_STATE_IO_BOUNDED_READ_H_
