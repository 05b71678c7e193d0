// The on-disk layout of the RocksDB cache (engine/cache.h): column families,
// key encodings and the per-package metadata record. Nothing here touches
// RocksDB; engine/internal/cache_db.h opens the database with this layout.
//
// Column families and keys (Lp(s) = 4-byte big-endian length, then s):
//   default        "zarf-state.format" -> decimal format version
//   packages       package key -> PackageMeta (EncodeMeta)
//   snapshots      package key -> the latest DeployedPackage payload, the
//                  bytes as ingested (Zarf JSON or the compact envelope)
//   log            Lp(package) + be64(seq) -> EncodeRecord bytes; seq from 1
//   ids            Lp(package) + RecordId (32 hex) -> be64(seq)
//   idx_image      Lp("#" repository) + Lp(reference) + package -> ""
//                  (see ImageEntryKey)
//   idx_component  Lp(component) + package -> ""
//   idx_outcome    Lp(latest outcome) + package -> ""
//   idx_source     Lp(source) + package -> ""
// Every key of the log, ids and idx_* families starts with an Lp(...) prefix,
// which is what the prefix extractor and prefix bloom filters cover.
//
// Thread safety: plain value types; functions are reentrant.
#ifndef ZARF_STATE_ENGINE_INTERNAL_CACHE_FORMAT_H_
#define ZARF_STATE_ENGINE_INTERNAL_CACHE_FORMAT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/cache.h"
#include "engine/image_ref.h"
#include "engine/record.h"

namespace zs::engine::internal {

// Bump when a key or value layout changes meaning. A database written with a
// newer version is refused at open.
//   3  the first released layout: one idx_image entry per image
//      reference, keyed repository first, so that it answers exact and
//      by-repository lookups alike. Versions 1 and 2 were never released;
//      a cache of either is refused at open ("rebuild with ingest").
inline constexpr int kCacheFormatVersion = 3;
// The first format with repository-first image entries.
inline constexpr int kImageEntriesFormat = 3;
inline constexpr std::string_view kFormatKey = "zarf-state.format";

enum Cf : int {
  kCfDefault = 0,
  kCfPackages,
  kCfSnapshots,
  kCfLog,
  kCfIds,
  kCfImage,
  kCfComponent,
  kCfOutcome,
  kCfSource,
  kCfCount,
};

inline constexpr std::array<std::string_view, kCfCount> kCfNames = {
    "default", "packages", "snapshots", "log", "ids",
    "idx_image", "idx_component", "idx_outcome", "idx_source"};

// Whether a family's keys start with an Lp(...) prefix.
inline bool IsPrefixed(int cf) { return cf >= kCfLog; }

// The column family an index kind lives in.
int IndexCf(IndexKind kind);

// The index term as stored before format 3 (images carry a one-byte tag:
// '=' exact, '@' repository).
std::string StoredTerm(IndexKind kind, std::string_view term);

// Lp(s), and its 4-byte length alone.
void AppendLengthPrefixed(std::string* out, std::string_view s);
void AppendLength32(std::string* out, std::size_t size);
// Length of the Lp(...) prefix at the start of `key`, or 0 when malformed.
std::size_t PrefixLength(std::string_view key);

std::string LogKey(std::string_view package, std::uint64_t seq);
std::string IdKey(std::string_view package, std::string_view record_id);
std::string IndexKey(std::string_view stored_term, std::string_view package);
void AppendBigEndian64(std::string* out, std::uint64_t v);
std::uint64_t ReadBigEndian64(std::string_view bytes);  // bytes.size() >= 8
// `v` as N big-endian bytes at `out` (keys staged without a string).
template <int N, typename T>
void PutBigEndian(char* out, T v) {
  for (int i = 0; i < N; ++i) out[i] = static_cast<char>(v >> (8 * (N - 1 - i)));
}

// Splits an index key into its stored term and package; false if malformed.
bool SplitIndexKey(std::string_view key, std::string_view* stored_term,
                   std::string_view* package);
// The sequence number at the end of a log key; 0 if malformed.
std::uint64_t LogKeySequence(std::string_view key);

// One entry a package contributes to an index.
struct IndexTerm {
  IndexKind kind;
  std::string term;
  bool operator==(const IndexTerm&) const = default;
  auto operator<=>(const IndexTerm&) const = default;
};

// An image term (a normalised reference, "<repository>:<tag>" or
// "<repository>@<digest>", or a reference that does not parse, kept
// verbatim) split into repository and reference: at the first '@', else at
// the last ':' after the last '/', else the whole term is the repository.
// Any text splits, so the ingest and the lookup of a verbatim term agree.
void SplitImageTerm(std::string_view term, std::string_view* repository,
                    std::string_view* reference);

// The idx_image key of `package`'s entry for image term `term` (format 3):
// Lp("#" + repository) + Lp(reference) + package.
std::string ImageEntryKey(std::string_view term, std::string_view package);

// Appends the key of `package`'s entry for term `term` of index `kind` in a
// cache of format `format` to `out`; false, appending nothing, when the term
// has no entry of its own there (a repository since format 3: the image
// entries answer repository lookups).
bool AppendIndexEntryKey(std::string* out, IndexKind kind, std::string_view term,
                         std::string_view package, int format);

// Where Lookup finds the packages with `term` in index `kind` of a cache of
// format `format`: every key starting with `prefix`, the package being the
// rest of the key, or, when package_after_reference, the rest after an
// Lp(reference) (a repository lookup: several entries may name a package).
struct IndexLookup {
  std::string prefix;
  bool package_after_reference = false;
};
IndexLookup LookupOf(IndexKind kind, std::string_view term, int format);

// "'<term>' -> <package>" for an idx_* key, as verify reports it.
std::string DescribeIndexKey(int cf, std::string_view key);

// Everything the cache keeps about a package besides its payload and log:
// what `query status` prints and the hash of the stored snapshot. The index
// entries of a package are SnapshotTerms of its stored snapshot (replacing
// the snapshot deletes exactly those).
struct PackageMeta {
  PackageStatus status;
  std::uint64_t payload_hash = 0;  // XXH3-64 of the snapshot payload
};

std::string EncodeMeta(const PackageMeta& meta);
// Corruption naming the package for a malformed or unknown-version value;
// a record of an unreleased format says to rebuild the cache with ingest.
Result<PackageMeta> DecodeMeta(std::string_view package, std::string_view bytes);

// The index terms of a snapshot: images of the package definition
// (data.components[].images, exact and by repository, normalised as in
// engine/image_ref.h; an unparseable reference is indexed verbatim as exact),
// names of deployedComponents, the latest outcome ("Unknown" without
// history) and the distinct sources of its events. Sorted and unique.
// Repository terms only with `repositories` (needed by formats 1-2, whose
// repository entries are their own; format 3's image entries serve both).
std::vector<IndexTerm> SnapshotTerms(const DeployedPackage& pkg, bool repositories);

// The idx_image key of `package`'s entry for the parsed reference `ref`
// (format 3): ImageEntryKey of its Key(), built from the parts.
void AppendImageEntryKey(std::string* out, const ImageRefView& ref, std::string_view package);

// A package's index entries as (column family, key) pairs, sorted and
// unique, their keys in one buffer: what ingest adds and deletes when a
// snapshot is replaced. The same entries as AppendIndexEntryKey of each of
// SnapshotTerms, without a string per term: an image's key is built from its
// parsed parts, not as a term to be split again. Reused across packages, it
// keeps its buffers.
class IndexEntries {
 public:
  struct Entry {
    int cf;
    std::size_t begin;  // of the key in the buffer
    std::size_t size;
  };

  // The entries of `pkg`'s snapshot for `package` in a cache of `format`.
  void Build(const DeployedPackage& pkg, std::string_view package, int format);
  void Clear();

  const std::vector<Entry>& entries() const { return entries_; }
  std::string_view key(const Entry& e) const {
    return std::string_view(keys_).substr(e.begin, e.size);
  }
  // The order of entries(): family, then key. `b` is an entry of `other`.
  bool Less(const Entry& a, const IndexEntries& other, const Entry& b) const;

 private:
  void Add(IndexKind kind, std::string_view term, std::string_view package, int format);
  void Finish();  // sorts and removes repeats

  std::string keys_;
  std::vector<Entry> entries_;
  std::string term_scratch_;
};

// One record a snapshot implies, read in place: a v2 entry of `events`, or
// a component's v2 `lastEvent`. Points into the snapshot, which must outlive
// it.
struct SnapshotRecord {
  RecordKind kind = RecordKind::kPackageEvent;
  const PackageEvent* event = nullptr;           // kPackageEvent
  const DeployedComponent* component = nullptr;  // kComponentEvent (has last_event)

  Timestamp time() const;
  // EncodeRecord of the record, appended to `out`.
  void AppendEncoded(std::string* out) const;
};

// The records a snapshot implies, in snapshot order: one kPackageEvent per
// v2 entry of `events`, then one kComponentEvent per component whose
// `lastEvent` is in the v2 vocabulary. Events outside it (written by
// something else) are not history (derived_status.h) and are not logged.
std::vector<SnapshotRecord> SnapshotRecords(const DeployedPackage& pkg);

// The status fields derived from a snapshot (everything but `package`,
// the Secret's name and namespace and `removed`).
void FillStatus(const DeployedPackage& pkg, PackageStatus* status);

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_CACHE_FORMAT_H_
