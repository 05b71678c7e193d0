#include "engine/zarf_charts.h"

#include <unordered_map>

#include "base/digest.h"

namespace zs::engine {

std::string ManifestChartName(std::string_view package, std::string_view component,
                              std::string_view manifest) {
  std::string name = "raw-";
  name.append(package).append("-").append(component).append("-").append(manifest);
  return name;
}

std::string ManifestReleaseName(std::string_view package, std::string_view component,
                                std::string_view manifest) {
  return "zarf-" + Sha1Hex(ManifestChartName(package, component, manifest));
}

InstalledChart ManifestRelease(std::string_view package, std::string_view component,
                               std::string_view manifest_name, std::string_view manifest_namespace) {
  InstalledChart chart;
  chart.namespace_ =
      std::string(manifest_namespace.empty() ? kDefaultNamespace : manifest_namespace);
  chart.chart_name = ManifestReleaseName(package, component, manifest_name);
  return chart;
}

std::vector<InstalledChart> ExpectedCharts(const json::Value& component, std::string_view package) {
  std::vector<InstalledChart> out;
  const std::string_view comp = component.StringOr("name");
  if (const json::Value* charts = component.Find("charts"); charts != nullptr && charts->is_array()) {
    for (const json::Value& c : charts->array()) {
      InstalledChart ic;
      ic.namespace_ = std::string(c.StringOr("namespace"));
      ic.chart_name = std::string(c.StringOr("releaseName", c.StringOr("name")));
      out.push_back(std::move(ic));
    }
  }
  if (const json::Value* manifests = component.Find("manifests");
      manifests != nullptr && manifests->is_array()) {
    for (const json::Value& m : manifests->array()) {
      out.push_back(ManifestRelease(package, comp, m.StringOr("name"), m.StringOr("namespace")));
    }
  }
  return out;
}

std::string ChartKey(const InstalledChart& chart) {
  return chart.namespace_ + "/" + chart.chart_name;
}

std::string ReleaseKey(const InstalledChart& chart) {
  if (!chart.chart_name.starts_with("raw-")) return ChartKey(chart);
  const std::string_view ns =
      chart.namespace_.empty() ? kDefaultNamespace : std::string_view(chart.namespace_);
  return std::string(ns) + "/zarf-" + Sha1Hex(chart.chart_name);
}

bool SameRelease(const InstalledChart& stored, const InstalledChart& expected) {
  const std::string want = ChartKey(expected);
  return ChartKey(stored) == want || ReleaseKey(stored) == want;
}

std::vector<InstalledChart> MergeInstalledCharts(const std::vector<InstalledChart>& existing,
                                                 const std::vector<InstalledChart>& installed) {
  std::vector<InstalledChart> out;
  std::unordered_map<std::string, std::size_t> at;  // ChartKey -> index in out
  for (const InstalledChart& c : existing) {
    auto [it, fresh] = at.emplace(ChartKey(c), out.size());
    if (fresh) {
      out.push_back(c);
    } else {
      out[it->second] = c;
    }
  }
  for (const InstalledChart& c : installed) {
    auto [it, fresh] = at.emplace(ChartKey(c), out.size());
    if (fresh) {
      out.push_back(c);
    } else {
      out[it->second].connect_strings = c.connect_strings;
      out[it->second].status = c.status;
    }
  }
  return out;
}

}  // namespace zs::engine
