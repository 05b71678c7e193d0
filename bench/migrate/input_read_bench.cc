// What one pass over a large input costs, by how the input reaches memory:
// mapped as the commands map a file (kube/input.h, ReadInputText: read-only,
// populated), the same mapping passed over again, and the file read through
// one reused 1 MiB buffer. Each pass reads one byte per cache line, so the
// figures are the cost of reaching the bytes, not of scanning them.
//
// usage: zs_input_read_bench FILE [ROUNDS]   (default 7 rounds; medians)
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "kube/input.h"

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Reads one byte of each 64; the sum keeps the reads from being elided.
unsigned TouchLines(std::string_view bytes) {
  unsigned sum = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 64) sum += static_cast<unsigned char>(bytes[i]);
  return sum;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: zs_input_read_bench FILE [ROUNDS]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int rounds = argc == 3 ? std::max(1, std::atoi(argv[2])) : 7;
  std::vector<double> mapped, again, read_through;
  std::size_t bytes = 0;
  unsigned sum = 0;
  for (int r = 0; r < rounds; ++r) {
    {
      Clock::time_point start = Clock::now();
      zs::Result<zs::tools::InputText> text = zs::tools::ReadInputText(path);
      if (!text.ok()) {
        std::fprintf(stderr, "%s\n", text.status().ToString().c_str());
        return 1;
      }
      sum += TouchLines(text->text());
      mapped.push_back(MillisecondsSince(start));
      start = Clock::now();
      sum += TouchLines(text->text());
      again.push_back(MillisecondsSince(start));
      bytes = text->text().size();
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::perror(path.c_str());
      return 1;
    }
    std::vector<char> window(1 << 20);
    const Clock::time_point start = Clock::now();
    ssize_t n = 0;
    while ((n = ::read(fd, window.data(), window.size())) > 0) {
      sum += TouchLines(std::string_view(window.data(), static_cast<std::size_t>(n)));
    }
    read_through.push_back(MillisecondsSince(start));
    ::close(fd);
    if (n < 0) {
      std::perror(path.c_str());
      return 1;
    }
  }
  std::printf("%s: %zu bytes, medians of %d rounds (checksum %u)\n", path.c_str(), bytes, rounds,
              sum % 251);
  std::printf("  mapped (ReadInputText), first pass   %8.2f ms\n", Median(mapped));
  std::printf("  the same mapping, second pass        %8.2f ms\n", Median(again));
  std::printf("  read() through a reused 1 MiB buffer %8.2f ms\n", Median(read_through));
  return 0;
}
