// The one record of an event every report prints (inspect, status, query,
// replay): the same fields under the same names in every command, an object
// when there is an event and null when there is none.
//
//   {"type": "Deploy", "outcome": "Succeeded", "timestamp": "2024-05-01T10:20:30Z",
//    "version": "1.0.0", "flavor": "...", "digest": "sha256:...",
//    "source": "oci://...", "configDigest": "sha256:...", "component": "web"}
//
// type, outcome and timestamp are always there; the others only when set
// (component: a component's event in a list of package and component
// events). The timestamp is a report time (cli/output.h ReportTime: UTC, to
// the second); the source has its credentials scrubbed (ScrubSource).
//
// Thread safety: a plain value; the functions are reentrant.
#ifndef ZARF_STATE_CLI_EVENT_RECORD_H_
#define ZARF_STATE_CLI_EVENT_RECORD_H_

#include <optional>
#include <string>

#include "model/model.h"
#include "model/timestamp.h"
#include "json/json_value.h"

namespace zs::tools {

struct EventRecord {
  std::string type;     // Deploy | Remove (or what a non-v2 writer stored)
  std::string outcome;  // InProgress | Succeeded | Failed | Cancelled
  Timestamp timestamp;
  std::string version;        // package events; "" when not stored
  std::string flavor;         // package events; "" when not stored
  std::string digest;         // package events; "" when not stored
  std::string source;         // Deploy events; credentials scrubbed
  std::string config_digest;  // package events; "" when not stored
  std::string component;      // a component's event: its component; else ""

  // A package event as reports show it (the source scrubbed).
  static EventRecord Of(const PackageEvent& e);
  // A component's event; `component` names it where a list mixes events.
  static EventRecord Of(const ComponentEvent& e, std::string component = "");

  // "Deploy/Succeeded": the event in a table cell.
  std::string Summary() const { return type + "/" + outcome; }

  // The JSON object above.
  json::Value ToDocument() const;
};

// An event pointer as a record; nullopt for nullptr.
std::optional<EventRecord> EventOf(const PackageEvent* e);
std::optional<EventRecord> EventOf(const std::optional<ComponentEvent>& e);

// The event's document, or null when there is none.
json::Value EventDocument(const std::optional<EventRecord>& e);

// The event in a table cell: Summary(), or "Unknown" when there is none
// (state without history, docs/model.md).
std::string EventCell(const std::optional<EventRecord>& e);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_EVENT_RECORD_H_
