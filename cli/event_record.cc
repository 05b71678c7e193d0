#include "cli/event_record.h"

#include <utility>

#include "model/credentials.h"
#include "cli/output.h"

namespace zs::tools {

EventRecord EventRecord::Of(const PackageEvent& e) {
  EventRecord r;
  r.type = e.type;
  r.outcome = e.outcome;
  r.timestamp = e.timestamp;
  r.version = e.version;
  r.flavor = e.flavor;
  r.digest = e.digest;
  r.source = e.source.empty() ? std::string() : ScrubSource(e.source);
  r.config_digest = e.config_digest;
  return r;
}

EventRecord EventRecord::Of(const ComponentEvent& e, std::string component) {
  EventRecord r;
  r.type = e.type;
  r.outcome = e.outcome;
  r.timestamp = e.timestamp;
  r.component = std::move(component);
  return r;
}

json::Value EventRecord::ToDocument() const {
  using json::Value;
  Value v = Value::MakeObject({{"type", Value::String(type)},
                               {"outcome", Value::String(outcome)},
                               {"timestamp", Value::String(ReportTime(timestamp))}});
  const auto optional = [&v](const char* key, const std::string& value) {
    if (!value.empty()) v.Set(key, Value::String(value));
  };
  optional("version", version);
  optional("flavor", flavor);
  optional("digest", digest);
  optional("source", source);
  optional("configDigest", config_digest);
  optional("component", component);
  return v;
}

std::optional<EventRecord> EventOf(const PackageEvent* e) {
  if (e == nullptr) return std::nullopt;
  return EventRecord::Of(*e);
}

std::optional<EventRecord> EventOf(const std::optional<ComponentEvent>& e) {
  if (!e) return std::nullopt;
  return EventRecord::Of(*e);
}

json::Value EventDocument(const std::optional<EventRecord>& e) {
  return e ? e->ToDocument() : json::Value::Null();
}

std::string EventCell(const std::optional<EventRecord>& e) {
  return e ? e->Summary() : std::string(kOutcomeUnknown);
}

}  // namespace zs::tools
