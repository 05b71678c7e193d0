// The writing half of FileEventLog (engine/file_event_log.h): appends,
// checkpoints, taking an append back, and converting a JSON Lines log.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "engine/derived_status.h"
#include "engine/file_event_log.h"
#include "engine/internal/file_log_reader.h"
#include "json/go_json.h"

namespace zs::engine {
namespace {

using internal::EntryTag;

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
  std::string Build(std::string_view package, std::uint64_t first_sequence) const {
    std::string raw = raw_;
    for (const auto& [digest, offset] : elsewhere_) {
      internal::AppendEntry(&raw, EntryTag::kDefinitionAt, internal::DefinitionAtBody(digest, offset));
    }
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
    out += chunk.Build(package, seq + 1);
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

template <typename Stored>
Result<AppendPlan> PlanAppend(const std::string& where, std::string_view package, const PackageTail& tail,
                              std::uint64_t last_sequence, Stored stored,
                              const std::vector<Record>& records, const FileEventLogOptions& options,
                              bool force_checkpoint) {
  Folder folder(options.fold);
  std::unordered_map<RecordHash, std::uint64_t, HashOf> ids;
  std::uint64_t seq = tail.checkpoint_sequence;
  if (tail.checkpoint) ZS_RETURN_IF_ERROR(folder.Apply(*tail.checkpoint).WithContext(where));
  for (const Record& r : tail.records) {
    ZS_RETURN_IF_ERROR(folder.Apply(r).WithContext(where));
    ids.emplace(RecordHashOfBytes(EncodeRecord(r)), ++seq);
  }
  seq = std::max(seq, last_sequence);
  const std::uint64_t first_sequence = seq + 1;
  const bool quiet = OpenOperations(folder.snapshot().events).empty() && !folder.deleted();
  if (force_checkpoint && seq == 0) return Status::InvalidArgument(where + " has no records");
  if (force_checkpoint && !quiet) {
    return Status::InvalidArgument(where + " has an operation open or its Secret deleted; no checkpoint");
  }
  ChunkBuilder chunk;
  if (force_checkpoint || (options.checkpoint_every > 0 && quiet &&
                           tail.records.size() >= options.checkpoint_every)) {
    chunk.AddCheckpoint(folder.snapshot(), options.fold.max_events, seq, stored);
  }
  AppendPlan plan;
  for (const Record& r : records) {
    auto [it, fresh] = ids.emplace(RecordHashOfBytes(EncodeRecord(r)), seq + 1);
    if (!fresh) {
      plan.results.push_back({it->second, false});
      continue;
    }
    ++seq;
    chunk.AddRecord(r, stored);
    plan.results.push_back({seq, true});
  }
  if (chunk.records() > 0 || (force_checkpoint && !chunk.empty())) {
    plan.chunk = chunk.Build(package, first_sequence);
  }
  return plan;
}

}  // namespace

Result<AppendedChunk> FileEventLog::AppendImpl(std::string_view package,
                                               const std::vector<Record>& records,
                                               bool force_checkpoint) {
  if (options_.read_only) return Status::InvalidArgument(path_ + ": opened read-only; nothing was appended");
  if (package.empty()) return Status::InvalidArgument(path_ + ": a record needs a package name");
  const std::string where = path_ + ": package " + std::string(package);
  auto none = [](const std::string&) { return std::optional<std::uint64_t>(); };
  for (;;) {
    if (::access(path_.c_str(), F_OK) != 0 && errno == ENOENT) {
      // A new log appears whole, with its first chunk, or not at all.
      ZS_ASSIGN_OR_RETURN(AppendPlan plan, PlanAppend(where, package, PackageTail{}, 0, none, records,
                                                      options_, force_checkpoint));
      if (plan.chunk.empty()) return AppendedChunk{0, 0, 0, 0, std::move(plan.results)};
      struct stat st {};
      ZS_ASSIGN_OR_RETURN(bool created, internal::CreateWhole(path_, internal::FileHeader() + plan.chunk, &st));
      if (created) {
        return AppendedChunk{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                             internal::kLogHeaderSize, plan.chunk.size(), std::move(plan.results)};
      }
    }
    // Writers take turns: under the lock, a torn tail is never another
    // writer's append in progress.
    auto locked = internal::LockedFile::Open(path_);
    if (locked.status().code() == Status::Code::kNotFound) continue;  // removed meanwhile
    if (!locked.ok()) return locked.status();
    std::unique_ptr<internal::LockedFile> file = std::move(locked).value();
    ZS_ASSIGN_OR_RETURN(FileEventLogInternal f,
                        FileEventLogInternal::Load(*this, file->fd(), FileEventLogInternal::Reach::kTail));
    if (f.legacy()) {
      ZS_RETURN_IF_ERROR(internal::ReplaceFile(path_, ConvertLegacy(f.legacy_entries())));
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
    const std::optional<internal::Chunk> last = f.LastChunkOf(package);
    ZS_ASSIGN_OR_RETURN(
        AppendPlan plan,
        PlanAppend(where, package, tail, last ? last->first_sequence + last->records - 1 : 0,
                   [&](const std::string& digest) { return f.DefinitionAt(digest); }, records, options_,
                   force_checkpoint));
    AppendedChunk out{file->dev(), file->ino(), size, 0, std::move(plan.results)};
    if (plan.chunk.empty()) return out;
    ZS_RETURN_IF_ERROR(file->WriteAt(size, plan.chunk));
    out.length = plan.chunk.size();
    return out;
  }
}

Result<AppendResult> FileEventLog::Append(std::string_view package, const Record& record) {
  ZS_ASSIGN_OR_RETURN(AppendedChunk chunk, AppendBatch(package, {record}));
  return chunk.results.at(0);
}

Result<AppendedChunk> FileEventLog::AppendBatch(std::string_view package,
                                                const std::vector<Record>& records) {
  return AppendImpl(package, records, /*force_checkpoint=*/false);
}

Status FileEventLog::Checkpoint(std::string_view package) {
  return AppendImpl(package, {}, /*force_checkpoint=*/true).status();
}

Status FileEventLog::CutBack(const AppendedChunk& where) {
  if (where.length == 0) return Status::OK();
  if (options_.read_only) return Status::InvalidArgument(path_ + ": opened read-only");
  ZS_ASSIGN_OR_RETURN(auto file, internal::LockedFile::Open(path_));
  ZS_ASSIGN_OR_RETURN(auto map, internal::MappedFile::Open(path_, file->fd()));
  const std::string_view b = map->bytes();
  const std::uint64_t end = where.offset + where.length;
  if (file->dev() != where.dev || file->ino() != where.ino || b.size() < end) {
    return Status::IOError(path_ + ": not the log the records were appended to; cannot take them back");
  }
  // Chunks other writers appended since (they take turns under the lock)
  // move up over ours, then the file is cut to its new length.
  const std::string later(b.substr(end));
  map.reset();
  if (!later.empty()) ZS_RETURN_IF_ERROR(file->WriteAt(where.offset, later));
  return file->Truncate(where.offset + later.size());
}

}  // namespace zs::engine
