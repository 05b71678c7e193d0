#include "engine/internal/log_format.h"

#include <xxhash.h>
#include <zstd.h>

#include <cstring>

namespace zs::engine::internal {
namespace {

// zstd level: a chunk is compressed inside `record`, whose time should not
// grow much for a checkpoint; the records of a redeploy compress well at a
// low level already.
constexpr int kZstdLevel = 3;

void PutU32(std::string* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutU64(std::string* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
std::uint32_t GetU32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}
std::uint64_t GetU64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// XXH64 over the prefix before the checksum field, the name area and the
// payload: a flipped bit anywhere in the chunk but the trailer shows.
std::uint64_t ChunkChecksum(std::string_view prefix32, std::string_view meta,
                            std::string_view payload) {
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0);
  XXH64_update(st, prefix32.data(), prefix32.size());
  XXH64_update(st, meta.data(), meta.size());
  XXH64_update(st, payload.data(), payload.size());
  const std::uint64_t h = XXH64_digest(st);
  XXH64_freeState(st);
  return h;
}

}  // namespace

std::string FileHeader() {
  std::string out(kLogMagic);
  PutU32(&out, kLogFormatVersion);
  PutU32(&out, 0);
  return out;
}

Status CheckFileHeader(std::string_view file, const std::string& path) {
  if (file.size() < kLogHeaderSize || file.substr(0, kLogMagic.size()) != kLogMagic) {
    return Status::Corruption(path + ": not a zarf-state event log (no header)");
  }
  const std::uint32_t version = GetU32(file.data() + kLogMagic.size());
  if (version != kLogFormatVersion) {
    return Status::NotSupported(path + ": event log format version " + std::to_string(version) +
                                " is not this zarf-state's (" +
                                std::to_string(kLogFormatVersion) + ")");
  }
  if (GetU32(file.data() + kLogMagic.size() + 4) != 0) {
    return Status::Corruption(path + ": a damaged event log header (its reserved bytes are not zero)");
  }
  return Status::OK();
}

std::string EncodeChunk(std::uint32_t flags, std::string_view package, std::string_view digests,
                        std::uint64_t first_sequence, std::uint32_t records,
                        std::string_view raw) {
  std::string payload(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t n = ZSTD_compress(payload.data(), payload.size(), raw.data(), raw.size(), kZstdLevel);
  // A compression failure is a broken invariant (the bound was reserved).
  payload.resize(ZSTD_isError(n) ? 0 : n);
  std::string meta(package);
  meta.push_back('\0');
  meta.append(digests);
  std::string out;
  out.reserve(kChunkPrefixSize + meta.size() + payload.size() + kChunkTrailerSize);
  PutU32(&out, kChunkMagic);
  PutU32(&out, flags);
  PutU32(&out, static_cast<std::uint32_t>(meta.size()));
  PutU32(&out, static_cast<std::uint32_t>(payload.size()));
  PutU32(&out, static_cast<std::uint32_t>(raw.size()));
  PutU32(&out, records);
  PutU64(&out, first_sequence);
  PutU64(&out, ChunkChecksum(out, meta, payload));
  out += meta;
  out += payload;
  const std::uint64_t total = out.size() + kChunkTrailerSize;
  PutU32(&out, static_cast<std::uint32_t>(total));
  PutU32(&out, kChunkEndMagic);
  return out;
}

std::optional<Chunk> ParseChunkAt(std::string_view file, std::uint64_t offset) {
  if (offset + kChunkPrefixSize + kChunkTrailerSize > file.size()) return std::nullopt;
  const char* p = file.data() + offset;
  if (GetU32(p) != kChunkMagic) return std::nullopt;
  Chunk c;
  c.offset = offset;
  c.flags = GetU32(p + 4);
  const std::uint64_t meta_len = GetU32(p + 8);
  const std::uint64_t payload_len = GetU32(p + 12);
  c.raw_size = GetU32(p + 16);
  c.records = GetU32(p + 20);
  c.first_sequence = GetU64(p + 24);
  c.checksum = GetU64(p + 32);
  c.size = kChunkPrefixSize + meta_len + payload_len + kChunkTrailerSize;
  if (c.size >= kMaxChunkBytes || offset + c.size > file.size()) return std::nullopt;
  const char* t = p + c.size - kChunkTrailerSize;
  if (GetU32(t) != c.size || GetU32(t + 4) != kChunkEndMagic) return std::nullopt;
  const std::string_view meta(p + kChunkPrefixSize, meta_len);
  const std::size_t nul = meta.find('\0');
  if (nul == std::string_view::npos || (meta.size() - nul - 1) % kDigestSize != 0) {
    return std::nullopt;
  }
  c.package = meta.substr(0, nul);
  c.digests = meta.substr(nul + 1);
  c.payload = std::string_view(p + kChunkPrefixSize + meta_len, payload_len);
  return c;
}

bool ChecksumMatches(std::string_view file, const Chunk& c) {
  const std::string_view prefix = file.substr(c.offset, kChunkPrefixSize - 8);
  const std::string_view meta =
      file.substr(c.offset + kChunkPrefixSize, c.size - kChunkPrefixSize - kChunkTrailerSize -
                                                   c.payload.size());
  return ChunkChecksum(prefix, meta, c.payload) == c.checksum;
}

Result<std::string> Decompress(const Chunk& c) {
  std::string raw(c.raw_size, '\0');
  const std::size_t n = ZSTD_decompress(raw.data(), raw.size(), c.payload.data(), c.payload.size());
  if (ZSTD_isError(n) || n != c.raw_size) {
    return Status::Corruption("chunk at byte " + std::to_string(c.offset) +
                              ": payload does not decompress");
  }
  return raw;
}

namespace {

std::optional<Chunk> ValidChunkAt(std::string_view file, std::uint64_t at) {
  auto c = ParseChunkAt(file, at);
  if (c && ChecksumMatches(file, *c)) return c;
  return std::nullopt;
}

// The first valid chunk after `pos`, found by its magic.
std::optional<Chunk> NextValidChunk(std::string_view file, std::uint64_t pos) {
  char magic[4];
  for (int i = 0; i < 4; ++i) magic[i] = static_cast<char>((kChunkMagic >> (8 * i)) & 0xFF);
  for (std::uint64_t next = pos + 1; next < file.size();) {
    const std::size_t hit = file.find(std::string_view(magic, 4), next);
    if (hit == std::string_view::npos) return std::nullopt;
    if (auto found = ValidChunkAt(file, hit)) return found;
    next = hit + 1;
  }
  return std::nullopt;
}

// The size a prefix at `pos` declares, or 0 without the chunk magic there.
std::uint64_t DeclaredSize(std::string_view file, std::uint64_t pos) {
  if (pos + kChunkPrefixSize > file.size()) return 0;
  const char* p = file.data() + pos;
  if (GetU32(p) != kChunkMagic) return 0;
  return kChunkPrefixSize + std::uint64_t{GetU32(p + 8)} + GetU32(p + 12) + kChunkTrailerSize;
}

// Whether the bytes from `pos` to the end, which hold no valid chunk, are
// the start of an append a kill interrupted. An append writes its chunk
// front to back and its trailer last, so a torn one is shorter than a
// prefix and trailer, or its intact prefix declares more bytes than there
// are, and it never ends with a trailer. Anything else is a complete chunk
// that was damaged: kept and reported, never cut off.
bool TornFrom(std::string_view file, std::uint64_t pos) {
  const std::uint64_t left = file.size() - pos;
  if (left < kChunkPrefixSize + kChunkTrailerSize) return true;
  const char* end = file.data() + file.size();
  const std::uint64_t trailer_size = GetU32(end - kChunkTrailerSize);
  if (GetU32(end - 4) == kChunkEndMagic && trailer_size <= left &&
      trailer_size >= kChunkPrefixSize + kChunkTrailerSize) {
    return false;
  }
  const std::uint64_t declared = DeclaredSize(file, pos);
  return declared != 0 && declared > left;
}

}  // namespace

ForwardScan ScanForward(std::string_view file) {
  ForwardScan scan;
  std::uint64_t pos = kLogHeaderSize;
  scan.valid_end = file.size();
  while (pos < file.size()) {
    if (auto c = ValidChunkAt(file, pos)) {
      scan.chunks.push_back(*c);
      pos += c->size;
      continue;
    }
    const auto parsed = ParseChunkAt(file, pos);
    const char* reason = parsed ? "a chunk whose checksum does not match" : "bytes that are not a chunk";
    // What lies before the next valid chunk is skipped; with none, what
    // remains is a torn append or damaged chunks.
    if (const std::optional<Chunk> found = NextValidChunk(file, pos)) {
      scan.skipped.push_back({pos, found->offset - pos, reason});
      pos = found->offset;
      continue;
    }
    if (TornFrom(file, pos)) {
      scan.valid_end = pos;
      break;
    }
    // A damaged chunk whose length still holds is passed over on its own,
    // so that a torn append after it is still told.
    const std::uint64_t declared = DeclaredSize(file, pos);
    const bool delimited = declared != 0 && declared <= file.size() - pos &&
                           GetU32(file.data() + pos + declared - kChunkTrailerSize) == declared &&
                           GetU32(file.data() + pos + declared - 4) == kChunkEndMagic;
    const std::uint64_t len = delimited ? declared : file.size() - pos;
    scan.skipped.push_back({pos, len, reason});
    pos += len;
  }
  return scan;
}

std::optional<Chunk> ParseChunkEndingAt(std::string_view file, std::uint64_t end) {
  if (end > file.size() || end < kLogHeaderSize + kChunkPrefixSize + kChunkTrailerSize) {
    return std::nullopt;
  }
  const std::uint64_t size = GetU32(file.data() + end - kChunkTrailerSize);
  if (size > end - kLogHeaderSize) return std::nullopt;
  auto c = ParseChunkAt(file, end - size);
  if (!c || c->size != size) return std::nullopt;
  return c;
}

bool HoldsDigest(std::string_view digests, std::string_view digest) {
  for (std::size_t i = 0; i + kDigestSize <= digests.size(); i += kDigestSize) {
    if (digests.substr(i, kDigestSize) == digest) return true;
  }
  return false;
}

std::string DefinitionAtBody(std::string_view digest, std::uint64_t offset) {
  std::string out(digest);
  PutU64(&out, offset);
  return out;
}

bool ParseDefinitionAt(std::string_view body, std::string_view* digest, std::uint64_t* offset) {
  if (body.size() != kDigestSize + 8) return false;
  *digest = body.substr(0, kDigestSize);
  *offset = GetU64(body.data() + kDigestSize);
  return true;
}

std::string FollowsBody(std::uint64_t checksum) {
  std::string out;
  PutU64(&out, checksum);
  return out;
}

bool ParseFollows(std::string_view body, std::uint64_t* checksum) {
  if (body.size() != 8) return false;
  *checksum = GetU64(body.data());
  return true;
}

std::uint64_t ChecksumOfLastChunk(std::string_view encoded) {
  const std::uint64_t size = GetU32(encoded.data() + encoded.size() - kChunkTrailerSize);
  return GetU64(encoded.data() + encoded.size() - size + 32);
}

void AppendVarint(std::string* out, std::uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool ReadVarint(std::string_view* in, std::uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    const auto b = static_cast<unsigned char>(in->front());
    in->remove_prefix(1);
    *v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

void AppendEntry(std::string* raw, EntryTag tag, std::string_view body) {
  raw->push_back(static_cast<char>(tag));
  AppendVarint(raw, body.size());
  raw->append(body);
}

bool NextEntry(std::string_view* raw, EntryTag* tag, std::string_view* body, bool* malformed) {
  *malformed = false;
  if (raw->empty()) return false;
  *tag = static_cast<EntryTag>(raw->front());
  raw->remove_prefix(1);
  std::uint64_t len = 0;
  if (!ReadVarint(raw, &len) || len > raw->size()) {
    *malformed = true;
    return false;
  }
  *body = raw->substr(0, len);
  raw->remove_prefix(len);
  return true;
}

}  // namespace zs::engine::internal
