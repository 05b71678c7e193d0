// The per-kind halves of MigratePayload (migrate/migrate.h): each rewrites a
// parsed payload, already detected, into its target shape.
#ifndef ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_
#define ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_

#include "codec/json_value.h"
#include "codec/status.h"
#include "migrate/internal/reshape.h"
#include "migrate/migrate.h"
#include "migrate/shape.h"

namespace zs::migrate::internal {

// `*payload` (consumed) in shape `from`, rewritten as `to` into `*out`.
Status MigratePackageValue(json::Value* payload, PackageShape from, PackageShape to,
                           ChangeLog* log, json::Value* out);
Status MigrateStateValue(json::Value* payload, StateShape from, StateShape to, ChangeLog* log,
                         json::Value* out);

// Package detection on a payload already decoded (DetectShape decodes it).
void DetectPackage(const json::Value& payload, const DeployedPackage& pkg, Detection* d);

// The shape enums of a Detection's `shape` name.
PackageShape PackageShapeOf(const Detection& d);
StateShape StateShapeOf(const Detection& d);

}  // namespace zs::migrate::internal

#endif  // ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_
