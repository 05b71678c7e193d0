#include "cli/ingest_cmd.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <iostream>

#include "kube/secret.h"
#include "engine/cache.h"
#include "cli/cluster_input.h"
#include "cli/command_status.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "kube/input.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

// What became of one object of the input: its acknowledgement line (-o
// table) and its entry in the json/yaml summary.
struct Outcome {
  std::string name;    // the cache key, or the object's label when it failed or was skipped
  std::string result;  // ingested | unchanged | removed | skipped | failed
  std::uint64_t new_records = 0;
  bool snapshot_updated = false;
  std::string reason;  // skipped, failed: why

  // "ingested KEY (+N records[, snapshot updated])", "unchanged KEY", "removed KEY".
  std::string Line() const {
    std::string line = result + " " + TerminalText(name);
    if (result != "ingested") return line;
    return line + " (+" + std::to_string(new_records) + " records" +
           (snapshot_updated ? ", snapshot updated)" : ")");
  }
  json::Value ToDocument() const {
    json::Value v = json::Value::MakeObject(
        {{"name", json::Value::String(name)}, {"result", json::Value::String(result)}});
    if (result == "ingested") {
      v.Set("newRecords", json::Value::Int(static_cast<std::int64_t>(new_records)));
      v.Set("snapshotUpdated", json::Value::Bool(snapshot_updated));
    }
    if (!reason.empty()) v.Set("reason", json::Value::String(reason));
    return v;
  }
};

// Outcomes of Secrets whose batches are written but not yet known durable;
// Flush makes them durable, then acknowledges them: -o table prints their
// lines at once, json/yaml keeps them for the summary (Print).
class Acks {
 public:
  Acks(engine::Cache* cache, const IngestOptions& o, std::ostream& out)
      : cache_(cache), o_(o), out_(out) {}

  Status Add(Outcome outcome) {
    pending_.push_back(std::move(outcome));
    ++unsynced_;
    if (o_.no_sync || unsynced_ >= SyncEvery(o_)) return Flush();
    return Status::OK();
  }
  Status Flush() {
    if (pending_.empty()) return Status::OK();
    if (!o_.no_sync) ZS_RETURN_IF_ERROR(cache_->Sync());
    unsynced_ = 0;
    if (o_.output.structured()) {
      for (Outcome& a : pending_) done_.push_back(std::move(a));
      pending_.clear();
      return Status::OK();
    }
    for (const Outcome& a : pending_) out_ << a.Line() << '\n';
    pending_.clear();
    // An acknowledgement that did not arrive is not one: stop here.
    return FlushOutput(out_, "acknowledgements to standard output");
  }
  // An object skipped or failed: json/yaml lists it in input order, after
  // the Secrets before it; -o table prints nothing (errors go to stderr).
  void AddUnacknowledged(Outcome outcome) {
    if (!o_.output.structured()) return;
    (pending_.empty() ? done_ : pending_).push_back(std::move(outcome));
  }

  // json/yaml: the summary of every outcome so far; run-level errors (not
  // of one object) in "errors".
  void Print(const std::vector<std::string>& errors) const {
    constexpr std::array<std::string_view, 5> kResults = {"ingested", "unchanged", "removed",
                                                          "skipped", "failed"};
    std::array<std::int64_t, kResults.size()> count{};
    json::Value objects = json::Value::MakeArray();
    for (const Outcome& a : done_) {
      const auto at = std::find(kResults.begin(), kResults.end(), a.result);
      assert(at != kResults.end());
      ++count[at - kResults.begin()];
      objects.array().push_back(a.ToDocument());
    }
    json::Value counts = json::Value::MakeObject();
    for (std::size_t i = 0; i < kResults.size(); ++i) {
      counts.Set(kResults[i], json::Value::Int(count[i]));
    }
    json::Value error_list = json::Value::MakeArray();
    for (const std::string& e : errors) error_list.array().push_back(json::Value::String(e));
    PrintStructured(json::Value::MakeObject({{"summary", std::move(counts)},
                                             {"objects", std::move(objects)},
                                             {"errors", std::move(error_list)}}),
                    o_.output.format, out_);
  }

 private:
  engine::Cache* cache_;
  const IngestOptions& o_;
  std::ostream& out_;
  std::vector<Outcome> pending_;   // holds an acknowledgement unless empty
  std::size_t unsynced_ = 0;       // acknowledgements in pending_
  std::vector<Outcome> done_;
};

// Secrets read but not yet ingested: they are ingested together, one
// RocksDB write per group (Cache::IngestGroup), which saves the fixed cost
// of a write and of a WAL record per Secret.
struct PendingSecret {
  std::string label;
  std::string payload;
  std::string name;
  std::string ns;
};

// Secrets per group: enough to spread a write's fixed cost, few enough that
// the group's batch (~20 KB per realistic Secret) stays small; a group of
// large Secrets ends at kGroupBytes of payload.
constexpr std::size_t kGroupSize = 32;
constexpr std::size_t kGroupBytes = 4 << 20;

Outcome OutcomeOf(const engine::IngestResult& r) {
  Outcome a;
  a.name = r.package;
  a.result = r.changed() ? "ingested" : "unchanged";
  a.new_records = r.new_records;
  a.snapshot_updated = r.snapshot_replaced;
  return a;
}

// The formats ingest prints in.
const std::vector<std::string> kFormats = {"table", "json", "yaml"};

}  // namespace

std::size_t SyncEvery(const IngestOptions& o) {
  if (o.sync_every != 0) return o.sync_every;
  return o.bulk ? 4096 : 256;
}

namespace {

// One `ingest` run: the cache, the acknowledgements and the counts of the
// summary line. A failure of one object or file is printed as it happens
// (Report) and the run goes on with the next, except where said.
class IngestRun {
 public:
  IngestRun(engine::Cache* cache, const IngestOptions& o, std::ostream& out, std::ostream& err)
      : cache_(cache),
        o_(o),
        err_(err),
        acks_(cache, o, out),
        // With --sync-every N < kGroupSize, groups of N: each fsync still
        // covers exactly the Secrets the user asked it to.
        group_size_(o.no_sync ? kGroupSize : std::min(SyncEvery(o), kGroupSize)) {}

  // Reads `file` ("-": stdin) one object at a time and ingests its package
  // Secrets in groups; `inputs`, all the files of the run, name it in the
  // progress line. False when an acknowledgement failed: nothing more can be
  // acknowledged and the run must stop (the error is printed).
  bool IngestFile(const std::string& file, const std::vector<std::string>& inputs);

  // Acknowledges what is still pending; false (the error printed) when
  // that fails, and the run must stop.
  bool FlushAcks() {
    if (Status s = acks_.Flush(); !s.ok()) {
      Report("", s);
      return false;
    }
    return true;
  }

  // --full-dump: marks removed the packages of the cache that the input
  // lacked, unless some input failed (then says why not).
  void MarkMissingRemoved();

  // Flushes the cache when anything changed (so that no log is left to
  // replay), then prints the summary line, with the time since `start`, on
  // `err` (and with -o json|yaml the acknowledgements on `out`).
  void Finish(std::chrono::steady_clock::time_point start);

  bool failed() const { return failed_; }

 private:
  // Ingests `group` in one write; each Secret that fails is reported. The
  // Status of an acknowledgement that failed, which ends the run.
  Status IngestGroup(const std::vector<PendingSecret>& group);

  // Prints the failure of `what` (an object's label; empty for an error of
  // the run) and records it for the acknowledgements.
  void Report(const std::string& what, const Status& s) {
    // Input errors already start with the object's label.
    const bool named = what.empty() || s.message().rfind(what, 0) == 0;
    PrintError(err_, named ? std::string(s.message()) : what + ": " + std::string(s.message()));
    failed_ = true;
    if (what.empty()) {
      errors_.emplace_back(s.message());
    } else {
      acks_.AddUnacknowledged({what, "failed", 0, false, std::string(s.message())});
    }
  }

  engine::Cache* cache_;
  const IngestOptions& o_;
  std::ostream& err_;
  Acks acks_;
  const std::size_t group_size_;
  std::size_t secrets_ = 0, changed_ = 0, records_ = 0;
  std::uint64_t bytes_ = 0;
  bool failed_ = false;
  std::vector<std::string> present_;
  std::vector<std::string> errors_;  // json/yaml: errors of no one object
};

Status IngestRun::IngestGroup(const std::vector<PendingSecret>& group) {
  std::vector<engine::IngestSource> sources;
  sources.reserve(group.size());
  for (const PendingSecret& p : group) {
    sources.push_back({p.payload, p.name, p.ns, p.payload.capacity() - p.payload.size()});
  }
  std::vector<Result<engine::IngestResult>> results = cache_->IngestGroup(sources);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result<engine::IngestResult>& r = results[i];
    if (!r.ok()) {
      Report(group[i].label, r.status());
      continue;
    }
    ++secrets_;
    records_ += r->new_records;
    if (r->changed()) ++changed_;
    present_.push_back(r->package);
    ZS_RETURN_IF_ERROR(acks_.Add(OutcomeOf(*r)));  // nothing more can be acknowledged
  }
  return Status::OK();
}

bool IngestRun::IngestFile(const std::string& file, const std::vector<std::string>& inputs) {
  auto input = ObjectInput::Open(file);
  if (!input.ok()) {
    Report("", input.status());
    return true;
  }
  // One object at a time, as migrate does: a dump of thousands of Secrets
  // is never held as a whole tree.
  std::size_t seen = 0;
  bool acks_failed = false;
  std::vector<PendingSecret> pending;
  std::size_t pending_bytes = 0;
  auto ingest_pending = [&]() -> Status {
    const std::vector<PendingSecret> group = std::move(pending);
    pending.clear();
    pending_bytes = 0;
    if (group.empty() || acks_failed) return Status::OK();
    Status s = IngestGroup(group);
    acks_failed = !s.ok();
    return s;
  };
  Input header;
  Progress progress(err_, ProgressTitle("ingest", file, inputs), o_.progress);
  Status read = input->Read(&header, [&](InputObject obj) -> Status {
    ++seen;
    progress.Update(seen, "Secrets");
    if (!obj.error.ok()) {
      Report(obj.label, obj.error);
      return Status::OK();
    }
    if (obj.payload_kind != PayloadKind::kPackage) {  // no package
      acks_.AddUnacknowledged({obj.label, "skipped", 0, false, "not a package Secret"});
      return Status::OK();
    }
    pending.push_back({std::move(obj.label), std::move(obj.payload),
                       std::string(ObjectName(obj.object)),
                       std::string(ObjectNamespace(obj.object))});
    pending_bytes += pending.back().payload.size();
    if (pending.size() < group_size_ && pending_bytes < kGroupBytes) return Status::OK();
    return ingest_pending();
  });
  if (Status s = ingest_pending(); !s.ok() && read.ok()) read = s;
  progress.Finish();
  ReportSkipped(header, file, err_);
  if (!read.ok()) {
    Report("", read);
    return !acks_failed;
  }
  bytes_ += input->size();
  return true;
}

void IngestRun::MarkMissingRemoved() {
  if (failed_) {
    err_ << "warning: --full-dump: not marking any package removed, since some input failed\n";
    return;
  }
  auto marked = cache_->MarkRemovedExcept(present_);
  if (!marked.ok()) {
    Report("", marked.status());
    return;
  }
  Status s;
  for (const std::string& key : *marked) {
    s = acks_.Add({key, "removed", 0, false, ""});
    if (!s.ok()) break;
  }
  if (s.ok()) s = acks_.Flush();
  if (!s.ok()) Report("", s);
}

void IngestRun::Finish(std::chrono::steady_clock::time_point start) {
  // Leave no log to replay: the queries that follow each open the cache anew.
  if (changed_ > 0) {
    if (Status s = cache_->Flush(); !s.ok()) Report("", s);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Where the cache is: the default (ZARF_STATE_DB, XDG_CACHE_HOME) is not
  // in the command line.
  err_ << "ingest: " << secrets_ << (secrets_ == 1 ? " Secret" : " Secrets") << " into "
       << TerminalText(o_.db) << " (" << changed_ << " changed, " << records_
       << (records_ == 1 ? " new record, " : " new records, ") << bytes_ << " bytes) in "
       << FormatElapsed(seconds) << "\n";
  if (o_.output.structured()) acks_.Print(errors_);
}

}  // namespace

CommandStatus RunIngest(const IngestOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kFormats));
  if (o.db.empty()) return Status::Usage("ingest needs --db DIR");
  if (o.bulk && o.no_sync) {
    return Status::Usage(
        "ingest: --bulk acknowledges after flushing; it cannot be combined with --no-sync");
  }
  engine::CacheOptions cache_options;
  cache_options.write_ahead_log = !o.bulk;
  auto cache = engine::OpenCache(o.db, cache_options);
  if (!cache.ok()) return cache.status();
  IngestRun run(cache->get(), o, out, err);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> stdin_only{"-"};
  const std::vector<std::string>& inputs = o.files.empty() ? stdin_only : o.files;
  for (const std::string& file : inputs) {
    if (!run.IngestFile(file, inputs)) return CommandStatus::FailureReported();
  }
  if (!run.FlushAcks()) return CommandStatus::FailureReported();
  if (o.full_dump) run.MarkMissingRemoved();
  run.Finish(start);
  return CommandStatus::FailedIf(run.failed());
}

void RegisterIngest(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<IngestOptions>();
  CLI::App* cmd = app->add_subcommand("ingest", "Load package Secrets into the local cache");
  AddCacheDirOption(cmd, &o->db, "The cache directory (created 0700)");
  CLI::Option* files =
      cmd->add_option("-f,--filename", o->files, "Secrets, Lists or payloads (- for stdin)");
  cmd->add_flag("--full-dump", o->full_dump,
                "The input is every package Secret: mark packages it lacks removed");
  cmd->add_option("--sync-every", o->sync_every,
                  "Secrets per acknowledgement: WAL fsync (default 256), flush with --bulk "
                  "(default 4096)")
      ->check(CLI::PositiveNumber);
  auto* no_sync = cmd->add_flag(
      "--no-sync", o->no_sync, "Acknowledge without fsync (survives a process crash, not a power loss)");
  cmd->add_flag("--bulk", o->bulk,
                "Load a big dump faster: no write-ahead log; acknowledged after flushing the "
                "memtables to table files")
      ->excludes(no_sync);
  AddQuietFlag(cmd, &o->quiet);
  AddOutputOptions(cmd, &o->output, kFormats);
  cmd->get_option("--no-headers")
      ->description("Accepted as by the other commands; ingest's lines have no header");
  // The init state: not read, not fetched.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->callback([o, cluster, outcome] {
    *outcome = PrepareCommandInput(*cluster, &o->files, "ingest");
    if (!outcome->ok()) return;
    o->progress = ProgressWanted(o->quiet);
    *outcome = RunIngest(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
