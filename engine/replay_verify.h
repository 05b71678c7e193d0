// What `zarf-state replay --verify` checks and how it reports it: the
// invariants a package Secret must hold on its own, the operations begun
// while another was InProgress, and one report type that prints as text
// (table, wide) or as the "verify" member of the json/yaml document.
//
// Values at paths that may hold a credential (model/credentials.h,
// IsCredentialPath), and whole snapshots (paths starting "(", such as
// "(root)", "(member order)" and every checkpoint's), print as kRedacted in
// both forms.
//
// Thread safety: plain values and reentrant functions.
#ifndef ZARF_STATE_ENGINE_REPLAY_VERIFY_H_
#define ZARF_STATE_ENGINE_REPLAY_VERIFY_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/model.h"
#include "engine/fold.h"
#include "json/json_value.h"
#include "engine/replay_log.h"

namespace zs::tools {

// The result of one --verify run.
struct ReplayVerification {
  // What was checked: "s.json invariants", "s.json against the fold of
  // r.log", "podinfo in DIR" (the cache's check).
  std::string subject;
  // The cache's check reports problems (plain sentences), not field drift.
  bool cache = false;
  std::vector<engine::Drift> drift;               // the Secret's fields and open operations
  std::vector<CheckpointDrift> checkpoints;       // with a log: its checkpoints' drift
  std::optional<std::size_t> checkpoints_checked; // with a log: how many were compared
  std::vector<std::string> problems;              // the cache's check
  std::vector<std::string> sensitive;             // the Secret's sensitive variables

  bool ok() const { return drift.empty() && checkpoints.empty() && problems.empty(); }

  // The text report: "verify: SUBJECT: no drift", or a count line and one
  // indented line per difference ("  PATH: stored X, expected Y") or
  // problem. Strings from the Secret are escaped (TerminalText).
  void PrintText(std::ostream& out) const;

  // {"ok": bool, "subject": .., "drift": [{"path", "stored", "expected"}],
  //  "checkpoints": [{"afterRecord", "path", "stored", "expected"}],
  //  "checkpointsChecked": N}; the cache's check has "problems": [..]
  // instead of the drift lists. "checkpoints*" only with a log.
  json::Value ToDocument() const;
};

// The invariants a Secret must hold on its own (docs/model.md rules 2, 4,
// 6, 12): at most `cap` events (0: no cap), the v2 vocabulary, no source on
// a Remove, `configDigest` equal to the newest successful deploy's, no
// operation begun while another was InProgress, each component's status
// consistent with its lastEvent. Empty when all hold.
std::vector<engine::Drift> CheckInvariants(const DeployedPackage& pkg, std::size_t cap);

// Appends one entry per operation of `events` begun while another was
// InProgress (one operation at a time: such an operation can never be
// closed in order).
void AppendOverlaps(const std::vector<PackageEvent>& events, std::vector<engine::Drift>* out);

}  // namespace zs::tools

#endif  // ZARF_STATE_ENGINE_REPLAY_VERIFY_H_
