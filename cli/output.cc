#include "cli/output.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cassert>
#include <utility>

#include "json/go_json.h"
#include "yaml/yaml.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

// kubectl's tabwriter: three spaces between columns, a column at least six wide.
constexpr std::size_t kPadding = 3;
constexpr std::size_t kMinWidth = 6;

std::string FormatList(const std::vector<std::string>& formats) {
  std::string names;
  for (const std::string& f : formats) names += (names.empty() ? "" : " | ") + f;
  return names;
}

// Characters on screen: UTF-8 continuation bytes take no column.
std::size_t DisplayWidth(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

std::string Cell(const std::string& raw) { return raw.empty() ? "<none>" : TerminalText(raw); }

}  // namespace

void AddOutputOptions(CLI::App* cmd, OutputOptions* options, const std::vector<std::string>& formats) {
  assert(!formats.empty());
  options->format = formats.front();
  cmd->add_option("-o,--output", options->format, FormatList(formats))
      ->capture_default_str()
      ->check(CLI::IsMember(formats));
  cmd->add_flag("--no-headers", options->no_headers, "Print tables without their header line");
}

Status CheckOutputFormat(const OutputOptions& options, const std::vector<std::string>& formats) {
  if (std::find(formats.begin(), formats.end(), options.format) != formats.end()) return Status::OK();
  return Status::Usage("-o must be one of " + FormatList(formats) + ", not '" + options.format +
                       "'");
}

void Table::AddRow(std::vector<std::string> cells) {
  assert(cells.size() == columns_.size());
  rows_.push_back(std::move(cells));
}

void Table::Print(const OutputOptions& options, std::ostream& out) const {
  StreamedTable table(columns_, options);
  for (const auto& row : rows_) table.Measure(row);
  for (const auto& row : rows_) table.Print(row, out);
}

StreamedTable::StreamedTable(const std::vector<Column>& columns, const OutputOptions& options)
    : columns_(columns), headers_(!options.no_headers) {
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].wide_only || options.wide()) shown_.push_back(i);
  }
  width_.assign(shown_.size(), 0);
  if (headers_) {
    const std::vector<std::string> header = Shown(nullptr);
    for (std::size_t c = 0; c < header.size(); ++c) width_[c] = DisplayWidth(header[c]);
  }
}

std::vector<std::string> StreamedTable::Shown(const std::vector<std::string>* cells) const {
  std::vector<std::string> line;
  line.reserve(shown_.size());
  for (const std::size_t i : shown_) {
    line.push_back(cells ? Cell((*cells)[i]) : TerminalText(columns_[i].header));
  }
  return line;
}

void StreamedTable::Measure(const std::vector<std::string>& cells) {
  assert(cells.size() == columns_.size());
  measured_ = true;
  const std::vector<std::string> line = Shown(&cells);
  for (std::size_t c = 0; c < line.size(); ++c) {
    width_[c] = std::max(width_[c], DisplayWidth(line[c]));
  }
}

void StreamedTable::Print(const std::vector<std::string>& cells, std::ostream& out) {
  if (!measured_) return;  // as Table::Print: nothing for no rows
  if (!started_ && headers_) WriteLine(Shown(nullptr), out);
  started_ = true;
  WriteLine(Shown(&cells), out);
}

void StreamedTable::WriteLine(const std::vector<std::string>& line, std::ostream& out) const {
  std::string text;
  for (std::size_t c = 0; c < line.size(); ++c) {
    text += line[c];
    if (c + 1 == line.size()) break;
    const std::size_t column = std::max(width_[c] + kPadding, kMinWidth);
    text.append(column - DisplayWidth(line[c]), ' ');
  }
  text += '\n';
  out << text;
}

void PrintNames(std::string_view kind, const std::vector<std::string>& names, std::ostream& out) {
  for (const std::string& n : names) out << kind << "/" << TerminalText(n) << "\n";
}

void PrintStructured(const json::Value& document, std::string_view format, std::ostream& out) {
  if (format == kFormatYaml) {
    out << yaml::Write(document);
    return;
  }
  std::string s;
  json::AppendIndentedJson(&s, document, "  ");
  out << s << "\n";
}

std::string AgeOr(const std::optional<Timestamp>& then, const Timestamp& now) {
  return then ? FormatAge(*then, now) : std::string("-");
}

std::string ReportTime(const Timestamp& t) {
  Timestamp utc;
  utc.seconds = t.seconds;  // seconds count from the epoch whatever the zone
  return FormatRfc3339(utc);
}

json::Value ReportTimeValue(const std::optional<Timestamp>& t) {
  return t ? json::Value::String(ReportTime(*t)) : json::Value::Null();
}

}  // namespace zs::tools
