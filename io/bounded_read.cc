#include "io/bounded_read.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace zs::tools {

namespace {

constexpr std::size_t kFirstCapacity = std::size_t{1} << 20;
// How much TakeString copies before it unmaps what it has copied.
constexpr std::size_t kCopyStep = std::size_t{8} << 20;
// How much one read asks for: the pages it fills are made present in one
// call first, rather than faulted in one by one as the bytes arrive.
constexpr std::size_t kReadStep = std::size_t{1} << 20;
// The pipe buffer asked for when reading a pipe, so that a writer on
// another CPU runs ahead by this much before either side waits.
constexpr int kPipeBytes = 1 << 20;
// The size of x86-64's transparent huge pages (the alignment that lets the
// kernel use them; elsewhere it only costs a little address space).
constexpr std::size_t kHugePage = ReadMemory::kHugePageBytes;

std::size_t PageSize() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

std::size_t RoundUpToPage(std::size_t n) {
  const std::size_t page = PageSize();
  return (n + page - 1) / page * page;
}

// Makes the pages holding [at, at + n) present and writable. Best effort:
// where the kernel cannot (before Linux 5.14), they fault in on first write.
void Populate(char* at, std::size_t n) {
  const std::size_t page = PageSize();
  const auto start = reinterpret_cast<std::uintptr_t>(at) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(at) + n;
#ifdef MADV_POPULATE_WRITE
  (void)::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
#else
  (void)start;
  (void)end;
#endif
}

// Asks for transparent huge pages for [at, at + n) where the system offers
// them on request (Debian's default, "madvise"): a text of many megabytes
// then takes one page fault, and one page-table entry, per 2 MiB instead of
// 512, when the read fills it and again when the parser first reads it.
// Best effort: elsewhere the pages stay small.
void AskForHugePages(char* at, std::size_t n) {
#ifdef MADV_HUGEPAGE
  (void)::madvise(at, n, MADV_HUGEPAGE);
#else
  (void)at;
  (void)n;
#endif
}

// A private anonymous read-write mapping of `bytes` (whole pages) that
// starts on a kHugePage boundary; MAP_FAILED when there is no room.
void* MapAligned(std::size_t bytes) {
  const std::size_t span = bytes + kHugePage;
  void* area =
      ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED) return area;
  const auto begin = reinterpret_cast<std::uintptr_t>(area);
  const std::uintptr_t start = (begin + kHugePage - 1) / kHugePage * kHugePage;
  if (start > begin) ::munmap(area, start - begin);
  const std::uintptr_t tail = start + bytes;
  if (begin + span > tail) ::munmap(reinterpret_cast<void*>(tail), begin + span - tail);
  return reinterpret_cast<void*>(start);
}

// Asks for a larger buffer when `f` reads a pipe. Best effort: the size is
// capped by the system (fs.pipe-max-size), and a refusal changes nothing.
void WidenPipe(std::FILE* f) {
  const int fd = ::fileno(f);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
#ifdef F_SETPIPE_SZ
  (void)::fcntl(fd, F_SETPIPE_SZ, kPipeBytes);
#endif
}

}  // namespace

ReadMemory::~ReadMemory() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
}

void ReadMemory::Release(char** data, std::size_t* bytes) {
  *data = data_;
  *bytes = capacity_;
  data_ = nullptr;
  capacity_ = 0;
}

Status ReadMemory::Reserve(std::size_t bytes, std::string_view label) {
  if (bytes <= capacity_) return Status::OK();
  const std::size_t want = RoundUpToPage(bytes);
  // The new mapping starts on a huge-page boundary, and a grown one is
  // moved onto such a boundary: huge pages then move whole with it instead
  // of being split into small ones.
  void* p = MapAligned(want);
  if (p != MAP_FAILED && data_ != nullptr) {
    void* moved = ::mremap(data_, capacity_, want, MREMAP_MAYMOVE | MREMAP_FIXED, p);
    if (moved == MAP_FAILED) ::munmap(p, want);
    p = moved;
  }
  if (p == MAP_FAILED) {
    return Status::IOError(std::string(label) + ": cannot reserve " + std::to_string(want) +
                           " bytes of memory to read the input: " + std::strerror(errno));
  }
  data_ = static_cast<char*>(p);
  capacity_ = want;
  AskForHugePages(data_, capacity_);
  return Status::OK();
}

void ReadBuffer::Release(char** data, std::size_t* bytes) {
  memory_.Release(data, bytes);
  size_ = 0;
}

std::string ReadBuffer::TakeString(std::size_t padding) {
  std::string out;
  out.reserve(size_ + padding);
  char* data = nullptr;
  std::size_t capacity = 0;
  memory_.Release(&data, &capacity);
  const std::size_t page = PageSize();
  std::size_t unmapped = 0;  // whole pages at the front already given back
  for (std::size_t at = 0; at < size_; at += kCopyStep) {
    out.append(data + at, std::min(kCopyStep, size_ - at));
    const std::size_t done = std::min(at + kCopyStep, size_) / page * page;
    if (done > unmapped) {
      ::munmap(data + unmapped, done - unmapped);
      unmapped = done;
    }
  }
  if (capacity > unmapped) ::munmap(data + unmapped, capacity - unmapped);
  size_ = 0;
  return out;
}

Status ReadBounded(std::FILE* f, std::string_view label, std::size_t max_bytes,
                   std::size_t padding, ReadBuffer* out) {
  // One byte past the limit is read to know that the input is over it.
  const std::size_t most = max_bytes + 1;
  WidenPipe(f);
  for (;;) {
    if (out->memory_.capacity() < out->size_ + padding + 1) {
      const std::size_t grown = std::max(kFirstCapacity, out->memory_.capacity() * 2);
      ZS_RETURN_IF_ERROR(out->memory_.Reserve(std::min(grown, most + padding), label));
    }
    const std::size_t room = std::min(
        {out->memory_.capacity() - padding - out->size_, most - out->size_, kReadStep});
    Populate(out->memory_.data() + out->size_, room);
    const std::size_t n = std::fread(out->memory_.data() + out->size_, 1, room, f);
    out->size_ += n;
    if (out->size_ > max_bytes) {
      return Status::InvalidArgument(std::string(label) + ": input exceeds the limit of " +
                                     std::to_string(max_bytes) +
                                     " bytes (raise it with --max-object-size)");
    }
    if (n < room) break;
  }
  if (std::ferror(f) != 0) return Status::IOError(std::string(label) + ": read error");
  return Status::OK();
}

}  // namespace zs::tools
