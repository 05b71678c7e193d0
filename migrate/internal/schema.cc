#include "migrate/internal/schema.h"

#include <deque>
#include <initializer_list>
#include <map>

namespace zs::migrate::internal {
namespace {

constexpr FieldType kB = FieldType::kBool;
constexpr FieldType kS = FieldType::kString;
constexpr FieldType kI = FieldType::kInt;

class Tables {
 public:
  Tables() {
    for (int n = 1; n <= static_cast<int>(PackageShape::kV2); ++n) package_[n] = BuildPackage(n);
    for (int n = 1; n <= static_cast<int>(StateShape::kS14); ++n) state_[n] = BuildState(n);
    for (auto& [schema, level] : levels_) schema->known_anywhere = &known_[level];
  }
  const Schema& package(PackageShape s) const { return *package_[static_cast<int>(s)]; }
  const Schema& state(StateShape s) const { return *state_[static_cast<int>(s)]; }

 private:
  // A builder that appends fields in Go order; `legacy` decides whether the
  // keys count as ones Zarf ever wrote (v2's additions do not: a legacy
  // payload carrying them is carrying unknown fields).
  class Builder {
   public:
    Builder(Tables* t, std::string level, bool legacy)
        : t_(t), level_(std::move(level)), legacy_(legacy) {}
    Builder& Add(std::string key, FieldType type, bool omitempty = false,
                 const Schema* sub = nullptr) {
      if (legacy_) t_->known_[level_].insert(key);
      fields_.push_back(Field{std::move(key), type, omitempty, sub});
      return *this;
    }
    Builder& Strings(std::initializer_list<const char*> keys) {
      for (const char* k : keys) Add(k, kS);
      return *this;
    }
    const Schema* Done() {
      Schema& s = t_->arena_.emplace_back();
      s.fields = std::move(fields_);
      t_->levels_.emplace_back(&s, level_);
      return &s;
    }

   private:
    Tables* t_;
    std::string level_;
    bool legacy_;
    std::vector<Field> fields_;
  };

  // Packages: n is 1..10 for P1..P10 and 11 for v2 (FORMATS.md section 1).
  const Schema* BuildPackage(int n) {
    const bool v2 = n == static_cast<int>(PackageShape::kV2);
    const bool legacy = !v2;
    // generation, component status and observedGeneration: P3, P4, P6+ (P5
    // dropped them for v0.42.0..v0.49.1).
    const bool generations = n == 3 || n == 4 || n >= 6;

    Builder chart(this, "chart", legacy);
    chart.Strings({"namespace", "chartName"});
    if (n >= 4) chart.Add("connectStrings", FieldType::kAny, true);
    if (n >= 8) chart.Add("status", kS);

    Builder component(this, "component", legacy);
    component.Add("name", kS).Add("installedCharts", FieldType::kArray, false, chart.Done());
    if (generations) component.Add("status", kS).Add("observedGeneration", kI);
    if (v2) {
      // A struct in the ZEP-0026 types: Go writes it, zero when unset.
      Builder event(this, "lastEvent", legacy);
      event.Add("type", kS).Add("outcome", kS).Add("timestamp", FieldType::kTime);
      component.Add("lastEvent", FieldType::kObject, false, event.Done());
    }

    Builder pkg(this, "package", legacy);
    pkg.Add("name", kS);
    // No omitempty (Zarf v0.80.0 on): `digest` is written, "" when unknown.
    if (n >= 10) pkg.Add("digest", kS);
    pkg.Add("data", FieldType::kAny).Add("cliVersion", kS);
    if (generations) pkg.Add("generation", kI);
    pkg.Add("deployedComponents", FieldType::kArray, false, component.Done());
    if (n == 3 || n == 4) pkg.Add("componentWebhooks", FieldType::kAny, true);
    if (n >= 2) pkg.Add("connectStrings", FieldType::kAny, true);
    if (n >= 9) pkg.Add("packageConnectivity", kS);
    if (n >= 7) pkg.Add("namespaceOverride", kS, true);
    if (v2) {
      pkg.Add("events", FieldType::kAny, true)
          .Add("deployConfig", FieldType::kAny, true)
          .Add("configDigest", kS, true);
    }
    return pkg.Done();
  }

  // Init state: n is 1..14 for S1..S14 (FORMATS.md section 2).
  const Schema* BuildState(int n) {
    Builder s(this, "state", true);
    s.Add("zarfAppliance", kB).Add("distro", kS);
    if (n <= 10) s.Add("architecture", kS);
    s.Add("storageClass", kS);
    if (n <= 3) s.Add("secret", kS);
    if (n == 1) {
      Builder registry(this, "registry", true);
      registry.Strings({"seedType", "nodePort"});
      s.Add("registry", FieldType::kObject, false, registry.Done());
    }
    if (n == 2 || n == 3) s.Add("nodePort", kS);
    if (n >= 9) s.Add("ipFamily", kS);
    if (n >= 3) {
      Builder tls(this, "agentTLS", true);
      if (n == 3) {
        tls.Strings({"CA", "Cert", "Key"});  // no json tags before v0.22.0
      } else {
        tls.Strings({"ca", "cert", "key"});
      }
      s.Add("agentTLS", FieldType::kObject, false, tls.Done());
    }
    if (n >= 13) s.Add("agentTLSUserProvided", kB, true);
    if (n >= 14) s.Add("agentMutationPolicy", kS);
    if (n >= 9) {
      Builder injector(this, "injectorInfo", true);
      injector.Add("injectorImage", kS).Add("payLoadConfigMapAmount", kI);
      injector.Add("payLoadShaSum", kS).Add("port", kI);
      s.Add("injectorInfo", FieldType::kObject, false, injector.Done());
    }
    if (n >= 4) {
      Builder git(this, "gitServer", true);
      git.Strings({"pushUsername", "pushPassword", "pullUsername", "pullPassword", "address"});
      if (n <= 6) git.Add("internalServer", kB);
      s.Add("gitServer", FieldType::kObject, false, git.Done());

      Builder registry(this, "registryInfo", true);
      registry.Strings({"pushUsername", "pushPassword", "pullUsername", "pullPassword", "address"});
      registry.Add("nodePort", kI);
      if (n >= 12) registry.Add("port", kI);
      if (n <= 6) registry.Add("internalRegistry", kB);
      registry.Add("secret", kS);
      if (n >= 9) registry.Add("registryMode", kS);
      if (n >= 10) registry.Add("mtlsStrategy", kS, true);
      s.Add("registryInfo", FieldType::kObject, false, registry.Done());
    }
    if (n >= 5) {
      Builder artifact(this, "artifactServer", true);
      artifact.Strings({"pushUsername", "pushPassword", "address"});
      if (n <= 6) artifact.Add("internalServer", kB);
      s.Add("artifactServer", FieldType::kObject, false, artifact.Done());
    }
    if (n == 4 || n == 5) s.Add("loggingSecret", kS);
    return s.Done();
  }

  std::deque<Schema> arena_;  // stable addresses
  std::vector<std::pair<Schema*, std::string>> levels_;
  std::map<std::string, std::set<std::string, std::less<>>> known_;
  const Schema* package_[12] = {};
  const Schema* state_[15] = {};
};

const Tables& GetTables() {
  static const Tables* tables = new Tables();
  return *tables;
}

}  // namespace

const Field* Schema::Find(std::string_view key, int* index, std::size_t from) const {
  const std::size_t n = fields.size();
  if (from >= n) from = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = from + k < n ? from + k : from + k - n;
    if (fields[i].key == key) {
      if (index != nullptr) *index = static_cast<int>(i);
      return &fields[i];
    }
  }
  return nullptr;
}

const Schema& PackageSchema(PackageShape shape) { return GetTables().package(shape); }
const Schema& StateSchema(StateShape shape) { return GetTables().state(shape); }

}  // namespace zs::migrate::internal
