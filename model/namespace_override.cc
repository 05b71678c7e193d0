#include "model/namespace_override.h"

#include <set>
#include <string>

namespace zs {
namespace {

using json::Value;

// Calls visit(object) for each chart and manifest entry of every component.
template <typename Visit>
void ForEachChartAndManifest(Value* definition, Visit&& visit) {
  Value* comps = definition->Find("components");
  if (comps == nullptr || !comps->is_array()) return;
  for (Value& c : comps->array()) {
    for (std::string_view list : {"charts", "manifests"}) {
      Value* entries = c.Find(list);
      if (entries == nullptr || !entries->is_array()) continue;
      for (Value& e : entries->array()) {
        if (e.is_object()) visit(e);
      }
    }
  }
}

// Sets `object`'s "namespace" to `target` when it equals `original`.
void Rewrite(Value* object, std::string_view original, std::string_view target) {
  if (object->StringOr("namespace") == original) object->Set("namespace", Value::String(std::string(target)));
}

void RewriteWaits(Value* component, std::string_view original, std::string_view target) {
  Value* actions = component->Find("actions");
  if (actions == nullptr || !actions->is_object()) return;
  for (std::string_view set : {"onCreate", "onDeploy", "onRemove"}) {
    Value* s = actions->Find(set);
    if (s == nullptr || !s->is_object()) continue;
    for (std::string_view timing : {"before", "after", "onSuccess", "onFailure"}) {
      Value* list = s->Find(timing);
      if (list == nullptr || !list->is_array()) continue;
      for (Value& action : list->array()) {
        Value* wait = action.is_object() ? action.Find("wait") : nullptr;
        Value* cluster = wait != nullptr && wait->is_object() ? wait->Find("cluster") : nullptr;
        if (cluster != nullptr && cluster->is_object()) Rewrite(cluster, original, target);
      }
    }
  }
}

}  // namespace

Status OverrideNamespace(Value* definition, std::string_view target) {
  if (const Value* metadata = definition->Find("metadata"); metadata != nullptr) {
    const Value* allow = metadata->Find("allowNamespaceOverride");
    if (allow != nullptr && allow->is_bool() && !allow->as_bool()) {
      return Status::InvalidArgument("package explicitly prevents namespace overrides");
    }
  }
  if (definition->StringOr("kind") == "ZarfInitConfig") {
    return Status::InvalidArgument("package kind is not a ZarfPackageConfig, cannot override namespace");
  }
  std::set<std::string> namespaces;
  ForEachChartAndManifest(definition, [&](Value& e) { namespaces.emplace(e.StringOr("namespace")); });
  if (namespaces.size() > 1) {
    return Status::InvalidArgument("package contains " + std::to_string(namespaces.size()) +
                                   " unique namespaces, cannot override namespace");
  }
  const std::string original = namespaces.empty() ? "" : *namespaces.begin();
  ForEachChartAndManifest(definition, [&](Value& e) { Rewrite(&e, original, target); });
  if (Value* comps = definition->Find("components"); comps != nullptr && comps->is_array()) {
    for (Value& c : comps->array()) RewriteWaits(&c, original, target);
  }
  return Status::OK();
}

}  // namespace zs
