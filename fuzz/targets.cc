#include "fuzz/targets.h"

namespace zs::fuzz {

std::span<const Target> AllTargets() {
  static constexpr Target kTargets[] = {
      {"json_reader", JsonReader},       {"secret_reader", SecretReader},
      {"compact_decode", CompactDecode}, {"config_digest", ConfigDigest},
      {"package_decode", PackageDecode}, {"zarf_package", ZarfPackageMarshal},
      {"log_reader", LogReader},
  };
  return kTargets;
}

}  // namespace zs::fuzz
