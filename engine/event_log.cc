#include "engine/event_log.h"

#include <map>
#include <unordered_map>

namespace zs::engine {
namespace {

class MemoryEventLog final : public EventLog {
 public:
  Result<AppendResult> Append(std::string_view package, const Record& record) override {
    PackageLog& log = logs_[std::string(package)];
    std::string id = RecordId(record);
    if (auto it = log.by_id.find(id); it != log.by_id.end()) {
      return AppendResult{it->second, false};
    }
    log.records.push_back(record);
    const std::uint64_t seq = log.records.size();
    log.by_id.emplace(std::move(id), seq);
    return AppendResult{seq, true};
  }

  Result<std::vector<Record>> Read(std::string_view package, std::uint64_t first,
                                   std::uint64_t limit) const override {
    std::vector<Record> out;
    auto it = logs_.find(std::string(package));
    if (it == logs_.end() || first == 0) return out;
    const auto& records = it->second.records;
    for (std::uint64_t seq = first; seq <= records.size() && seq - first < limit; ++seq) {
      out.push_back(records[seq - 1]);
    }
    return out;
  }

  Result<std::uint64_t> Size(std::string_view package) const override {
    auto it = logs_.find(std::string(package));
    return it == logs_.end() ? 0 : static_cast<std::uint64_t>(it->second.records.size());
  }

  Result<std::vector<std::string>> Packages() const override {
    std::vector<std::string> out;
    for (const auto& [name, log] : logs_) {
      if (!log.records.empty()) out.push_back(name);
    }
    return out;
  }

 private:
  struct PackageLog {
    std::vector<Record> records;
    std::unordered_map<std::string, std::uint64_t> by_id;
  };
  std::map<std::string, PackageLog, std::less<>> logs_;
};

}  // namespace

std::unique_ptr<EventLog> NewMemoryEventLog() { return std::make_unique<MemoryEventLog>(); }

}  // namespace zs::engine
