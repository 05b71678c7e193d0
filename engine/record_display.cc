#include "engine/record_display.h"

#include <utility>

#include "model/credentials.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::tools {
namespace {

using json::Value;

// A deploy's facts redacted as the package they describe would be.
void RedactFacts(Value* facts) {
  Value* data = facts->Find("data");
  Value* config = facts->Find("deployConfig");
  Value package = Value::MakeObject();
  if (data != nullptr) package.object().emplace_back("data", std::move(*data));
  if (config != nullptr) package.object().emplace_back("deployConfig", std::move(*config));
  RedactPackageForDisplay(&package);
  if (data != nullptr) *data = std::move(*package.Find("data"));
  if (config != nullptr) *config = std::move(*package.Find("deployConfig"));
}

}  // namespace

Result<std::string> RecordForDisplay(const engine::Record& record, bool show_secrets) {
  std::string encoded = engine::EncodeRecord(record);
  if (show_secrets) return encoded;
  ZS_ASSIGN_OR_RETURN(Value v, json::ParseJson(encoded));
  if (Value* base = v.Find("base"); base != nullptr && base->is_object()) {
    RedactPackageForDisplay(base);
  }
  if (Value* facts = v.Find("facts"); facts != nullptr && facts->is_object()) RedactFacts(facts);
  if (Value* event = v.Find("event"); event != nullptr && event->is_object()) {
    if (Value* source = event->Find("source"); source != nullptr && source->is_string()) {
      *source = Value::String(ScrubSource(source->as_string()));
    }
  }
  return json::WriteJson(v);
}

}  // namespace zs::tools
