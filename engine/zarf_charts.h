// The Helm releases Zarf v0.84.0 installs for a component, and how two
// records of one release are recognised: the one identity of an installed
// chart that `record`, `prune plan`, the fold (and so the cache) and the
// report share.
//
// A Helm chart is installed as its `releaseName` (its `name` when there is
// none) in its `namespace`. A `manifests:` entry becomes a generated chart
// named "raw-<package>-<component>-<manifest>", installed as release
// "zarf-" + hex(SHA-1 of that name) in the manifest's namespace, or in
// `default` when it names none (src/internal/packager/helm/common.go:35-70,
// src/pkg/packager/deploy.go:726-755); the Secret records the release:
// `{"namespace":"default","chartName":"zarf-<sha1>"}`.
//
// An earlier writer (an older zarf-state) stored the generated chart's name
// instead, `raw-...` with the manifest's namespace as written (possibly
// empty). SameRelease and ReleaseKey read such an entry as the release it
// stands for, so a prune plan over that Secret never uninstalls a release
// that is still installed. The merge stays Zarf's: it keys by ChartKey, so a
// redeploy over such an entry keeps it beside the release's, as Zarf would.
//
// Thread safety: pure functions, reentrant.
#ifndef ZARF_STATE_ENGINE_ZARF_CHARTS_H_
#define ZARF_STATE_ENGINE_ZARF_CHARTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "json/json_value.h"

namespace zs::engine {

// The namespace Zarf installs a manifest without one into.
inline constexpr std::string_view kDefaultNamespace = "default";

// "raw-<package>-<component>-<manifest>": the generated chart's name (not
// what any Secret should record).
std::string ManifestChartName(std::string_view package, std::string_view component,
                              std::string_view manifest);

// "zarf-" + 40 lower-case hex digits of SHA-1(ManifestChartName(...)): the
// Helm release Zarf installs the manifest as.
std::string ManifestReleaseName(std::string_view package, std::string_view component,
                                std::string_view manifest);

// The installedCharts entry Zarf records for a manifest: the release name,
// in `manifest_namespace` or kDefaultNamespace when that is empty. Status and
// connect strings are left empty.
InstalledChart ManifestRelease(std::string_view package, std::string_view component,
                               std::string_view manifest_name, std::string_view manifest_namespace);

// The releases Zarf installs for one component of a package definition, in
// install order: each Helm chart (`namespace`, `releaseName` or `name`), then
// each manifest (ManifestRelease). `package` is the package's name.
std::vector<InstalledChart> ExpectedCharts(const json::Value& component, std::string_view package);

// "<namespace>/<chartName>": the key Zarf's merge compares charts by (the
// plain joined string, so "a/b"+"c" and "a"+"b/c" are one key), and the form
// every report prints.
std::string ChartKey(const InstalledChart& chart);

// ChartKey of the release `chart` stands for: a `raw-...` name an earlier
// writer left is read as the release Zarf installed for it (namespace
// `default` when empty, name "zarf-" + SHA-1 of the raw name); any other
// entry is its own ChartKey.
std::string ReleaseKey(const InstalledChart& chart);

// Whether the `stored` entry names the same release as `expected` (an entry
// as ExpectedCharts builds it): the same ChartKey, or a legacy `raw-...`
// spelling of it.
bool SameRelease(const InstalledChart& stored, const InstalledChart& expected);

// state.MergeInstalledChartsForComponent: the union of `existing` and
// `installed` keyed by ChartKey. An entry in both keeps the existing
// namespace and name and takes the installed one's connect strings and
// status (even empty ones); within one list a later duplicate replaces an
// earlier one; existing entries not installed again are kept. Zarf returns
// the set in Go map order (random); this returns it in first-seen order,
// existing entries first. Zarf's `partial` flag changes nothing and is not
// taken.
std::vector<InstalledChart> MergeInstalledCharts(const std::vector<InstalledChart>& existing,
                                                 const std::vector<InstalledChart>& installed);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_ZARF_CHARTS_H_
