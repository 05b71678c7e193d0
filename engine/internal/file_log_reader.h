// FileEventLogInternal: the file event log (engine/file_event_log.h) as one
// read sees it: the file mapped, its format told (JSON Lines of earlier
// releases, or chunks), its chunks found, and the decoding of their entries
// with package definitions resolved by digest. Shared by the reading and
// the writing half of FileEventLog.
//
// Thread safety: one per call; not shared.
#ifndef ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_
#define ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "engine/file_event_log.h"
#include "engine/internal/log_file.h"
#include "engine/internal/log_format.h"
#include "json/json_value.h"

namespace zs::engine {

// The file as one read sees it: mapped, its format told, its chunks found.
class FileEventLogInternal {
 public:
  static Result<FileEventLogInternal> Load(const FileEventLog& log, int fd = -1);

  bool legacy() const { return legacy_; }
  std::string_view bytes() const { return map_->bytes(); }
  const std::vector<internal::Chunk>& chunks() const { return chunks_; }
  std::uint64_t valid_end() const { return valid_end_; }
  const std::vector<internal::LegacyEntry>& legacy_entries() const { return legacy_entries_; }

  // The decoded entries of one chunk; Corruption names the chunk's offset.
  struct Entry {
    internal::EntryTag tag;
    std::string_view body;
  };
  Result<std::vector<Entry>> Entries(const internal::Chunk& c, std::string* raw) const;
  // A record entry decoded, its definition filled in.
  Result<Record> DecodeRecordEntry(const internal::Chunk& c, const Entry& e);
  // A checkpoint entry: its fold option, sequence and Base record.
  Result<Record> DecodeCheckpoint(const internal::Chunk& c, std::string_view body,
                                  std::uint64_t* max_events, std::uint64_t* sequence);
  // The last chunk of `package` holding records, or nullptr.
  const internal::Chunk* LastChunkOf(std::string_view package) const;
  bool HasDefinition(std::string_view digest) const;

  // What a chunk that could not be read adds to the skipped list.
  void Skip(const internal::Chunk& c, std::string reason) {
    log_->skipped_.push_back({c.offset, c.size, std::move(reason)});
  }
  Result<PackageTail> Tail(std::string_view package);
  // A checkpoint or record visited in file order (Scan).
  Status ScanAll(const std::function<Status(const LogEntry&)>& visit);

 private:
  Result<const json::Value*> Definition(std::string_view digest);

  const FileEventLog* log_ = nullptr;
  std::unique_ptr<internal::MappedFile> map_;
  bool legacy_ = false;
  std::vector<internal::LegacyEntry> legacy_entries_;
  std::vector<internal::Chunk> chunks_;
  std::uint64_t valid_end_ = 0;
  std::unordered_map<std::string, std::shared_ptr<const json::Value>> definitions_;
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_INTERNAL_FILE_LOG_READER_H_
