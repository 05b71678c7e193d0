// Small checks on json::Value trees shared by the fuzz target bodies.
#ifndef ZARF_STATE_FUZZ_TREE_CHECKS_H_
#define ZARF_STATE_FUZZ_TREE_CHECKS_H_

#include "json/json_value.h"

namespace zs::fuzz {

// Whether some object in `v` names a member twice (or, with
// `empty_key_counts`, has a member named "": YAML cannot write that).
inline bool HasDuplicateKeys(const json::Value& v, bool empty_key_counts = false) {
  if (v.is_array()) {
    for (const json::Value& item : v.array()) {
      if (HasDuplicateKeys(item, empty_key_counts)) return true;
    }
  } else if (v.is_object()) {
    const json::Object& members = v.object();
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (empty_key_counts && members[i].first.empty()) return true;
      for (std::size_t j = 0; j < i; ++j) {
        if (members[i].first == members[j].first) return true;
      }
      if (HasDuplicateKeys(members[i].second, empty_key_counts)) return true;
    }
  }
  return false;
}

}  // namespace zs::fuzz

#endif  // ZARF_STATE_FUZZ_TREE_CHECKS_H_
