// The character encodings an input text may arrive in, and their conversion
// to the UTF-8 every JSON and YAML reader works on.
//
// Tools print JSON and YAML as UTF-8, but some write a byte order mark first
// (PowerShell's `>`, Notepad), and Windows tools write UTF-16. YAML 1.2 and
// RFC 8259 both allow UTF-16 input that starts with a BOM. This module is the
// one place that decides: a UTF-8 BOM is dropped; UTF-16 LE or BE with its
// BOM is decoded to UTF-8; UTF-16 or UTF-32 that cannot be identified by a
// BOM, and UTF-16 with a broken surrogate pair, are refused with a message
// naming the problem and its byte offset.
//
// Thread safety: every function is pure and reentrant.
#ifndef ZARF_STATE_JSON_TEXT_ENCODING_H_
#define ZARF_STATE_JSON_TEXT_ENCODING_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace zs {

// Brings `*text` to UTF-8 without a byte order mark. On success `*text` is
// either a suffix of what it was (no BOM, or a UTF-8 BOM removed: nothing is
// copied) or, for UTF-16 with a BOM, a view of `*storage`, which then holds
// the decoded text and must outlive every use of `*text`. Whether the UTF-8
// itself is valid is left to the JSON and YAML readers, which say where it
// is not.
//
// Errors, each InvalidArgument with a message starting "encoding: ":
//  - UTF-32 (a UTF-32 BOM): not supported;
//  - no BOM but a NUL in the first two bytes: UTF-16 without a BOM, which
//    cannot be told apart from binary data;
//  - UTF-16 with an odd number of bytes, or an unpaired surrogate: named
//    with the byte offset of the offending code unit.
Status DecodeToUtf8(std::string_view* text, std::string* storage);

}  // namespace zs

#endif  // ZARF_STATE_JSON_TEXT_ENCODING_H_
