// The JSON Lines log earlier releases wrote (one {"package", "record"}
// object a line), read for the file event log (engine/file_event_log.h),
// which converts it on its first append.
//
// Thread safety: reentrant functions.
#ifndef ZARF_STATE_ENGINE_INTERNAL_LEGACY_LOG_H_
#define ZARF_STATE_ENGINE_INTERNAL_LEGACY_LOG_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/record.h"

namespace zs::engine::internal {

// One line of a JSON Lines log.
struct LegacyEntry {
  std::string package;
  Record record;
};
// The records of a JSON Lines log in file order. A last line without its
// newline is a torn tail and ignored; blank lines are ignored; records of a
// skippable unknown kind are left out. Corruption names `path` and the line.
Result<std::vector<LegacyEntry>> ParseLegacyLog(std::string_view text, const std::string& path);

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_LEGACY_LOG_H_
