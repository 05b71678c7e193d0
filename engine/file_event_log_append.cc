// The writing half of FileEventLog (engine/file_event_log.h): appends,
// checkpoints, taking an append back, and converting a JSON Lines log.
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "engine/derived_status.h"
#include "engine/file_event_log.h"
#include "engine/internal/file_log_reader.h"
#include "io/state_file.h"
#include "json/go_json.h"

namespace zs::engine {
namespace {

using internal::EntryTag;

// Turns an append takes at most (engine/file_event_log.h: writers take
// turns; a turn lost to another writer's creation, conversion or cut is
// taken again).
constexpr int kMaxTurns = 64;

struct HashOf {
  std::size_t operator()(const RecordHash& h) const { return static_cast<std::size_t>(h.low); }
};

// The content digest of a package definition: XXH3-128 of its JSON.
std::string DefinitionDigest(const json::Value& data, std::string* json_text) {
  json_text->clear();
  Status ignored = json::AppendJson(json_text, data);  // raw numbers: cannot fail
  (void)ignored;
  return RecordIdOfBytes(*json_text);
}

// Builds one chunk's entries for a package: records (with their definitions
// stored once) and an optional checkpoint in front.
class ChunkBuilder {
 public:
  // A checkpoint of `snapshot`, its definition stored once like a deploy's.
  template <typename Stored>
  void AddCheckpoint(const DeployedPackage& snapshot, std::uint64_t max_events, std::uint64_t sequence,
                     Stored stored) {
    const std::string digest = AddDefinition(snapshot.data, stored);
    Record base;
    base.kind = RecordKind::kBase;
    auto without = std::make_shared<DeployedPackage>(snapshot);
    without->data = json::Value::MakeObject();
    base.base = std::move(without);
    std::string body;
    internal::AppendVarint(&body, max_events);
    internal::AppendVarint(&body, sequence);
    body += digest;
    body += EncodeRecord(base);
    internal::AppendEntry(&raw_, EntryTag::kCheckpoint, body);
    flags_ |= internal::kChunkHasCheckpoint;
  }

  // Adds `r`; `stored(digest)` gives the offset of a chunk of the file that
  // holds a definition, or nullopt (stored in this chunk then).
  template <typename Stored>
  void AddRecord(const Record& r, Stored stored) {
    if (r.kind != RecordKind::kPackageEvent || !r.facts || !r.facts->data.is_object() ||
        r.facts->data.object().empty()) {
      internal::AppendEntry(&raw_, EntryTag::kRecord, EncodeRecord(r));
      ++records_;
      return;
    }
    const std::string digest = AddDefinition(r.facts->data, stored);
    // The record with an empty definition, the digest in front.
    DeployFacts facts;
    facts.name = r.facts->name;
    facts.digest = r.facts->digest;
    facts.cli_version = r.facts->cli_version;
    facts.namespace_override = r.facts->namespace_override;
    facts.package_connectivity = r.facts->package_connectivity;
    facts.deploy_config = r.facts->deploy_config;
    std::string body = digest;
    AppendPackageEventRecord(&body, r.event, &facts);
    internal::AppendEntry(&raw_, EntryTag::kRecordWithRef, body);
    ++records_;
  }

  std::uint32_t records() const { return records_; }
  bool empty() const { return raw_.empty(); }
  // The chunk, ending with where the definitions it refers to but does not
  // store are, so that opening the package need not search for them.
  // `follows`: the checksum of the chunk this one is appended after (0 at
  // the header), or nullopt when the bytes before it are no valid chunk.
  std::string Build(std::string_view package, std::uint64_t first_sequence,
                    std::optional<std::uint64_t> follows) const {
    std::string raw = raw_;
    for (const auto& [digest, offset] : elsewhere_) {
      internal::AppendEntry(&raw, EntryTag::kDefinitionAt, internal::DefinitionAtBody(digest, offset));
    }
    if (follows) internal::AppendEntry(&raw, EntryTag::kFollows, internal::FollowsBody(*follows));
    return internal::EncodeChunk(flags_, package, digests_, first_sequence, records_, raw);
  }

 private:
  // The digest of `data`, stored in this chunk unless the file holds it.
  template <typename Stored>
  std::string AddDefinition(const json::Value& data, Stored stored) {
    std::string text;
    const std::string digest = DefinitionDigest(data, &text);
    if (internal::HoldsDigest(digests_, digest) || elsewhere_.count(digest) != 0) return digest;
    if (const std::optional<std::uint64_t> at = stored(digest)) {
      elsewhere_.emplace(digest, *at);
    } else {
      internal::AppendEntry(&raw_, EntryTag::kDefinition, digest + text);
      digests_ += digest;
      flags_ |= internal::kChunkHasDefinition;
    }
    return digest;
  }

  std::string raw_;
  std::string digests_;
  std::map<std::string, std::uint64_t> elsewhere_;  // digest -> chunk offset
  std::uint32_t flags_ = 0;
  std::uint32_t records_ = 0;
};

// A JSON Lines log in this format: one chunk per run of one package's lines.
std::string ConvertLegacy(const std::vector<internal::LegacyEntry>& entries) {
  std::string out = internal::FileHeader();
  std::map<std::string, std::uint64_t, std::less<>> next_seq;
  std::map<std::string, std::uint64_t, std::less<>> stored;  // digest -> chunk offset
  for (std::size_t i = 0; i < entries.size();) {
    const std::string& package = entries[i].package;
    ChunkBuilder chunk;
    std::set<std::string, std::less<>> added;
    std::size_t j = i;
    for (; j < entries.size() && entries[j].package == package; ++j) {
      chunk.AddRecord(entries[j].record, [&](const std::string& d) -> std::optional<std::uint64_t> {
        if (auto it = stored.find(d); it != stored.end()) return it->second;
        added.insert(d);
        return std::nullopt;
      });
    }
    for (const std::string& d : added) stored.emplace(d, out.size());
    std::uint64_t& seq = next_seq[package];
    const std::optional<std::uint64_t> follows =
        out.size() == internal::kLogHeaderSize ? 0 : internal::ChecksumOfLastChunk(out);
    out += chunk.Build(package, seq + 1, follows);
    seq += chunk.records();
    i = j;
  }
  return out;
}

// What one append writes, planned from the package's tail: its chunk (""
// when nothing is new) and one result per record given.
struct AppendPlan {
  std::string chunk;
  std::vector<AppendResult> results;
};

// What an append plans from: the fold of the package's tail.
struct TailFold {
  const DeployedPackage* snapshot = nullptr;  // the fold so far (a checkpoint's snapshot)
  bool quiet = true;             // no operation open and the Secret not deleted
  std::uint64_t sequence = 0;    // the package's records so far
  std::uint64_t since_checkpoint = 0;  // records after the last checkpoint
  // Whether a record already in the tail (or earlier in the batch) is
  // passed over; false when the records appended are known to be new.
  bool deduplicate = true;
  std::unordered_map<RecordHash, std::uint64_t, HashOf> ids;  // the tail's records
};

// Folds `tail` into `folder` (which the result points into).
Result<TailFold> FoldTail(const std::string& where, const PackageTail& tail, Folder* folder) {
  TailFold t;
  t.sequence = tail.checkpoint_sequence;
  if (tail.checkpoint) ZS_RETURN_IF_ERROR(folder->Apply(*tail.checkpoint).WithContext(where));
  for (const Record& r : tail.records) {
    ZS_RETURN_IF_ERROR(folder->Apply(r).WithContext(where));
    t.ids.emplace(RecordHashOfBytes(EncodeRecord(r)), ++t.sequence);
  }
  t.since_checkpoint = tail.records.size();
  t.snapshot = &folder->snapshot();
  t.quiet = OpenOperations(t.snapshot->events).empty() && !folder->deleted();
  return t;
}

template <typename Stored>
Result<AppendPlan> PlanAppend(const std::string& where, std::string_view package, TailFold& tail,
                              std::uint64_t last_sequence, std::optional<std::uint64_t> follows,
                              Stored stored, const std::vector<Record>& records,
                              const FileEventLogOptions& options, bool force_checkpoint) {
  std::uint64_t seq = std::max(tail.sequence, last_sequence);
  const std::uint64_t first_sequence = seq + 1;
  if (force_checkpoint && seq == 0) return Status::InvalidArgument(where + " has no records");
  if (force_checkpoint && !tail.quiet) {
    return Status::InvalidArgument(where + " has an operation open or its Secret deleted; no checkpoint");
  }
  ChunkBuilder chunk;
  if (tail.snapshot != nullptr &&
      (force_checkpoint || (options.checkpoint_every > 0 && tail.quiet &&
                            tail.since_checkpoint >= options.checkpoint_every))) {
    chunk.AddCheckpoint(*tail.snapshot, options.fold.max_events, seq, stored);
  }
  AppendPlan plan;
  for (const Record& r : records) {
    if (tail.deduplicate) {
      auto [it, fresh] = tail.ids.emplace(RecordHashOfBytes(EncodeRecord(r)), seq + 1);
      if (!fresh) {
        plan.results.push_back({it->second, false});
        continue;
      }
    }
    ++seq;
    chunk.AddRecord(r, stored);
    plan.results.push_back({seq, true});
  }
  if (chunk.records() > 0 || (force_checkpoint && !chunk.empty())) {
    plan.chunk = chunk.Build(package, first_sequence, follows);
  }
  return plan;
}

}  // namespace

PendingAppend::PendingAppend(std::string path, std::unique_ptr<tools::LockedFile> file,
                             AppendedChunk chunk)
    : path_(std::move(path)), file_(std::move(file)), chunk_(std::move(chunk)) {}

PendingAppend::~PendingAppend() {
  if (file_ != nullptr) {
    Status ignored = TakeBack();  // the caller chose neither: not acknowledged
    (void)ignored;
  }
}

void PendingAppend::Commit() { file_.reset(); }

Status PendingAppend::TakeBack() {
  if (file_ == nullptr) return Status::OK();
  std::unique_ptr<tools::LockedFile> file = std::move(file_);
  if (chunk_.length == 0) return Status::OK();
  // The lock was held since the append: the chunk is still the file's end.
  ZS_ASSIGN_OR_RETURN(const std::uint64_t size, file->Size());
  if (size != chunk_.offset + chunk_.length) {
    return Status::IOError(path_ + ": the file changed while its lock was held (by a writer that ignores "
                           "it); the appended records were not taken back");
  }
  return file->Truncate(chunk_.offset);
}

Result<std::unique_ptr<PendingAppend>> FileEventLog::AppendImpl(std::string_view package,
                                                                const std::vector<Record>& records,
                                                                bool force_checkpoint) {
  if (options_.read_only) return Status::InvalidArgument(path_ + ": opened read-only; nothing was appended");
  if (package.empty()) return Status::InvalidArgument(path_ + ": a record needs a package name");
  const std::string where = path_ + ": package " + std::string(package);
  auto none = [](const std::string&) { return std::optional<std::uint64_t>(); };
  // Each turn either appends or finds the file changed by another writer
  // (created, converted, cut); a file that keeps changing is an error, not
  // a loop.
  for (int turn = 0;; ++turn) {
    if (turn == kMaxTurns) {
      return Status::IOError(path_ + ": the file kept changing while an append waited for it; nothing was appended");
    }
    std::unique_ptr<tools::LockedFile> file;
    if (::access(path_.c_str(), F_OK) != 0 && errno == ENOENT) {
      // A new log appears whole, with its first chunk, or not at all; it
      // is created locked, so it can be taken back like any append.
      TailFold empty;
      ZS_ASSIGN_OR_RETURN(AppendPlan plan,
                          PlanAppend(where, package, empty, 0, 0, none, records, options_, force_checkpoint));
      if (plan.chunk.empty()) {
        return std::unique_ptr<PendingAppend>(new PendingAppend(path_, nullptr, {0, 0, std::move(plan.results)}));
      }
      ZS_ASSIGN_OR_RETURN(file, tools::LockedFile::CreateWhole(path_, internal::FileHeader() + plan.chunk));
      if (file != nullptr) {
        AppendedChunk out{internal::kLogHeaderSize, plan.chunk.size(), std::move(plan.results)};
        return std::unique_ptr<PendingAppend>(new PendingAppend(path_, std::move(file), std::move(out)));
      }
    }
    // Writers take turns: under the lock, a torn tail is never another
    // writer's append in progress.
    auto locked = tools::LockedFile::Open(path_);
    if (locked.status().code() == Status::Code::kNotFound) {
      // Removed meanwhile, or a symbolic link to nothing (never created).
      ZS_RETURN_IF_ERROR(tools::CheckNotDangling(path_));
      continue;
    }
    if (!locked.ok()) return locked.status();
    file = std::move(locked).value();
    ZS_ASSIGN_OR_RETURN(FileEventLogInternal f,
                        FileEventLogInternal::Load(*this, file->fd(), FileEventLogInternal::Reach::kTail));
    if (f.legacy()) {
      tools::RemoveStrayTemps(path_);  // of a conversion a kill interrupted
      ZS_RETURN_IF_ERROR(tools::WriteOutputFile(path_, ConvertLegacy(f.legacy_entries())));
      continue;  // lock the converted file
    }
    const std::uint64_t size = f.bytes().size();
    if (size == 0) {
      ZS_RETURN_IF_ERROR(file->WriteAt(0, internal::FileHeader()));
      continue;
    }
    if (f.valid_end() < size) {
      // The torn tail of an append a kill interrupted: never acknowledged.
      const std::uint64_t keep = f.valid_end();
      f = FileEventLogInternal();
      ZS_RETURN_IF_ERROR(file->Truncate(keep));
      continue;
    }
    ZS_ASSIGN_OR_RETURN(PackageTail tail, f.Tail(package));
    Folder folder(options_.fold);
    ZS_ASSIGN_OR_RETURN(TailFold fold, FoldTail(where, tail, &folder));
    const std::optional<internal::Chunk> last = f.LastChunkOf(package);
    ZS_ASSIGN_OR_RETURN(
        AppendPlan plan,
        PlanAppend(where, package, fold, last ? last->first_sequence + last->records - 1 : 0,
                   f.PredecessorLink(), [&](const std::string& digest) { return f.DefinitionAt(digest); },
                   records, options_, force_checkpoint));
    return WritePlanned(std::move(file), size, plan.chunk, std::move(plan.results));
  }
}

Result<std::unique_ptr<PendingAppend>> FileEventLog::WritePlanned(std::unique_ptr<tools::LockedFile> file,
                                                                  std::uint64_t size, std::string_view chunk,
                                                                  std::vector<AppendResult> results) {
  AppendedChunk out{size, 0, std::move(results)};
  if (!chunk.empty()) {
    ZS_RETURN_IF_ERROR(file->WriteAt(size, chunk));
    out.length = chunk.size();
  }
  return std::unique_ptr<PendingAppend>(new PendingAppend(path_, std::move(file), std::move(out)));
}

OpenedPackage::OpenedPackage() = default;
OpenedPackage::~OpenedPackage() = default;

Result<std::unique_ptr<OpenedPackage>> FileEventLog::OpenPackage(std::string_view package) const {
  std::unique_ptr<OpenedPackage> o(new OpenedPackage());
  o->package_ = std::string(package);
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return o;  // an empty log
    return Status::IOError("open " + path_ + ": " + std::strerror(errno));
  }
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  auto f = FileEventLogInternal::Load(*this, fd, FileEventLogInternal::Reach::kTail);
  ::close(fd);  // the mapping outlives the descriptor
  if (!stated) return Status::IOError("stat " + path_ + ": " + std::strerror(errno));
  if (!f.ok()) return f.status();
  ZS_ASSIGN_OR_RETURN(o->tail_, f->Tail(package));
  if (!f->legacy()) {
    const std::optional<internal::Chunk> last = f->LastChunkOf(package);
    o->last_sequence_ = last ? last->first_sequence + last->records - 1 : 0;
  }
  o->dev_ = static_cast<std::uint64_t>(st.st_dev);
  o->ino_ = static_cast<std::uint64_t>(st.st_ino);
  o->size_ = f->bytes().size();
  o->reader_ = std::make_unique<FileEventLogInternal>(std::move(f).value());
  return o;
}

// Whether the tail `o` read still holds under the lock on `file`: the same
// file, with no torn tail when read, grown since (if at all) only by
// chunks of other packages. `*follows` receives what the next chunk
// follows.
Result<bool> FileEventLog::StillHolds(OpenedPackage& o, tools::LockedFile& file,
                                      std::optional<std::uint64_t>* follows) const {
  if (o.reader_ == nullptr || o.reader_->legacy() || o.reader_->valid_end() != o.size_ ||
      file.dev() != o.dev_ || file.ino() != o.ino_) {
    return false;
  }
  ZS_ASSIGN_OR_RETURN(auto now, tools::MappedFile::Open(path_, file.fd()));
  const std::string_view b = now->bytes();
  if (b.size() < o.size_) return false;
  // Chunks appended since, newest first: none may be of this package.
  std::uint64_t end = b.size();
  while (end > o.size_) {
    const std::optional<internal::Chunk> c = internal::ParseChunkEndingAt(b, end);
    if (!c || c->package == o.package_) return false;
    if (end == b.size()) *follows = c->checksum;
    end = c->offset;
  }
  if (end != o.size_) return false;
  // And the chunk that ended the file then still ends there, unchanged.
  const std::optional<std::uint64_t> then = o.reader_->PredecessorLink();
  if (!then) return false;
  if (o.size_ > internal::kLogHeaderSize) {
    const std::optional<internal::Chunk> c = internal::ParseChunkEndingAt(b, o.size_);
    if (!c || c->checksum != *then) return false;
  }
  if (b.size() == o.size_) *follows = then;
  return true;
}

Result<std::unique_ptr<PendingAppend>> FileEventLog::BeginAppendAfter(OpenedPackage& opened,
                                                                      const std::vector<Record>& records,
                                                                      const DeployedPackage& snapshot,
                                                                      bool quiet) {
  if (options_.read_only) return Status::InvalidArgument(path_ + ": opened read-only; nothing was appended");
  if (opened.reader_ != nullptr) {
    auto locked = tools::LockedFile::Open(path_);
    if (!locked.ok() && locked.status().code() != Status::Code::kNotFound) return locked.status();
    if (locked.ok()) {
      std::unique_ptr<tools::LockedFile> file = std::move(locked).value();
      std::optional<std::uint64_t> follows;
      ZS_ASSIGN_OR_RETURN(const bool holds, StillHolds(opened, *file, &follows));
      if (holds) {
        TailFold fold;
        fold.snapshot = &snapshot;
        fold.quiet = quiet;
        fold.since_checkpoint = opened.tail_.records.size();
        fold.sequence = opened.tail_.checkpoint_sequence + fold.since_checkpoint;
        fold.deduplicate = false;
        const FileEventLogInternal& f = *opened.reader_;
        ZS_ASSIGN_OR_RETURN(
            AppendPlan plan,
            PlanAppend(path_ + ": package " + opened.package_, opened.package_, fold, opened.last_sequence_,
                       follows, [&](const std::string& digest) { return f.DefinitionAt(digest); }, records,
                       options_, /*force_checkpoint=*/false));
        ZS_ASSIGN_OR_RETURN(const std::uint64_t size, file->Size());
        return WritePlanned(std::move(file), size, plan.chunk, std::move(plan.results));
      }
    }
  }
  // Read and folded again: the file changed in a way the tail opened may
  // not survive (a conversion, a torn tail, a chunk of this package).
  return AppendImpl(opened.package_, records, /*force_checkpoint=*/false);
}

Result<AppendResult> FileEventLog::Append(std::string_view package, const Record& record) {
  ZS_ASSIGN_OR_RETURN(AppendedChunk chunk, AppendBatch(package, {record}));
  return chunk.results.at(0);
}

Result<AppendedChunk> FileEventLog::AppendBatch(std::string_view package,
                                                const std::vector<Record>& records) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<PendingAppend> pending, BeginAppend(package, records));
  pending->Commit();
  return pending->chunk();
}

Result<std::unique_ptr<PendingAppend>> FileEventLog::BeginAppend(std::string_view package,
                                                                 const std::vector<Record>& records) {
  return AppendImpl(package, records, /*force_checkpoint=*/false);
}

Status FileEventLog::Checkpoint(std::string_view package) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<PendingAppend> pending, AppendImpl(package, {}, /*force_checkpoint=*/true));
  pending->Commit();
  return Status::OK();
}

}  // namespace zs::engine
