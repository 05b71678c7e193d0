// The named state shapes of every Zarf release, and the eras that tie them to
// release tags (migrate/FORMATS.md is the field-by-field reference).
//
// A package Secret's payload is in one of the shapes P1..P10 (legacy) or v2
// (ZEP-0026: P10 plus the event history); the cluster-init state Secret
// `zarf-state` is in one of S1..S14 (the init state has no v2 form: S14 is
// both the newest legacy shape and the migration target). Shapes are ordered
// by age, so `a < b` means a is older.
//
// Thread safety: constants and pure functions.
#ifndef ZARF_STATE_MIGRATE_SHAPE_H_
#define ZARF_STATE_MIGRATE_SHAPE_H_

#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::migrate {

// Package shapes. kV2 is the newest; kP10 the newest legacy shape.
enum class PackageShape { kP1 = 1, kP2, kP3, kP4, kP5, kP6, kP7, kP8, kP9, kP10, kV2 };
// Init-state shapes.
enum class StateShape { kS1 = 1, kS2, kS3, kS4, kS5, kS6, kS7, kS8, kS9, kS10, kS11,
                        kS12, kS13, kS14 };

inline constexpr PackageShape kNewestPackageShape = PackageShape::kV2;
inline constexpr PackageShape kNewestLegacyPackageShape = PackageShape::kP10;
inline constexpr StateShape kNewestStateShape = StateShape::kS14;

// "P1".."P10", "v2"; "S1".."S14".
std::string_view ShapeName(PackageShape shape);
std::string_view ShapeName(StateShape shape);

// One era: a run of release tags during which neither shape changed.
struct Era {
  std::string_view name;       // "e11"
  std::string_view first_tag;  // "v0.42.0"
  std::string_view last_tag;   // "v0.49.1"
  std::optional<PackageShape> package;  // nullopt: no package Secrets yet
  StateShape state;
};

// The era whose tag range holds `tag` ("v0.45.0" or "0.45.0"; a
// pre-release suffix is ignored), or nullptr when the tag is not a release
// in [v0.15.0, v0.84.x] or does not parse.
const Era* EraOfTag(std::string_view tag);

// The tag range that wrote `shape`, e.g. "v0.42.0..v0.49.1".
std::string TagRange(PackageShape shape);
std::string TagRange(StateShape shape);

// What `migrate --to` asks for. For each kind of object, the shape to bring
// it to, or nullopt to leave that kind as it is.
struct Target {
  std::string spelled;  // as the user wrote it, for the report
  std::optional<PackageShape> package;
  std::optional<StateShape> state;
  // Why a kind is left as it is, for the report's warnings ("" when both
  // kinds are targeted).
  std::string package_note;
  std::string state_note;
};

// Parses `--to`: "v2" (packages to v2, state to S14), "legacy" (packages to
// P10, state to S14), a package shape "P1".."P10" (state left as is), a state
// shape "S1".."S14" (packages left as is), or a release tag "v0.45.0" (both
// kinds to the shapes that release wrote; a tag before v0.22.0 wrote no
// package Secrets, so packages are then left as they are, with a note).
// InvalidArgument otherwise.
Result<Target> ParseTarget(std::string_view spelled);

}  // namespace zs::migrate

#endif  // ZARF_STATE_MIGRATE_SHAPE_H_
