// replay's check of a whole --log file: FileEventLog::Check printed as a
// summary row (or one json/yaml document) with one line per problem.

#ifndef ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_
#define ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_

#include <ostream>

#include "cli/command_status.h"
#include "cli/output.h"
#include "engine/file_event_log.h"

namespace zs::tools {

// `replay --verify --log FILE` without -f: the log itself checked
// (FileEventLog::Check): a summary row, then one line per damaged region
// ("damaged: ..."), per chunk out of order ("order: ...") and for a torn
// append ("torn: ...", not a problem: a kill during an append leaves one).
// `format` is table, wide, json or yaml. OK when nothing is damaged or out
// of order; FailureReported() otherwise (the output says what); the Status
// when the log does not read or the output cannot be written.
CommandStatus RunLogCheck(const engine::FileEventLog& log, const OutputOptions& output,
                          std::ostream& out);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_
