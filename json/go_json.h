// Writing JSON exactly as Go's encoding/json does.
//
// Zarf stores its state as the output of `json.Marshal`, and computes config
// digests over it, so matching it byte for byte is what lets a Secret written
// here be indistinguishable from one written by Zarf. The rules implemented:
//   * strings: `"` and `\` escaped, `\n` `\r` `\t` short forms, every other
//     control character and `<` `>` `&` as `\u00XX` (lower-case hex), U+2028
//     and U+2029 as `\u2028` `\u2029`, invalid UTF-8 as `\ufffd`, everything
//     else (DEL and non-ASCII included) written raw;
//   * float64: the shortest representation that round-trips, in `%f` form for
//     1e-6 <= |x| < 1e21 and in `%e` form otherwise with a 1- or 2-digit
//     exponent as Go trims it (`1e-7`, `1e+21`, `1.5e+300`);
//   * maps: keys sorted by their bytes.
//
// Thread safety: all functions are pure and reentrant.
#ifndef ZARF_STATE_JSON_GO_JSON_H_
#define ZARF_STATE_JSON_GO_JSON_H_

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::json {

// Appends `s` as a Go-escaped JSON string literal, quotes included.
void AppendGoString(std::string* out, std::string_view s);

// Appends `v` as Go's encoding/json writes a float64. `v` must be finite
// (Go refuses NaN and Inf; so does the caller's input, which is JSON).
void AppendGoFloat(std::string* out, double v);

// The order in which Go writes a map built by setting `n` entries in turn,
// entry i under key `key_of(i)` (a std::string_view): the index of the last
// entry set for each distinct key (the one the map keeps), sorted by the
// keys' bytes.
template <typename KeyOf>
std::vector<std::size_t> GoMapOrder(std::size_t n, KeyOf key_of) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::string_view(key_of(a)) < std::string_view(key_of(b));
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Equal keys are adjacent in set order: keep the last of each run.
    if (i + 1 < n && std::string_view(key_of(order[i + 1])) == std::string_view(key_of(order[i]))) {
      continue;
    }
    order[kept++] = order[i];
  }
  order.resize(kept);
  return order;
}

// Parses a JSON number spelling to the float64 Go's decoder would produce
// (correctly rounded). Returns InvalidArgument if it is out of float64 range,
// as Go's `json.Unmarshal` does ("cannot unmarshal number ... into float64").
Result<double> NumberToFloat64(std::string_view raw);

enum class NumberStyle {
  kRaw,      // write each number exactly as it was read
  kFloat64,  // decode to float64 and write it the way Go does
};

struct WriteOptions {
  // Sort object keys bytewise at every level (Go's map order). When false,
  // members are written in their stored order. Default: false.
  bool sort_keys = false;
  // Default: kRaw.
  NumberStyle numbers = NumberStyle::kRaw;
};

// What `json.Marshal` writes for a value decoded into `any`: sorted keys and
// float64 numbers.
inline constexpr WriteOptions kGoAny{true, NumberStyle::kFloat64};

// Appends `value` in compact form. Fails only for numbers outside float64
// range under NumberStyle::kFloat64 (InvalidArgument naming the number).
Status AppendJson(std::string* out, const Value& value,
                  const WriteOptions& options = {});

// Convenience wrapper around AppendJson.
Result<std::string> WriteJson(const Value& value,
                              const WriteOptions& options = {});

// Appends the JSON value at the start of `text` in compact form, exactly as
// AppendJson (default options) writes the tree ParseJson (DuplicateKeys::kKeep)
// builds from it, without building the tree: whitespace dropped, strings
// unescaped and written the Go way, numbers and member order as they are.
// Returns the bytes of `text` the value took (anything may follow it), or 0,
// with an unspecified part appended, when the value is not strict RFC 8259
// JSON, a value nests deeper than `max_depth` (the value itself is depth 1),
// or it holds something this path leaves to the tree (a \u escape of a
// UTF-16 surrogate, a raw control character). A 0 says nothing about why:
// callers take the tree path then, whose errors are the reference. Invalid
// UTF-8 in a string, or any byte outside ASCII between tokens, is not
// strict JSON either: 0.
std::size_t AppendCompactFromText(std::string* out, std::string_view text,
                                  std::size_t max_depth);

// Appends `value` indented as Go's json.MarshalIndent(v, "", indent) would
// (and as kubectl prints objects with 4 spaces), numbers written raw and
// members in stored order. Used for human-facing output.
void AppendIndentedJson(std::string* out, const Value& value,
                        std::string_view indent, int depth = 0);

// A value of a tree that AppendIndentedJson takes from elsewhere: the node
// at address `at` (a placeholder, never read) is written by `append`, which
// appends the value's JSON text. A large value (a Secret's base64, say) is
// so produced straight into the output, never held in the tree first.
struct SplicedValue {
  const Value* at = nullptr;
  std::function<void(std::string*)> append;
};

// AppendIndentedJson with `splice.append` writing the node at `splice.at`.
void AppendIndentedJson(std::string* out, const Value& value, std::string_view indent,
                        int depth, const SplicedValue& splice);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_GO_JSON_H_
