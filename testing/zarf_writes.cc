#include "testing/zarf_writes.h"

#include <algorithm>
#include <utility>

#include "json/go_json.h"

namespace zs::dev {
namespace {

using json::Value;

Value Chart(std::string_view ns, std::string_view name, std::string_view status) {
  Value c = Value::MakeObject();
  c.Set("namespace", Value::String(std::string(ns)));
  c.Set("chartName", Value::String(std::string(name)));
  c.Set("status", Value::String(std::string(status)));
  return c;
}

const json::Array& ArrayOf(const Value& v, std::string_view key) {
  static const json::Array kNone;
  const Value* a = v.Find(key);
  return a != nullptr && a->is_array() ? a->array() : kNone;
}

Value* FindNamed(json::Array& items, std::string_view name) {
  for (Value& v : items) {
    if (v.StringOr("name") == name) return &v;
  }
  return nullptr;
}

std::int64_t Generation(const std::optional<Value>& secret) {
  if (!secret) return 0;
  const Value* g = secret->Find("generation");
  return g != nullptr && g->is_number() ? std::stoll(g->number_raw()) : 0;
}

}  // namespace

ZarfWriter::ZarfWriter(Value definition, std::string namespace_override)
    : definition_(std::move(definition)), namespace_override_(std::move(namespace_override)) {}

std::string ZarfWriter::SecretName() const {
  const Value* md = definition_.Find("metadata");
  std::string name = "zarf-package-" + std::string(md ? md->StringOr("name") : "");
  if (!namespace_override_.empty()) name += "-override-" + namespace_override_;
  return name;
}

ZarfWrite ZarfWriter::Write(std::vector<ZarfWrite>* out) {
  ZarfWrite w;
  if (secret_) w = WriteJson(*secret_).value();
  out->push_back(w);
  return w;
}

std::vector<ZarfWrite> ZarfWriter::Deploy(const ZarfDeploy& deploy) {
  std::vector<ZarfWrite> out;
  auto selected = [&](std::string_view name) {
    return deploy.components.empty() ||
           std::find(deploy.components.begin(), deploy.components.end(), name) !=
               deploy.components.end();
  };
  Value data = definition_;
  json::Array defs;
  for (const Value& c : ArrayOf(definition_, "components")) {
    if (selected(c.StringOr("name"))) defs.push_back(c);
  }
  data.Set("components", Value::MakeArray(defs));
  // Charts the Secret holds now, per component (copied into the first write).
  std::optional<Value> before = secret_;
  json::Array run;
  const auto stopped = [&] { return deploy.stop_after >= 0 &&
                                    static_cast<int>(out.size()) >= deploy.stop_after; };
  for (const Value& def : defs) {
    const std::string name(def.StringOr("name"));
    Value charts = Value::MakeArray();
    if (before) {
      json::Array old = ArrayOf(*before, "deployedComponents");
      if (Value* c = FindNamed(old, name); c != nullptr && c->Find("installedCharts")) {
        charts = *c->Find("installedCharts");
      }
    }
    const std::int64_t gen = Generation(secret_) + 1;
    Value comp = Value::MakeObject();
    comp.Set("name", Value::String(name));
    comp.Set("installedCharts", charts);
    comp.Set("status", Value::String("Deploying"));
    comp.Set("observedGeneration", Value::Int(gen));
    run.push_back(comp);
    Value pkg = Value::MakeObject();
    const Value* md = definition_.Find("metadata");
    pkg.Set("name", Value::String(std::string(md ? md->StringOr("name") : "")));
    pkg.Set("digest", Value::String(""));
    pkg.Set("data", data);
    pkg.Set("cliVersion", Value::String("v0.84.0"));
    pkg.Set("generation", Value::Int(gen));
    pkg.Set("deployedComponents", Value::MakeArray(run));
    pkg.Set("packageConnectivity", Value::String("airgap"));
    if (!namespace_override_.empty()) {
      pkg.Set("namespaceOverride", Value::String(namespace_override_));
    }
    secret_ = pkg;
    Write(&out);
    if (stopped()) return out;
    const bool fails = deploy.fail == name;
    Value& last = run.back();
    json::Array merged = last.Find("installedCharts")->array();
    for (const Value& ch : ArrayOf(def, "charts")) {
      Value c = Chart(ch.StringOr("namespace"), ch.StringOr("name"), fails ? "Failed" : "Succeeded");
      bool same = false;
      for (Value& m : merged) {
        if (m.StringOr("chartName") == ch.StringOr("name") &&
            m.StringOr("namespace") == ch.StringOr("namespace")) {
          m = c;
          same = true;
        }
      }
      if (!same) merged.push_back(c);
    }
    last.Set("installedCharts", Value::MakeArray(merged));
    last.Set("status", Value::String(fails ? "Failed" : "Succeeded"));
    secret_->Set("deployedComponents", Value::MakeArray(run));
    Write(&out);
    if (fails || stopped()) return out;
  }
  return out;
}

std::vector<ZarfWrite> ZarfWriter::Remove(const ZarfRemove& remove) {
  std::vector<ZarfWrite> out;
  if (!secret_) return out;
  const auto stopped = [&] { return remove.stop_after >= 0 &&
                                    static_cast<int>(out.size()) >= remove.stop_after; };
  json::Array comps = ArrayOf(*secret_, "deployedComponents");
  while (!comps.empty()) {
    Value& comp = comps.back();
    const std::string name(comp.StringOr("name"));
    json::Array charts = ArrayOf(comp, "installedCharts");
    while (!charts.empty()) {
      if (remove.fail == name) return out;
      charts.pop_back();
      comp.Set("installedCharts", Value::MakeArray(charts));
      secret_->Set("deployedComponents", Value::MakeArray(comps));
      Write(&out);
      if (stopped()) return out;
    }
    if (remove.fail == name) return out;
    comps.pop_back();
    secret_->Set("deployedComponents", Value::MakeArray(comps));
    if (comps.empty()) secret_.reset();
    Write(&out);
    if (stopped()) return out;
  }
  return out;
}

Value ZarfDefinition(std::string_view name, std::string_view version, int n) {
  Value def = Value::MakeObject();
  def.Set("kind", Value::String("ZarfPackageConfig"));
  Value md = Value::MakeObject();
  md.Set("name", Value::String(std::string(name)));
  md.Set("version", Value::String(std::string(version)));
  def.Set("metadata", md);
  json::Array comps;
  for (int i = 0; i < n; ++i) {
    Value c = Value::MakeObject();
    std::string cname = "c";  // appended: `"c" + ...` trips a false g++ 12 -Wrestrict
    cname += std::to_string(i);
    c.Set("name", Value::String(cname));
    Value ch = Value::MakeObject();
    ch.Set("name", Value::String(cname + "-chart"));
    ch.Set("namespace", Value::String(std::string(name)));
    c.Set("charts", Value::MakeArray({ch}));
    comps.push_back(c);
  }
  def.Set("components", Value::MakeArray(comps));
  return def;
}

}  // namespace zs::dev
