// Migration of Zarf state payloads between every released shape and v2
// (docs/model.md section 4; the shapes are in migrate/shape.h and migrate/FORMATS.md).
//
// A payload is the JSON Zarf keeps under a Secret's data key: a
// DeployedPackage (`data`) or the cluster-init state (`state`). Migrating it:
//   1. detects its shape from its keys alone, naming the evidence; when
//      several shapes share its key set (omitempty hides what tells them
//      apart) the newest is taken and the report says so;
//   2. rewrites it into the target shape: keys the target has are placed
//      where Go writes them, renamed or converted where Zarf renamed them
//      (`agentTLS.CA` -> `agentTLS.ca`, the string `nodePort` -> the integer
//      `registryInfo.nodePort`), keys the target always writes and the input
//      lacks get Go's zero value; every other value is kept, right after the
//      key it followed, so that migrating back restores it at its place.
//      Downgrading v2 strips what ZEP-0026 added (events, deployConfig,
//      configDigest, each component's lastEvent) and keeps `status`.
//   3. writes the result with the Go-exact writer: migrating a payload that
//      is already in the target shape changes no byte.
// A legacy package gains no invented history: components keep their old
// `status` and get no `lastEvent`, so status helpers answer Unknown
// (docs/model.md rule 8).
//
// Thread safety: pure functions, reentrant.
#ifndef ZARF_STATE_MIGRATE_MIGRATE_H_
#define ZARF_STATE_MIGRATE_MIGRATE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "kube/secret.h"
#include "json/json_value.h"
#include "migrate/shape.h"

namespace zs::migrate {

// What a payload's keys say about the Zarf release that wrote it.
struct Detection {
  PayloadKind kind = PayloadKind::kPackage;
  std::string shape;                    // "P6", "S7", "v2": the newest candidate
  std::vector<std::string> candidates;  // every shape the keys fit, newest first
  std::vector<std::string> evidence;    // why: "has generation", "not P7: no ..."
  std::vector<std::string> warnings;    // ambiguity, a cliVersion that disagrees, ...
  bool ambiguous() const { return candidates.size() > 1; }
};

// The shape of a parsed payload. InvalidArgument when it is not an object or
// (packages) cannot be decoded as Go would decode it.
Result<Detection> DetectShape(const json::Value& payload, PayloadKind kind);

// What one migration did, for the per-object report.
struct MigrationReport {
  Detection detection;
  std::string target;  // the shape written, or "" when the object was left as it is
  std::size_t bytes_before = 0;  // payload bytes
  std::size_t bytes_after = 0;
  bool changed = false;  // the payload bytes differ
  std::vector<std::string> mappings;
  std::vector<std::string> warnings;  // the detection's warnings included
};

struct MigratedPayload {
  // The payload as Zarf's Go writer writes it (store a package with
  // StorePackageJson, kube/package_secret.h).
  std::string bytes;
  MigrationReport report;
};

// Migrates one payload (JSON text) to `target`. Errors, naming the path:
// Corruption for text that is not JSON (truncated, invalid UTF-8);
// InvalidArgument for JSON Go would refuse (a wrong type, an integer beyond
// int64, a nodePort string that is not a number). `readable_padding`: bytes
// after the end of `payload` that may be read, never written (the spare
// capacity of the std::string holding it); at least 64 lets the JSON parser
// work in place instead of on a copy (json::ParseOptions).
Result<MigratedPayload> MigratePayload(std::string_view payload, PayloadKind kind,
                                       const Target& target,
                                       std::size_t readable_padding = 0);

// The same for a package already decoded (a compact-codec Secret).
Result<MigratedPayload> MigratePackage(const DeployedPackage& pkg, const Target& target);

}  // namespace zs::migrate

#endif  // ZARF_STATE_MIGRATE_MIGRATE_H_
