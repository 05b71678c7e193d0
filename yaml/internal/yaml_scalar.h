// Scalar-level helpers shared by the YAML reader and writer: how a plain
// (unquoted) scalar resolves to null, bool, number or string, which strings a
// YAML 1.1 reader would misread, and the printability rules of YAML (UTF-8 itself: json/utf8.h).
//
// Internal to yaml/: nothing outside the folder includes this header.
//
// Thread safety: every function is pure and reentrant.
#ifndef ZARF_STATE_YAML_INTERNAL_YAML_SCALAR_H_
#define ZARF_STATE_YAML_INTERNAL_YAML_SCALAR_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace zs::yaml::internal {

// What a plain scalar means under the YAML 1.2 core schema, plus two outcomes
// JSON cannot hold.
enum class PlainKind {
  kString,
  kNull,
  kBool,
  kNumber,
  // `.inf`, `-.Inf`, `.nan` and friends: valid YAML floats, but JSON has no
  // spelling for them.
  kNotFinite,
  // A decimal integer with a leading zero such as `0755`: YAML 1.2 reads it
  // as 755, YAML 1.1 (go-yaml, which kubectl and Helm use) as octal 493.
  // Guessing would silently change a value such as a file mode.
  kAmbiguousInteger,
};

struct PlainResolution {
  PlainKind kind = PlainKind::kString;
  // Set when kind == kBool.
  bool boolean = false;
  // Set when kind == kNumber: a spelling that satisfies json::IsValidNumber,
  // e.g. "+1" -> "1", ".5" -> "0.5", "1." -> "1", "0x1F" -> "31". Digits the
  // source wrote (such as the trailing zero of "1.50") are kept.
  std::string number;
};

// Resolves the text of a plain scalar with the core schema: null, ~ and the
// empty string are null; true/false in three casings are bools; decimal, octal
// (0o) and hexadecimal (0x) integers and decimal floats are numbers; anything
// else is a string.
PlainResolution ResolvePlain(std::string_view text);

// Whether a YAML 1.1 reader would take `text`, written as a plain scalar, for
// something other than a string: yes/no/on/off and y/n in their casings,
// numbers with `_` separators, 0b binary, sexagesimal `1:30`, the `=` and `<<`
// keys, and timestamps (`2024-01-02...`). The writer quotes these so that
// kubectl reads back exactly what we wrote.
bool IsYaml11NonString(std::string_view text);

// YAML 1.2's c-printable set: tab, LF, CR, U+0020-U+007E, U+0085,
// U+00A0-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF. Everything else may
// appear in a document only as an escape inside a double-quoted scalar.
bool IsPrintable(char32_t cp);

}  // namespace zs::yaml::internal

#endif  // ZARF_STATE_YAML_INTERNAL_YAML_SCALAR_H_
