// A record of the event log (engine/record.h) as `replay --dump` prints it:
// its canonical JSON with the credentials of the one credential rule
// (model/credentials.h) hidden, unless the caller asks for the record as
// stored.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_ENGINE_RECORD_DISPLAY_H_
#define ZARF_STATE_ENGINE_RECORD_DISPLAY_H_

#include <string>

#include "base/status.h"
#include "engine/record.h"

namespace zs::tools {

// EncodeRecord(record), then, unless `show_secrets`: a Base snapshot as
// RedactPackageForDisplay; a deploy's facts (the definition in `data`, the
// `deployConfig`) as RedactPackageForDisplay sees them in a package, so
// sensitive variables' values and defaults and credential members are
// kRedacted; an event's `source` scrubbed (ScrubSource). The line still
// reads as a record; only the hidden values differ.
Result<std::string> RecordForDisplay(const engine::Record& record, bool show_secrets);

}  // namespace zs::tools

#endif  // ZARF_STATE_ENGINE_RECORD_DISPLAY_H_
