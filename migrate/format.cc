#include "migrate/format.h"

namespace zs::migrate {

std::string_view DetectPackageFormat(const DeployedPackage& pkg, std::string* why) {
  auto answer = [why](std::string_view format, std::string_view evidence) {
    if (why != nullptr) *why = evidence;
    return format;
  };
  // An `events` member written by something else (a fork, a future field of
  // that name) decodes too; only events of the v2 vocabulary count.
  for (std::size_t i = 0; i < pkg.events.size(); ++i) {
    const PackageEvent& e = pkg.events[i];
    if (!IsV2Event(e)) {
      return answer(kFormatLegacy, "events[" + std::to_string(i) + "] is not a v2 event (type '" +
                                       e.type + "', outcome '" + e.outcome + "')");
    }
  }
  if (!pkg.events.empty()) return answer(kFormatV2, "has events");
  if (pkg.deploy_config) return answer(kFormatV2, "has deployConfig");
  if (!pkg.config_digest.empty()) return answer(kFormatV2, "has configDigest");
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      // The key alone says v2: a component with no event yet holds Go's
      // zero ComponentEvent, which decodes to no event.
      if (c.last_event || !c.unknown.is_absent(4)) {
        return answer(kFormatV2, "component " + c.name + " has lastEvent");
      }
    }
  }
  return answer(kFormatLegacy, "no events, deployConfig, configDigest or lastEvent");
}

}  // namespace zs::migrate
