// A seeded pseudo-random source for synthetic data: the sample packages of
// testing/, the benchmarks' inputs and the tests' random cases.
//
// The same seed gives the same draws on every platform and standard
// library: every helper here uses std::mt19937's output directly (its
// sequence is fixed by the standard), never a std:: distribution (whose
// mapping is not). It also meets UniformRandomBitGenerator, so a test may
// still hand it to a std:: distribution where only "random" matters.
//
// Not for anything secret: the sequence is predictable by design.
//
// Thread safety: an instance is not thread-safe; use one per thread.
#ifndef ZARF_STATE_TESTING_SEEDED_RNG_H_
#define ZARF_STATE_TESTING_SEEDED_RNG_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>

namespace zs::tools {

class SeededRng {
 public:
  using result_type = std::uint32_t;

  explicit SeededRng(std::uint32_t seed) : engine_(seed) {}

  static constexpr result_type min() { return std::mt19937::min(); }
  static constexpr result_type max() { return std::mt19937::max(); }
  // The next raw 32-bit draw.
  result_type operator()() { return static_cast<result_type>(engine_()); }

  // A number in [0, n); n must be > 0. One draw, reduced modulo n: the
  // bias is far below what synthetic data or a test can notice.
  std::uint32_t Below(std::uint32_t n) { return (*this)() % n; }
  // A number in [lo, hi]; lo <= hi. One draw.
  int Between(int lo, int hi) {
    return lo + static_cast<int>(Below(static_cast<std::uint32_t>(hi - lo + 1)));
  }
  // True about `p` times in 100. One draw.
  bool Percent(int p) { return Between(0, 99) < p; }
  // One of `items` (not empty). One draw.
  template <typename T>
  T Pick(std::initializer_list<T> items) {
    return items.begin()[Below(static_cast<std::uint32_t>(items.size()))];
  }

  // `n` lower-case hex digits, as in a sha256 digest: eight digits from
  // each draw, its low nibble first.
  std::string Hex(std::size_t n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    s.reserve(n);
    for (std::size_t i = 0; i < n; i += 8) {
      std::uint32_t bits = (*this)();
      for (std::size_t j = 0; j < 8 && i + j < n; ++j, bits >>= 4) {
        s.push_back(kDigits[bits & 0xf]);
      }
    }
    return s;
  }

 private:
  std::mt19937 engine_;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_TESTING_SEEDED_RNG_H_
