// Strict JSON reader producing an ordered, lossless json::Value.
//
// Parsing is done by simdjson's On-Demand API, which validates UTF-8 and the
// document structure and exposes each number's raw token and each object's
// key order; this file only builds the tree from it. Every error says what is
// wrong and the byte offset where it was found.
//
// Thread safety: ParseJson is reentrant (each call owns its parser).
#ifndef ZARF_STATE_JSON_JSON_READER_H_
#define ZARF_STATE_JSON_JSON_READER_H_

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "base/memory_budget.h"
#include "base/status.h"
#include "json/json_value.h"

namespace zs::json {

// What to do when an object has the same key twice.
enum class DuplicateKeys {
  // Keep every member in order, duplicates included, for an exact round trip.
  // Value::Find returns the last one, as Go's decoder would use.
  kKeep,
  // Keep one member per key at the position of its first occurrence, holding
  // the value of its last occurrence (Go's map semantics, "last one wins").
  kLastWins,
  // Fail with Corruption naming the key and its byte offset.
  kReject,
};

// Memory budget (base/memory_budget.h): building a scalar or an array takes
// kValueCost bytes from it, an object kObjectCost (objects become structs of
// the model, the costliest part of a decode); strings are not charged, as a
// text holds each of its strings once. Going over is InvalidArgument with a
// message containing kOverMemoryBudget, the limit and the byte offset.
// Values that are checked but not built (ParseJsonSelected) cost nothing.

struct ParseOptions {
  // Default: kKeep.
  DuplicateKeys duplicates = DuplicateKeys::kKeep;
  // Deepest nesting of arrays and objects accepted. Default: 512. Hard
  // ceiling: 1024 (simdjson's default depth).
  std::size_t max_depth = 512;
  // Largest input accepted, in bytes. Default: 256 MiB.
  std::size_t max_bytes = std::size_t{256} << 20;
  // The budget building values takes from, shared by the parses of one
  // input (the documents of a stream, the JSON texts of an envelope).
  // Default: nullptr, a budget of its own for the text (MemoryBudget(size)).
  MemoryBudget* budget = nullptr;
  // Bytes after the end of the text that may be read (never written) — for
  // text in a std::string, its spare capacity. At least 64 lets the parser
  // work in place instead of on a padded copy of the text. Default: 0.
  std::size_t readable_padding = 0;
};

// Parses exactly one JSON text (RFC 8259; surrounding whitespace allowed).
// Returns Corruption on malformed input or invalid UTF-8, with "at byte N";
// InvalidArgument when a limit of `options` (bytes, depth, memory budget)
// is exceeded.
Result<Value> ParseJson(std::string_view text, const ParseOptions& options = {});

// Takes the text of a raw value (its first byte to the end of the text it
// is in) and returns how many bytes the value spans, or 0 to refuse it.
using RawTaker = std::function<std::size_t(std::string_view value_text)>;

// ParseJson of a text whose top-level value is an object, except that the
// value of its first member named `raw_key`, when an object, is neither
// parsed nor indexed but handed to `take_raw`, which checks it (a refused
// value is parsed as usual): the tree holds an empty object in its place,
// and `*taken` says whether that happened. For the large part of a document
// that is only carried through (a package's definition), read once by the
// taker instead of twice. The taker decides what the value may be (depth:
// it sits at 2, the object being 1). A member key written with an escape is
// not compared, and only DuplicateKeys::kKeep takes; otherwise, and for any
// error, the result is ParseJson's.
Result<Value> ParseJsonTakingRaw(std::string_view text, std::string_view raw_key,
                                 const ParseOptions& options, const RawTaker& take_raw,
                                 bool* taken);

// The parts of a document ParseJsonSelected builds. A selection applies to
// an object: each member listed is built with its own selection (nullptr:
// the whole value); members not listed are built whole when `keep_others`,
// else checked and left out of the tree. An array is selected as its
// elements are; a scalar is always built.
struct Selection {
  struct Member {
    std::string_view key;
    const Selection* select = nullptr;
  };
  std::vector<Member> members;
  bool keep_others = false;
};

// ParseJson, except that only the parts `selection` names are built. Parts
// left out are checked exactly as ParseJson checks them (grammar, UTF-8,
// escapes, depth; the same errors) but cost no allocation: for reading a
// few fields of a large document. Only with DuplicateKeys::kKeep; other
// options build every value.
Result<Value> ParseJsonSelected(std::string_view text, const Selection& selection,
                                const ParseOptions& options = {});

// Whether a text is read as JSON rather than YAML: its first non-blank
// character is `[`, or `{` followed (after blanks) by `"` or `}`. A document
// such as `{kind: Secret, ...}` (PyYAML's flow style) is YAML: a JSON object
// always opens with a quoted key.
bool LooksLikeJson(std::string_view text);

// A value's place in a text: bytes [begin, end).
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The spans of the values of a text that holds two or more JSON objects or
// arrays one after another, with only whitespace around and between them:
// concatenated JSON as `jq '.items[]'` or `kubectl -o json` on several
// objects prints it, and JSON Lines. Brackets are matched and strings (with
// their escapes) skipped; nothing else is validated, so each span still goes
// through ParseJson, which reports its errors. Returns an empty vector when
// the text is not such a stream: a single value, a scalar at the top level,
// unbalanced brackets, or other text between values. Linear in the text.
std::vector<Span> SplitConcatenated(std::string_view text);

// ParseJsonStreaming's callbacks. A non-OK status stops the parse and is
// returned by it.
using ItemHandler =
    std::function<Status(Value item, std::size_t index, const Value& envelope_so_far)>;
using EnvelopeHandler = std::function<Status(Value envelope, bool streamed)>;

// ParseJson for documents too large to hold as one tree, such as a List of
// hundreds of Secrets. When the top-level value is an object with an array
// member `array_key` ("items"), each element of that array is built and
// handed to `on_item` as soon as it is parsed, in order, with the members
// read before it (`envelope_so_far`, where `array_key` is an empty array);
// then `on_envelope` gets every member, the array still empty, and
// streamed = true. Otherwise `on_envelope` gets the whole document and
// streamed = false. A malformed document can fail after some items were
// handed out. Limits and errors as ParseJson.
Status ParseJsonStreaming(std::string_view text, std::string_view array_key,
                          const ParseOptions& options, const ItemHandler& on_item,
                          const EnvelopeHandler& on_envelope);

// ParseJsonStreaming, except that the first `skip_items` items of the
// streamed array are checked as strictly but neither built nor handed out:
// the rest of a stream whose first items another reader handed out. The
// items' indexes are the text's (the first one handed out is `skip_items`).
Status ParseJsonStreamingFrom(std::string_view text, std::string_view array_key,
                              const ParseOptions& options, const ItemHandler& on_item,
                              const EnvelopeHandler& on_envelope, std::size_t skip_items);

// How ScanValueText found a value's end.
enum class ValueScan {
  kEnded,     // `*end` is just past it
  kCutShort,  // the text ends inside it: more text may end it
  kRefused,   // no value starts at `at`, or ParseJson would refuse the text
              // before building anything: invalid UTF-8, or a control byte
              // (< 0x20) in a string, escaped or not
};

// Where the value whose first byte is text[at] ends, told lexically with the
// checks a parser makes of a whole text before it builds anything (the
// grammar is left to ParseJson): strings are skipped with the vector scan,
// brackets counted, and the value's bytes checked as UTF-8 once its end is
// found. For reading a large text a piece at a time (kube/list_file.h).
ValueScan ScanValueText(std::string_view text, std::size_t at, std::size_t* end);

// ParseJson of an object, except that the value of its first member named
// `strings_key`, when it is an object whose members are all strings without
// escapes (a Secret's `data`: base64), is built by copying those strings
// rather than parsed, which checks them (UTF-8, no control byte) and takes
// from the budget what the parser would. The result, limits and errors are
// ParseJson's; any other value of that member is parsed.
Result<Value> ParseJsonTakingStrings(std::string_view text, std::string_view strings_key,
                                     const ParseOptions& options);

// ParseJsonStreaming for a text that may hold several values one after
// another (SplitConcatenated). When the text starts with an object or array
// that is followed by more than whitespace, or is refused or malformed before
// where that value ends can be told, nothing is handed out, OK is returned
// and `*single` is set to false: the caller splits the text, or parses it
// with ParseJsonStreaming to have its error. Otherwise `*single` is true and
// the rest is as ParseJsonStreaming. The end of the first value is found in
// the parser's index of the text's brackets, without another pass over its
// bytes.
Status ParseJsonStreamingIfSingle(std::string_view text, std::string_view array_key,
                                  const ParseOptions& options, const ItemHandler& on_item,
                                  const EnvelopeHandler& on_envelope, bool* single);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_JSON_READER_H_
