// Which state format a DeployedPackage payload is in, as far as the v2 event
// model is concerned: "v2" when it carries any field ZEP-0026 added (events,
// deployConfig, configDigest, a component lastEvent), "legacy" otherwise.
// The per-era shape detection (P1..P10, S1..S14) builds on this.
//
// Thread safety: pure functions.
#ifndef ZARF_STATE_MIGRATE_FORMAT_H_
#define ZARF_STATE_MIGRATE_FORMAT_H_

#include <string>
#include <string_view>

#include "model/model.h"

namespace zs::migrate {

inline constexpr std::string_view kFormatV2 = "v2";
inline constexpr std::string_view kFormatLegacy = "legacy";

// kFormatV2 or kFormatLegacy, with the evidence ("has events") in `*why`
// when `why` is not null.
std::string_view DetectPackageFormat(const DeployedPackage& pkg, std::string* why);

}  // namespace zs::migrate

#endif  // ZARF_STATE_MIGRATE_FORMAT_H_
