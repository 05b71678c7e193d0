#include <string>

#include "model/model_json.h"
#include "kube/package_secret.h"
#include "fuzz/targets.h"
#include "migrate/format.h"

namespace zs::fuzz {

std::string PackageDecode(std::string_view data) {
  auto pkg = DecodePackagePayload(data);
  if (!pkg.ok()) {
    return pkg.status().message().empty() ? "an error without a message" : "";
  }
  std::string why;
  const std::string_view format = migrate::DetectPackageFormat(*pkg, &why);
  if (why.empty()) return "DetectPackageFormat gave no evidence";
  const std::string encoded = EncodeDeployedPackage(*pkg);
  auto again = DecodePackagePayload(encoded);
  if (!again.ok()) return "decode(encode(p)) failed: " + again.status().ToString();
  if (EncodeDeployedPackage(*again) != encoded) return "encode(decode(encode(p))) differs from encode(p)";
  if (migrate::DetectPackageFormat(*again, nullptr) != format) {
    return "the detected format changed over a round trip";
  }
  return "";
}

}  // namespace zs::fuzz
