// Prints the SIMD level the dispatcher (base/cpu_dispatch.h) detects on this CPU (one word:
// scalar, sse2, avx2 or avx512), for the CPU-model test, which runs it under
// qemu to check what each emulated CPU gets.
#include <iostream>

#include "base/cpu_dispatch.h"

int main() {
  std::cout << zs::internal::SimdLevelName(zs::internal::DetectedSimdLevel()) << "\n";
  return 0;
}
