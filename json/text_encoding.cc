#include "json/text_encoding.h"

#include <cstddef>
#include <cstdint>

#include "json/utf8.h"

namespace zs {
namespace {

using json::AppendUtf8;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::string_view kUtf16LeBom = "\xFF\xFE";
constexpr std::string_view kUtf16BeBom = "\xFE\xFF";
constexpr std::string_view kUtf32LeBom{"\xFF\xFE\x00\x00", 4};
constexpr std::string_view kUtf32BeBom{"\x00\x00\xFE\xFF", 4};

Status EncodingError(const std::string& what) {
  return Status::InvalidArgument("encoding: " + what);
}

// Decodes the UTF-16 code units after the BOM (byte offsets in messages
// count from the start of the input, BOM included).
Status DecodeUtf16(std::string_view text, bool big_endian, std::string* out) {
  const std::string_view name = big_endian ? "UTF-16BE" : "UTF-16LE";
  if (text.size() % 2 != 0) {
    return EncodingError(std::string(name) + " text of " + std::to_string(text.size()) +
                         " bytes is cut in the middle of a code unit");
  }
  auto unit = [&](std::size_t i) -> std::uint16_t {
    const auto a = static_cast<unsigned char>(text[i]);
    const auto b = static_cast<unsigned char>(text[i + 1]);
    return static_cast<std::uint16_t>(big_endian ? (a << 8) | b : (b << 8) | a);
  };
  out->clear();
  out->reserve(text.size() / 2 + text.size() / 8);
  for (std::size_t i = 2; i < text.size(); i += 2) {
    const std::uint16_t u = unit(i);
    if (u < 0xD800 || u > 0xDFFF) {
      AppendUtf8(u, out);
      continue;
    }
    const bool high = u <= 0xDBFF;
    const bool paired = high && i + 2 < text.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) <= 0xDFFF;
    if (!paired) {
      return EncodingError(std::string(name) + ": unpaired " + (high ? "high" : "low") +
                           " surrogate at byte " + std::to_string(i));
    }
    const char32_t cp = 0x10000 + ((char32_t{u} - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
    AppendUtf8(cp, out);
    i += 2;
  }
  return Status::OK();
}

}  // namespace

Status DecodeToUtf8(std::string_view* text, std::string* storage) {
  const std::string_view t = *text;
  if (t.starts_with(kUtf32LeBom) || t.starts_with(kUtf32BeBom)) {
    return EncodingError("UTF-32 text is not supported; convert it to UTF-8 (iconv -t UTF-8)");
  }
  if (t.starts_with(kUtf8Bom)) {
    text->remove_prefix(kUtf8Bom.size());
    return Status::OK();
  }
  if (t.starts_with(kUtf16LeBom) || t.starts_with(kUtf16BeBom)) {
    ZS_RETURN_IF_ERROR(DecodeUtf16(t, t.starts_with(kUtf16BeBom), storage));
    *text = *storage;
    return Status::OK();
  }
  if (t.size() >= 2 && (t[0] == '\0' || t[1] == '\0')) {
    return EncodingError(
        "a NUL byte at the start: UTF-16 without a byte order mark is not accepted; "
        "convert it to UTF-8 (iconv -f UTF-16LE -t UTF-8) or save it with a BOM");
  }
  return Status::OK();
}

}  // namespace zs
