#include <string>

#include "kube/package_secret.h"
#include "kube/secret.h"
#include "fuzz/targets.h"
#include "json/json_reader.h"
#include "fuzz/tree_checks.h"
#include "yaml/yaml.h"

namespace zs::fuzz {
namespace {

// The object as kubectl prints it: the Secret, or a bare payload's tree
// (ReadInput keeps only its bytes). Null when the bytes do not parse.
json::Value TreeOf(const InputObject& in) {
  if (in.is_secret) return in.object;
  auto tree = json::ParseJson(in.payload);
  return tree.ok() ? std::move(tree).value() : json::Value();
}

}  // namespace

std::string SecretReader(std::string_view data) {
  auto input = ReadInput(data, "fuzz");
  if (!input.ok()) {
    return input.status().message().empty() ? "an error without a message" : "";
  }
  for (const InputObject& in : input->objects) {
    if (in.label.empty()) return "an object without a label";
    if (!in.error.ok()) {
      if (in.error.message().empty()) return "an object error without a message";
      continue;
    }
    if (in.is_secret) {
      auto size = SecretDataSize(in.object);
      if (!size.ok() && size.status().message().empty()) return "SecretDataSize error without a message";
      if (in.payload_kind == PayloadKind::kPackage) {
        auto pkg = DecodePackage(in.object);
        if (!pkg.ok() && pkg.status().message().empty()) return "DecodePackage error without a message";
      }
    }
    if (in.payload_kind == PayloadKind::kPackage && !in.payload.empty()) {
      (void)DecodePackagePayload(in.payload);
    }
    // A usable object written as kubectl prints it reads back the same.
    const json::Value object = TreeOf(in);
    if (object.is_null()) return "a bare payload whose bytes do not parse";
    const std::string as_json = WriteObject(object, TextFormat::kJson);
    auto back = ReadInput(as_json, "fuzz-json");
    if (!back.ok()) return "WriteObject JSON does not read back: " + back.status().ToString();
    if (back->objects.size() != 1 || !(TreeOf(back->objects[0]) == object)) {
      return "WriteObject JSON reads back as something else";
    }
    if (back->objects[0].error.ok() != in.error.ok()) return "JSON round trip changed usability";
    if (HasDuplicateKeys(object, /*empty_key_counts=*/true)) continue;  // YAML cannot say these
    const std::string as_yaml = WriteObject(object, TextFormat::kYaml);
    auto docs = yaml::ParseDocuments(as_yaml);
    if (!docs.ok()) return "WriteObject YAML does not parse: " + docs.status().ToString();
    if (docs->size() != 1 || !((*docs)[0] == object)) {
      return "WriteObject YAML parses to something else";
    }
  }
  return "";
}

}  // namespace zs::fuzz
