// Init state: S1..S14 in both directions. Before the generic reshape, the
// steps Zarf's own history needs (FORMATS.md section 4.2): the registry node
// port moved twice and changed type, agentTLS got json tags, `port` joined
// `nodePort`, and the internal/external booleans became derived from the
// addresses.
#include <charconv>
#include <cstdint>
#include <string>

#include "migrate/internal/migrators.h"
#include "migrate/internal/schema.h"

namespace zs::migrate::internal {
namespace {

using S = StateShape;

constexpr std::string_view kGiteaUrl = "http://zarf-gitea-http.zarf.svc.cluster.local:3000";

json::Value* Object(json::Value* parent, std::string_view key) {
  json::Value* v = parent->Find(key);
  return v != nullptr && v->is_object() ? v : nullptr;
}

json::Value* EnsureObject(json::Value* parent, std::string_view key) {
  if (json::Value* v = Object(parent, key)) return v;
  parent->Set(key, json::Value::MakeObject());
  return parent->Find(key);
}

// Where the registry's node port lives in shape `s`.
struct PortSlot {
  std::string_view parent;  // "" for the top level
  bool as_string;
};
PortSlot PortSlotOf(S s) {
  if (s == S::kS1) return {"registry", true};
  if (s <= S::kS3) return {"", true};
  return {"registryInfo", false};
}

json::Value* SlotParent(json::Value* state, std::string_view parent, bool create) {
  if (parent.empty()) return state;
  return create ? EnsureObject(state, parent) : Object(state, parent);
}

std::string SlotPath(std::string_view parent) {
  return parent.empty() ? "nodePort" : std::string(parent) + ".nodePort";
}

// Moves the node port to where shape `to` keeps it, converting between the
// string of S1..S3 and the integer of S4+.
Status MoveNodePort(json::Value* state, S to, ChangeLog* log) {
  const PortSlot want = PortSlotOf(to);
  const PortSlot slots[] = {{"registry", true}, {"", true}, {"registryInfo", false}};
  for (const PortSlot& from : slots) {
    if (from.parent == want.parent) continue;
    json::Value* parent = SlotParent(state, from.parent, false);
    json::Value* port = parent != nullptr ? parent->Find("nodePort") : nullptr;
    if (port == nullptr || port->is_null()) continue;
    json::Value* dest_parent = SlotParent(state, want.parent, false);
    if (dest_parent != nullptr && dest_parent->Find("nodePort") != nullptr) continue;
    const std::string from_path = SlotPath(from.parent);
    json::Value moved;
    if (from.as_string && !want.as_string) {
      if (!port->is_string()) {
        return Status::InvalidArgument(from_path + ": expected string, got " +
                                       std::string(json::KindName(port->kind())));
      }
      const std::string& text = port->as_string();
      std::int64_t n = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (!text.empty() && (ec != std::errc() || end != text.data() + text.size() || n < 0)) {
        return Status::InvalidArgument(from_path + ": \"" + text +
                                       "\" is not a port number");
      }
      moved = json::Value::Int(n);
      log->Mapping("moved " + from_path + " -> " + SlotPath(want.parent) + " (string \"" + text +
                   "\" to integer)");
    } else if (!from.as_string && want.as_string) {
      if (!port->is_number()) {
        return Status::InvalidArgument(from_path + ": expected integer, got " +
                                       std::string(json::KindName(port->kind())));
      }
      moved = json::Value::String(port->number_raw());
      log->Mapping("moved " + from_path + " -> " + SlotPath(want.parent) + " (integer to string)");
    } else {
      moved = std::move(*port);
      log->Mapping("moved " + from_path + " -> " + SlotPath(want.parent));
    }
    parent->Erase("nodePort");
    SlotParent(state, want.parent, true)->Set("nodePort", std::move(moved));
    return Status::OK();
  }
  return Status::OK();
}

// agentTLS had no json tags before v0.22.0 (S3): CA/Cert/Key.
void RenameAgentTls(json::Value* state, S to, ChangeLog* log) {
  json::Value* tls = Object(state, "agentTLS");
  if (tls == nullptr || to < S::kS3) return;
  const bool upper = to == S::kS3;
  static constexpr std::string_view kLower[] = {"ca", "cert", "key"};
  static constexpr std::string_view kUpper[] = {"CA", "Cert", "Key"};
  for (int i = 0; i < 3; ++i) {
    const std::string_view from = upper ? kLower[i] : kUpper[i];
    const std::string_view into = upper ? kUpper[i] : kLower[i];
    if (tls->Find(into) != nullptr) continue;
    for (json::Member& m : tls->object()) {
      if (m.first != from) continue;
      m.first = std::string(into);
      log->Mapping("renamed agentTLS." + std::string(from) + " -> agentTLS." + std::string(into));
      break;
    }
  }
}

// S12+ writes registryInfo.port beside nodePort, equal to it in every state
// Zarf wrote.
void SyncRegistryPort(json::Value* state, S to, ChangeLog* log) {
  json::Value* reg = Object(state, "registryInfo");
  if (reg == nullptr) return;
  const json::Value* node_port = reg->Find("nodePort");
  const json::Value* port = reg->Find("port");
  if (to >= S::kS12) {
    if (port == nullptr && node_port != nullptr && node_port->is_number()) {
      reg->Set("port", *node_port);
      log->Mapping("copied registryInfo.nodePort -> registryInfo.port (S12+ writes both, equal)");
    }
  } else if (port != nullptr && node_port != nullptr && *port == *node_port) {
    reg->Erase("port");
    log->Mapping("removed registryInfo.port (equal to nodePort; " + std::string(ShapeName(to)) +
                 " has no port)");
  }
}

// The internal/external booleans of S4..S6, as Zarf derives them from the
// addresses since v0.38.0.
struct Flag {
  std::string_view object;
  std::string_view key;
  S first;  // the first shape whose object has the flag
};
constexpr Flag kFlags[] = {
    {"gitServer", "internalServer", S::kS4},
    {"registryInfo", "internalRegistry", S::kS4},
    {"artifactServer", "internalServer", S::kS5},
};

bool DerivedFlag(const Flag& flag, const json::Value& obj) {
  const std::string_view address = obj.StringOr("address");
  if (flag.object == "gitServer") return address == kGiteaUrl;
  if (flag.object == "artifactServer") {
    return address.substr(0, kGiteaUrl.size()) == kGiteaUrl &&
           address.substr(kGiteaUrl.size()).rfind("/api/packages/", 0) == 0;
  }
  const json::Value* node_port = obj.Find("nodePort");
  return node_port != nullptr && node_port->is_number() && node_port->number_raw() != "0" &&
         address == "127.0.0.1:" + node_port->number_raw();
}

void SyncInternalFlags(json::Value* state, S to, ChangeLog* log) {
  const bool has_flags = to >= S::kS4 && to <= S::kS6;
  for (const Flag& flag : kFlags) {
    json::Value* obj = Object(state, flag.object);
    if (obj == nullptr) continue;
    const std::string path = std::string(flag.object) + "." + std::string(flag.key);
    const bool derived = DerivedFlag(flag, *obj);
    const json::Value* have = obj->Find(flag.key);
    if (has_flags && to >= flag.first) {
      if (have == nullptr) {
        obj->Set(flag.key, json::Value::Bool(derived));
        log->Mapping(std::string("derived ") + path + " = " + (derived ? "true" : "false") +
                     " from its address");
      }
    } else if (have != nullptr && have->is_bool()) {
      if (have->as_bool() == derived) {
        obj->Erase(flag.key);
        log->Mapping("removed " + path + " (Zarf derives it from the address since v0.38.0)");
      } else {
        log->Warning(path + " = " + (have->as_bool() ? "true" : "false") +
                     " disagrees with its address; kept");
      }
    }
  }
}

}  // namespace

Status MigrateStateValue(json::Value* payload, StateShape from, StateShape to, ChangeLog* log,
                         json::Value* out) {
  if (!payload->is_object()) {
    return Status::InvalidArgument("payload: expected object, got " +
                                   std::string(json::KindName(payload->kind())));
  }
  // `port` follows `nodePort`: dropped before the node port leaves
  // registryInfo (downgrade), copied after it arrives there (upgrade).
  SyncRegistryPort(payload, to, log);
  ZS_RETURN_IF_ERROR(MoveNodePort(payload, to, log));
  SyncRegistryPort(payload, to, log);
  RenameAgentTls(payload, to, log);
  SyncInternalFlags(payload, to, log);
  if (from <= S::kS3 && to >= S::kS4) {
    log->Warning(std::string(ShapeName(from)) +
                 " state has no git server, registry or artifact server credentials; "
                 "their fields are written empty, nothing is invented");
  }
  return Reshape(payload, StateSchema(to), "", ShapeName(to), log, out);
}

}  // namespace zs::migrate::internal
