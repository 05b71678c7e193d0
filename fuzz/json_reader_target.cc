#include <string>

#include "fuzz/targets.h"
#include "fuzz/tree_checks.h"
#include "json/canonical_json.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::fuzz {

std::string JsonReader(std::string_view data) {
  // A small depth limit on some inputs exercises the limit's own path.
  const std::size_t depth = data.size() % 3 == 0 ? 4 : 512;
  auto keep = json::ParseJson(data, {json::DuplicateKeys::kKeep, depth});
  auto last = json::ParseJson(data, {json::DuplicateKeys::kLastWins, depth});
  auto reject = json::ParseJson(data, {json::DuplicateKeys::kReject, depth});
  if (keep.ok() != last.ok()) {
    return "kKeep and kLastWins disagree on whether the input parses: " +
           (keep.ok() ? last.status() : keep.status()).ToString();
  }
  if (reject.ok() && !keep.ok()) return "kReject accepted what kKeep refused";
  if (!keep.ok()) {
    if (keep.status().message().empty()) return "an error without a message";
    return "";
  }
  if (reject.ok() && !(*reject == *keep)) return "kReject and kKeep built different trees";
  if (HasDuplicateKeys(*last)) return "kLastWins left a duplicate key";
  if (reject.ok() == HasDuplicateKeys(*keep)) {
    return "kReject's answer does not match whether the tree has duplicate keys";
  }

  // A document cut before its last closing bracket is refused, as truncated.
  if (keep->is_object() || keep->is_array()) {
    std::string_view cut = data;
    while (!cut.empty() && (cut.back() == ' ' || cut.back() == '\n' || cut.back() == '\r' ||
                            cut.back() == '\t')) {
      cut.remove_suffix(1);
    }
    cut.remove_suffix(1);
    auto truncated = json::ParseJson(cut, {json::DuplicateKeys::kKeep, depth});
    if (truncated.ok()) return "a document without its last closing bracket was accepted";
  }

  // Writing back, compact and indented, reads back as the same tree.
  auto compact = json::WriteJson(*keep);
  if (!compact.ok()) return "WriteJson with raw numbers failed: " + compact.status().ToString();
  auto again = json::ParseJson(*compact, {json::DuplicateKeys::kKeep, depth});
  if (!again.ok()) return "WriteJson output does not parse: " + again.status().ToString();
  if (!(*again == *keep)) return "WriteJson output parses to another tree";
  std::string indented;
  json::AppendIndentedJson(&indented, *keep, "    ");
  auto again_indented = json::ParseJson(indented, {json::DuplicateKeys::kKeep, depth});
  if (!again_indented.ok() || !(*again_indented == *keep)) {
    return "AppendIndentedJson output does not read back as the same tree";
  }

  // Go's float64 writing and the canonical form either work or say why.
  auto go = json::WriteJson(*keep, json::kGoAny);
  if (go.ok()) {
    auto go_again = json::ParseJson(*go);
    if (!go_again.ok()) return "kGoAny output does not parse: " + go_again.status().ToString();
  }
  auto canonical = json::Canonicalize(*keep);
  if (canonical.ok()) {
    auto c_again = json::ParseJson(*canonical);
    if (!c_again.ok()) return "canonical form does not parse: " + c_again.status().ToString();
    auto c_twice = json::Canonicalize(*c_again);
    if (!c_twice.ok() || *c_twice != *canonical) return "canonical form is not a fixed point";
  }
  return "";
}

}  // namespace zs::fuzz
