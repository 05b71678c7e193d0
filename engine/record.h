// Record: one entry of a package's append-only event log (docs/model.md section 2).
//
// A log is what happened, in order: package events (a deploy or remove
// starting and ending), component events (a component's attempt starting,
// succeeding with its charts, failing, being cancelled or removed), and the
// facts a deploy records when it starts (the package definition, its digest,
// the namespace override, connectivity and the DeployConfig). A log may start
// with a Base record: the snapshot of a Secret whose earlier history is not
// known (a legacy Secret, or a v2 Secret whose events were capped).
//
// Every record has a canonical byte encoding (a JSON object written by the
// Go-exact writer, fields in a fixed order, format version "v":1) and an
// identity: the XXH3-128 hash of those bytes, used to deduplicate records
// seen twice (ingesting the same Secret again, replaying a log file twice).
// A record kind this version does not know is skipped when it says it is
// skippable ("skip":true), and refused otherwise.
//
// Thread safety: plain value types; functions are reentrant.
#ifndef ZARF_STATE_ENGINE_RECORD_H_
#define ZARF_STATE_ENGINE_RECORD_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "json/json_value.h"

namespace zs::engine {

// The canonical encoding's format version. Bump when an existing field
// changes meaning; new optional fields do not need it.
inline constexpr int kRecordFormatVersion = 1;

enum class RecordKind {
  kBase,            // a snapshot the log starts from
  kPackageEvent,    // a PackageEvent; Deploy/InProgress also carries facts
  kComponentEvent,  // a component's ComponentEvent; Deploy/Succeeded carries charts
};

// "Base", "PackageEvent", "ComponentEvent".
std::string_view RecordKindName(RecordKind kind);

// What a deploy records at its start.
struct DeployFacts {
  std::string name;    // package name
  std::string digest;  // package digest
  json::Value data = json::Value::MakeObject();  // the ZarfPackage definition
  std::string cli_version;
  std::string namespace_override;
  std::string package_connectivity;
  // The Go-marshalled DeployConfig (what Zarf stores as `deployConfig`).
  std::optional<json::Value> deploy_config;
  bool operator==(const DeployFacts&) const = default;
};

// The large parts of a record (a Base snapshot, a deploy's facts with the
// whole package definition) are immutable and shared: copying a record, and
// folding one, never copies a package definition.
struct Record {
  RecordKind kind = RecordKind::kPackageEvent;
  // kBase
  std::shared_ptr<const DeployedPackage> base;
  // kPackageEvent
  PackageEvent event;
  std::shared_ptr<const DeployFacts> facts;
  // kComponentEvent
  std::string component;
  ComponentEvent component_event;
  std::optional<std::vector<InstalledChart>> charts;

  // The record's time: its event's timestamp (a Base's last recorded
  // event's, or zero).
  Timestamp time() const;
};

// Canonical bytes of `record` (compact JSON, no trailing newline).
std::string EncodeRecord(const Record& record);
// EncodeRecord of a package event record (`facts` may be null) and of a
// component event record (`charts` may be null), appended to `out` from the
// parts, without building a Record.
void AppendPackageEventRecord(std::string* out, const PackageEvent& event,
                              const DeployFacts* facts = nullptr);
void AppendComponentEventRecord(std::string* out, std::string_view component,
                                const ComponentEvent& event,
                                const std::vector<InstalledChart>* charts = nullptr);

// Inverse of EncodeRecord. Corruption for malformed input or an unknown
// kind that is not marked skippable; NotSupported for a newer format
// version; for an unknown skippable kind returns NotFound, which a reader
// reports as skipped.
Result<Record> DecodeRecord(std::string_view bytes);

// 32 lower-case hex digits: XXH3-128 of EncodeRecord(record).
std::string RecordId(const Record& record);
// The same for bytes already encoded by EncodeRecord (saves encoding twice).
std::string RecordIdOfBytes(std::string_view encoded);

// The XXH3-128 hash a record id spells, for comparing identities without
// their text.
struct RecordHash {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const RecordHash&) const = default;
};
RecordHash RecordHashOfBytes(std::string_view encoded);
// The 32 hex digits of RecordIdOfBytes, appended to `out`.
void AppendRecordId(std::string* out, const RecordHash& hash);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_RECORD_H_
