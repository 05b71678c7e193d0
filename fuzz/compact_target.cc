#include <cstring>
#include <string>

#include <xxhash.h>

#include "compact/compact.h"
#include "compact/internal/format.h"
#include "model/model_json.h"
#include "fuzz/targets.h"

namespace zs::fuzz {
namespace {

namespace format = compact::internal;

// What a decoded package must satisfy: its JSON survives an encode/decode
// through the envelope byte for byte.
std::string RoundTrip(const DeployedPackage& pkg) {
  const std::string json = EncodeDeployedPackage(pkg);
  auto envelope = compact::Encode(pkg, {.level = 1, .use_dictionary = true});
  if (!envelope.ok()) {
    // Encode refuses what the format cannot hold; never with an empty message.
    return envelope.status().message().empty() ? "Encode error without a message" : "";
  }
  auto decoded = compact::Decode(*envelope);
  if (!decoded.ok()) return "Decode(Encode(p)) failed: " + decoded.status().ToString();
  if (EncodeDeployedPackage(*decoded) != json) return "Decode(Encode(p)) lost or changed a field";
  return "";
}

}  // namespace

std::string CompactDecode(std::string_view data) {
  if (!compact::LooksCompact(data)) {
    // Text input: a package to encode first (this is how JSON seeds turn
    // into envelopes the fuzzer then mutates).
    auto pkg = ParseDeployedPackage(data);
    return pkg.ok() ? RoundTrip(*pkg) : "";
  }
  auto as_is = compact::Decode(data);
  if (as_is.ok()) {
    if (std::string broken = RoundTrip(*as_is); !broken.empty()) return broken;
  } else if (as_is.status().message().empty()) {
    return "Decode error without a message";
  }
  if (data.size() < format::kHeaderSize) return "";
  // The same bytes with a correct checksum, so the mutations reach zstd,
  // Protobuf and the model checks behind it.
  std::string fixed(data);
  const std::uint64_t sum = XXH64(fixed.data() + format::kHeaderSize,
                                  fixed.size() - format::kHeaderSize, format::kChecksumSeed);
  for (int i = 0; i < 8; ++i) {
    fixed[format::kChecksumOffset + i] = static_cast<char>((sum >> (8 * i)) & 0xFF);
  }
  auto repaired = compact::Decode(fixed);
  if (repaired.ok()) return RoundTrip(*repaired);
  return repaired.status().message().empty() ? "Decode error without a message" : "";
}

}  // namespace zs::fuzz
