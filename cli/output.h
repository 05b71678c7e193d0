// The output layer of every command that prints a report: the -o and
// --no-headers flags, aligned tables (kubectl's layout), `-o name`, the
// structured formats (json, yaml) and the two ways a report shows a time
// (an AGE column, an RFC 3339 instant).
//
// A command builds typed records, turns them into a Table for table/wide,
// into a json::Value (each record's ToDocument) for json/yaml and into
// `kind/name` lines for name; this layer lays each out. What a cell holds
// is escaped here (TerminalText, Layout::kValue): a name taken from a
// Secret cannot move the cursor or start a fake row.
//
// Thread safety: plain values and reentrant functions; printing writes to
// the stream it is given.
#ifndef ZARF_STATE_CLI_OUTPUT_H_
#define ZARF_STATE_CLI_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/timestamp.h"
#include "json/json_value.h"

namespace CLI {
class App;
}

namespace zs::tools {

// The values of -o. Not every command prints every one (AddOutputOptions).
inline constexpr std::string_view kFormatTable = "table";
inline constexpr std::string_view kFormatWide = "wide";
inline constexpr std::string_view kFormatJson = "json";
inline constexpr std::string_view kFormatYaml = "yaml";
inline constexpr std::string_view kFormatName = "name";

// What the user asked for.
struct OutputOptions {
  // -o: table (default), wide, json, yaml or name.
  std::string format = "table";
  // --no-headers: a table (table, wide) without its header line. Default false.
  bool no_headers = false;

  bool structured() const { return format == kFormatJson || format == kFormatYaml; }
  bool tabular() const { return format == kFormatTable || format == kFormatWide; }
  bool wide() const { return format == kFormatWide; }
  bool name() const { return format == kFormatName; }
};

// Adds `-o,--output FORMAT` (one of `formats`, the first the default) and
// `--no-headers` to `cmd`. Any other -o value is a usage error (exit 2)
// while the command line is parsed, before the command runs: a format a
// command cannot print is never a silent table. `options` must outlive
// `cmd`'s parsing and callback.
void AddOutputOptions(CLI::App* cmd, OutputOptions* options, const std::vector<std::string>& formats);

// The same check for callers that fill OutputOptions themselves (tests,
// other commands): OK, or a Usage status "-o must be one of ..., not 'X'"
// when options.format is not one of `formats`.
Status CheckOutputFormat(const OutputOptions& options, const std::vector<std::string>& formats);

// One column of a Table.
struct Column {
  std::string header;      // upper case, as kubectl: "NAME", "LAST EVENT"
  bool wide_only = false;  // shown by -o wide only
};

// Rows of cells under column headers, printed aligned as kubectl prints
// them: each column as wide as its widest cell plus three spaces (at least
// six), the last one not padded, cells left-aligned. Widths count UTF-8
// characters of the escaped text. A cell is raw text (escaped when printed);
// an empty cell prints as "<none>", as kubectl does.
class Table {
 public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  // Adds a row; `cells` has one entry per column (asserted), wide-only ones
  // included (they are dropped unless wide).
  void AddRow(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size(); }

  // Writes the table: the header line unless options.no_headers, then one
  // line per row; wide-only columns only when options.wide(). Nothing at all
  // for a table without rows (as kubectl: no header over nothing, so that a
  // failed read prints only its error).
  void Print(const OutputOptions& options, std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// A Table too long to hold in memory, given its rows twice: first each to
// Measure (the column widths), then each to Print, which writes it at once
// (the header line before the first). Prints exactly what Table::Print
// prints for the same rows: nothing at all when Measure saw none.
class StreamedTable {
 public:
  StreamedTable(const std::vector<Column>& columns, const OutputOptions& options);

  void Measure(const std::vector<std::string>& cells);
  void Print(const std::vector<std::string>& cells, std::ostream& out);

 private:
  // The shown cells of `cells`, escaped; the header's when `cells` is null.
  std::vector<std::string> Shown(const std::vector<std::string>* cells) const;
  void WriteLine(const std::vector<std::string>& line, std::ostream& out) const;

  std::vector<Column> columns_;
  std::vector<std::size_t> shown_;  // indexes of the columns printed
  std::vector<std::size_t> width_;  // of each shown column
  bool headers_;
  bool measured_ = false;  // a row was measured
  bool started_ = false;   // the header (if any) is out
};

// A cell for a value that may be missing: `value`, or "-" when it is empty
// (the layer's mark for "no value"; an empty cell would print "<none>").
inline std::string OrDash(std::string_view value) {
  return value.empty() ? std::string("-") : std::string(value);
}

// `-o name`: one line "kind/name" per name (kubectl's `-o name`, e.g.
// "package/podinfo"), the name escaped as a table cell is.
void PrintNames(std::string_view kind, const std::vector<std::string>& names, std::ostream& out);

// A json/yaml report: "json" indented as Go's json.MarshalIndent with two
// spaces and a final line feed, "yaml" the same document as YAML.
void PrintStructured(const json::Value& document, std::string_view format, std::ostream& out);

// The age of an optional time as of `now` (FormatAge, model/timestamp.h):
// "-" when there is none.
std::string AgeOr(const std::optional<Timestamp>& then, const Timestamp& now);

// The time a report shows (json, yaml, a table's time column): RFC 3339 in
// UTC to the second, as kubectl prints timestamps ("2024-05-01T10:20:30Z").
// Data documents (Secrets, migrate output, replay --dump) keep the stored
// nanosecond timestamps instead (FormatRfc3339).
std::string ReportTime(const Timestamp& t);
// ReportTime as a JSON string, or null when there is no time.
json::Value ReportTimeValue(const std::optional<Timestamp>& t);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_OUTPUT_H_
