// The steps of `zarf-state replay`'s timeline and how each is printed: a
// table row, or an element of the json/yaml document, written as the fold
// reaches it so that a history of any length is printed in the memory of
// one step (cli/replay_cmd.h).
//
// Thread safety: plain values; a TimelineDocumentWriter is not thread-safe.
#ifndef ZARF_STATE_CLI_REPLAY_TIMELINE_H_
#define ZARF_STATE_CLI_REPLAY_TIMELINE_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "model/timestamp.h"
#include "json/json_value.h"
#include "cli/event_record.h"
#include "cli/output.h"

namespace zs::tools {

// One step of the timeline: a record (or a Secret's event). The state it
// leads to is given beside it (`snap`), with what the input does not record
// at this step (`unknown`: "generation", "component db").
struct TimelineStep {
  std::size_t seq = 0;
  Timestamp time;
  std::string record;                // Base | PackageEvent | ComponentEvent
  std::optional<EventRecord> event;  // none for a Base snapshot
  std::size_t base_events = 0;       // a Base snapshot's events
  bool deleted = false;              // the Secret no longer exists after it

  // "Deploy/Succeeded version 1.2.0", "web Deploy/Succeeded", "Base snapshot (3 events)".
  std::string What() const;
};

// The timeline table's columns, and the cells of one step's row.
std::vector<Column> TimelineColumns();
std::vector<std::string> TimelineRow(const TimelineStep& step, const DeployedPackage& snap,
                                     const std::vector<std::string>& unknown);

// One step as an element of the json/yaml timeline: the state in full,
// redacted for display (RedactPackageForDisplay), null once the Secret is
// deleted.
json::Value TimelineDocument(const TimelineStep& step, const DeployedPackage& snap,
                             const std::vector<std::string>& unknown);

// Writes replay's json/yaml document step by step, byte for byte what
// PrintStructured prints for the whole document: the timeline array, or
// with a verification {"timeline": [...], "verify": {...}}. Add each step's
// document in order, then End once.
class TimelineDocumentWriter {
 public:
  // `format`: kFormatJson or kFormatYaml; `wrapped`: a verification
  // follows the timeline.
  TimelineDocumentWriter(std::string_view format, bool wrapped, std::ostream& out);

  void Add(json::Value step);
  // `verify`: the verification's document when `wrapped`, else ignored.
  void End(const json::Value& verify);

 private:
  bool yaml_;
  bool wrapped_;
  std::ostream& out_;
  std::size_t steps_ = 0;
  std::string buf_;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPLAY_TIMELINE_H_
