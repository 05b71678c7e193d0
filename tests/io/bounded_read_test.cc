// io/bounded_read.h: a stream is read whole under its limit, with zeroed
// padding after it, into memory that asks for huge pages once it is large.
#include "io/bounded_read.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace zs::tools {
namespace {

// ReadBounded (limit `max_bytes`, 64 bytes of padding) of `text` written
// into a pipe by a thread; what it leaves unread is drained, so the writer
// always finishes.
Status ReadThroughPipe(const std::string& text, std::size_t max_bytes, ReadBuffer* buffer) {
  int fds[2];
  if (::pipe(fds) != 0) return Status::IOError("pipe");
  std::thread writer([fd = fds[1], &text] {
    std::size_t at = 0;
    while (at < text.size()) {
      const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  std::FILE* f = ::fdopen(fds[0], "rb");
  Status s = ReadBounded(f, "<stdin>", max_bytes, 64, buffer);
  char rest[4096];
  while (std::fread(rest, 1, sizeof(rest), f) > 0) {
  }
  writer.join();
  std::fclose(f);
  return s;
}

std::string Pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 23);
  return s;
}

TEST(BoundedReadTest, ReadsAPipeWholeWithZeroedPadding) {
  const std::string text = Pattern((5u << 20) + 12345);
  ReadBuffer buffer;
  Status s = ReadThroughPipe(text, 64u << 20, &buffer);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(buffer.text() == text);
  for (std::size_t i = 0; i < 64; ++i) {
    ASSERT_EQ(buffer.text().data()[text.size() + i], '\0') << "padding byte " << i;
  }
}

TEST(BoundedReadTest, StopsOneByteOverTheLimitAndSaysWhich) {
  const std::string text = Pattern(3u << 20);
  ReadBuffer buffer;
  Status s = ReadThroughPipe(text, 1u << 20, &buffer);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "<stdin>: input exceeds the limit of 1048576 bytes (raise it with --max-object-size)");
}

// The VmFlags line of /proc/self/smaps for the mapping holding `address`.
std::string VmFlagsOf(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(BoundedReadTest, ALargeTextAsksForHugePages) {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(mode, modes);
  if (modes.empty() || modes.find("[never]") != std::string::npos) {
    GTEST_SKIP() << "this system offers no transparent huge pages";
  }
  const std::string text = Pattern(6u << 20);
  ReadBuffer buffer;
  Status s = ReadThroughPipe(text, 64u << 20, &buffer);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::string flags = VmFlagsOf(buffer.text().data());
  ASSERT_FALSE(flags.empty());
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

}  // namespace
}  // namespace zs::tools
