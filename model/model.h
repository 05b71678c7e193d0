// The zarf-state data model: Zarf's DeployedPackage with the event history of
// ZEP-0026 (format "v2", docs/model.md section 1), and the configs whose digests tie an
// event to what was deployed.
//
// Field order in each struct is the order Go's encoding/json writes them, and
// every struct keeps the members it does not model in `unknown`, so that a
// document read and written back is byte-identical (model_json.h).
//
// Thread safety: plain value types.
#ifndef ZARF_STATE_MODEL_MODEL_H_
#define ZARF_STATE_MODEL_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/timestamp.h"
#include "json/json_value.h"

namespace zs {

// What a decoded struct remembers of its input beyond the fields' values, so
// that writing it back changes no byte:
//  * members it does not model, each with the position it had: the index (in
//    the struct's Go field order) of the last known field before it in the
//    input, or -1 when it came before all of them; writing emits a member
//    right after that field;
//  * which known fields the input did not have (bit i = field i). A field
//    that is absent and still holds its zero value is not written, so a
//    legacy payload gains no field it never had; Go-written input has every
//    non-omitempty field, and a struct built in code has none absent, so both
//    are written exactly as Go would.
struct UnknownFields {
  std::vector<std::pair<int, json::Member>> members;
  std::uint64_t absent = 0;
  bool empty() const { return members.empty(); }
  bool is_absent(int field) const { return (absent >> field) & 1; }
  bool operator==(const UnknownFields&) const = default;
};

// Wire values of PackageEvent.type / ComponentEvent.type.
inline constexpr std::string_view kEventDeploy = "Deploy";
inline constexpr std::string_view kEventRemove = "Remove";
// Wire values of the outcome fields. "Unknown" is never stored: status
// helpers answer it when there is no history (docs/model.md rule 8).
inline constexpr std::string_view kOutcomeInProgress = "InProgress";
inline constexpr std::string_view kOutcomeSucceeded = "Succeeded";
inline constexpr std::string_view kOutcomeFailed = "Failed";
inline constexpr std::string_view kOutcomeCancelled = "Cancelled";
inline constexpr std::string_view kOutcomeUnknown = "Unknown";
// The deprecated ComponentStatus values.
inline constexpr std::string_view kStatusSucceeded = "Succeeded";
inline constexpr std::string_view kStatusFailed = "Failed";
inline constexpr std::string_view kStatusDeploying = "Deploying";
inline constexpr std::string_view kStatusRemoving = "Removing";

// Types and outcomes are kept as the strings read, so that a document from a
// newer writer survives; engine/ validates them where it acts on them.
struct ComponentEvent {
  std::string type;
  std::string outcome;
  Timestamp timestamp;
  UnknownFields unknown;
  bool operator==(const ComponentEvent&) const = default;
};

struct PackageEvent {
  std::string type;
  std::string outcome;
  Timestamp timestamp;
  std::string version;        // omitted when empty
  std::string flavor;         // omitted when empty
  std::string digest;         // omitted when empty
  std::string source;         // omitted when empty; Deploy events only
  std::string config_digest;  // omitted when empty
  UnknownFields unknown;
  bool operator==(const PackageEvent&) const = default;
};

// Whether an event uses the v2 vocabulary (type Deploy|Remove, outcome
// InProgress|Succeeded|Failed|Cancelled). An `events` member written by
// something else decodes too; status helpers skip what this rejects.
inline bool IsV2Event(const PackageEvent& e) {
  return (e.type == kEventDeploy || e.type == kEventRemove) &&
         (e.outcome == kOutcomeInProgress || e.outcome == kOutcomeSucceeded ||
          e.outcome == kOutcomeFailed || e.outcome == kOutcomeCancelled);
}

struct ConnectString {
  std::string description;
  std::string url;
  UnknownFields unknown;
  bool operator==(const ConnectString&) const = default;
};
// A Go map: written with keys sorted, omitted when empty where tagged so.
using ConnectStrings = std::map<std::string, ConnectString>;

struct InstalledChart {
  std::string namespace_;
  std::string chart_name;
  ConnectStrings connect_strings;  // omitted when empty
  std::string status;              // "Succeeded" | "Failed" (Zarf >= v0.63)
  UnknownFields unknown;
  bool operator==(const InstalledChart&) const = default;
};

struct DeployedComponent {
  std::string name;
  // nullopt is Go's nil slice, written `null`; an empty vector writes `[]`.
  std::optional<std::vector<InstalledChart>> installed_charts;
  std::string status;  // deprecated ComponentStatus, still written
  std::int64_t observed_generation = 0;
  // nullopt: no event yet. Written as Go writes its zero ComponentEvent
  // (`{"type":"","outcome":"","timestamp":"0001-01-01T00:00:00Z"}`), which
  // reads back as nullopt; left out only for a legacy input without the key.
  std::optional<ComponentEvent> last_event;
  UnknownFields unknown;
  bool operator==(const DeployedComponent&) const = default;
};

// What changes the resulting deployment (docs/model.md section 1). The Go type has no
// json tags, so its wire names are the Go field names. nullopt is a nil map,
// written `null`.
struct DeployConfig {
  std::optional<std::map<std::string, std::string>> set_variables;
  std::optional<json::Value> values;  // an object
  std::string namespace_override;
  // component -> chart -> values object; each level may be null.
  std::optional<json::Value> values_overrides_map;
  bool operator==(const DeployConfig&) const = default;
};

struct RemoveConfig {
  std::optional<json::Value> values;  // an object
  std::string namespace_override;
  bool operator==(const RemoveConfig&) const = default;
};

struct DeployedPackage {
  std::string name;
  std::string digest;  // always written, "" when unknown
  // The full ZarfPackage definition, preserved exactly as read.
  json::Value data = json::Value::MakeObject();
  std::string cli_version;
  std::int64_t generation = 0;
  std::optional<std::vector<DeployedComponent>> deployed_components;
  ConnectStrings connect_strings;    // omitted when empty
  std::string package_connectivity;  // "airgap" | "connected"
  std::string namespace_override;    // omitted when empty
  std::vector<PackageEvent> events;  // omitted when empty; oldest first
  // The DeployConfig of the latest successful deploy, kept as the stored JSON
  // (numbers as written; config.h reads it typed), and its digest. Omitted
  // when absent / empty.
  std::optional<json::Value> deploy_config;
  std::string config_digest;
  UnknownFields unknown;
  bool operator==(const DeployedPackage&) const = default;

  // Convenience lookups; nullptr when absent.
  const DeployedComponent* FindComponent(std::string_view component) const;
  DeployedComponent* FindComponent(std::string_view component);
};

// Makes every field of `pkg` count as present (UnknownFields::absent), so
// that it is written as Go writes the ZEP-0026 types: every field without
// omitempty, `lastEvent` and `digest` included. Every snapshot zarf-state
// writes as v2 state goes through this; only lossless re-encoding of a
// legacy input keeps its absent fields out.
void MarkGoWritten(DeployedPackage* pkg);

// The name of the Secret Zarf keeps a package's state in:
// "zarf-package-<name>", or "zarf-package-<name>-override-<ns>".
std::string PackageSecretName(std::string_view package,
                              std::string_view namespace_override);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_MODEL_H_
