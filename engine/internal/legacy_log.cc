#include "engine/internal/legacy_log.h"

#include <utility>

#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::engine::internal {

Result<std::vector<LegacyEntry>> ParseLegacyLog(std::string_view text, const std::string& path) {
  std::vector<LegacyEntry> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    // A last line without its newline is the torn tail of an append a kill
    // interrupted; it was never acknowledged.
    if (nl == std::string_view::npos) break;
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    ++line_no;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no);
    auto v = json::ParseJson(line);
    if (!v.ok()) return v.status().WithContext(where);
    const json::Value* pkg = v->Find("package");
    const json::Value* rec = v->Find("record");
    if (pkg == nullptr || !pkg->is_string() || rec == nullptr || !rec->is_object()) {
      return Status::Corruption(where + ": a log line needs \"package\" and \"record\"");
    }
    auto r = DecodeRecord(*json::WriteJson(*rec));
    if (r.status().code() == Status::Code::kNotFound) continue;  // skippable kind
    if (!r.ok()) return r.status().WithContext(where);
    out.push_back({pkg->as_string(), std::move(r).value()});
  }
  return out;
}

}  // namespace zs::engine::internal
