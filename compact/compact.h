// The `compact` codec: a DeployedPackage as a versioned binary envelope over
// a Protobuf encoding compressed with zstd (docs/model.md section 3; byte layout in
// compact/FORMAT.md).
//
// It is lossless with respect to the `json` codec: for any DeployedPackage p,
// EncodeDeployedPackage(Decode(Encode(p))) == EncodeDeployedPackage(p), byte
// for byte — unknown members with their anchors, absent-field marks and
// every number's spelling travel too. Decoding verifies the magic, the
// format version and the XXH64 checksum of the payload before parsing, and
// answers Corruption (or NotSupported for a newer version) instead of
// crashing on any input.
//
// Thread safety: all functions are reentrant.
#ifndef ZARF_STATE_COMPACT_COMPACT_H_
#define ZARF_STATE_COMPACT_COMPACT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"

namespace zs::compact {

// The codec's name and version as written in the Secret annotation.
inline constexpr std::string_view kCodecName = "compact";
inline constexpr int kFormatVersion = 1;

struct EncodeOptions {
  // zstd level. Default: 19 (Secrets are written rarely and read often).
  int level = 19;
  // Compress with the dictionary trained on Zarf state that ships with the
  // build. Default: true.
  bool use_dictionary = true;
};

// The envelope bytes of `pkg`. InvalidArgument for what the format cannot
// hold: a zstd level out of range, a timestamp outside years 0000-9999 or a
// UTC offset of 24 h or more, JSON nested deeper than 512 levels, a number
// that is not valid JSON. TooLarge for what Decode would refuse to read back,
// so no Secret can hold it: more than 16 MiB before compression, or a
// decode over the memory budget of the envelope's size.
// NotSupported when a dictionary is asked for and the build has none.
Result<std::string> Encode(const DeployedPackage& pkg, const EncodeOptions& options = {});

// Encode in two steps, for a caller that releases the package in between:
// zstd's tables at level 19 (tens of MiB for a payload near the Secret
// limit) and a package that large are then never held at once.
// Seal(*Prepare(p), o) == Encode(p, o), byte for byte.
struct Prepared {
  std::string proto;     // the Protobuf bytes, not yet compressed
  std::size_t cost = 0;  // what Decode will count against its memory budget
};
// Encode's errors before compression: InvalidArgument for what the format
// cannot hold, TooLarge for more than 16 MiB before compression.
Result<Prepared> Prepare(const DeployedPackage& pkg);
// Encode's errors after: the zstd level, NotSupported without a dictionary,
// TooLarge for a decode over the memory budget of the envelope's size.
Result<std::string> Seal(const Prepared& prepared, const EncodeOptions& options = {});

// Decodes envelope bytes. Corruption for a wrong magic, a bad checksum,
// truncated or undecompressible data, an invalid Protobuf message or a
// declared length over the decode budget (16 x the 1 MiB Secret limit);
// NotSupported for a format version newer than kFormatVersion or an unknown
// dictionary; InvalidArgument when the payload, its messages and JSON values
// take more than the memory budget of the envelope's size
// (base/memory_budget.h, docs/reliability.md#memory-budget).
Result<DeployedPackage> Decode(std::string_view bytes);

// Whether `bytes` starts with the envelope's magic (cheap sniffing).
bool LooksCompact(std::string_view bytes);

// The zstd ids of the dictionaries this build holds, oldest first: the
// envelopes written with any of them are readable. Empty for a build
// without dictionaries.
std::vector<std::uint32_t> DictionaryIds();

// The id of the dictionary Encode uses (use_dictionary), or 0 when the build
// has none.
std::uint32_t WriterDictionaryId();

}  // namespace zs::compact

#endif  // ZARF_STATE_COMPACT_COMPACT_H_
