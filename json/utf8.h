// UTF-8 for every reader and writer of the project: decoding one code point
// with its validity, and encoding one. RFC 3629 rules: a sequence is 1-4
// bytes, never overlong, never a surrogate (U+D800-U+DFFF), never above
// U+10FFFF.
//
// Thread safety: every function is pure and reentrant.
#ifndef ZARF_STATE_JSON_UTF8_H_
#define ZARF_STATE_JSON_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace zs::json {

// Decodes the UTF-8 sequence starting at text[i]. On success stores the code
// point in *cp and returns the sequence length (1-4); returns 0 for an invalid
// sequence (bad lead byte, truncation, overlong form, surrogate, or a value
// above U+10FFFF). Precondition: i < text.size().
std::size_t DecodeUtf8(std::string_view text, std::size_t i, char32_t* cp);

// Appends the UTF-8 encoding of `cp` (which must be a Unicode scalar value).
void AppendUtf8(char32_t cp, std::string* out);

// The number of code points in `text`, counting the bytes that do not
// continue a sequence (0x80-0xBF), for width estimates: nothing is checked,
// so a stray continuation byte counts as none and a bad lead byte as one.
std::size_t CodePointCount(std::string_view text);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_UTF8_H_
