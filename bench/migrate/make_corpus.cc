// zs_migrate_corpus: writes the migration benchmark's input.
//
// usage: zs_migrate_corpus DIR [COUNT [PAYLOAD_BYTES]]
//
// DIR/list.json      a `kubectl get secrets -o json` List of COUNT (default
//                    300) package Secrets of about PAYLOAD_BYTES (default
//                    100 KiB) each, in three legacy shapes taken in turn: P10
//                    (v0.80+), P8 (no digest, no packageConnectivity) and P5
//                    (v0.42..v0.49: also no generation, component status,
//                    observedGeneration or chart status);
// DIR/payloads.jsonl the same payloads, one per line, for the Go peer.
// Prints the total payload bytes. Deterministic for the same arguments.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "kube/secret.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "testing/synthetic_package.h"

namespace {

using zs::json::Value;

// Removes what shape P8 or P5 did not write.
void ToLegacyShape(Value* pkg, int shape) {
  if (shape == 10) return;
  pkg->Erase("digest");
  pkg->Erase("packageConnectivity");
  if (shape == 8) return;
  pkg->Erase("generation");
  if (Value* comps = pkg->Find("deployedComponents"); comps != nullptr && comps->is_array()) {
    for (Value& c : comps->array()) {
      c.Erase("status");
      c.Erase("observedGeneration");
      if (Value* charts = c.Find("installedCharts"); charts != nullptr && charts->is_array()) {
        for (Value& ch : charts->array()) ch.Erase("status");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s DIR [COUNT [PAYLOAD_BYTES]]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const int count = argc > 2 ? std::atoi(argv[2]) : 300;
  const std::size_t bytes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 100 * 1024;
  Value list = Value::MakeObject({{"apiVersion", Value::String("v1")},
                                  {"items", Value::MakeArray()},
                                  {"kind", Value::String("List")},
                                  {"metadata", Value::MakeObject({{"resourceVersion", Value::String("")}})}});
  std::ofstream lines(dir + "/payloads.jsonl", std::ios::binary);
  std::size_t total = 0;
  static constexpr int kShapes[] = {10, 8, 5};
  for (int i = 0; i < count; ++i) {
    auto parsed = zs::json::ParseJson(zs::bench::MakeSamplePackageJson(bytes, 1000 + i));
    if (!parsed.ok()) {
      std::fprintf(stderr, "sample %d: %s\n", i, parsed.status().ToString().c_str());
      return 1;
    }
    Value pkg = std::move(parsed).value();
    const std::string name = "bench-" + std::to_string(i);
    pkg.Set("name", Value::String(name));
    ToLegacyShape(&pkg, kShapes[i % 3]);
    std::string payload;
    (void)zs::json::AppendJson(&payload, pkg);
    total += payload.size();
    lines << payload << '\n';
    Value secret = zs::MakePackageSecret(name, "", payload);
    Value* meta = secret.Find("metadata");
    meta->Set("resourceVersion", Value::String(std::to_string(100000 + i)));
    list.Find("items")->array().push_back(std::move(secret));
  }
  std::ofstream(dir + "/list.json", std::ios::binary) << zs::WriteObject(list, zs::TextFormat::kJson);
  std::printf("%zu\n", total);
  return 0;
}
