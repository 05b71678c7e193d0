#include "engine/file_event_log.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "engine/derived_status.h"
#include "engine/internal/file_log_reader.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::engine {

using internal::Chunk;
using internal::EntryTag;

namespace {

std::string At(const std::string& path, const Chunk& c) {
  return path + ": chunk at byte " + std::to_string(c.offset);
}

// Checks, in file order, that each chunk follows the one before it (its
// kFollows entry names that chunk's checksum) and that each package's
// sequence numbers run on from chunk to chunk: a chunk deleted, repeated
// or moved shows as either.
class OrderCheck {
 public:
  explicit OrderCheck(std::vector<LogFinding>* out) : out_(out) {}

  void Visit(const Chunk& c, std::optional<std::uint64_t> follows) {
    if (follows) {
      const bool first = c.offset == internal::kLogHeaderSize;
      const bool adjacent = prev_ && prev_->offset + prev_->size == c.offset;
      if (first && *follows != 0) {
        Add(c, "chunks that came before it are missing");
      } else if (!first && adjacent && *follows != prev_->checksum) {
        Add(c, *follows == 0 ? "it was the first chunk of a log: chunks before it are repeated or moved"
                             : "it does not follow the chunk before it: a chunk was deleted, repeated or "
                               "moved here");
      }
    }
    if (c.records > 0) {
      std::uint64_t& next = next_[std::string(c.package)];
      if (next == 0) next = 1;
      const std::string name = "package " + std::string(c.package) + ": records ";
      if (c.first_sequence > next) {
        Add(c, name + std::to_string(next) + ".." + std::to_string(c.first_sequence - 1) + " are missing");
      } else if (c.first_sequence < next) {
        Add(c, name + std::to_string(c.first_sequence) + ".." +
                   std::to_string(c.first_sequence + c.records - 1) + " repeat or are out of order (" +
                   std::to_string(next) + " was next)");
      }
      next = std::max(next, c.first_sequence + c.records);
    }
    prev_ = c;
  }

 private:
  void Add(const Chunk& c, std::string what) { out_->push_back({c.offset, std::move(what)}); }
  std::vector<LogFinding>* out_;
  std::optional<Chunk> prev_;
  std::map<std::string, std::uint64_t, std::less<>> next_;
};

bool OverBudget(const Status& s) {
  return s.code() == Status::Code::kInvalidArgument &&
         s.message().find(kOverMemoryBudget) != std::string_view::npos;
}

}  // namespace

Result<FileEventLogInternal> FileEventLogInternal::Load(const FileEventLog& log, int fd, Reach reach) {
  FileEventLogInternal f;
  f.log_ = &log;
  log.skipped_.clear();
  log.findings_.clear();
  ZS_ASSIGN_OR_RETURN(f.map_, tools::MappedFile::Open(log.path_, fd));
  const std::string_view b = f.map_->bytes();
  f.budget_ = MemoryBudget(b.size());
  if (b.empty()) return f;
  if (b.substr(0, internal::kLogMagic.size()) != internal::kLogMagic) {
    // What earlier releases wrote: JSON Lines.
    f.legacy_ = true;
    ZS_ASSIGN_OR_RETURN(f.legacy_entries_, internal::ParseLegacyLog(b, log.path_));
    return f;
  }
  ZS_RETURN_IF_ERROR(internal::CheckFileHeader(b, log.path_));
  f.valid_end_ = b.size();
  f.walk_end_ = b.size();
  if (reach == Reach::kScan) {
    f.ScanWholeFile();
    f.generation_ = 0;
    return f;
  }
  // The newest chunk, found from the end, tells a torn tail: without it the
  // whole file is scanned forward.
  f.WalkBack();
  if (reach == Reach::kAll) {
    while (f.WalkBack()) {
    }
  }
  f.generation_ = 0;
  return f;
}

bool FileEventLogInternal::WalkBack() {
  if (complete_) return false;
  if (walk_end_ == internal::kLogHeaderSize) {
    complete_ = true;
    return false;
  }
  auto c = internal::ParseChunkEndingAt(bytes(), walk_end_);
  if (!c) {
    ScanWholeFile();
    return true;
  }
  newest_first_.push_back(*c);
  walk_end_ = c->offset;
  return true;
}

void FileEventLogInternal::ScanWholeFile() {
  internal::ForwardScan scan = internal::ScanForward(bytes());
  newest_first_.assign(scan.chunks.rbegin(), scan.chunks.rend());
  valid_end_ = scan.valid_end;
  log_->skipped_ = std::move(scan.skipped);
  complete_ = true;
  ++generation_;
}

std::optional<Chunk> FileEventLogInternal::NewestChunk(std::size_t i) {
  while (i >= newest_first_.size() && WalkBack()) {
  }
  if (i >= newest_first_.size()) return std::nullopt;
  return newest_first_[i];
}

std::vector<Chunk> FileEventLogInternal::AllChunks() {
  while (WalkBack()) {
  }
  return std::vector<Chunk>(newest_first_.rbegin(), newest_first_.rend());
}

Result<std::vector<FileEventLogInternal::Entry>> FileEventLogInternal::Entries(const Chunk& c,
                                                                            std::string* raw) {
  if (!internal::ChecksumMatches(bytes(), c)) {
    return Status::Corruption(At(log_->path_, c) + ": checksum does not match");
  }
  // The declared size is checked before it is allocated; what the payload
  // decodes to stays, so it is charged for the rest of the read.
  if (!budget_.Take(c.raw_size)) {
    return budget_.Exceeded(At(log_->path_, c) + ": a payload of " + std::to_string(c.raw_size) +
                            " bytes");
  }
  ZS_ASSIGN_OR_RETURN(*raw, internal::Decompress(c));
  std::vector<Entry> out;
  std::string_view rest(*raw);
  Entry e{};
  bool malformed = false;
  while (internal::NextEntry(&rest, &e.tag, &e.body, &malformed)) {
    if ((out.size() + 1) * sizeof(Entry) > budget_.left()) {  // the list is freed after
      return budget_.Exceeded(At(log_->path_, c) + ": " + std::to_string(out.size() + 1) +
                              " entries");
    }
    std::string_view digest;
    std::uint64_t offset = 0;
    if (e.tag == EntryTag::kDefinitionAt && internal::ParseDefinitionAt(e.body, &digest, &offset)) {
      definition_at_.emplace(std::string(digest), offset);
    }
    out.push_back(e);
  }
  if (malformed) return Status::Corruption(At(log_->path_, c) + ": malformed entry");
  return out;
}

Result<bool> FileEventLogInternal::LoadDefinitions(const Chunk& c) {
  std::string raw;
  auto entries = Entries(c, &raw);
  if (!entries.ok()) return false;  // reported where its records are read
  for (const Entry& e : *entries) {
    if (e.tag != EntryTag::kDefinition || e.body.size() < internal::kDigestSize) continue;
    auto v = json::ParseJson(e.body.substr(internal::kDigestSize));
    if (!v.ok()) return v.status().WithContext(At(log_->path_, c) + ": definition");
    std::string digest(e.body.substr(0, internal::kDigestSize));
    stored_at_.emplace(digest, c.offset);
    definitions_[std::move(digest)] = std::make_shared<const json::Value>(std::move(v).value());
  }
  return true;
}

Result<const json::Value*> FileEventLogInternal::Definition(std::string_view digest) {
  const std::string key(digest);
  if (auto it = definitions_.find(key); it != definitions_.end()) return it->second.get();
  // Where a chunk read so far says it is: a hint, checked (a chunk taken
  // back by CutBack moves the ones after it).
  if (auto at = definition_at_.find(key); at != definition_at_.end()) {
    auto c = internal::ParseChunkAt(bytes(), at->second);
    if (c && internal::HoldsDigest(c->digests, digest)) {
      ZS_RETURN_IF_ERROR(LoadDefinitions(*c).status());
      if (auto it = definitions_.find(key); it != definitions_.end()) return it->second.get();
    }
  }
  // The newest chunk that stores it.
  const int generation = generation_;
  for (std::size_t i = 0;; ++i) {
    const std::optional<Chunk> c = NewestChunk(i);
    if (generation_ != generation) return Definition(digest);  // scanned whole: again
    if (!c) break;
    if (!internal::HoldsDigest(c->digests, digest)) continue;
    ZS_RETURN_IF_ERROR(LoadDefinitions(*c).status());
    if (auto it = definitions_.find(key); it != definitions_.end()) return it->second.get();
  }
  return Status::Corruption(log_->path_ + ": package definition " + key + " is missing");
}

Result<Record> FileEventLogInternal::DecodeRecordEntry(const Chunk& c, const Entry& e) {
  std::string_view body = e.body;
  std::string_view digest;
  if (e.tag == EntryTag::kRecordWithRef) {
    if (body.size() < internal::kDigestSize) {
      return Status::Corruption(At(log_->path_, c) + ": short record entry");
    }
    digest = body.substr(0, internal::kDigestSize);
    body.remove_prefix(internal::kDigestSize);
  }
  auto r = DecodeRecord(body);
  if (!r.ok()) return r.status().WithContext(At(log_->path_, c) + ", package " + std::string(c.package));
  if (!digest.empty()) {
    if (!r->facts) return Status::Corruption(At(log_->path_, c) + ": a definition reference without facts");
    ZS_ASSIGN_OR_RETURN(const json::Value* data, Definition(digest));
    auto facts = std::make_shared<DeployFacts>(*r->facts);
    facts->data = *data;
    r->facts = std::move(facts);
  }
  return r;
}

Result<Record> FileEventLogInternal::DecodeCheckpoint(const Chunk& c, std::string_view body,
                                                      std::uint64_t* max_events, std::uint64_t* sequence) {
  if (!internal::ReadVarint(&body, max_events) || !internal::ReadVarint(&body, sequence) ||
      body.size() < internal::kDigestSize) {
    return Status::Corruption(At(log_->path_, c) + ": malformed checkpoint");
  }
  const std::string_view digest = body.substr(0, internal::kDigestSize);
  body.remove_prefix(internal::kDigestSize);
  auto r = DecodeRecord(body);
  if (!r.ok()) return r.status().WithContext(At(log_->path_, c) + ": checkpoint");
  if (r->kind != RecordKind::kBase || !r->base) {
    return Status::Corruption(At(log_->path_, c) + ": a checkpoint that is not a snapshot");
  }
  ZS_ASSIGN_OR_RETURN(const json::Value* data, Definition(digest));
  auto pkg = std::make_shared<DeployedPackage>(*r->base);
  pkg->data = *data;
  r->base = std::move(pkg);
  return r;
}

std::optional<Chunk> FileEventLogInternal::LastChunkOf(std::string_view package) {
  const int generation = generation_;
  for (std::size_t i = 0;; ++i) {
    std::optional<Chunk> c = NewestChunk(i);
    if (generation_ != generation) return LastChunkOf(package);  // scanned whole: again
    if (!c || (c->package == package && c->records > 0)) return c;
  }
}

std::optional<std::uint64_t> FileEventLogInternal::DefinitionAt(std::string_view digest) const {
  if (auto it = stored_at_.find(std::string(digest)); it != stored_at_.end()) return it->second;
  for (const Chunk& c : newest_first_) {
    if (internal::HoldsDigest(c.digests, digest)) return c.offset;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> FileEventLogInternal::PredecessorLink() {
  const std::uint64_t end = bytes().size();
  if (end == internal::kLogHeaderSize) return 0;
  const std::optional<Chunk> c = NewestChunk(0);
  if (c && c->offset + c->size == end) return c->checksum;
  return std::nullopt;
}

Result<PackageTail> FileEventLogInternal::Tail(std::string_view package) {
  for (;;) {
    // When the walk meets a break, the file is scanned whole (which also
    // resets the skipped list) and the tail is read again from that.
    const int generation = generation_;
    Result<PackageTail> tail = TailOnce(package);
    if (generation_ == generation) return tail;
  }
}

Result<PackageTail> FileEventLogInternal::TailOnce(std::string_view package) {
  PackageTail tail;
  if (legacy_) {
    for (const auto& e : legacy_entries_) {
      if (e.package == package) tail.records.push_back(e.record);
    }
    return tail;
  }
  // Newest chunk first, back to the one that starts with a usable checkpoint.
  std::vector<Chunk> picked;
  std::size_t from_entry = 0;
  for (std::size_t i = 0;; ++i) {
    const std::optional<Chunk> c = NewestChunk(i);
    if (!c) break;
    if (c->package != package) continue;
    picked.push_back(*c);
    if ((c->flags & internal::kChunkHasCheckpoint) == 0) continue;
    std::string raw;
    auto entries = Entries(*c, &raw);
    if (!entries.ok() || entries->empty() || (*entries)[0].tag != EntryTag::kCheckpoint) continue;
    std::uint64_t max_events = 0, seq = 0;
    auto base = DecodeCheckpoint(*c, (*entries)[0].body, &max_events, &seq);
    if (!base.ok() || max_events != log_->options_.fold.max_events) continue;
    tail.checkpoint = std::move(base).value();
    tail.checkpoint_sequence = seq;
    from_entry = 1;
    break;
  }
  std::reverse(picked.begin(), picked.end());
  for (std::size_t i = 0; i < picked.size(); ++i) {
    const Chunk& c = picked[i];
    std::string raw;
    auto entries = Entries(c, &raw);
    if (OverBudget(entries.status())) return entries.status();  // no read goes on past it
    if (!entries.ok()) {
      Skip(c, std::string(entries.status().message()));
      continue;
    }
    for (std::size_t k = (i == 0 && tail.checkpoint) ? from_entry : 0; k < entries->size(); ++k) {
      const Entry& e = (*entries)[k];
      if (e.tag != EntryTag::kRecord && e.tag != EntryTag::kRecordWithRef) continue;
      auto r = DecodeRecordEntry(c, e);
      if (r.status().code() == Status::Code::kNotFound) continue;  // skippable kind
      if (!r.ok()) return r.status();
      tail.records.push_back(std::move(r).value());
    }
  }
  return tail;
}

Status FileEventLogInternal::ScanAll(const std::function<Status(const LogEntry&)>& visit) {
  if (legacy_) {
    std::map<std::string, std::uint64_t, std::less<>> seq;
    for (const auto& e : legacy_entries_) {
      LogEntry entry{e.package, ++seq[e.package], false, 0, &e.record};
      ZS_RETURN_IF_ERROR(visit(entry));
    }
    return Status::OK();
  }
  OrderCheck order(&log_->findings_);
  for (const Chunk& c : AllChunks()) {
    std::string raw;
    auto entries = Entries(c, &raw);
    if (OverBudget(entries.status())) return entries.status();  // no read goes on past it
    if (!entries.ok()) {
      Skip(c, std::string(entries.status().message()));
      order.Visit(c, std::nullopt);
      continue;
    }
    std::optional<std::uint64_t> follows;
    for (const Entry& e : *entries) {
      std::uint64_t link = 0;
      if (e.tag == EntryTag::kFollows && internal::ParseFollows(e.body, &link)) follows = link;
    }
    order.Visit(c, follows);
    std::uint64_t seq = c.first_sequence;
    for (const Entry& e : *entries) {
      LogEntry entry{c.package, 0, false, 0, nullptr};
      Record r;
      if (e.tag == EntryTag::kCheckpoint) {
        auto base = DecodeCheckpoint(c, e.body, &entry.max_events, &entry.sequence);
        if (!base.ok()) return base.status();
        r = std::move(base).value();
        entry.checkpoint = true;
      } else if (e.tag == EntryTag::kRecord || e.tag == EntryTag::kRecordWithRef) {
        auto decoded = DecodeRecordEntry(c, e);
        entry.sequence = seq++;
        if (decoded.status().code() == Status::Code::kNotFound) continue;
        if (!decoded.ok()) return decoded.status();
        r = std::move(decoded).value();
      } else {
        continue;  // definitions are read through the records that use them
      }
      entry.record = &r;
      ZS_RETURN_IF_ERROR(visit(entry));
    }
  }
  return Status::OK();
}

// ---- public reads ----

Result<LogCheck> FileEventLog::Check() const {
  ZS_ASSIGN_OR_RETURN(FileEventLogInternal f,
                      FileEventLogInternal::Load(*this, -1, FileEventLogInternal::Reach::kScan));
  LogCheck out;
  std::set<std::string, std::less<>> names;
  ZS_RETURN_IF_ERROR(f.ScanAll([&](const LogEntry& e) {
    names.emplace(e.package);
    ++(e.checkpoint ? out.checkpoints : out.records);
    return Status::OK();
  }));
  if (!f.legacy()) out.chunks = f.AllChunks().size();
  out.packages.assign(names.begin(), names.end());
  out.damaged = skipped_;
  out.findings = findings_;
  if (!f.legacy() && f.valid_end() < f.bytes().size()) {
    out.torn_offset = f.valid_end();
    out.torn_bytes = f.bytes().size() - f.valid_end();
  }
  return out;
}

Result<std::unique_ptr<FileEventLog>> FileEventLog::Open(std::string path, FileEventLogOptions options) {
  if (path.empty()) return Status::InvalidArgument("an event log needs a file name");
  return std::unique_ptr<FileEventLog>(new FileEventLog(std::move(path), options));
}

Result<std::vector<Record>> FileEventLog::Read(std::string_view package, std::uint64_t first,
                                               std::uint64_t limit) const {
  std::vector<Record> out;
  ZS_RETURN_IF_ERROR(Scan([&](const LogEntry& e) {
    if (e.checkpoint || e.package != package) return Status::OK();
    if (e.sequence >= first && e.sequence - first < limit) out.push_back(*e.record);
    return Status::OK();
  }));
  return out;
}

Result<std::uint64_t> FileEventLog::Size(std::string_view package) const {
  ZS_ASSIGN_OR_RETURN(FileEventLogInternal f,
                      FileEventLogInternal::Load(*this, -1, FileEventLogInternal::Reach::kTail));
  if (f.legacy()) {
    return static_cast<std::uint64_t>(std::count_if(
        f.legacy_entries().begin(), f.legacy_entries().end(),
        [&](const internal::LegacyEntry& e) { return e.package == package; }));
  }
  const std::optional<Chunk> last = f.LastChunkOf(package);
  return last ? last->first_sequence + last->records - 1 : 0;
}

Result<std::vector<std::string>> FileEventLog::Packages() const {
  ZS_ASSIGN_OR_RETURN(FileEventLogInternal f, FileEventLogInternal::Load(*this));
  std::set<std::string, std::less<>> names;
  for (const auto& e : f.legacy_entries()) names.insert(e.package);
  for (const Chunk& c : f.AllChunks()) {
    if (c.records > 0) names.emplace(c.package);
  }
  return std::vector<std::string>(names.begin(), names.end());
}

Result<PackageTail> FileEventLog::ReadTail(std::string_view package) const {
  ZS_ASSIGN_OR_RETURN(FileEventLogInternal f,
                      FileEventLogInternal::Load(*this, -1, FileEventLogInternal::Reach::kTail));
  return f.Tail(package);
}

Status FileEventLog::Scan(const std::function<Status(const LogEntry&)>& visit) const {
  ZS_ASSIGN_OR_RETURN(FileEventLogInternal f, FileEventLogInternal::Load(*this));
  return f.ScanAll(visit);
}

}  // namespace zs::engine
