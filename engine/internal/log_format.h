// Byte layout of the engine's file event log (engine/file_event_log.h). The
// grammar, with a rationale per field, is engine/FORMAT.md; this header holds
// its constants and the chunk codec: building a chunk, finding chunks in a
// file (forward with resynchronisation, or backward from the end), checking
// and decompressing one, and walking the entries of its payload.
//
// Every function works on bytes the caller holds (a mapped file); none does
// I/O. Thread safety: pure functions.
#ifndef ZARF_STATE_ENGINE_INTERNAL_LOG_FORMAT_H_
#define ZARF_STATE_ENGINE_INTERNAL_LOG_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/file_event_log.h"

namespace zs::engine::internal {

// File header: magic, then the format version (u32 LE), then 4 zero bytes.
inline constexpr std::string_view kLogMagic{"ZSEVLOG\n", 8};
inline constexpr std::uint32_t kLogFormatVersion = 1;
inline constexpr std::size_t kLogHeaderSize = 16;

// Chunk: prefix, package name + definition digests, payload, trailer.
inline constexpr std::uint32_t kChunkMagic = 0x4B43535A;     // "ZSCK"
inline constexpr std::uint32_t kChunkEndMagic = 0x4543535A;  // "ZSCE"
inline constexpr std::size_t kChunkPrefixSize = 40;
inline constexpr std::size_t kChunkTrailerSize = 8;
inline constexpr std::size_t kDigestSize = 32;  // hex XXH3-128
// A chunk holds one session's records; anything larger is a broken length.
inline constexpr std::uint64_t kMaxChunkBytes = std::uint64_t{1} << 32;

inline constexpr std::uint32_t kChunkHasCheckpoint = 1;
inline constexpr std::uint32_t kChunkHasDefinition = 2;

enum class EntryTag : std::uint8_t {
  kRecord = 1,         // canonical record bytes
  kRecordWithRef = 2,  // digest + canonical bytes with an empty facts.data
  kDefinition = 3,     // digest + the definition's JSON
  kCheckpoint = 4,     // varint max_events, varint sequence, Base record bytes
  kDefinitionAt = 5,   // digest + u64 LE offset of a chunk that stores it
  kFollows = 6,        // u64 LE checksum of the chunk before this one, 0 at the header
};

// One chunk as found in a file; the views point into the file's bytes.
struct Chunk {
  std::uint64_t offset = 0;  // of the prefix
  std::uint64_t size = 0;    // prefix to trailer, inclusive
  std::uint32_t flags = 0;
  std::uint32_t raw_size = 0;  // payload size once decompressed
  std::uint32_t records = 0;   // records (not definitions or checkpoints)
  std::uint64_t first_sequence = 0;
  std::string_view package;
  std::string_view digests;  // kDigestSize bytes per definition in the chunk
  std::string_view payload;  // zstd frame
  std::uint64_t checksum = 0;
};

std::string FileHeader();
// OK for a header of this format; NotSupported naming `path` for a newer
// version; Corruption for anything else.
Status CheckFileHeader(std::string_view file, const std::string& path);

// A whole chunk of `raw` entries (compressed here).
std::string EncodeChunk(std::uint32_t flags, std::string_view package,
                        std::string_view digests, std::uint64_t first_sequence,
                        std::uint32_t records, std::string_view raw);

// The chunk starting at `offset` when its prefix and trailer agree and it
// ends within `file`; nullopt otherwise. The checksum is not checked.
std::optional<Chunk> ParseChunkAt(std::string_view file, std::uint64_t offset);
bool ChecksumMatches(std::string_view file, const Chunk& chunk);
// The payload decompressed; Corruption when it does not decompress to
// raw_size bytes.
Result<std::string> Decompress(const Chunk& chunk);

// Every chunk from the header on, in order, checksums verified. A region
// that is not a valid chunk is skipped up to the next valid one and
// reported in `skipped`. Bytes after the last valid chunk are a torn tail
// (`valid_end` is where it starts; the file size without one) only when
// they look like an append a kill interrupted (engine/FORMAT.md, "Torn
// tail"); otherwise they are damaged chunks, skipped and reported.
struct ForwardScan {
  std::vector<Chunk> chunks;
  std::vector<LogSkip> skipped;
  std::uint64_t valid_end = 0;
};
ForwardScan ScanForward(std::string_view file);

// The chunk that ends at byte `end` of `file`, found through its trailer
// (the checksum is not checked); nullopt when the trailer does not lead to a
// chunk whose prefix and trailer agree (a torn tail, a damaged length).
std::optional<Chunk> ParseChunkEndingAt(std::string_view file, std::uint64_t end);

// Whether `digests` (a chunk's meta list) names `digest`.
bool HoldsDigest(std::string_view digests, std::string_view digest);

// A kDefinitionAt body: the definition `digest` is stored in the chunk at
// byte `offset`. A hint: readers check that chunk before using it.
std::string DefinitionAtBody(std::string_view digest, std::uint64_t offset);
// False for a body of the wrong size.
bool ParseDefinitionAt(std::string_view body, std::string_view* digest, std::uint64_t* offset);

// A kFollows body, and its reading (false for a body of the wrong size).
std::string FollowsBody(std::uint64_t checksum);
bool ParseFollows(std::string_view body, std::uint64_t* checksum);
// The checksum field of the chunk that ends `encoded` (whole chunks built by
// EncodeChunk, after the header).
std::uint64_t ChecksumOfLastChunk(std::string_view encoded);

// Payload entries: tag, varint length, body.
void AppendEntry(std::string* raw, EntryTag tag, std::string_view body);
void AppendVarint(std::string* out, std::uint64_t v);
bool ReadVarint(std::string_view* in, std::uint64_t* v);
// Reads the next entry off `raw`; false at the end or on a malformed entry
// (`*malformed` then true).
bool NextEntry(std::string_view* raw, EntryTag* tag, std::string_view* body, bool* malformed);

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_LOG_FORMAT_H_
