// The per-kind halves of MigratePayload (migrate/migrate.h): each rewrites a
// parsed payload, already detected, into its target shape.
#ifndef ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_
#define ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_

#include "base/status.h"
#include "json/json_value.h"
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

// MigratePayload building the whole payload as a tree: the reference path.
// MigratePayload takes a faster one for packages where it can and falls
// back to this one otherwise (and for every error).
Result<MigratedPayload> MigratePayloadWithTree(std::string_view payload, PayloadKind kind,
                                               const Target& target,
                                               std::size_t readable_padding = 0);

// The shape enums of a Detection's `shape` name.
PackageShape PackageShapeOf(const Detection& d);
StateShape StateShapeOf(const Detection& d);

}  // namespace zs::migrate::internal

#endif  // ZARF_STATE_MIGRATE_INTERNAL_MIGRATORS_H_
