// Notes: what a command says on stderr that is neither an error nor a
// warning, such as the Secrets a whole-namespace dump holds besides Zarf's.
// One line each, silenced by -q (cli/progress.h, AddQuietFlag), and shown
// in the HTML report as notes, not among its warnings.
//
// Thread safety: the quiet setting is process-wide, set while the command
// line is parsed; not thread-safe.
#ifndef ZARF_STATE_CLI_NOTES_H_
#define ZARF_STATE_CLI_NOTES_H_

#include <string>
#include <string_view>
#include <vector>

namespace zs::tools {

// -q: notes are not printed.
void SetNotesQuiet(bool quiet);
bool NotesQuiet();

// The one line for the Secrets an input held that are not Zarf state, by
// reason, most frequent first: "skipped 4 Secrets in FILE that are not Zarf
// state: 3 of type kubernetes.io/tls, 1 not named zarf-state or
// zarf-package-* (-q hides this line)". `skipped` holds Input::skipped's
// "LABEL: REASON" entries; "" when empty.
std::string SkippedSummary(std::string_view source, const std::vector<std::string>& skipped);

// Whether a line on stderr is such a note (the report shows it apart).
bool IsSkippedSummary(std::string_view line);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_NOTES_H_
