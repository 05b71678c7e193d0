#include <string>
#include <vector>

#include "model/zarf_package.h"
#include "fuzz/targets.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "yaml/yaml.h"

namespace zs::fuzz {

std::string ZarfPackageMarshal(std::string_view data) {
  // JSON when it starts like JSON, else YAML, as `record deploy` reads it.
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  Result<json::Value> doc = Status::InvalidArgument("empty");
  if (first != std::string_view::npos && (data[first] == '{' || data[first] == '[')) {
    doc = json::ParseJson(data);
  } else if (auto docs = yaml::ParseDocuments(data); docs.ok() && docs->size() == 1) {
    doc = std::move((*docs)[0]);
  }
  if (!doc.ok()) return "";
  std::vector<std::string> dropped;
  Result<std::string> bytes = MarshalZarfPackage(*doc, &dropped);
  if (!bytes.ok()) {
    if (bytes.status().code() != Status::Code::kInvalidArgument) {
      return "marshal failed other than InvalidArgument: " + bytes.status().ToString();
    }
    return bytes.status().message().empty() ? "refusal without a message" : "";
  }
  // What Zarf stores reads back as the same tree, writes back unchanged, and
  // is a fixed point of the marshal with nothing to drop.
  auto reparsed = json::ParseJson(*bytes, {.max_depth = 1024});
  if (!reparsed.ok()) return "marshal output does not parse: " + reparsed.status().ToString();
  auto written = json::WriteJson(*reparsed);
  if (!written.ok() || *written != *bytes) return "marshal output does not write back unchanged";
  std::vector<std::string> dropped_again;
  Result<std::string> again = MarshalZarfPackage(*reparsed, &dropped_again);
  if (!again.ok()) return "marshal output is refused: " + again.status().ToString();
  if (*again != *bytes) return "marshal is not a fixed point";
  if (!dropped_again.empty()) return "marshal output has undeclared keys: " + dropped_again[0];
  return "";
}

}  // namespace zs::fuzz
