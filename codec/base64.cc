#include "codec/base64.h"

#include <array>

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

}  // namespace

std::string Base64Encode(std::string_view in) {
  std::string out;
  out.resize(in.size() / 3 * 4);  // the whole groups, written in place
  char* w = out.data();
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const unsigned v = (s[i] << 16) | (s[i + 1] << 8) | s[i + 2];
    w[0] = kAlphabet[v >> 18];
    w[1] = kAlphabet[(v >> 12) & 63];
    w[2] = kAlphabet[(v >> 6) & 63];
    w[3] = kAlphabet[v & 63];
    w += 4;
  }
  const std::size_t rest = in.size() - i;
  if (rest == 1) {
    const unsigned v = s[i] << 16;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (rest == 2) {
    const unsigned v = (s[i] << 16) | (s[i + 1] << 8);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  std::string out;
  // Fast path: whole quads of alphabet characters, written straight into a
  // buffer sized for them. It stops at the first line break, padding or
  // illegal character, and the careful loop below takes over from there.
  out.resize(text.size() / 4 * 3);
  char* w = out.data();
  std::size_t i = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
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
  out.resize(static_cast<std::size_t>(w - out.data()));
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
      out += static_cast<char>(v >> 16);
      out += static_cast<char>((v >> 8) & 0xFF);
      out += static_cast<char>(v & 0xFF);
      have = 0;
    }
  }
  if (padding > 0 && have + padding != 4) return fail(text.size());
  if (padding == 0 && have != 0) return fail(text.size());
  // Like Go's StdEncoding (not Strict), unused trailing bits are ignored.
  if (have == 2) {
    out += static_cast<char>((quad[0] << 2) | (quad[1] >> 4));
  } else if (have == 3) {
    const unsigned v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6);
    out += static_cast<char>(v >> 16);
    out += static_cast<char>((v >> 8) & 0xFF);
  }
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

}  // namespace zs
