#include "migrate/format.h"

namespace zs::migrate {

std::string_view DetectPackageFormat(const DeployedPackage& pkg, std::string* why) {
  auto answer = [why](std::string_view format, std::string_view evidence) {
    if (why != nullptr) *why = evidence;
    return format;
  };
  // ZEP-0026's PackageEvent has plain string types and outcomes: a history
  // with a value outside today's vocabulary ("Upgrade", "Paused") is still
  // the history a ZEP-0026 Zarf reads (it decoded, so Go decodes it too).
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
