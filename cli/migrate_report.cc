#include "cli/migrate_report.h"

#include <limits>
#include <sstream>

#include "cli/output.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

Value Strings(const std::vector<std::string>& items) {
  Value a = Value::MakeArray();
  for (const std::string& s : items) a.array().push_back(Value::String(s));
  return a;
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : std::string(sep)) + p;
  return s;
}

// The layer's aligned table (cli/output.h), each object's row followed by
// its indented evidence, mapping and warning lines, which cells cannot hold.
std::string ReportTable(const MigrateReport& report, bool no_headers) {
  // Detail lines are escaped here; cells are escaped by the layer.
  auto t = [](std::string_view s) { return TerminalText(s); };
  Table table({{"OBJECT"}, {"KIND"}, {"DETECTED"}, {"TARGET"}, {"CODEC"}, {"BYTES"}, {"RESULT"}});
  std::vector<std::vector<std::string>> details;
  for (const MigrateObjectRow& o : report.objects) {
    std::vector<std::string>& lines = details.emplace_back();
    if (!o.report) {
      table.AddRow({o.name, OrDash(o.kind), "-", "-", "-", "-", "failed: " + o.error});
      continue;
    }
    const migrate::MigrationReport& r = *o.report;
    std::string detected = Join(r.detection.candidates, "|");
    if (detected.empty()) detected = r.detection.shape;
    table.AddRow({o.name, o.kind, OrDash(detected), OrDash(r.target), OrDash(o.codec),
                  std::to_string(r.bytes_before) + " -> " + std::to_string(r.bytes_after),
                  o.Result()});
    if (!r.detection.evidence.empty()) {
      lines.push_back("evidence: " + t(Join(r.detection.evidence, "; ")));
    }
    for (const std::string& m : r.mappings) lines.push_back("mapping:  " + t(m));
    for (const std::string& w : r.warnings) lines.push_back("warning:  " + t(w));
  }
  OutputOptions options;
  options.no_headers = no_headers;
  std::ostringstream printed;
  table.Print(options, printed);
  // One line per row (the layer escapes line feeds in cells), after the
  // header when there is one.
  std::istringstream lines(printed.str());
  std::string out, line;
  std::size_t row = no_headers ? 0 : std::numeric_limits<std::size_t>::max();
  while (std::getline(lines, line)) {
    out += line + "\n";
    if (row < details.size()) {
      for (const std::string& d : details[row]) out += "    " + d + "\n";
    }
    ++row;  // the header's max wraps to row 0
  }
  const MigrateSummary s = report.Summary();
  std::ostringstream summary;
  summary << "summary: " << s.migrated << " migrated, " << s.unchanged << " unchanged, "
          << s.skipped << " skipped, " << s.failed << " failed, of " << s.objects
          << " objects (--to " << t(report.target) << ")\n";
  return out + summary.str();
}

}  // namespace

std::string MigrateObjectRow::Result() const {
  if (!error.empty() || !report) return "failed";
  if (report->target.empty()) return "skipped";
  return report->changed ? "migrated" : "unchanged";
}

MigrateSummary MigrateReport::Summary() const {
  MigrateSummary s;
  s.objects = static_cast<std::int64_t>(objects.size());
  for (const MigrateObjectRow& o : objects) {
    const std::string result = o.Result();
    if (result == "migrated") ++s.migrated;
    if (result == "unchanged") ++s.unchanged;
    if (result == "skipped") ++s.skipped;
    if (result == "failed") ++s.failed;
  }
  return s;
}

Value MigrateReport::ToDocument() const {
  Value rows = Value::MakeArray();
  for (const MigrateObjectRow& o : objects) {
    Value v = Value::MakeObject({{"name", Value::String(o.name)},
                                 {"source", Value::String(o.source)},
                                 {"kind", Value::String(o.kind)},
                                 {"result", Value::String(o.Result())}});
    if (o.report) {
      const migrate::MigrationReport& r = *o.report;
      v.Set("shape", Value::String(r.detection.shape));
      v.Set("candidates", Strings(r.detection.candidates));
      v.Set("evidence", Strings(r.detection.evidence));
      v.Set("target", Value::String(r.target));
      v.Set("bytesBefore", Value::Int(static_cast<std::int64_t>(r.bytes_before)));
      v.Set("bytesAfter", Value::Int(static_cast<std::int64_t>(r.bytes_after)));
      if (!o.codec.empty()) v.Set("codec", Value::String(o.codec));
      v.Set("mappings", Strings(r.mappings));
      v.Set("warnings", Strings(r.warnings));
    } else {
      v.Set("error", Value::String(o.error));
    }
    rows.array().push_back(std::move(v));
  }
  const MigrateSummary s = Summary();
  Value summary = Value::MakeObject({{"objects", Value::Int(s.objects)},
                                     {"migrated", Value::Int(s.migrated)},
                                     {"unchanged", Value::Int(s.unchanged)},
                                     {"skipped", Value::Int(s.skipped)},
                                     {"failed", Value::Int(s.failed)}});
  return Value::MakeObject({{"target", Value::String(target)},
                            {"objects", std::move(rows)},
                            {"summary", std::move(summary)}});
}

std::string RenderMigrateReport(const MigrateReport& report, const std::string& format,
                                bool no_headers) {
  if (format == "json" || format == "yaml") {
    std::ostringstream out;
    PrintStructured(report.ToDocument(), format, out);
    return out.str();
  }
  return ReportTable(report, no_headers);
}

}  // namespace zs::tools
