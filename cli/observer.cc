#include "cli/observer.h"

#include <filesystem>

#include "model/model_json.h"
#include "kube/package_secret.h"
#include "engine/derived_status.h"
#include "engine/observe.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

// The observe state file is small: one entry per package.
constexpr std::size_t kMaxStateBytes = std::size_t{64} << 20;

std::string_view ResourceVersion(const json::Value& object) {
  const json::Value* md = object.Find("metadata");
  return md ? md->StringOr("resourceVersion") : std::string_view();
}

bool IsDecimal(std::string_view s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string Line(std::string_view key, const engine::Record& r) {
  std::string line = TerminalText(key) + " ";
  if (r.kind == engine::RecordKind::kComponentEvent) {
    line += TerminalText(r.component) + " " + r.component_event.type + "/" +
            r.component_event.outcome + " " + FormatRfc3339(r.component_event.timestamp);
  } else {
    line += r.event.type + "/" + r.event.outcome + " " +
            TerminalText(r.event.version.empty() ? "-" : r.event.version) + " " +
            FormatRfc3339(r.event.timestamp);
  }
  return line;
}

}  // namespace

int CompareResourceVersions(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  if (!IsDecimal(a) || !IsDecimal(b)) return 2;
  const std::uint64_t x = std::stoull(std::string(a)), y = std::stoull(std::string(b));
  return x < y ? -1 : (x > y ? 1 : 0);
}

std::optional<Timestamp> SecretWriteTime(const json::Value& secret) {
  const json::Value* md = secret.Find("metadata");
  const json::Value* fields = md ? md->Find("managedFields") : nullptr;
  if (fields == nullptr || !fields->is_array()) return std::nullopt;
  std::optional<Timestamp> newest;
  for (const json::Value& f : fields->array()) {
    auto t = ParseRfc3339(f.StringOr("time"));
    if (t.ok() && (!newest || *newest < *t)) newest = *t;
  }
  return newest;
}

Result<std::unique_ptr<Observer>> Observer::Open(const std::string& db, std::ostream& out) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<engine::Cache> cache, engine::OpenCache(db));
  const std::string path = (std::filesystem::path(db) / kObserveStateFile).string();
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<StateFile> state,
                      StateFile::Open(path, /*may_be_missing=*/true, kMaxStateBytes));
  std::unique_ptr<Observer> o(new Observer(std::move(cache), std::move(state), out));
  ZS_RETURN_IF_ERROR(o->LoadState());
  return o;
}

Status Observer::LoadState() {
  if (!state_file_->exists()) return Status::OK();
  auto doc = json::ParseJson(state_file_->contents());
  const json::Value* packages = doc.ok() ? doc->Find("packages") : nullptr;
  if (packages == nullptr || !packages->is_object()) {
    return Status::Corruption(state_file_->path() + ": not an observe state (no \"packages\" object)");
  }
  for (const json::Member& m : packages->object()) {
    const json::Value* deleted = m.second.Find("deleted");
    known_[m.first] = Known{std::string(m.second.StringOr("namespace")),
                            std::string(m.second.StringOr("secret")),
                            std::string(m.second.StringOr("resourceVersion")),
                            deleted != nullptr && deleted->is_bool() && deleted->as_bool()};
  }
  return Status::OK();
}

std::string Observer::EncodeState() const {
  json::Value packages = json::Value::MakeObject();
  for (const auto& [key, k] : known_) {
    packages.object().emplace_back(
        key, json::Value::MakeObject({{"namespace", json::Value::String(k.namespace_)},
                                      {"secret", json::Value::String(k.secret)},
                                      {"resourceVersion", json::Value::String(k.resource_version)},
                                      {"deleted", json::Value::Bool(k.deleted)}}));
  }
  std::string out;
  AppendIndentedJson(&out, json::Value::MakeObject({{"packages", std::move(packages)}}), "  ");
  out += '\n';
  return out;
}

Status Observer::Apply(const std::string& key, const std::optional<DeployedPackage>& write,
                       Timestamp seen, std::string_view label) {
  std::optional<DeployedPackage> view;
  auto stored = cache_->SnapshotPayload(key);
  if (stored.ok()) {
    auto decoded = DecodePackagePayload(*stored);
    if (!decoded.ok()) return decoded.status().WithContext("the cache's snapshot of " + key);
    view = std::move(decoded).value();
  } else if (stored.status().code() != Status::Code::kNotFound) {
    return stored.status();
  }
  if (view) {
    // A write is later than the one before it, whatever the clocks say:
    // same-second apply times, a clock that went back.
    if (const PackageEvent* latest = engine::LatestEvent(*view);
        latest != nullptr && !(latest->timestamp < seen)) {
      seen = Timestamp::FromUnixNanos(latest->timestamp.unix_nanos() + 1);
    }
  }
  auto steps = engine::ObserveWrite(view ? &*view : nullptr, engine::ObservedWrite{write, seen});
  if (!steps.ok()) return steps.status().WithContext(std::string(label));
  const Known& k = known_[key];
  for (const DeployedPackage& step : steps->steps) {
    const std::string payload = EncodeDeployedPackage(step);
    ZS_RETURN_IF_ERROR(cache_->Ingest({payload, k.secret, k.namespace_}).status());
    dirty_ = true;
  }
  ++writes_;
  if (steps->taken_as_is && !steps->steps.empty()) {
    lines_.push_back(TerminalText(key) + " taken as written (it carries ZEP-0026 events)");
  }
  for (const engine::Record& r : steps->events) {
    lines_.push_back(Line(key, r));
    ++events_;
  }
  return Status::OK();
}

Status Observer::See(const InputObject& object, Timestamp seen) {
  if (!object.error.ok()) return object.error;
  if (object.payload_kind != PayloadKind::kPackage) {
    return Status::InvalidArgument(object.label + ": not a package Secret (Zarf's init state)");
  }
  auto pkg = DecodePackagePayload(object.payload);
  if (!pkg.ok()) {
    return Status::InvalidArgument(object.label + ": the payload does not decode: " +
                                   std::string(pkg.status().message()));
  }
  const std::string key = engine::PackageKey(*pkg);
  const std::string rv(ResourceVersion(object.object));
  listed_.insert(key);
  auto it = known_.find(key);
  if (it != known_.end() && !rv.empty() && !it->second.resource_version.empty()) {
    const int order = CompareResourceVersions(rv, it->second.resource_version);
    if (order == 0) return Status::OK();
    if (order < 0 && seen_this_run_.count(key) != 0) {
      return Status::InvalidArgument(object.label + ": out of order: resourceVersion " + rv +
                                     " is older than " + it->second.resource_version +
                                     ", observed before it; snapshots must be given oldest first");
    }
    if (order < 0) return Status::OK();  // observed by an earlier run
  }
  Known& k = known_[key];
  const Known before = k;
  k.namespace_ = object.is_secret ? std::string(ObjectNamespace(object.object)) : "";
  k.secret = object.is_secret ? std::string(ObjectName(object.object)) : "";
  if (Status s = Apply(key, *pkg, SecretWriteTime(object.object).value_or(seen), object.label);
      !s.ok()) {
    k = before;
    return s;
  }
  if (!rv.empty()) k.resource_version = rv;
  k.deleted = false;
  seen_this_run_.insert(key);
  dirty_ = true;
  return Status::OK();
}

Status Observer::SeeDeleted(const InputObject& object, Timestamp seen) {
  if (!object.error.ok()) return object.error;
  auto pkg = DecodePackagePayload(object.payload);
  if (!pkg.ok()) {
    return Status::InvalidArgument(object.label + ": the payload does not decode: " +
                                   std::string(pkg.status().message()));
  }
  const std::string key = engine::PackageKey(*pkg);
  ZS_RETURN_IF_ERROR(Apply(key, std::nullopt, seen, object.label));
  // Kept, with the deletion's resourceVersion: an older snapshot of the
  // Secret observed again is skipped, a new Secret's is newer.
  Known& k = known_[key];
  if (const std::string rv(ResourceVersion(object.object)); !rv.empty()) k.resource_version = rv;
  k.deleted = true;
  dirty_ = true;
  return Status::OK();
}

Status Observer::ListEnded(std::string_view namespace_, Timestamp seen) {
  std::vector<std::string> gone;
  for (const auto& [key, k] : known_) {
    if (k.namespace_ == namespace_ && !k.deleted && listed_.count(key) == 0) gone.push_back(key);
  }
  listed_.clear();
  for (const std::string& key : gone) {
    // A package already deleted derives nothing again (engine/observe.h).
    ZS_RETURN_IF_ERROR(Apply(key, std::nullopt, seen, "package " + key));
    known_[key].deleted = true;
    dirty_ = true;
  }
  return Status::OK();
}

Status Observer::Commit() {
  if (dirty_) {
    ZS_RETURN_IF_ERROR(cache_->Sync());
    ZS_RETURN_IF_ERROR(state_file_->Replace(EncodeState()));
    dirty_ = false;
  }
  for (const std::string& line : lines_) out_ << line << '\n';
  lines_.clear();
  return FlushOutput(out_, "observed events to standard output");
}

}  // namespace zs::tools
