// replay's check of a whole --log file: FileEventLog::Check printed as a
// summary row (or one json/yaml document) with one line per problem.

#ifndef ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_
#define ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_

#include <ostream>

#include "cli/output.h"
#include "engine/file_event_log.h"

namespace zs::tools {

// `replay --verify --log FILE` without -f: the log itself checked
// (FileEventLog::Check): a summary row, then one line per damaged region
// ("damaged: ..."), per chunk out of order ("order: ...") and for a torn
// append ("torn: ...", not a problem: a kill during an append leaves one).
// `format` is table, wide, json or yaml. Exit 0 when nothing is damaged or
// out of order, 1 otherwise or when the log does not read.
int RunLogCheck(const engine::FileEventLog& log, const OutputOptions& output, std::ostream& out,
                std::ostream& err);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPLAY_LOG_CHECK_H_
