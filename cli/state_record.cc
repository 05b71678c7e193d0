#include "cli/state_record.h"

#include "model/model.h"

namespace zs::tools {
namespace {

using engine::StatusBasis;
using json::Value;

std::string Cell(StatusBasis basis, const std::string& status) {
  if (basis == StatusBasis::kStored) return std::string(kStoredMarker) + status;
  return status;
}

std::string_view Outcome(StatusBasis basis, const std::string& status) {
  if (basis == StatusBasis::kEvents) {
    const std::size_t slash = status.find('/');
    return slash == std::string::npos ? std::string_view(kOutcomeUnknown)
                                      : std::string_view(status).substr(slash + 1);
  }
  if (basis == StatusBasis::kStored) {
    if (status == kStatusSucceeded) return kOutcomeSucceeded;
    if (status == kStatusFailed) return kOutcomeFailed;
    if (status == kStatusDeploying || status == kStatusRemoving) return kOutcomeInProgress;
  }
  return kOutcomeUnknown;
}

Value Document(StatusBasis basis, const std::string& status) {
  return Value::MakeObject({{"status", Value::String(status)},
                            {"from", Value::String(std::string(engine::StatusBasisName(basis)))}});
}

}  // namespace

std::string StateCell(const engine::PackageState& state) { return Cell(state.basis, state.status); }
std::string StateCell(const engine::ComponentState& state) { return Cell(state.basis, state.status); }

Value StateDocument(const engine::PackageState& state) {
  Value v = Document(state.basis, state.status);
  v.Set("interrupted", Value::Bool(state.interrupted));
  if (state.interrupted) v.Set("interruptedComponent", Value::String(state.interrupted_component));
  return v;
}

Value StateDocument(const engine::ComponentState& state) { return Document(state.basis, state.status); }

std::string_view StateOutcome(const engine::PackageState& state) {
  return Outcome(state.basis, state.status);
}

std::string_view StateOutcome(const engine::ComponentState& state) {
  return Outcome(state.basis, state.status);
}

}  // namespace zs::tools
