#include "cli/replay_timeline.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "model/credentials.h"
#include "model/model_json.h"
#include "engine/derived_status.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "yaml/yaml.h"

namespace zs::tools {
namespace {

std::string ComponentsLine(const DeployedPackage& pkg) {
  std::string s;
  if (!pkg.deployed_components) return s;
  for (const DeployedComponent& c : *pkg.deployed_components) {
    if (!s.empty()) s += ',';
    s += c.name + "=" + engine::ComponentEventSummary(c);
  }
  return s;
}

// Go's json.MarshalIndent indentation.
constexpr std::string_view kIndent = "  ";

}  // namespace

std::string TimelineStep::What() const {
  if (!event) return "Base snapshot (" + std::to_string(base_events) + " events)";
  if (!event->component.empty()) return event->component + " " + event->Summary();
  return event->Summary() + (event->version.empty() ? "" : " version " + event->version);
}

std::vector<Column> TimelineColumns() {
  return {{"SEQ"}, {"TIME"}, {"RECORD", true}, {"EVENT"}, {"LATEST"}, {"GENERATION"},
          {"COMPONENTS"}, {"SOURCE", true}};
}

std::vector<std::string> TimelineRow(const TimelineStep& s, const DeployedPackage& snap,
                                     const std::vector<std::string>& unknown) {
  const std::string source = s.event && !s.event->source.empty() ? s.event->source : "-";
  if (s.deleted) {
    return {std::to_string(s.seq), ReportTime(s.time), s.record, s.What(), "Secret deleted",
            "-", "-", source};
  }
  const bool generation_known =
      std::find(unknown.begin(), unknown.end(), "generation") == unknown.end();
  std::string components = ComponentsLine(snap);
  for (const std::string& u : unknown) {
    if (!u.starts_with("component ")) continue;
    // Appended piece by piece: a concatenation here trips a false g++ 12
    // -Wrestrict at -O3.
    if (!components.empty()) components += ',';
    components.append(u, 10).append("=?");
  }
  return {std::to_string(s.seq), ReportTime(s.time), s.record, s.What(),
          engine::LatestEventSummary(snap),
          generation_known ? std::to_string(snap.generation) : "?", OrDash(components), source};
}

json::Value TimelineDocument(const TimelineStep& s, const DeployedPackage& snap,
                             const std::vector<std::string>& unknown) {
  json::Value snapshot;
  if (!s.deleted) {
    auto parsed = json::ParseJson(EncodeDeployedPackage(snap));
    if (parsed.ok()) {
      RedactPackageForDisplay(&*parsed);
      snapshot = std::move(parsed).value();
    }
  }
  json::Value step = json::Value::MakeObject(
      {{"seq", json::Value::Int(static_cast<std::int64_t>(s.seq))},
       {"time", json::Value::String(ReportTime(s.time))},
       {"record", json::Value::String(s.record)},
       {"what", json::Value::String(s.What())},
       {"event", EventDocument(s.event)},
       {"snapshot", std::move(snapshot)}});
  if (s.deleted) step.Set("secretDeleted", json::Value::Bool(true));
  if (!unknown.empty()) {
    json::Value list = json::Value::MakeArray();
    for (const std::string& u : unknown) list.array().push_back(json::Value::String(u));
    step.Set("unknown", std::move(list));
  }
  return step;
}

TimelineDocumentWriter::TimelineDocumentWriter(std::string_view format, bool wrapped,
                                               std::ostream& out)
    : yaml_(format == kFormatYaml), wrapped_(wrapped), out_(out) {
  // A sequence under a key is not indented in YAML (yaml::Write), so the
  // wrapped timeline's items are written as the bare one's are.
  if (wrapped_) out_ << (yaml_ ? "timeline:" : "{\n  \"timeline\": ");
}

void TimelineDocumentWriter::Add(json::Value step) {
  buf_.clear();
  if (yaml_) {
    if (steps_ == 0 && wrapped_) buf_ += '\n';
    // A top-level sequence is its items' lines one after another.
    json::Value one = json::Value::MakeArray();
    one.array().push_back(std::move(step));
    buf_ += yaml::Write(one);
  } else {
    const int depth = wrapped_ ? 2 : 1;
    buf_ += steps_ == 0 ? "[\n" : ",\n";
    for (int i = 0; i < depth; ++i) buf_ += kIndent;
    json::AppendIndentedJson(&buf_, step, kIndent, depth);
  }
  ++steps_;
  out_ << buf_;
}

void TimelineDocumentWriter::End(const json::Value& verify) {
  buf_.clear();
  if (yaml_) {
    if (steps_ == 0) buf_ += wrapped_ ? " []\n" : "[]\n";
    if (wrapped_) buf_ += yaml::Write(json::Value::MakeObject({{"verify", verify}}));
  } else {
    buf_ += steps_ == 0 ? "[]" : wrapped_ ? "\n  ]" : "\n]";
    if (wrapped_) {
      buf_ += ",\n  \"verify\": ";
      json::AppendIndentedJson(&buf_, verify, kIndent, 1);
      buf_ += "\n}";
    }
    buf_ += '\n';
  }
  out_ << buf_;
}

}  // namespace zs::tools
