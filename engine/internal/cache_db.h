// The RocksDB side of the cache: opening the database with the column
// families of cache_format.h, the format-version check, file permissions,
// and the one place rocksdb::Status becomes our Status.
//
// Thread safety: CacheDb is as thread-safe as rocksdb::DB (reads and writes
// may be concurrent); opening and closing are not.
#ifndef ZARF_STATE_ENGINE_INTERNAL_CACHE_DB_H_
#define ZARF_STATE_ENGINE_INTERNAL_CACHE_DB_H_

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "engine/cache.h"
#include "engine/internal/cache_format.h"

namespace zs::engine::internal {

// rocksdb::Status -> Status (OK, NotFound, Corruption, NotSupported,
// InvalidArgument; everything else is IOError), prefixed with `context`.
Status FromRocks(const rocksdb::Status& s, std::string_view context);

// An open database and its column family handles. Closing (the destructor)
// releases the handles before the DB, as RocksDB requires.
class CacheDb {
 public:
  // See OpenCache (engine/cache.h) for the errors.
  static Result<std::unique_ptr<CacheDb>> Open(const std::string& dir, const CacheOptions& options);
  ~CacheDb();
  CacheDb(const CacheDb&) = delete;
  CacheDb& operator=(const CacheDb&) = delete;

  rocksdb::DB* db() const { return db_.get(); }
  rocksdb::ColumnFamilyHandle* cf(int which) const { return cf_[which]; }
  const std::string& dir() const { return dir_; }
  const rocksdb::WriteOptions& write_options() const { return write_options_; }
  // Whether writes go through the write-ahead log (CacheOptions).
  bool write_ahead_log() const { return !write_options_.disableWAL; }
  // The layout the database holds (cache_format.h): kCacheFormatVersion
  // once opened for writing; an older one a read-only open found.
  int format() const { return format_; }

  // Reads `key` of family `cf` into `value`. Returns false for a missing
  // key; an error for anything else.
  Result<bool> Get(int cf, std::string_view key, std::string* value) const;
  // Writes `batch` atomically with write_options(). Sticky: after a failed
  // write (a full disk) every later Write returns that error.
  Status Write(rocksdb::WriteBatch* batch) const;
  // The first failed write, or OK. Sync and Flush return it instead of
  // calling RocksDB: Debian's librocksdb asserts (aborts) when a WAL whose
  // write failed is synced.
  const Status& write_error() const { return write_error_; }

 private:
  CacheDb() = default;
  // Makes a new cache at `dir` whole, aside, and renames it into place.
  static Status CreateAside(const std::string& dir, const CacheOptions& options);
  // Open; a `probe` (the read-only look before a read-write open of an
  // existing database) accepts missing families.
  static Result<std::unique_ptr<CacheDb>> OpenImpl(const std::string& dir,
                                                   const CacheOptions& options, bool probe);
  // Checks the format key; `unknown_families`: the database has column
  // families that are not ours. InvalidArgument for a database that is not
  // a zarf-state cache, Corruption for a malformed version.
  Status CheckFormat(bool read_only, bool unknown_families);
  Status WriteFormatVersion();

  std::string dir_;
  std::unique_ptr<rocksdb::DB> db_;
  std::array<rocksdb::ColumnFamilyHandle*, kCfCount> cf_{};
  rocksdb::WriteOptions write_options_;
  int format_ = kCacheFormatVersion;
  bool umask_set_ = false;
  mutable Status write_error_;
};

// A key of the shape Lp(head) + tail (cache_format.h) as the parts of a
// rocksdb::SliceParts: staged into a WriteBatch, which copies it, without
// being assembled first. The views must outlive the object.
class KeyParts {
 public:
  KeyParts(std::string_view head, std::string_view tail) {
    PutBigEndian<4>(length_, static_cast<std::uint32_t>(head.size()));
    slices_[0] = rocksdb::Slice(length_, 4);
    slices_[1] = rocksdb::Slice(head.data(), head.size());
    slices_[2] = rocksdb::Slice(tail.data(), tail.size());
  }
  KeyParts(const KeyParts&) = delete;
  KeyParts& operator=(const KeyParts&) = delete;

  rocksdb::SliceParts parts() const { return rocksdb::SliceParts(slices_, 3); }

 private:
  char length_[4];
  rocksdb::Slice slices_[3];
};

// Visits every key/value of family `cf` whose key starts with `prefix`
// ("" = all), in key order, until `visit(key, value)` returns false. With a
// non-empty prefix of a prefixed family the prefix bloom filters apply.
template <typename Visit>
Status ScanPrefix(const CacheDb& db, int cf, std::string_view prefix, Visit visit) {
  rocksdb::ReadOptions ro;
  std::string upper;
  rocksdb::Slice upper_slice;
  if (!prefix.empty()) {
    // The smallest key greater than every key with the prefix.
    upper = std::string(prefix);
    while (!upper.empty() && static_cast<unsigned char>(upper.back()) == 0xFF) upper.pop_back();
    if (!upper.empty()) {
      upper.back() = static_cast<char>(static_cast<unsigned char>(upper.back()) + 1);
      upper_slice = rocksdb::Slice(upper);
      ro.iterate_upper_bound = &upper_slice;
    }
    ro.prefix_same_as_start = IsPrefixed(cf) && PrefixLength(prefix) == prefix.size();
  } else {
    ro.total_order_seek = true;
    ro.fill_cache = false;  // a full scan would evict the hot blocks
    ro.readahead_size = 1 << 20;  // sequential: fewer, larger reads
  }
  std::unique_ptr<rocksdb::Iterator> it(db.db()->NewIterator(ro, db.cf(cf)));
  for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    const std::string_view key(k.data(), k.size());
    if (!key.starts_with(prefix)) break;
    const rocksdb::Slice v = it->value();
    if (!visit(key, std::string_view(v.data(), v.size()))) break;
  }
  return FromRocks(it->status(), std::string("scanning ") + std::string(kCfNames[cf]));
}

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_CACHE_DB_H_
