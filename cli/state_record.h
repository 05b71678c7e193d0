// How every report prints a derived status (engine/derived_status.h): the
// same cell in every table and the same object in every document, so that a
// status the Secret stores is never mistaken for one an event recorded.
//
// Table cell: the latest event as "Deploy/Failed"; "stored:Failed" for a
// status read from the Secret's deprecated `status` fields (a Secret without
// event history, as every Zarf release writes); "Unknown" where nothing is
// stored.
//
// Document: {"status": "Failed", "from": "events"|"stored"|"none"}, plus for
// a package "interrupted" (true when a component was left Deploying or
// Removing) and "interruptedComponent" when it is.
//
// Thread safety: reentrant functions.
#ifndef ZARF_STATE_CLI_STATE_RECORD_H_
#define ZARF_STATE_CLI_STATE_RECORD_H_

#include <string>
#include <string_view>

#include "engine/derived_status.h"
#include "json/json_value.h"

namespace zs::tools {

// The prefix that marks a stored status in a table cell.
inline constexpr std::string_view kStoredMarker = "stored:";

// The table cell of a package's or a component's derived status.
std::string StateCell(const engine::PackageState& state);
std::string StateCell(const engine::ComponentState& state);

// The document of a package's or a component's derived status.
json::Value StateDocument(const engine::PackageState& state);
json::Value StateDocument(const engine::ComponentState& state);

// The outcome a derived status reads as, for colouring: an event's outcome;
// a stored Succeeded or Failed as itself, Deploying and Removing as
// InProgress; otherwise Unknown.
std::string_view StateOutcome(const engine::PackageState& state);
std::string_view StateOutcome(const engine::ComponentState& state);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_STATE_RECORD_H_
