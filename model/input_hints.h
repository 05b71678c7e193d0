// Texts that are neither JSON nor YAML state but are often given by
// mistake, recognised before the YAML parser would report a confusing error
// on them: kubectl's table (`kubectl get secrets` without `-o json`) and an
// HTML page (a saved report, a proxy's login page).
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_MODEL_INPUT_HINTS_H_
#define ZARF_STATE_MODEL_INPUT_HINTS_H_

#include <string>
#include <string_view>

namespace zs {

// What `text` is and what to give instead, as one sentence without a
// trailing period for an error message ("kubectl's table, not ...: run
// kubectl get secrets -o json"); "" when it is none of the above (then the
// parser's own error stands).
std::string MistakenInputHint(std::string_view text);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_INPUT_HINTS_H_
