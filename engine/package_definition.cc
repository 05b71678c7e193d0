#include "engine/package_definition.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "model/zarf_package.h"
#include "kube/input.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

// `path` with every array index replaced by `*`.
std::string IndexPattern(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    out.push_back(path[i]);
    if (path[i] != '[') continue;
    std::size_t end = i + 1;
    while (end < path.size() && path[end] >= '0' && path[end] <= '9') ++end;
    if (end > i + 1 && end < path.size() && path[end] == ']') {
      out.push_back('*');
      i = end - 1;
    }
  }
  return out;
}

// The paths, comma-separated in first-seen order, one entry per path with
// its indices starred: a key dropped from every component is named once,
// "components[*].extensions (429 keys)", not 429 times.
std::string SummarizePaths(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::size_t>> groups;  // pattern, count
  std::vector<const std::string*> first;
  for (const std::string& p : paths) {
    std::string pattern = IndexPattern(p);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == pattern; });
    if (it != groups.end()) {
      ++it->second;
    } else {
      groups.emplace_back(std::move(pattern), 1);
      first.push_back(&p);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (i != 0) out += ", ";
    if (groups[i].second == 1) {
      out += *first[i];
    } else {
      out += groups[i].first + " (" + std::to_string(groups[i].second) + " keys)";
    }
  }
  return out;
}

}  // namespace

Result<json::Value> ReadPackageDefinition(const std::string& path, std::ostream& err) {
  ZS_ASSIGN_OR_RETURN(json::Value given, ReadDocument(path));
  std::vector<std::string> dropped;
  auto bytes = MarshalZarfPackage(given, &dropped);
  if (!bytes.ok()) {
    return bytes.status().WithContext(path + ": Zarf " + kZarfTypesVersion +
                                      " refuses this package definition");
  }
  // The model keeps `data` as a tree and writes it back compact, members in
  // stored order and numbers as spelled: parsing Zarf's bytes gives a tree
  // that writes them again. Zero-valued structs nest a few levels below
  // where the input stopped, hence the margin on the depth limit.
  json::ParseOptions options;
  options.max_depth = std::min<std::size_t>(CurrentReadLimits().max_depth + 8, 1024);
  options.max_bytes = std::max(options.max_bytes, bytes->size());
  auto stored = json::ParseJson(*bytes, options);
  if (!stored.ok()) return stored.status().WithContext(path + ": the definition as Zarf stores it");
  std::string written;
  Status s = json::AppendJson(&written, *stored);
  if (!s.ok() || written != *bytes) {
    return Status::Corruption(path +
                              ": the definition as Zarf stores it does not write back unchanged");
  }
  if (!dropped.empty()) {
    err << "warning: " << path << ": package definition: dropped keys Zarf " << kZarfTypesVersion
        << " does not declare: " << TerminalText(SummarizePaths(dropped)) << "\n";
  }
  return stored;
}

}  // namespace zs::tools
