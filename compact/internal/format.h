// Constants of the `compact` envelope (compact/compact.h). The byte layout they
// describe, and why each field is there, is in compact/FORMAT.md; keep the two
// in step.
//
// Internal to compact/: nothing outside the folder includes this header, except
// the codec's own tests, which forge headers.
#ifndef ZARF_STATE_COMPACT_INTERNAL_FORMAT_H_
#define ZARF_STATE_COMPACT_INTERNAL_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zs::compact::internal {

// "\x89ZSC": a first byte that is neither ASCII nor a UTF-8 lead byte, so
// the envelope is never mistaken for JSON or YAML text.
inline constexpr std::string_view kMagic{"\x89ZSC", 4};

// The version this code writes, and the newest it reads (compact.h exposes
// the same number as kFormatVersion). 0 is never valid.
inline constexpr std::uint8_t kVersion = 1;

// Flag bits. A bit not listed is invalid in version 1. kFlagZstd: the
// payload is a zstd frame; kFlagDictionary: ... that needs a dictionary.
inline constexpr std::uint8_t kFlagZstd = 1 << 0;
inline constexpr std::uint8_t kFlagDictionary = 1 << 1;
inline constexpr std::uint8_t kKnownFlags = kFlagZstd | kFlagDictionary;

// Dictionary ids as zstd computes them (ZDICT_getDictID). 0 is "none".
inline constexpr std::uint32_t kNoDictionary = 0;
// The shipped dictionaries (compact/data/, trained by
// testing/train_dictionary.cc). A shipped dictionary is never changed or
// dropped: envelopes written with it must stay readable. A retrained one is a
// new file with a new id, listed here; writers use the newest.
//   1: zarf_state.dict, 32 KiB trained on synthetic packages only.
//   2: zarf_state-2.dict, 78 KiB: the synthetic training plus state Zarf
//      wrote (the package fixtures of every era), chosen greedily.
inline constexpr std::uint32_t kZarfStateDictionary1Id = 535113058;
inline constexpr std::uint32_t kZarfStateDictionary2Id = 686577509;
inline constexpr std::uint32_t kKnownDictionaryIds[] = {
    kZarfStateDictionary1Id, kZarfStateDictionary2Id};
inline constexpr std::uint32_t kWriterDictionaryId = kZarfStateDictionary2Id;

// Header field offsets and sizes; integers are little-endian.
inline constexpr std::size_t kMagicOffset = 0;
inline constexpr std::size_t kVersionOffset = 4;
inline constexpr std::size_t kFlagsOffset = 5;
inline constexpr std::size_t kDictionaryIdOffset = 6;  // u32
inline constexpr std::size_t kLengthOffset = 10;       // u32
inline constexpr std::size_t kChecksumOffset = 14;     // u64, XXH64 seed 0
inline constexpr std::size_t kHeaderSize = 22;
inline constexpr std::uint64_t kChecksumSeed = 0;

// Limits. A payload that decompresses to more bytes is refused before any
// allocation; an encoding that would exceed it is refused by the writer.
inline constexpr std::uint32_t kMaxUncompressedBytes = 64u << 20;  // 64 MiB
// Nesting of one free-JSON value, the value itself at level 1 and each
// array or object adding one for its children, as json/json_reader.h counts
// it. Its default limit, so every value of a parsed document fits; the
// recursive reader and writer stay within a small stack (sanitizers too).
inline constexpr int kMaxJsonDepth = 512;
// Protobuf messages nest two per JSON level in the structured form, plus the
// struct levels above.
inline constexpr int kProtoRecursionLimit = 2 * kMaxJsonDepth + 16;
// Timestamps are kept within what RFC 3339 can spell (years 0000..9999), a
// day of slack either side for the UTC offset, and |offset| < 24 h.
inline constexpr std::int64_t kMinTimestampSeconds = -62167219200 - 86400;
inline constexpr std::int64_t kMaxTimestampSeconds = 253402300799 + 86400;
inline constexpr std::int32_t kMaxOffsetSeconds = 86399;

}  // namespace zs::compact::internal

#endif  // ZARF_STATE_COMPACT_INTERNAL_FORMAT_H_
