// The input of bench/run_observe_bench.sh: a namespace of PACKAGES package
// Secrets as `kubectl get secrets -o json` prints it, after each of WRITES
// writes Zarf v0.84 makes to every package (a deploy of WRITES/2
// components, testing/zarf_writes.h): one List per write, written to
// DIR/dump-01.json, DIR/dump-02.json, ...
//
// Usage: zs_observe_corpus DIR PACKAGES WRITES
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "base/base64.h"
#include "json/go_json.h"
#include "testing/zarf_writes.h"

namespace {

using zs::json::Value;

Value Secret(const std::string& name, const std::string& payload, long rv) {
  Value md = Value::MakeObject(
      {{"name", Value::String(name)}, {"namespace", Value::String("zarf")},
       {"resourceVersion", Value::String(std::to_string(rv))},
       {"labels", Value::MakeObject({{"package-deploy-info", Value::String(name)}})}});
  return Value::MakeObject(
      {{"apiVersion", Value::String("v1")}, {"kind", Value::String("Secret")},
       {"metadata", std::move(md)}, {"type", Value::String("Opaque")},
       {"data", Value::MakeObject({{"data", Value::String(zs::Base64Encode(payload))}})}});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: zs_observe_corpus DIR PACKAGES WRITES\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int packages = std::atoi(argv[2]);
  const int writes = std::atoi(argv[3]);
  std::vector<std::vector<zs::dev::ZarfWrite>> per_package;
  std::vector<std::string> names;
  for (int p = 0; p < packages; ++p) {
    zs::dev::ZarfWriter writer(
        zs::dev::ZarfDefinition("pkg-" + std::to_string(p), "1.0." + std::to_string(p % 7),
                                (writes + 1) / 2));
    per_package.push_back(writer.Deploy({}));
    names.push_back(writer.SecretName());
  }
  long rv = 1000;
  for (int w = 0; w < writes; ++w) {
    Value items = Value::MakeArray();
    for (int p = 0; p < packages; ++p) {
      const auto& ws = per_package[p];
      const auto& write = ws[std::min<std::size_t>(w, ws.size() - 1)];
      if (write) items.array().push_back(Secret(names[p], *write, rv + w * packages + p));
    }
    Value list = Value::MakeObject({{"apiVersion", Value::String("v1")},
                                    {"kind", Value::String("List")},
                                    {"items", std::move(items)}});
    char file[32];
    std::snprintf(file, sizeof file, "/dump-%02d.json", w + 1);
    std::ofstream(dir + file) << zs::json::WriteJson(list).value();
  }
  return 0;
}
