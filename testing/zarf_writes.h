// The writes Zarf v0.84.0 makes to one package Secret, simulated: what a
// watcher of the Secret sees of a deploy and of a remove
// (docs/keep-history.md). For the tests and the benchmarks of `observe`.
//
// A deploy of the selected components writes, per component in order, the
// run's components so far with this one `Deploying` (generation + 1, its
// charts as the Secret had them), then the same with it `Succeeded` (its
// charts merged) or `Failed` (and the deploy stops). `data` is the
// definition filtered to the selected components. A remove writes, per
// deployed component in reverse order, one write per chart uninstalled (in
// reverse) and one with the component gone; the Secret is deleted when none
// is left.
//
// Thread safety: a ZarfWriter is a value.
#ifndef ZARF_STATE_TESTING_ZARF_WRITES_H_
#define ZARF_STATE_TESTING_ZARF_WRITES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_value.h"

namespace zs::dev {

// One write: the payload JSON Zarf stores under `data`, or nullopt when the
// Secret was deleted.
using ZarfWrite = std::optional<std::string>;

struct ZarfDeploy {
  std::vector<std::string> components;  // --components; empty: all
  std::string fail;                     // the component that fails, or ""
  int stop_after = -1;                  // writes before the process dies; -1: none
};

struct ZarfRemove {
  std::string fail;    // the component whose first chart fails to uninstall
  int stop_after = -1;
};

class ZarfWriter {
 public:
  // `definition`: a ZarfPackage with metadata.name, metadata.version and
  // components [{name, charts: [{name, namespace}]}].
  explicit ZarfWriter(json::Value definition, std::string namespace_override = "");

  std::vector<ZarfWrite> Deploy(const ZarfDeploy& deploy);
  std::vector<ZarfWrite> Remove(const ZarfRemove& remove);

  // The Secret's payload now, or nullopt when there is none.
  const std::optional<json::Value>& current() const { return secret_; }
  // The Secret's name: zarf-package-<name>[-override-<ns>].
  std::string SecretName() const;

 private:
  ZarfWrite Write(std::vector<ZarfWrite>* out);

  json::Value definition_;
  std::string namespace_override_;
  std::optional<json::Value> secret_;
};

// A definition of `n` components "c0".."c<n-1>", each with one chart,
// version `version`.
json::Value ZarfDefinition(std::string_view name, std::string_view version, int n);

}  // namespace zs::dev

#endif  // ZARF_STATE_TESTING_ZARF_WRITES_H_
