// FileEventLogInternal: the file event log (engine/file_event_log.h) as one
// read sees it: the file mapped, its format told (JSON Lines of earlier
// releases, or chunks), its chunks found, and the decoding of their entries
// with package definitions resolved by digest. Shared by the reading and
// the writing half of FileEventLog.
//
// Chunks are found from the end of the file through their trailers, only
// as far back as a call needs (Reach::kTail): opening a package reads its
// newest chunks back to its last checkpoint, and a definition is found
// where a kDefinitionAt entry of those chunks says it is, so that the cost
// does not grow with the log's history. When the trailers do not lead back
// (a torn tail, a damaged length), the whole file is scanned forward once
// instead and generation() changes: a caller that walked before restarts.
//
// Thread safety: one per call; not shared.
#ifndef ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_
#define ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "engine/file_event_log.h"
#include "base/memory_budget.h"
#include "engine/internal/legacy_log.h"
#include "engine/internal/log_format.h"
#include "io/locked_file.h"
#include "json/json_value.h"

namespace zs::engine {

// The file as one read sees it: mapped, its format told, its chunks found.
class FileEventLogInternal {
 public:
  // kAll finds every chunk on loading (Read, Scan, Packages); kTail only
  // the newest, and older ones as NewestChunk asks for them.
  // kScan reads the whole file forward (Check).
  enum class Reach { kAll, kTail, kScan };
  static Result<FileEventLogInternal> Load(const FileEventLog& log, int fd = -1,
                                           Reach reach = Reach::kAll);

  bool legacy() const { return legacy_; }
  std::string_view bytes() const { return map_->bytes(); }
  // Where the torn tail starts (the file size when there is none).
  std::uint64_t valid_end() const { return valid_end_; }
  const std::vector<internal::LegacyEntry>& legacy_entries() const { return legacy_entries_; }

  // The i-th chunk counting back from the newest (0 is the newest), walking
  // further back as needed; nullopt past the oldest.
  std::optional<internal::Chunk> NewestChunk(std::size_t i);
  // Every chunk, oldest first (walks the whole file).
  std::vector<internal::Chunk> AllChunks();
  // Changes when a walk fell back to scanning the whole file forward.
  int generation() const { return generation_; }

  // The decoded entries of one chunk; Corruption names the chunk's offset,
  // InvalidArgument a chunk whose payload or entries do not fit in what is
  // left of the read's memory budget (checked before allocating).
  // Notes the kDefinitionAt hints it holds.
  struct Entry {
    internal::EntryTag tag;
    std::string_view body;
  };
  Result<std::vector<Entry>> Entries(const internal::Chunk& c, std::string* raw);
  // A record entry decoded, its definition filled in.
  Result<Record> DecodeRecordEntry(const internal::Chunk& c, const Entry& e);
  // A checkpoint entry: its fold option, sequence and Base record.
  Result<Record> DecodeCheckpoint(const internal::Chunk& c, std::string_view body,
                                  std::uint64_t* max_events, std::uint64_t* sequence);
  // The last chunk of `package` holding records, or nullopt.
  std::optional<internal::Chunk> LastChunkOf(std::string_view package);
  // The offset of a chunk known to store definition `digest`: one a
  // definition was read from, or one of the chunks walked so far. nullopt
  // when this read has not seen one (the digest may still be stored
  // further back).
  std::optional<std::uint64_t> DefinitionAt(std::string_view digest) const;
  // What a chunk appended now says it follows (kFollows): the checksum of
  // the chunk that ends the file, 0 for a file of only its header, nullopt
  // when damaged bytes end it.
  std::optional<std::uint64_t> PredecessorLink();

  // What a chunk that could not be read adds to the skipped list.
  void Skip(const internal::Chunk& c, std::string reason) {
    log_->skipped_.push_back({c.offset, c.size, std::move(reason)});
  }
  Result<PackageTail> Tail(std::string_view package);
  // A checkpoint or record visited in file order (Scan); notes findings.
  Status ScanAll(const std::function<Status(const LogEntry&)>& visit);

 private:
  Result<const json::Value*> Definition(std::string_view digest);
  // Reads the definitions `c` stores into definitions_; false when the
  // chunk does not read.
  Result<bool> LoadDefinitions(const internal::Chunk& c);
  Result<PackageTail> TailOnce(std::string_view package);
  // Adds the chunk before the oldest found so far; false at the header.
  bool WalkBack();
  void ScanWholeFile();

  const FileEventLog* log_ = nullptr;
  std::unique_ptr<tools::MappedFile> map_;
  bool legacy_ = false;
  std::vector<internal::LegacyEntry> legacy_entries_;
  std::vector<internal::Chunk> newest_first_;  // the chunks found, newest first
  std::uint64_t walk_end_ = 0;                 // where the oldest found starts
  bool complete_ = false;                      // newest_first_ reaches the header
  int generation_ = 0;
  std::uint64_t valid_end_ = 0;
  std::unordered_map<std::string, std::shared_ptr<const json::Value>> definitions_;
  std::unordered_map<std::string, std::uint64_t> stored_at_;      // read from there
  std::unordered_map<std::string, std::uint64_t> definition_at_;  // kDefinitionAt hints
  // What this read may decompress and decode: the memory budget of the
  // file's size, charged each chunk's payload as it is read.
  MemoryBudget budget_{0};
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_
