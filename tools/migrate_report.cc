#include "tools/migrate_report.h"

#include <algorithm>
#include <sstream>

#include "codec/go_json.h"
#include "codec/yaml.h"
#include "tools/terminal_text.h"

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

std::string OrDash(const std::string& s) { return s.empty() ? "-" : s; }

// An aligned table whose rows may each carry indented detail lines (the
// evidence, mappings and warnings of an object), which a plain table of
// cells cannot hold.
struct Row {
  std::vector<std::string> cells;
  std::vector<std::string> details;
};

std::string AlignedTable(const std::vector<std::string>& header, const std::vector<Row>& rows,
                         bool no_headers) {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  };
  if (!no_headers) measure(header);
  for (const Row& r : rows) measure(r.cells);
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      l += cells[i];
      if (i + 1 < cells.size()) l.append(width[i] - cells[i].size() + 2, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  if (!no_headers) line(header);
  for (const Row& r : rows) {
    line(r.cells);
    for (const std::string& d : r.details) out += "    " + d + "\n";
  }
  return out;
}

std::string Table(const MigrateReport& report, bool no_headers) {
  // Every value escaped to one line: a line feed in a name cannot start a
  // fake row.
  auto t = [](std::string_view s) { return TerminalText(s); };
  std::vector<Row> rows;
  for (const MigrateObjectRow& o : report.objects) {
    Row row;
    if (!o.report) {
      row.cells = {t(o.name), OrDash(o.kind), "-", "-", "-", "-", "failed: " + t(o.error)};
      rows.push_back(std::move(row));
      continue;
    }
    const migrate::MigrationReport& r = *o.report;
    std::string detected = Join(r.detection.candidates, "|");
    if (detected.empty()) detected = r.detection.shape;
    row.cells = {t(o.name),
                 o.kind,
                 t(detected),
                 OrDash(r.target),
                 OrDash(o.codec),
                 std::to_string(r.bytes_before) + " -> " + std::to_string(r.bytes_after),
                 o.Result()};
    if (!r.detection.evidence.empty()) {
      row.details.push_back("evidence: " + t(Join(r.detection.evidence, "; ")));
    }
    for (const std::string& m : r.mappings) row.details.push_back("mapping:  " + t(m));
    for (const std::string& w : r.warnings) row.details.push_back("warning:  " + t(w));
    rows.push_back(std::move(row));
  }
  std::string out = AlignedTable({"OBJECT", "KIND", "DETECTED", "TARGET", "CODEC", "BYTES", "RESULT"},
                                 rows, no_headers);
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
  if (format == "json") {
    std::string s;
    json::AppendIndentedJson(&s, report.ToDocument(), "  ");
    return s + "\n";
  }
  if (format == "yaml") return yaml::Write(report.ToDocument());
  return Table(report, no_headers);
}

}  // namespace zs::tools
