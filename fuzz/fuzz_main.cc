// libFuzzer entry point of one target; ZS_FUZZ_BODY names its body in
// fuzz/targets.h (set per executable by fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string broken =
      zs::fuzz::ZS_FUZZ_BODY(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "property violated: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
