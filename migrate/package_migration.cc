// Packages: P1..P10 <-> v2. No package key was ever renamed or retyped
// (FORMATS.md section 4.1), so besides reshaping the only steps are the v2
// additions: stripped on the way down, never invented on the way up.
#include <algorithm>
#include <string>

#include "json/json_path.h"
#include "migrate/internal/migrators.h"
#include "migrate/internal/schema.h"

namespace zs::migrate::internal {
namespace {

// Removes what ZEP-0026 added; logs each removal.
void StripHistory(json::Value* pkg, std::string_view to, ChangeLog* log) {
  const std::string why = " (" + std::string(to) + " has no event history)";
  if (const json::Value* events = pkg->Find("events")) {
    const std::size_t n = events->is_array() ? events->array().size() : 0;
    pkg->Erase("events");
    log->Mapping("dropped events: " + std::to_string(n) + " event(s)" + why);
  }
  if (pkg->Erase("deployConfig")) log->Mapping("dropped deployConfig" + why);
  if (pkg->Erase("configDigest")) log->Mapping("dropped configDigest" + why);
  json::Value* components = pkg->Find("deployedComponents");
  if (components == nullptr || !components->is_array()) return;
  for (std::size_t i = 0; i < components->array().size(); ++i) {
    json::Value& c = components->array()[i];
    if (c.is_object() && c.Erase("lastEvent")) {
      log->Mapping("dropped " + json::IndexPath("deployedComponents", i) + ".lastEvent" + why +
                   "; status kept");
    }
  }
}

// A component's `lastEvent` that is Go's zero ComponentEvent is what v2
// writes for "no event yet": it carries nothing, so a legacy target, which
// has no such field, goes without it. (StripHistory drops every lastEvent of
// a v2 payload; this also covers a payload that is not v2 by its events, e.g.
// one whose `events` is someone else's field, kept as unknown.)
void DropZeroLastEvents(json::Value* pkg, std::string_view to, ChangeLog* log) {
  json::Value* components = pkg->Find("deployedComponents");
  if (components == nullptr || !components->is_array()) return;
  for (std::size_t i = 0; i < components->array().size(); ++i) {
    json::Value& c = components->array()[i];
    const json::Value* e = c.is_object() ? c.Find("lastEvent") : nullptr;
    if (e == nullptr || !e->is_object() || e->object().size() != 3) continue;
    auto is = [e](std::string_view key, std::string_view want) {
      const json::Value* v = e->Find(key);
      return v != nullptr && v->is_string() && v->as_string() == want;
    };
    if (!is("type", "") || !is("outcome", "") || !is("timestamp", "0001-01-01T00:00:00Z")) {
      continue;
    }
    c.Erase("lastEvent");
    log->Mapping("removed " + json::IndexPath("deployedComponents", i) +
                 ".lastEvent (the zero event; " + std::string(to) + " has no such field)");
  }
}

// Earlier zarf-state versions moved an `events` member outside the v2
// vocabulary to this key. ZEP-0026's types read any strings as a type and an
// outcome, so such a history is the package's history: it gets its name back.
constexpr std::string_view kForeignEventsKey = "x-zarf-state-foreign-events";

void RenameMember(json::Value* obj, std::string_view from, std::string_view to) {
  for (json::Member& m : obj->object()) {
    if (m.first == from) m.first = std::string(to);
  }
}

void RestoreSetAsideEvents(json::Value* pkg, ChangeLog* log) {
  if (!pkg->is_object() || pkg->Find(kForeignEventsKey) == nullptr || pkg->Find("events") != nullptr) {
    return;
  }
  RenameMember(pkg, kForeignEventsKey, "events");
  log->Mapping("renamed " + std::string(kForeignEventsKey) +
               " -> events (event types and outcomes are open strings in ZEP-0026)");
}

// Go writes an event's type, outcome and timestamp always (the rest are
// omitempty): a history from another writer that lacks one gets Go's zero
// value in its place, after the fields before it.
void FillEventFields(json::Value* pkg, ChangeLog* log) {
  json::Value* events = pkg->is_object() ? pkg->Find("events") : nullptr;
  if (events == nullptr || !events->is_array()) return;
  for (std::size_t i = 0; i < events->array().size(); ++i) {
    json::Value& e = events->array()[i];
    if (!e.is_object()) continue;
    std::size_t at = 0;
    for (std::string_view key : {"type", "outcome", "timestamp"}) {
      auto& members = e.object();
      auto it = std::find_if(members.begin(), members.end(),
                             [&](const json::Member& m) { return m.first == key; });
      if (it != members.end()) {
        at = static_cast<std::size_t>(it - members.begin()) + 1;
        continue;
      }
      const std::string zero = key == "timestamp" ? "0001-01-01T00:00:00Z" : "";
      members.insert(members.begin() + static_cast<std::ptrdiff_t>(at),
                     json::Member(std::string(key), json::Value::String(zero)));
      ++at;
      log->Mapping("filled " + json::IndexPath("events", i) + "." + std::string(key) +
                   " = \"" + zero + "\" (v2 always writes it)");
    }
  }
}

}  // namespace

Status MigratePackageValue(json::Value* payload, PackageShape from, PackageShape to,
                           ChangeLog* log, json::Value* out) {
  const std::string_view to_name = ShapeName(to);
  if (from == PackageShape::kV2 && to != PackageShape::kV2) StripHistory(payload, to_name, log);
  if (to != PackageShape::kV2) DropZeroLastEvents(payload, to_name, log);
  RestoreSetAsideEvents(payload, log);
  if (to == PackageShape::kV2) FillEventFields(payload, log);
  if (from != PackageShape::kV2 && to == PackageShape::kV2) {
    log->Mapping("history starts empty: no events, no component lastEvent (latest event "
                 "Unknown, docs/model.md rule 8); old status kept");
  }
  auto has_generations = [](PackageShape s) {
    return s == PackageShape::kP3 || s == PackageShape::kP4 || s >= PackageShape::kP6;
  };
  if (!has_generations(from) && has_generations(to)) {
    // P5 is the quirk: v0.42.0..v0.49.1 dropped what v0.30.0 had added.
    log->Mapping("P1, P2 and P5 (v0.22.0..v0.29.2, v0.42.0..v0.49.1) wrote no generation, "
                 "component status or observedGeneration: Go zero values are written, "
                 "nothing is invented");
  }
  return Reshape(payload, PackageSchema(to), "", to_name, log, out);
}

}  // namespace zs::migrate::internal
