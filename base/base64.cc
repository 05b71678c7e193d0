#include "base/base64.h"

#include <immintrin.h>

#include <array>

#include "base/cpu_dispatch.h"
#include "base/internal/base64_scalar.h"
#include "base/internal/simd_kernels.h"

namespace zs {
namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<signed char, 256> MakeDecodeTable() {
  std::array<signed char, 256> t{};
  for (auto& x : t) x = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<signed char>(i);
  return t;
}
constexpr std::array<signed char, 256> kDecode = MakeDecodeTable();

// The SIMD blocks follow the published lookup-by-nibble method (Muła and
// Lemire, "Faster Base64 Encoding and Decoding Using AVX2 Instructions",
// 2018); the tables are derived here from the alphabet.

// Validation: a character is in the alphabet iff kLoBits[low nibble] and
// kHiBits[high nibble] share no bit. Each high nibble gets one bit that
// stands for "the set of low nibbles that are invalid under this high
// nibble"; kLoBits[l] holds the bits of every class that rejects l.
//   bit 0: high nibble 0, 1, 8..F  - nothing valid
//   bit 1: high nibble 2           - only '+' (B) and '/' (F)
//   bit 2: high nibble 3           - '0'..'9' (0..9)
//   bit 3: high nibble 4, 6        - 'A'..'O', 'a'..'o' (1..F)
//   bit 4: high nibble 5, 7        - 'P'..'Z', 'p'..'z' (0..A)
constexpr std::array<unsigned char, 16> kHiBits = {1, 1, 2, 4, 8, 16, 8, 16,
                                                   1, 1, 1, 1, 1, 1, 1, 1};
constexpr std::array<unsigned char, 16> MakeLoBits() {
  std::array<unsigned char, 16> t{};
  for (int lo = 0; lo < 16; ++lo) {
    for (int hi = 0; hi < 16; ++hi) {
      if (kDecode[hi * 16 + lo] < 0) t[lo] |= kHiBits[hi];
    }
  }
  return t;
}
constexpr std::array<unsigned char, 16> kLoBits = MakeLoBits();

// Translation: value = character + kShift[high nibble], except '/', which
// shares high nibble 2 with '+' and is looked up at index 1 instead.
constexpr std::array<signed char, 16> kShift = {
    0, 63 - '/', 62 - '+', 52 - '0', -'A', -'A', 26 - 'a', 26 - 'a', 0, 0, 0, 0, 0, 0, 0, 0};

// Nothing outside the alphabet may pass, or the block test would be wrong.
constexpr bool CheckNibbleTables() {
  for (int c = 0; c < 256; ++c) {
    const bool valid = (kLoBits[c & 15] & kHiBits[c >> 4]) == 0;
    if (valid != (kDecode[c] >= 0)) return false;
    if (valid) {
      const int index = c == '/' ? 1 : c >> 4;
      if (c + kShift[index] != kDecode[c]) return false;
    }
  }
  return true;
}
static_assert(CheckNibbleTables());

__attribute__((target("avx2"))) __m256i Broadcast16(const std::array<unsigned char, 16>& t) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data())));
}
__attribute__((target("avx2"))) __m256i Broadcast16(const std::array<signed char, 16>& t) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data())));
}

}  // namespace

namespace internal {

// The block kernels (simd_kernels.h).
__attribute__((target("avx2"))) std::size_t Base64DecodeBlocksAvx2(const unsigned char* in,
                                                                   std::size_t n, char* out) {
  const __m256i lo_bits = Broadcast16(kLoBits);
  const __m256i hi_bits = Broadcast16(kHiBits);
  const __m256i shift = Broadcast16(kShift);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i slash = _mm256_set1_epi8('/');
  // Bytes 2, 1, 0 of each 32-bit lane (the lane holds a<<18|b<<12|c<<6|d).
  const __m256i pack = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi32(v, 4), nibble);
    const __m256i lo = _mm256_and_si256(v, nibble);
    const __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(lo_bits, lo),
                                         _mm256_shuffle_epi8(hi_bits, hi));
    if (!_mm256_testz_si256(bad, bad)) break;
    // '/' -> index 1: hi + (-1).
    const __m256i index = _mm256_add_epi8(hi, _mm256_cmpeq_epi8(v, slash));
    const __m256i sextets = _mm256_add_epi8(v, _mm256_shuffle_epi8(shift, index));
    // Pairs of sextets into 12-bit words, pairs of words into 24-bit lanes.
    const __m256i words = _mm256_maddubs_epi16(sextets, _mm256_set1_epi32(0x01400140));
    const __m256i lanes = _mm256_madd_epi16(words, _mm256_set1_epi32(0x00011000));
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(lanes, pack), gather);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(bytes));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 16), _mm256_extracti128_si256(bytes, 1));
    out += 24;
  }
  return i;
}

// The second lane's load runs 4 bytes past its block: hence 28 bytes.
__attribute__((target("avx2"))) std::size_t Base64EncodeBlocksAvx2(const unsigned char* in,
                                                                   std::size_t n, char* out) {
  // Per 32-bit lane, input bytes s0 s1 s2 as s1 s0 s2 s1: the low word is
  // s0:s1 (a in bits 15..10, b in 9..4), the high word s1:s2 (c in bits
  // 11..6, d in 5..0).
  const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                          1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  // Offsets from a sextet to its character, selected by `class` below:
  // 0: 26..51 -> 'a'..; 1..10: 52..61 -> '0'..; 11: 62 -> '+'; 12: 63 -> '/';
  // 13: 0..25 -> 'A'...
  const __m256i offsets = _mm256_setr_epi8(
      'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0, 'a' - 26, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63,
      'A', 0, 0);
  std::size_t i = 0;
  for (; i + 28 <= n; i += 24) {
    const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + 12));
    const __m256i v = _mm256_shuffle_epi8(_mm256_set_m128i(second, first), spread);
    // a and c to the low bits of their words, b and d to the high bytes.
    const __m256i ac = _mm256_mulhi_epu16(_mm256_and_si256(v, _mm256_set1_epi32(0x0FC0FC00)),
                                          _mm256_set1_epi32(0x04000040));
    const __m256i bd = _mm256_mullo_epi16(_mm256_and_si256(v, _mm256_set1_epi32(0x003F03F0)),
                                          _mm256_set1_epi32(0x01000010));
    const __m256i sextets = _mm256_or_si256(ac, bd);
    __m256i cls = _mm256_subs_epu8(sextets, _mm256_set1_epi8(51));
    const __m256i upper = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), sextets);
    cls = _mm256_or_si256(cls, _mm256_and_si256(upper, _mm256_set1_epi8(13)));
    const __m256i chars = _mm256_add_epi8(sextets, _mm256_shuffle_epi8(offsets, cls));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), chars);
    out += 32;
  }
  return i;
}

std::size_t Base64NoBlocks(const unsigned char*, std::size_t, char*) { return 0; }

}  // namespace internal

namespace {

// Encodes `in` from byte `i` on (a multiple of 3) to `w`, the place of
// group i / 3 in a buffer sized for the whole encoding.
void EncodeFrom(std::string_view in, std::size_t i, char* w) {
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  for (; i + 3 <= in.size(); i += 3) {
    const unsigned v = (s[i] << 16) | (s[i + 1] << 8) | s[i + 2];
    w[0] = kAlphabet[v >> 18];
    w[1] = kAlphabet[(v >> 12) & 63];
    w[2] = kAlphabet[(v >> 6) & 63];
    w[3] = kAlphabet[v & 63];
    w += 4;
  }
  const std::size_t rest = in.size() - i;
  if (rest == 0) return;
  const unsigned v = (s[i] << 16) | (rest == 2 ? s[i + 1] << 8 : 0);
  w[0] = kAlphabet[v >> 18];
  w[1] = kAlphabet[(v >> 12) & 63];
  w[2] = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
  w[3] = '=';
}

// Decodes `text` into `*out` (overwritten), with the SIMD blocks first when
// `simd` is set. Everything the blocks do not take, the portable code below
// does, and only it reports errors: the offsets are the same either way.
Status DecodeInto(std::string_view text, bool simd, std::string* out) {
  // Fast paths: whole blocks, then whole quads of alphabet characters,
  // written straight into a buffer sized for them. They stop at the first
  // line break, padding or illegal character, and the careful loop below
  // takes over from there.
  // 64 spare bytes: enough for a JSON parser to read the result in place
  // (json::ParseOptions::readable_padding).
  out->reserve(text.size() / 4 * 3 + 64);
  out->resize(text.size() / 4 * 3);
  char* w = out->data();
  std::size_t i = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  if (simd) {
    i = internal::DispatchBase64DecodeBlocks(in, text.size(), w);
    w += i / 4 * 3;
  }
  for (; i + 4 <= text.size(); i += 4) {
    const int a = kDecode[in[i]], b = kDecode[in[i + 1]], c = kDecode[in[i + 2]],
              d = kDecode[in[i + 3]];
    if ((a | b | c | d) < 0) break;
    const unsigned v = (static_cast<unsigned>(a) << 18) | (static_cast<unsigned>(b) << 12) |
                       (static_cast<unsigned>(c) << 6) | static_cast<unsigned>(d);
    *w++ = static_cast<char>(v >> 16);
    *w++ = static_cast<char>((v >> 8) & 0xFF);
    *w++ = static_cast<char>(v & 0xFF);
  }
  out->resize(static_cast<std::size_t>(w - out->data()));
  unsigned quad[4];
  int have = 0;
  int padding = 0;
  auto fail = [](std::size_t at) {
    return Status::Corruption("illegal base64 data at input byte " + std::to_string(at));
  };
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') continue;
    if (padding > 0) {
      if (c != '=' || have + padding >= 4) return fail(i);
      ++padding;
      continue;
    }
    if (c == '=') {
      if (have < 2) return fail(i);
      padding = 1;
      continue;
    }
    const signed char d = kDecode[c];
    if (d < 0) return fail(i);
    quad[have++] = static_cast<unsigned>(d);
    if (have == 4) {
      const unsigned v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6) | quad[3];
      *out += static_cast<char>(v >> 16);
      *out += static_cast<char>((v >> 8) & 0xFF);
      *out += static_cast<char>(v & 0xFF);
      have = 0;
    }
  }
  if (padding > 0 && have + padding != 4) return fail(text.size());
  if (padding == 0 && have != 0) return fail(text.size());
  // Like Go's StdEncoding (not Strict), unused trailing bits are ignored.
  if (have == 2) {
    *out += static_cast<char>((quad[0] << 2) | (quad[1] >> 4));
  } else if (have == 3) {
    const unsigned v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6);
    *out += static_cast<char>(v >> 16);
    *out += static_cast<char>((v >> 8) & 0xFF);
  }
  return Status::OK();
}

}  // namespace

void Base64EncodeAppend(std::string* out, std::string_view in) {
  // Sized for the whole encoding first and written in place: appending the
  // last group's padding to a string sized for the whole groups only would
  // copy all of it again.
  const std::size_t at = out->size();
  out->resize(at + (in.size() + 2) / 3 * 4);
  char* w = out->data() + at;
  const std::size_t i = internal::DispatchBase64EncodeBlocks(
      reinterpret_cast<const unsigned char*>(in.data()), in.size(), w);
  EncodeFrom(in, i, w + i / 3 * 4);
}

std::string Base64Encode(std::string_view in) {
  std::string out;
  Base64EncodeAppend(&out, in);
  return out;
}

Status Base64DecodeTo(std::string_view text, std::string* out) {
  return DecodeInto(text, /*simd=*/true, out);
}

Result<std::string> Base64Decode(std::string_view text) {
  std::string out;
  ZS_RETURN_IF_ERROR(DecodeInto(text, /*simd=*/true, &out));
  return out;
}

std::size_t Base64DecodedSize(std::string_view text) {
  std::size_t chars = 0, pad = 0;
  for (char c : text) {
    if (c == '=') ++pad;
    else if (c != '\r' && c != '\n') ++chars;
  }
  return (chars + pad) / 4 * 3 - pad;
}

namespace internal {

std::string Base64EncodeScalar(std::string_view bytes) {
  std::string out((bytes.size() + 2) / 3 * 4, '\0');
  EncodeFrom(bytes, 0, out.data());
  return out;
}

Result<std::string> Base64DecodeScalar(std::string_view text) {
  std::string out;
  ZS_RETURN_IF_ERROR(DecodeInto(text, /*simd=*/false, &out));
  return out;
}

}  // namespace internal
}  // namespace zs
