// The report of `zarf-state migrate`: one typed row per object read, its
// summary, and the three forms it is printed in (table, json, yaml). The
// json/yaml document is the stable machine-readable schema of
// docs/cli.md, "zarf-state migrate"; the table is for people and carries
// the same facts.
//
// Thread safety: plain values; render from one thread at a time.
#ifndef ZARF_STATE_CLI_MIGRATE_REPORT_H_
#define ZARF_STATE_CLI_MIGRATE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/json_value.h"
#include "migrate/migrate.h"

namespace zs::tools {

// One object of the input, as migrate left it.
struct MigrateObjectRow {
  std::string name;    // "zarf/zarf-package-x", or the input label of a bare payload
  std::string source;  // the input label ("list.json: items[3]")
  std::string kind;    // "package" | "state" | "" (unreadable)
  // What migrating it found; empty when it failed (then `error` says why).
  std::optional<migrate::MigrationReport> report;
  std::string codec;          // package Secrets: the codec written ("json" | "compact")
  std::string store_warning;  // package Secrets: what storing them warned
  std::string error;          // non-empty: failed, left out of the output

  // "failed", "skipped" (left as it is: no target), "migrated" or "unchanged".
  std::string Result() const;
};

struct MigrateSummary {
  std::int64_t objects = 0;
  std::int64_t migrated = 0;
  std::int64_t unchanged = 0;
  std::int64_t skipped = 0;
  std::int64_t failed = 0;
};

struct MigrateReport {
  std::string target;  // --to as given
  std::vector<MigrateObjectRow> objects;

  MigrateSummary Summary() const;
  // {"target", "objects": [...], "summary": {...}}: each object is
  // {"name", "source", "kind", "result", "shape", "candidates", "evidence",
  // "target", "bytesBefore", "bytesAfter", "codec"?, "mappings", "warnings"}
  // or, when it failed, {"name", "source", "kind", "result", "error"}.
  json::Value ToDocument() const;
};

// The report as `format` ("table", "json" or "yaml"; anything else is a
// caller's bug). The table has one aligned row per object (OBJECT, KIND,
// DETECTED, TARGET, CODEC, BYTES, RESULT) followed by its indented
// evidence/mapping/warning lines, and a summary line; every value is
// escaped for a terminal (base/terminal_text.h). `no_headers` leaves the
// header row out of the table.
std::string RenderMigrateReport(const MigrateReport& report, const std::string& format,
                                bool no_headers);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_MIGRATE_REPORT_H_
