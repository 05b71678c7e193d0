#include "engine/internal/cache_db.h"

#include <rocksdb/filter_policy.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <new>
#include <system_error>
#include <vector>

#include "io/sync_directory.h"

namespace zs::engine::internal {
namespace {

namespace fs = std::filesystem;

// Keys of the prefixed families start with Lp(s); the prefix is that Lp(s).
class LengthPrefixTransform final : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "zarf-state.LengthPrefix.v1"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), PrefixLength(std::string_view(key.data(), key.size())));
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return PrefixLength(std::string_view(key.data(), key.size())) != 0;
  }
};

// The process umask is 077 while any cache is open (see engine/cache.h).
std::mutex umask_mu;
int umask_users = 0;
mode_t saved_umask = 0;

void AcquireUmask() {
  std::lock_guard<std::mutex> lock(umask_mu);
  if (umask_users++ == 0) saved_umask = ::umask(077);
}

void ReleaseUmask() {
  std::lock_guard<std::mutex> lock(umask_mu);
  if (--umask_users == 0) ::umask(saved_umask);
}

// The index families are only written while a cache is open for writing
// (ingest replaces a package's entries from the terms of its stored
// snapshot, never by reading them). A skiplist memtable pays a sorted insert per key,
// ~70% of the keys of an ingested Secret; a vector memtable appends and sorts
// once, when it is flushed. Reads from a vector memtable sort a copy first,
// so read-only opens (every query, and a log replayed after a crash) keep the
// skiplist.
bool WriteOnlyWhileWriting(int cf) {
  return cf == kCfImage || cf == kCfComponent || cf == kCfOutcome || cf == kCfSource;
}

rocksdb::ColumnFamilyOptions FamilyOptions(int cf, const std::shared_ptr<rocksdb::Cache>& cache,
                                           bool read_only) {
  rocksdb::ColumnFamilyOptions o;
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = cache;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.cache_index_and_filter_blocks = false;  // small: keep them pinned in memory
  t.format_version = 5;
  // Debian's portable librocksdb computes CRC32C in software (Slow_CRC32 is
  // 12% of a profiled scan); XXH3 block checksums are checked far faster.
  // The type is recorded per table file, so older files still read.
  t.checksum = rocksdb::kXXH3;
  if (cf == kCfSnapshots) t.block_size = 32 * 1024;  // values of ~13 KB
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = rocksdb::kLZ4Compression;
  const bool write_only = !read_only && WriteOnlyWhileWriting(cf);
  if (IsPrefixed(cf)) {
    o.prefix_extractor = std::make_shared<LengthPrefixTransform>();
    // A memtable bloom filter serves reads only; it is a few MB of pages
    // touched at random per memtable. A read-only open's memtables hold
    // only what the write-ahead log replays (nothing after `ingest --bulk`),
    // and zeroing the filters would be most of a lookup's time.
    o.memtable_prefix_bloom_size_ratio = write_only || read_only ? 0 : 0.05;
  }
  o.write_buffer_size = (cf == kCfSnapshots || cf == kCfLog) ? 64 << 20 : 16 << 20;
  if (write_only) {
    o.memtable_factory = std::make_shared<rocksdb::VectorRepFactory>();
  }
  return o;
}

// RocksDB's info LOG, written here rather than by RocksDB's own logger:
// Debian's librocksdb asserts (and aborts the process) on the write after a
// failed one, which a full disk makes the first thing to fail. Lines that
// cannot be written are dropped; the log is not needed to read the cache.
// Read-only opens log nothing (they never write into the directory).
class CacheInfoLog final : public rocksdb::Logger {
 public:
  explicit CacheInfoLog(int fd) : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), fd_(fd) {}
  ~CacheInfoLog() override {
    if (fd_ >= 0) ::close(fd_);
  }
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char line[2048];
    const int n = std::vsnprintf(line, sizeof line - 1, format, ap);
    if (n < 0) return;
    std::size_t size = std::min<std::size_t>(static_cast<std::size_t>(n), sizeof line - 2);
    line[size++] = '\n';
    std::lock_guard<std::mutex> lock(mu_);
    if (fd_ < 0) return;
    if (::write(fd_, line, size) != static_cast<ssize_t>(size)) {
      ::close(fd_);  // a full disk: log no more
      fd_ = -1;
    }
  }

 private:
  std::mutex mu_;
  int fd_;
};

// The LOG of a read-write open of `dir` (replaced at each open), or a
// logger that drops everything when it cannot be created.
std::shared_ptr<rocksdb::Logger> OpenInfoLog(const std::string& dir, bool read_only) {
  int fd = -1;
  if (!read_only) {
    fd = ::open((dir + "/LOG").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  }
  return std::make_shared<CacheInfoLog>(fd);
}

// The file a cache directory gets before anything else is written into it:
// a directory a process was killed in while creating the database holds it,
// and is ours to complete; one without it and without a database is not ours.
constexpr const char* kCacheMarker = "ZARF-STATE-CACHE";

Status WriteMarker(const std::string& dir) {
  const std::string path = dir + "/" + kCacheMarker;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IOError("cache " + dir + ": cannot create " + kCacheMarker);
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) return Status::IOError("cache " + dir + ": cannot sync " + kCacheMarker);
  return Status::OK();
}

// What a read-write open finds in its directory.
enum class Found {
  kNothing,        // no directory, and creating one was not asked for
  kToCreate,       // no directory, or an empty one: the cache is made aside
  kUnfinished,     // our mark but no database: a creation cut short, completed in place
  kDatabase,       // a RocksDB database, to be checked (CheckFormat)
};

// Before a read-write open changes anything in `dir`: one that holds a
// RocksDB database must then pass a read-only look at its format; one that
// holds our mark but no database yet (left by a version that created the
// cache in place) is completed; a missing or empty one is created aside
// (CreateAside); anything else is refused. Permissions of what exists are
// never changed.
Result<Found> PrepareDirectory(const std::string& dir, const CacheOptions& options) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (!fs::exists(st)) return options.create_if_missing ? Found::kToCreate : Found::kNothing;
  if (!fs::is_directory(st)) return Status::InvalidArgument("cache " + dir + ": not a directory");
  fs::directory_iterator it(dir, ec);
  if (ec) return Status::IOError("cache " + dir + ": " + ec.message());
  if (it == fs::directory_iterator()) return Found::kToCreate;  // empty: ours to fill
  if (!fs::exists(fs::path(dir) / "CURRENT", ec)) {
    if (fs::exists(fs::path(dir) / kCacheMarker, ec)) return Found::kUnfinished;
    return Status::InvalidArgument(
        "cache " + dir + ": not a zarf-state cache (the directory holds other files, such as '" +
        it->path().filename().string() + "'); nothing was changed: use a new or empty directory");
  }
  return Found::kDatabase;
}

// `s` with the temporary directory's path said as the cache's.
Status AsCache(const Status& s, const std::string& tmp, const std::string& dir) {
  std::string message(s.message());
  for (std::size_t at; (at = message.find(tmp)) != std::string::npos;) {
    message.replace(at, tmp.size(), dir);
  }
  switch (s.code()) {
    case Status::Code::kCorruption: return Status::Corruption(message);
    case Status::Code::kInvalidArgument: return Status::InvalidArgument(message);
    case Status::Code::kNotSupported: return Status::NotSupported(message);
    default: return Status::IOError(message);
  }
}

// Removes what creations of `target` by dead processes left beside it: a
// creation holds a lock on its directory's mark until it ends, and a
// process that stopped without unwinding (out of memory or threads) or was
// killed holds none.
void RemoveAbandonedCreations(const fs::path& parent, const fs::path& target) {
  const std::string prefix = "." + target.filename().string() + ".creating-";
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() != prefix.size() + 6) continue;
    const int fd = ::open((it->path() / kCacheMarker).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // not yet marked, or not ours
    const bool abandoned = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (abandoned) fs::remove_all(it->path(), ec);
    ::close(fd);
    ec.clear();
  }
}

}  // namespace

Status FromRocks(const rocksdb::Status& s, std::string_view context) {
  if (s.ok()) return Status::OK();
  std::string msg = std::string(context) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsNotSupported()) return Status::NotSupported(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  return Status::IOError(msg);
}

Result<std::unique_ptr<CacheDb>> CacheDb::Open(const std::string& dir, const CacheOptions& options) {
  return OpenImpl(dir, options, /*probe=*/false);
}

namespace {

Status OutOfResources(const std::string& dir, std::string_view why) {
  return Status::IOError("cache " + dir + ": cannot start the database's threads (" +
                         std::string(why) +
                         "): the process is out of memory or threads (see ulimit -v and -u)");
}

// Without the WAL, a batch that spans families is kept whole only if the
// families' memtables are flushed together (CacheOptions::write_ahead_log).
bool UsesWal(const CacheOptions& options) { return options.write_ahead_log || options.read_only; }

// RocksDB's options for opening the cache in `dir` with `options`.
rocksdb::DBOptions DbOptionsFor(const std::string& dir, const CacheOptions& options) {
  rocksdb::DBOptions db_options;
  db_options.info_log = OpenInfoLog(dir, options.read_only);
  db_options.create_if_missing = options.create_if_missing && !options.read_only;
  db_options.create_missing_column_families = !options.read_only;
  db_options.max_background_jobs = 2;
  db_options.keep_log_file_num = 2;
  db_options.max_open_files = 512;
  // Periodic work (statistics dumps) is for long-lived processes.
  db_options.stats_dump_period_sec = 0;
  db_options.stats_persist_period_sec = 0;
  if (options.read_only) {
    // A read-only open serves one command, usually a lookup or two: table
    // files are opened when a read reaches them, by the reading thread,
    // rather than all of them at open by a pool of threads per family.
    db_options.max_open_files = 64;
    db_options.max_file_opening_threads = 1;
    db_options.skip_stats_update_on_db_open = true;
    db_options.skip_checking_sst_file_sizes_on_db_open = true;
  }
  db_options.bytes_per_sync = 1 << 20;
  // The WAL is replayed into the memtables, not flushed at every open: a
  // short-lived CLI process would otherwise write 9 tiny tables per run.
  db_options.avoid_flush_during_recovery = true;
  // Required by the vector memtables of FamilyOptions; there is one writer.
  db_options.allow_concurrent_memtable_write = false;
  db_options.atomic_flush = !UsesWal(options);
  return db_options;
}

// The column families to open in `dir`: ours, and those of a database of a
// newer format that this version does not know (opened too, so the format
// check can say what is wrong; `*unknown_families` says whether there are
// any). A read-only open leaves out families this version adds that the
// database lacks.
std::vector<rocksdb::ColumnFamilyDescriptor> FamiliesToOpen(const std::string& dir,
                                                            const rocksdb::DBOptions& db_options,
                                                            const CacheOptions& options,
                                                            bool* unknown_families) {
  std::vector<std::string> existing;
  if (!rocksdb::DB::ListColumnFamilies(db_options, dir, &existing).ok()) existing.clear();
  auto cache = rocksdb::NewLRUCache(options.block_cache_mib << 20);
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (int i = 0; i < kCfCount; ++i) {
    families.emplace_back(std::string(kCfNames[i]), FamilyOptions(i, cache, options.read_only));
  }
  *unknown_families = false;
  for (const std::string& name : existing) {
    bool known = false;
    for (std::string_view ours : kCfNames) known = known || ours == name;
    if (!known) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    *unknown_families = *unknown_families || !known;
  }
  if (options.read_only) {
    std::erase_if(families, [&](const rocksdb::ColumnFamilyDescriptor& d) {
      return !existing.empty() &&
             std::find(existing.begin(), existing.end(), d.name) == existing.end();
    });
  }
  return families;
}

// Opens the database of `dir` with `families`, their handles into
// `*handles`. RocksDB starts its background threads here and throws when the
// process may not have them (an address-space limit, a thread limit).
Result<std::unique_ptr<rocksdb::DB>> OpenRocksDb(
    const std::string& dir, const rocksdb::DBOptions& db_options,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families, bool read_only,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  try {
    s = read_only ? rocksdb::DB::OpenForReadOnly(db_options, dir, families, handles, &raw)
                  : rocksdb::DB::Open(db_options, dir, families, handles, &raw);
  } catch (const std::system_error& e) {
    return OutOfResources(dir, e.what());
  } catch (const std::bad_alloc&) {
    return OutOfResources(dir, "out of memory");
  }
  if (!s.ok()) return FromRocks(s, "cache " + dir);
  return std::unique_ptr<rocksdb::DB>(raw);
}

}  // namespace

Result<std::unique_ptr<CacheDb>> CacheDb::OpenImpl(const std::string& dir,
                                                   const CacheOptions& options, bool probe) {
  if (options.sync && !options.write_ahead_log && !options.read_only) {
    return Status::InvalidArgument("cache " + dir +
                                   ": fsync per write (sync) needs the write-ahead log");
  }
  std::unique_ptr<CacheDb> c(new CacheDb());
  c->dir_ = dir;
  // Even a read-only open writes RocksDB's info LOG.
  AcquireUmask();
  c->umask_set_ = true;
  if (!options.read_only) {
    ZS_ASSIGN_OR_RETURN(Found found, PrepareDirectory(dir, options));
    if (found == Found::kToCreate && !probe) {
      ZS_RETURN_IF_ERROR(CreateAside(dir, options));
      return OpenImpl(dir, options, /*probe=*/false);
    }
    if (found == Found::kDatabase) {
      CacheOptions look = options;
      look.read_only = true;
      look.create_if_missing = false;
      look.block_cache_mib = 1;
      ZS_RETURN_IF_ERROR(OpenImpl(dir, look, /*probe=*/true).status());
    }
  }
  const rocksdb::DBOptions db_options = DbOptionsFor(dir, options);
  bool unknown_families = false;
  const std::vector<rocksdb::ColumnFamilyDescriptor> families =
      FamiliesToOpen(dir, db_options, options, &unknown_families);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  ZS_ASSIGN_OR_RETURN(c->db_, OpenRocksDb(dir, db_options, families, options.read_only, &handles));
  for (std::size_t i = 0; i < handles.size(); ++i) {
    for (int k = 0; k < kCfCount; ++k) {
      if (handles[i]->GetName() == kCfNames[k]) c->cf_[k] = handles[i];
    }
  }
  // Handles of unknown families are released at once.
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    if (std::find(c->cf_.begin(), c->cf_.end(), h) == c->cf_.end()) {
      c->db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    }
  }
  ZS_RETURN_IF_ERROR(c->CheckFormat(options.read_only, unknown_families));
  // A probe only checks the format: a database a kill left without some
  // of its families is completed by the read-write open that follows.
  for (int k = 0; k < kCfCount && !probe; ++k) {
    if (c->cf_[k] == nullptr) {
      return Status::Corruption("cache " + dir + ": column family " + std::string(kCfNames[k]) +
                                " is missing");
    }
  }
  c->write_options_.sync = options.sync;
  c->write_options_.disableWAL = !UsesWal(options);
  return c;
}

// The cache is made whole in a new sibling directory (every column family,
// the format version, our mark) and renamed onto `dir` (absent, or empty:
// rename replaces an empty directory in one step), so that a failure or a
// kill leaves no half-made cache that a read-only open would take for one.
// Another process that made it first wins; its cache is then opened.
Status CacheDb::CreateAside(const std::string& dir, const CacheOptions& options) {
  fs::path target = fs::path(dir).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    return Status::IOError("cache " + dir + ": cannot create " + parent.string() + ": " +
                           ec.message());
  }
  std::string tmp = (parent / ("." + target.filename().string() + ".creating-XXXXXX")).string();
  if (::mkdtemp(tmp.data()) == nullptr) {
    return Status::IOError("cache " + dir + ": cannot create a directory beside it to build the "
                           "cache in (" + parent.string() + " must be writable)");
  }
  // Removed on every way out but the rename, an exception included.
  struct RemoveUnlessMoved {
    const std::string& path;
    bool moved = false;
    ~RemoveUnlessMoved() {
      std::error_code ignored;
      if (!moved) fs::remove_all(path, ignored);
    }
  } cleanup{tmp};
  Status made = WriteMarker(tmp);
  // Held until this function returns (and by the kernel no longer once the
  // process is gone): RemoveAbandonedCreations leaves this one alone.
  const int held = ::open((tmp + "/" + kCacheMarker).c_str(), O_RDONLY | O_CLOEXEC);
  if (held < 0 || ::flock(held, LOCK_EX | LOCK_NB) != 0) {
    made = Status::IOError("cache " + dir + ": cannot lock " + tmp);
  }
  struct CloseAtEnd {
    int fd;
    ~CloseAtEnd() {
      if (fd >= 0) ::close(fd);
    }
  } close_at_end{held};
  RemoveAbandonedCreations(parent, target);
  if (made.ok()) {
    CacheOptions build = options;
    build.create_if_missing = true;
    build.sync = false;
    // Every family, and the format version (CheckFormat writes it).
    made = OpenImpl(tmp, build, /*probe=*/false).status();
  }  // closed here: RocksDB flushes what it holds
  if (made.ok()) made = tools::SyncDirectory(tmp);
  // An existing empty directory keeps its mode: the new one takes it.
  struct stat existing{};
  if (made.ok() && ::stat(target.c_str(), &existing) == 0 &&
      ::chmod(tmp.c_str(), existing.st_mode & 07777) != 0) {
    made = Status::IOError("cache " + dir + ": cannot give the new cache the mode of " + dir);
  }
  if (!made.ok()) return AsCache(made, tmp, dir);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    if (error == ENOTEMPTY || error == EEXIST) return Status::OK();  // made by another
    return Status::IOError("cache " + dir + ": cannot move the new cache into place: " +
                           std::generic_category().message(error));
  }
  cleanup.moved = true;
  return tools::SyncDirectory(parent.string());
}

Status CacheDb::CheckFormat(bool read_only, bool unknown_families) {
  std::string value;
  ZS_ASSIGN_OR_RETURN(bool found, Get(kCfDefault, kFormatKey, &value));
  if (!found) {
    // A process killed between creating the database and writing the
    // version leaves it empty, with no family but ours; anything else is
    // another program's database, never adopted.
    bool empty = !unknown_families;
    for (int k = 0; k < kCfCount && empty; ++k) {
      if (cf_[k] == nullptr) continue;  // a read-only open of fewer families
      ZS_RETURN_IF_ERROR(ScanPrefix(*this, k, "", [&](std::string_view, std::string_view) {
        empty = false;
        return false;
      }));
    }
    if (!empty) {
      return Status::InvalidArgument("cache " + dir_ +
                                     ": not a zarf-state cache (a RocksDB database without "
                                     "zarf-state's format key); nothing was changed");
    }
    if (read_only) return Status::OK();  // as if of this version: nothing to read
    return WriteFormatVersion();
  }
  if (value.empty()) {
    return Status::Corruption("cache " + dir_ + ": empty format version");
  }
  int version = 0;
  for (char ch : value) {
    if (ch < '0' || ch > '9' || version > 100000) {
      return Status::Corruption("cache " + dir_ + ": malformed format version '" + value + "'");
    }
    version = version * 10 + (ch - '0');
  }
  if (version > kCacheFormatVersion) {
    return Status::NotSupported("cache " + dir_ + " was written by format version " + value +
                                "; this zarf-state reads format version " +
                                std::to_string(kCacheFormatVersion) +
                                " and older. Use a newer zarf-state, or ingest into a new directory");
  }
  if (version < kCacheFormatVersion) {
    // Formats before the first release's were never released: nothing
    // converts them.
    return Status::NotSupported("cache " + dir_ + " was written by format version " + value +
                                " of an unreleased zarf-state, which this one does not read; "
                                "rebuild it with `zarf-state ingest` into a new directory");
  }
  format_ = version;
  return Status::OK();
}

Status CacheDb::WriteFormatVersion() {
  const std::string v = std::to_string(kCacheFormatVersion);
  rocksdb::WriteOptions wo;
  wo.sync = true;
  Status s =
      FromRocks(db_->Put(wo, cf_[kCfDefault], rocksdb::Slice(kFormatKey.data(), kFormatKey.size()), v),
                "cache " + dir_ + ": writing the format version");
  if (!s.ok()) write_error_ = s;
  return s;
}

CacheDb::~CacheDb() {
  if (db_) {
    for (rocksdb::ColumnFamilyHandle* h : cf_) {
      if (h != nullptr) db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    }
    db_->Close().PermitUncheckedError();
    db_.reset();
  }
  if (umask_set_) ReleaseUmask();
}

Result<bool> CacheDb::Get(int cf, std::string_view key, std::string* value) const {
  const rocksdb::Status s =
      db_->Get(rocksdb::ReadOptions(), cf_[cf], rocksdb::Slice(key.data(), key.size()), value);
  if (s.IsNotFound()) return false;
  if (!s.ok()) return FromRocks(s, "cache " + dir_ + ": reading " + std::string(kCfNames[cf]));
  return true;
}

Status CacheDb::Write(rocksdb::WriteBatch* batch) const {
  if (!write_error_.ok()) return write_error_;
  Status s = FromRocks(db_->Write(write_options_, batch), "cache " + dir_ + ": writing");
  if (!s.ok()) write_error_ = s;
  return s;
}

}  // namespace zs::engine::internal
