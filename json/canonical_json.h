// Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and the
// canonical config digest built on it (docs/model.md section 5).
//
// Zarf's own configDigest (config.h) hashes the exact bytes of Go's
// json.Marshal, so two configs that mean the same thing can still digest
// differently (`5` versus `5.0`, a float64 that Go prints in another form).
// The canonical digest hashes the RFC 8785 form instead, in which every
// number is an IEEE-754 double printed as ECMAScript prints it, object keys
// are sorted by UTF-16 code units, duplicates collapse and there is no
// whitespace. It is written under its own prefix, "jcs-sha256:", so that it
// can never be mistaken for a Zarf digest.
//
// Thread safety: all functions are pure and reentrant.
#ifndef ZARF_STATE_JSON_CANONICAL_JSON_H_
#define ZARF_STATE_JSON_CANONICAL_JSON_H_

#include <string>
#include <string_view>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::json {

// Returns the RFC 8785 canonical form of `value`:
//   * objects: members sorted by the UTF-16 code units of their keys (not by
//     UTF-8 bytes: U+FB01 sorts after U+1F600, whose first UTF-16 unit is the
//     surrogate 0xD83D); when a key repeats, the last member wins;
//   * no whitespace between tokens;
//   * strings: `"` and `\` escaped, \b \f \n \r \t short forms, the other
//     control characters as \u00xx in lower-case hex; everything else,
//     `<` `>` `&` U+2028 and DEL included, as raw UTF-8;
//   * numbers: converted to the nearest double (as NumberToFloat64) and
//     written as ECMAScript's Number.prototype.toString does: the shortest
//     digits that round-trip, plain notation for 1e-6 <= |x| < 1e21
//     ("100000000000000000000", "0.000001"), exponent notation otherwise
//     ("1e+21", "1e-7", "1.5e+300"), and -0 written "0".
// Fails with InvalidArgument, naming the number, when a number is outside
// double range (such as 1e400), and with InvalidArgument when a string or key
// is not valid UTF-8 (a lone surrogate included: RFC 8785 requires that it
// be refused). `value` is only read; the result owns its bytes.
Result<std::string> Canonicalize(const Value& value);

// The prefix of every canonical digest, distinct from Zarf's "sha256:".
inline constexpr std::string_view kCanonicalDigestPrefix = "jcs-sha256:";

// Returns "jcs-sha256:<64 lower-case hex digits>", the SHA-256 of
// Canonicalize(value). Under it `5` and `5.0` agree, as do documents that
// differ only in key order, duplicate keys overridden later, or whitespace.
// Fails exactly when Canonicalize fails, with its status.
Result<std::string> CanonicalDigest(const Value& value);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_CANONICAL_JSON_H_
