// What `zarf-state report` shows, gathered from its inputs
// (cli/report_inputs.h) before any HTML is written: per package the sizes, latest event, components and event
// timeline; per init state a summary without credentials; the warnings; and
// the optional migration report, prune plan and growth curves.
//
// Every string here comes from input and is escaped when the page is
// written (report_page.h). No credential enters this model: the init state
// is reduced to a fixed list of non-credential fields, each scrubbed as the
// credential rule says (model/credentials.h), and event sources are not kept.
//
// Thread safety: plain data and functions over their arguments.
#ifndef ZARF_STATE_REPORT_REPORT_DATA_H_
#define ZARF_STATE_REPORT_REPORT_DATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/json_value.h"
#include "base/status.h"
#include "model/timestamp.h"

namespace zs::tools {

// An InProgress operation older than this is reported as stale.
inline constexpr std::int64_t kStaleInProgressSeconds = 3600;

struct ReportEvent {
  std::string type;
  std::string outcome;
  std::string time;  // RFC 3339
  std::string age;   // as kubectl's AGE column prints it, as of the report's time
  std::string version;
  std::string digest;
  std::string config_digest;
  std::string component;     // a component event's component, else ""
  bool version_changed = false;  // differs from the previous package event's
  bool config_changed = false;   // differs from the previous non-empty one
  // Derived from Zarf's own writes by an observer, not recorded by a
  // ZEP-0026 writer (engine::ObservedEvents); a component event takes the
  // mark of the package event before it.
  bool observed = false;
};

struct ReportComponent {
  std::string name;
  std::string status;  // deprecated ComponentStatus, "" when unset
  std::string last_type;
  std::string last_outcome;  // "Unknown" when there is no lastEvent
  std::string last_time;
  std::string last_age;  // of last_time, "" without one
  std::vector<std::string> charts;  // "namespace/name (status)"
};

struct ReportPackage {
  std::string source;  // the input's label
  std::string secret_name;
  std::string name;
  // The version running: with a history, the last successful deploy's ("" when
  // none succeeded); else the stored definition's metadata.version.
  std::string version;
  // A later deploy of another version that did not succeed, beside the running
  // one: "1.3.0 failed", "1.3.0 in progress", "1.3.0 cancelled"; else "".
  std::string version_note;
  std::string stored_version;  // the stored definition's metadata.version
  std::string format;  // detected shape (P1..P10, v2)
  std::string codec;   // "json" | "compact"
  std::size_t secret_bytes = 0;
  std::size_t json_bytes = 0;     // the payload as Zarf's JSON
  // The payload as the compact envelope, measured only where `size` measures
  // it (kube/compact_figure.h); 0 when not measured or the writer refuses it.
  std::size_t compact_bytes = 0;
  bool compact_measured = false;
  // The derived status as tables show it (cli/state_record.h):
  // "Deploy/Succeeded", "stored:Failed" or "Unknown".
  std::string latest;
  std::string latest_outcome;     // "Succeeded", ..., "Unknown" (StateOutcome)
  // A component a deploy or remove left Deploying or Removing (a Secret
  // without history), or "".
  std::string interrupted_component;
  std::string latest_time;        // "" without history
  std::string latest_age;         // of latest_time, "" without one
  std::optional<std::int64_t> in_progress_seconds;  // age of an open operation
  std::string zarf_note;  // why no Zarf release can read it, or ""
  std::vector<ReportComponent> components;
  std::vector<ReportEvent> events;  // oldest first
  bool history_from_cache = false;
  std::string cache_key;       // engine::PackageKey, to find it in a cache
  std::size_t json_hash = 0;   // of the JSON payload, to compare with a cache
};

struct ReportInitState {
  std::string source;
  std::size_t secret_bytes = 0;
  std::vector<std::pair<std::string, std::string>> fields;  // label, value
};

struct ReportWarning {
  std::string object;  // the package or file it is about
  std::string text;
};

// A chart already rendered as SVG by svg_plot (markup of this program).
struct ReportChart {
  std::string title;
  std::string svg;
};

struct ReportData {
  std::string generated_at;  // RFC 3339
  std::vector<std::string> inputs;
  std::vector<ReportPackage> packages;
  std::vector<ReportInitState> init_states;
  std::vector<ReportWarning> warnings;
  // Notes, shown grey apart from the warnings: what the inputs held besides
  // Zarf state (cli/notes.h).
  std::vector<std::string> notes;
  std::optional<json::Value> migration;  // `migrate --report-format json`
  std::optional<json::Value> prune_plan;  // `prune plan -o json`
  std::vector<ReportChart> growth;
};

// Orders `packages` by their use of the Secret size limit, largest first
// (equal sizes by name, then input order): the ones closest to the limit
// come first.
void SortByUse(std::vector<ReportPackage>* packages);

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_REPORT_DATA_H_
