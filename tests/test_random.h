// The random inputs of tests and benchmarks: one seeded engine
// (testing/seeded_rng.h) and the strings cases are made of. A test that seeds
// it gets the same cases on every run and every platform, except through
// Uniform, which goes through std::uniform_int_distribution (the same cases
// for one standard library).
//
// Thread safety: the functions are reentrant; an Rng is not thread-safe.
#ifndef ZARF_STATE_TESTS_TEST_RANDOM_H_
#define ZARF_STATE_TESTS_TEST_RANDOM_H_

#include <cstddef>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

#include "testing/seeded_rng.h"

namespace zs::testing {

using Rng = tools::SeededRng;

// Alphabets for RandomText.
inline constexpr std::string_view kPrintableAscii =
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
    "abcdefghijklmnopqrstuvwxyz{|}~";
inline constexpr std::string_view kLowerLetters = "abcdefghijklmnopqrstuvwxyz";

// A number in [lo, hi] through std::uniform_int_distribution.
inline int Uniform(Rng& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// `n` bytes, each any of the 256 values (one draw each).
inline std::string RandomBytes(Rng& rng, std::size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xFF);
  return s;
}

// `n` characters of `alphabet` (not empty), one draw each.
inline std::string RandomText(Rng& rng, std::size_t n, std::string_view alphabet) {
  std::string s(n, '\0');
  for (char& c : s) c = alphabet[rng.Below(static_cast<std::uint32_t>(alphabet.size()))];
  return s;
}

// 0..max_count pieces of `pieces` (an array of strings, or a string whose
// characters are the pieces; not empty) end to end, each drawn through
// Uniform: with pieces of several bytes (escapes, "é", "🦄") this is the
// text that codecs trip over.
template <typename Pieces>
std::string RandomPieces(Rng& rng, const Pieces& pieces, int max_count) {
  std::string s;
  for (int i = Uniform(rng, 0, max_count); i > 0; --i) {
    s += pieces[Uniform(rng, 0, static_cast<int>(std::size(pieces)) - 1)];
  }
  return s;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_TEST_RANDOM_H_
