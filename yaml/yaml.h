// YAML reading and writing for the documents zarf-state meets: Kubernetes
// objects as kubectl, Helm and PyYAML print them, and Zarf configs written by
// people.
//
// Both directions cover the part of YAML that maps onto JSON. Reading uses
// libfyaml (Debian's libfyaml-dev) for the syntax: block and flow documents,
// every scalar style, comments, `---`/`...` markers, directives, CRLF and a
// leading BOM. On top of it this reader decides what the nodes mean. Plain
// scalars resolve with the YAML 1.2 core schema, so `yes` is a string;
// numbers keep a JSON spelling of what was written (`1.50` stays `1.50`, `+1`
// becomes `1`, `0x1F` becomes `31`). Mapping keys keep their source text.
// Aliases repeat their anchored value; merge keys `<<` add the members of a
// mapping (or a sequence of mappings) that the mapping does not have itself,
// an earlier source winning over a later one. The standard tags `!!str`,
// `!!int`, `!!float`, `!!bool`, `!!null`, `!!binary` (kept as its base64
// text), `!!map`, `!!seq` and `!` are honoured. Features with no JSON meaning
// are refused rather than approximated, so a value never changes silently on
// the way in.
//
// Every error message starts "yaml: line L, column C: " (1-based; columns
// count characters). Codes:
//  - Corruption: malformed YAML (libfyaml's message), a duplicate key in one
//    mapping, invalid UTF-8, raw control characters, an alias to no anchor.
//  - NotSupported: valid YAML this reader does not map to JSON: other tags,
//    collections or aliases as mapping keys, anchored keys, empty keys.
//  - InvalidArgument: `.inf` and `.nan`, which JSON cannot hold; integers
//    with a leading zero such as `0755`, which YAML 1.1 (kubectl, Helm) reads
//    as octal and YAML 1.2 as decimal; a scalar its tag does not fit
//    (`!!int x`); a merge key whose value is not mappings; nesting deeper
//    than kMaxNestingDepth; going over the element budget.
//
// Thread safety: both functions are reentrant and keep no global state.
#ifndef ZARF_STATE_YAML_YAML_H_
#define ZARF_STATE_YAML_YAML_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::yaml {

// Deepest nesting of mappings and sequences ParseDocuments accepts by
// default (the JSON reader's default too).
inline constexpr std::size_t kMaxNestingDepth = 512;

// Parses a stream of one or more documents, separated by `---` and optionally
// ended by `...`, into one json::Value per document, in order. Documents
// without content (only comments, or nothing between markers) yield no
// Value, so an empty stream gives an empty vector. Object members keep their
// source order. Fails as described above. `text` is only borrowed for the
// duration of the call. Nesting deeper than `max_depth` is InvalidArgument,
// and so is a text whose values take more than the memory budget of its
// size (base/memory_budget.h: each value costs its bytes, text and keys
// included, and an alias the bytes of the value it repeats, so aliases
// cannot expand a small text into a large tree).
Result<std::vector<json::Value>> ParseDocuments(std::string_view text,
                                                std::size_t max_depth = kMaxNestingDepth);

// Writes `value` as one block-style document the way `kubectl -o yaml`
// prints objects: two-space indentation, a sequence under a key not indented
// (`items:\n- name: a`), members in stored order, `{}` and `[]` for empty
// collections, numbers in their raw spelling. A string stays plain unless a
// plain scalar would read back differently here or in a YAML 1.1 reader such
// as kubectl (`""`, `true`, `yes`, `~`, `1e3`, timestamps, leading blanks or
// indicators, `: ` or ` #` inside, control characters...); it is then
// single-quoted when that suffices and double-quoted otherwise. Multi-line
// strings become `|` blocks when that is exact, else double-quoted.
//
// The result ends with a newline and never fails. ParseDocuments(Write(v))
// gives back {v} whenever v's strings are valid UTF-8 and its objects have no
// duplicate names; invalid UTF-8 bytes are written as U+FFFD, as Go's
// encoding/json does.
std::string Write(const json::Value& value);

}  // namespace zs::yaml

#endif  // ZARF_STATE_YAML_YAML_H_
