// The process's standard output, checked: every write error is kept with
// its reason and reported before a command says it succeeded, and again
// when the output is closed.
//
// Thread safety: not thread-safe (std::cout and descriptor 1 are
// process-wide).
#ifndef ZARF_STATE_IO_STANDARD_OUTPUT_H_
#define ZARF_STATE_IO_STANDARD_OUTPUT_H_

#include <ostream>
#include <string_view>

#include "base/status.h"

namespace zs::tools {

// Gives std::cout a buffer that writes to descriptor 1 and keeps the first
// write error with its reason, for FlushOutput and CloseStandardOutput to
// report, and gives a descriptor 0-2 the process lacks /dev/null opened
// read-only (writes to it fail, as to the missing one; no file opened later
// takes its number). main() calls it first; nothing may write to stdout
// through C stdio after that (the two buffers would interleave).
void UseCheckedStandardOutput();

// Flushes `out` and says whether everything written to it arrived: OK, or
// IOError "<what>: write failed[: <reason>]" once any write to it failed
// (a full disk, /dev/full, a file size limit). For std::cout the C stdio
// buffer behind it is checked too. Commands call it before they report
// success, so that a cut output is never an exit 0.
Status FlushOutput(std::ostream& out, std::string_view what);

// Flushes and closes the process's standard output (std::cout, stdio and
// descriptor 1): the last check of what a command printed, made by main()
// after every command. IOError "standard output: write failed: <reason>"
// when a write failed or the close reports an error (NFS reports some only
// then). A failure FlushOutput already returned for std::cout is not
// returned again (the command has reported it).
Status CloseStandardOutput();

}  // namespace zs::tools

#endif  // ZARF_STATE_IO_STANDARD_OUTPUT_H_
