// MakeDefinition (testing/synthetic_package.h): a plain ZarfPackage
// definition of a chosen shape, for harnesses that deploy or record one.
#include <string>
#include <utility>

#include "testing/synthetic_package.h"
#include "testing/seeded_rng.h"

namespace zs::bench {
namespace {

using json::Value;

Value Str(std::string s) { return Value::String(std::move(s)); }

// "<base>-<i>" for the first of a kind, "<base>-<i>-<k>" after it.
std::string Numbered(const std::string& base, int i, int k) {
  std::string out = base;
  out.append("-").append(std::to_string(i));
  if (k > 0) out.append("-").append(std::to_string(k));
  return out;
}

}  // namespace

json::Value MakeDefinition(const DefinitionOptions& options) {
  tools::SeededRng rng(options.seed);
  const bool named = !options.component_names.empty();
  const int count = named ? static_cast<int>(options.component_names.size()) : options.components;
  Value components = Value::MakeArray();
  for (int i = 0; i < count; ++i) {
    Value c = Value::MakeObject(
        {{"name", Str(named ? options.component_names[i] : Numbered("component", i, 0))}});
    if (options.required) c.object().emplace_back("required", Value::Bool(true));
    if (options.charts_per_component > 0) {
      Value charts = Value::MakeArray();
      for (int k = 0; k < options.charts_per_component; ++k) {
        charts.array().push_back(Value::MakeObject({{"name", Str(Numbered("chart", i, k))},
                                                    {"namespace", Str(options.chart_namespace)},
                                                    {"version", Str(options.version)}}));
      }
      c.object().emplace_back("charts", std::move(charts));
    }
    Value images = Value::MakeArray();
    for (int k = 0; k < options.images_per_component; ++k) {
      std::string ref = Numbered("registry.example.com/app", i, k);
      if (options.pin_digests) ref += "@sha256:" + rng.Hex(64);
      images.array().push_back(Str(std::move(ref)));
    }
    if (i == 0) {
      for (const std::string& ref : options.first_component_images) images.array().push_back(Str(ref));
    }
    c.object().emplace_back("images", std::move(images));
    components.array().push_back(std::move(c));
  }
  Value pkg = Value::MakeObject(
      {{"kind", Str("ZarfPackageConfig")},
       {"metadata", Value::MakeObject({{"name", Str(options.name)}, {"version", Str(options.version)}})}});
  pkg.object().emplace_back("components", std::move(components));
  return pkg;
}

}  // namespace zs::bench
