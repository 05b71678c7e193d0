#include "engine/file_event_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "engine/internal/log_format.h"
#include "engine/lifecycle.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "testing/synthetic_package.h"

namespace zs::engine {
namespace {

namespace fs = std::filesystem;

Clock FakeClock() {
  auto t = std::make_shared<std::int64_t>(1767225600LL * 1000000000LL);
  return [t] {
    *t += 1000000000LL;
    return Timestamp::FromUnixNanos(*t);
  };
}

// A definition of `n` components, each with a chart and an image pinned by
// digest: digests do not compress, so the definition weighs on disk as it
// would.
json::Value Definition(int n) {
  return bench::MakeDefinition(
      {.components = n, .charts_per_component = 1, .images_per_component = 1, .pin_digests = true, .seed = 7});
}

// The records of `deploys` unchanged deploys of a package of `n`
// components, then a remove of one component.
std::vector<Record> History(int deploys, int n = 4) {
  auto mem = NewMemoryEventLog();
  Lifecycle lc = std::move(Lifecycle::Open(mem.get(), "demo", {}, FakeClock())).value();
  DeployRequest req;
  req.package = Definition(n);
  req.package_digest = "sha256:abc";
  req.cli_version = "v0.84.0";
  req.config = json::Value::MakeObject();
  for (int d = 0; d < deploys; ++d) {
    EXPECT_TRUE(lc.BeginDeploy(req).ok());
    for (int i = 0; i < n; ++i) {
      const std::string c = "component-" + std::to_string(i);
      EXPECT_TRUE(lc.ComponentStarted(c).ok());
      EXPECT_TRUE(lc.ComponentSucceeded(c, {}).ok());
    }
    EXPECT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  }
  return std::move(mem->Read("demo")).value();
}

FileEventLogOptions Options(std::uint64_t every, std::size_t max_events = 10, bool read_only = false) {
  FileEventLogOptions o;
  o.checkpoint_every = every;
  o.fold.max_events = max_events;
  o.read_only = read_only;
  return o;
}

std::vector<std::string> Ids(const std::vector<Record>& records) {
  std::vector<std::string> out;
  for (const Record& r : records) out.push_back(RecordId(r));
  return out;
}

// The kDefinitionAt entries of the chunk that ends at `end`: digest -> offset.
std::map<std::string, std::uint64_t> DefinitionsAt(const std::string& file, std::uint64_t end) {
  std::map<std::string, std::uint64_t> out;
  auto c = internal::ParseChunkEndingAt(file, end);
  if (!c) return out;
  std::string raw = std::move(internal::Decompress(*c)).value();
  std::string_view rest(raw), body, digest;
  internal::EntryTag tag{};
  bool malformed = false;
  std::uint64_t offset = 0;
  while (internal::NextEntry(&rest, &tag, &body, &malformed)) {
    if (tag == internal::EntryTag::kDefinitionAt && internal::ParseDefinitionAt(body, &digest, &offset)) {
      out.emplace(std::string(digest), offset);
    }
  }
  return out;
}

class FileEventLogTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTestDir("file-log"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::unique_ptr<FileEventLog> Log(FileEventLogOptions o = {}) {
    return std::move(FileEventLog::Open((dir_ / "log").string(), o)).value();
  }
  std::string Bytes() { return testing::ReadFile(dir_ / "log"); }
  void Put(const std::string& bytes) { std::ofstream(dir_ / "log", std::ios::binary) << bytes; }
  fs::path dir_;
};

TEST_F(FileEventLogTest, RecordsReadBackAsAppendedInBatchesOrOneByOne) {
  const std::vector<Record> h = History(2);
  auto log = Log();
  auto first = log->AppendBatch("demo", {h.begin(), h.begin() + 5});
  ASSERT_TRUE(first.ok()) << first.status().message();
  for (std::size_t i = 5; i < h.size(); ++i) ASSERT_TRUE(log->Append("demo", h[i]).ok());
  ASSERT_TRUE(log->Append("other", h[0]).ok());
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(h));
  EXPECT_EQ(*log->Size("demo"), h.size());
  EXPECT_EQ(*log->Packages(), (std::vector<std::string>{"demo", "other"}));
  EXPECT_EQ(Ids(*log->Read("demo", 3, 2)), Ids({h[2], h[3]}));
  EXPECT_EQ(Bytes().substr(0, 8), "ZSEVLOG\n");
}

TEST_F(FileEventLogTest, ANewLogIsPrivateAndLeavesNoTempFileBehind) {
  auto log = Log();
  ASSERT_TRUE(log->Append("demo", History(1)[0]).ok());
  EXPECT_EQ(fs::status(dir_ / "log").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(FileEventLogTest, AppendingARecordAgainChangesNothing) {
  const std::vector<Record> h = History(1);
  auto log = Log();
  ASSERT_TRUE(log->AppendBatch("demo", h).ok());
  const std::string before = Bytes();
  auto again = log->AppendBatch("demo", h);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->length, 0u);
  EXPECT_FALSE(again->results[2].appended);
  EXPECT_EQ(again->results[2].sequence, 3u);
  EXPECT_EQ(Bytes(), before);
}

TEST_F(FileEventLogTest, AnUnchangedDefinitionIsStoredOnce) {
  const std::vector<Record> h = History(3, 40);
  std::string def;
  ASSERT_TRUE(json::AppendJson(&def, h[0].facts->data).ok());
  const std::size_t per_deploy = h.size() / 3;
  auto log = Log();
  std::vector<std::uint64_t> sizes;
  for (int d = 0; d < 3; ++d) {
    ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + d * per_deploy, h.begin() + (d + 1) * per_deploy}).ok());
    sizes.push_back(fs::file_size(dir_ / "log"));
  }
  // The first deploy stores the definition; a redeploy only refers to it.
  EXPECT_GT(sizes[0], sizes[2] - sizes[1]);
  EXPECT_LT(sizes[2] - sizes[1], def.size() / 4);
  auto back = log->Read("demo");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ((*back)[2 * per_deploy].facts->data, h[0].facts->data);
}

TEST_F(FileEventLogTest, OpeningFoldsFromTheLastCheckpointToTheSameSnapshot) {
  const std::vector<Record> h = History(6);  // 10 records per deploy
  auto log = Log(Options(15));
  for (std::size_t i = 0; i < h.size(); i += 10) {
    ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + i, h.begin() + i + 10}).ok());
  }
  auto tail = log->ReadTail("demo");
  ASSERT_TRUE(tail.ok()) << tail.status().message();
  ASSERT_TRUE(tail->checkpoint.has_value());
  EXPECT_EQ(tail->checkpoint_sequence, 40u);
  EXPECT_EQ(tail->records.size(), 20u);
  std::vector<Record> view{*tail->checkpoint};
  view.insert(view.end(), tail->records.begin(), tail->records.end());
  EXPECT_EQ(EncodeDeployedPackage(*Fold(view)), EncodeDeployedPackage(*Fold(h)));
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(h));  // the full history still reads
  std::size_t checkpoints = 0;
  ASSERT_TRUE(log->Scan([&](const LogEntry& e) {
                   if (!e.checkpoint) return Status::OK();
                   ++checkpoints;
                   auto folded = FoldPrefix(h, e.sequence);
                   EXPECT_EQ(EncodeDeployedPackage(*e.record->base), EncodeDeployedPackage(*folded));
                   return Status::OK();
                 }).ok());
  EXPECT_EQ(checkpoints, 2u);
  // With another event cap the checkpoints do not apply: fold from the start.
  auto uncapped = Log(Options(15, 0))->ReadTail("demo");
  EXPECT_FALSE(uncapped->checkpoint.has_value());
  EXPECT_EQ(uncapped->records.size(), h.size());
}

TEST_F(FileEventLogTest, ACheckpointOnDemandIsRefusedWhileAnOperationIsOpen) {
  const std::vector<Record> h = History(1);
  auto log = Log();
  ASSERT_TRUE(log->AppendBatch("demo", {h.begin(), h.begin() + 2}).ok());
  EXPECT_EQ(log->Checkpoint("demo").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(log->Checkpoint("nothing").code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(log->AppendBatch("demo", h).ok());
  ASSERT_TRUE(log->Checkpoint("demo").ok());
  EXPECT_EQ(log->ReadTail("demo")->checkpoint_sequence, h.size());
  EXPECT_TRUE(log->ReadTail("demo")->records.empty());
}

TEST_F(FileEventLogTest, ATornLastChunkIsNotReadAndTheNextAppendCutsIt) {
  const std::vector<Record> h = History(2);
  auto log = Log();
  ASSERT_TRUE(log->AppendBatch("demo", {h.begin(), h.begin() + 10}).ok());
  const std::uint64_t whole = fs::file_size(dir_ / "log");
  ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + 10, h.end()}).ok());
  fs::resize_file(dir_ / "log", fs::file_size(dir_ / "log") - 7);
  EXPECT_EQ(log->Read("demo")->size(), 10u);
  EXPECT_TRUE(log->skipped().empty());
  EXPECT_EQ(*log->Size("demo"), 10u);
  auto again = log->AppendBatch("demo", {h.begin() + 10, h.end()});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->offset, whole);
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(h));
}

TEST_F(FileEventLogTest, ADamagedMiddleChunkIsSkippedAndReported) {
  const std::vector<Record> h = History(3);
  auto log = Log();
  std::vector<std::uint64_t> ends;
  for (std::size_t i = 0; i < h.size(); i += 10) {
    ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + i, h.begin() + i + 10}).ok());
    ends.push_back(fs::file_size(dir_ / "log"));
  }
  std::string b = Bytes();
  b[ends[0] + 50] ^= 0x20;  // inside the second chunk's payload
  Put(b);
  auto back = log->Read("demo");
  ASSERT_TRUE(back.ok()) << back.status().message();
  std::vector<Record> want(h.begin(), h.begin() + 10);
  want.insert(want.end(), h.begin() + 20, h.end());
  EXPECT_EQ(Ids(*back), Ids(want));
  ASSERT_EQ(log->skipped().size(), 1u);
  EXPECT_EQ(log->skipped()[0].offset, ends[0]);
  EXPECT_EQ(log->skipped()[0].bytes, ends[1] - ends[0]);
  EXPECT_EQ(log->skipped()[0].reason,
            (dir_ / "log").string() + ": chunk at byte " + std::to_string(ends[0]) +
                ": checksum does not match");
  // A damaged length: found again from the next chunk's magic.
  b = Bytes();
  b[ends[0] + 12] = '\x7f';
  Put(b);
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(want));
  ASSERT_EQ(log->skipped().size(), 1u);
  EXPECT_EQ(log->skipped()[0].reason, "bytes that are not a chunk");
}

TEST_F(FileEventLogTest, ALogOfANewerFormatIsRefused) {
  std::string b = internal::FileHeader();
  b[8] = 9;
  Put(b);
  EXPECT_EQ(Log()->Read("demo").status().code(), Status::Code::kNotSupported);
  EXPECT_EQ(Log()->Append("demo", History(1)[0]).status().code(), Status::Code::kNotSupported);
}

TEST_F(FileEventLogTest, AReadOnlyLogRefusesAppendsAndCreatesNothing) {
  auto log = Log(Options(1000, 10, true));
  EXPECT_EQ(log->Append("demo", History(1)[0]).status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(fs::exists(dir_ / "log"));
  EXPECT_TRUE(log->Read("demo")->empty());
}

// A pending append holds the lock: another writer waits, and taking the
// append back cuts exactly its chunk, never the other writer's.
TEST_F(FileEventLogTest, AnAppendTakenBackNeverTouchesAnotherWritersChunk) {
  const std::vector<Record> h = History(2);
  auto log = Log();
  ASSERT_TRUE(log->AppendBatch("demo", {h.begin(), h.begin() + 10}).ok());
  auto mine = log->BeginAppend("demo", {h.begin() + 10, h.end()});
  ASSERT_TRUE(mine.ok()) << mine.status().message();
  const AppendedChunk where = (*mine)->chunk();
  std::atomic<bool> other_done{false};
  Result<AppendedChunk> other = Status::IOError("not run");
  std::thread writer([&] {
    auto second = Log();
    other = second->AppendBatch("other", {h[0]});
    other_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(other_done.load());  // waits for the lock
  ASSERT_TRUE((*mine)->TakeBack().ok());
  writer.join();
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_EQ(other->offset, where.offset);  // appended where the taken-back chunk was
  EXPECT_EQ(Ids(*log->Read("demo")), Ids({h.begin(), h.begin() + 10}));
  EXPECT_EQ(log->Read("other")->size(), 1u);
  EXPECT_TRUE(log->skipped().empty());
  EXPECT_TRUE(log->findings().empty());
}

TEST_F(FileEventLogTest, APendingAppendDestroyedWithoutCommitIsTakenBack) {
  const std::vector<Record> h = History(1);
  auto log = Log();
  ASSERT_TRUE(log->AppendBatch("demo", {h.begin(), h.begin() + 3}).ok());
  const std::string before = Bytes();
  ASSERT_TRUE(log->BeginAppend("demo", {h.begin() + 3, h.end()}).ok());
  EXPECT_EQ(Bytes(), before);
  auto kept = log->BeginAppend("demo", {h.begin() + 3, h.end()});
  ASSERT_TRUE(kept.ok());
  (*kept)->Commit();
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(h));
}

// The first append creates the log locked: taking it back leaves an empty
// log, whatever writer comes next.
TEST_F(FileEventLogTest, TheAppendThatCreatesTheLogCanBeTakenBack) {
  const std::vector<Record> h = History(1);
  auto log = Log();
  auto first = log->BeginAppend("demo", h);
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE((*first)->TakeBack().ok());
  EXPECT_EQ(Bytes(), internal::FileHeader());
  EXPECT_TRUE(log->Read("demo")->empty());
  ASSERT_TRUE(log->AppendBatch("demo", h).ok());
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(h));
}

// A chunk that refers to a definition another chunk stores says where.
TEST_F(FileEventLogTest, AChunkSaysWhereTheDefinitionItRefersToIs) {
  const std::vector<Record> h = History(3);
  auto log = Log(Options(15));
  std::vector<std::uint64_t> ends;
  for (std::size_t i = 0; i < h.size(); i += 10) {
    ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + i, h.begin() + i + 10}).ok());
    ends.push_back(fs::file_size(dir_ / "log"));
  }
  const std::string b = Bytes();
  const auto first = internal::ParseChunkEndingAt(b, ends[0]);
  ASSERT_TRUE(first.has_value());
  ASSERT_EQ(first->digests.size(), internal::kDigestSize);
  EXPECT_TRUE(DefinitionsAt(b, ends[0]).empty());  // it stores the definition
  const std::map<std::string, std::uint64_t> want{{std::string(first->digests), internal::kLogHeaderSize}};
  EXPECT_EQ(DefinitionsAt(b, ends[1]), want);
  EXPECT_EQ(DefinitionsAt(b, ends[2]), want);  // the checkpoint's chunk
}

// Opening a package walks back to its last checkpoint and no further: a
// broken length before it is not seen (the full history still reports it).
TEST_F(FileEventLogTest, OpeningAPackageReadsOnlyBackToItsLastCheckpoint) {
  const std::vector<Record> h = History(7);
  auto log = Log(Options(15));
  std::vector<std::uint64_t> ends;
  for (std::size_t i = 0; i < 60; i += 10) {
    ASSERT_TRUE(log->AppendBatch("demo", {h.begin() + i, h.begin() + i + 10}).ok());
    ends.push_back(fs::file_size(dir_ / "log"));
  }
  std::string b = Bytes();
  b[ends[0] + 12] = '\x7f';  // the second chunk's payload length
  Put(b);
  auto tail = log->ReadTail("demo");
  ASSERT_TRUE(tail.ok()) << tail.status().message();
  EXPECT_TRUE(log->skipped().empty());
  EXPECT_EQ(tail->checkpoint_sequence, 40u);
  std::vector<Record> view{*tail->checkpoint};
  view.insert(view.end(), tail->records.begin(), tail->records.end());
  EXPECT_EQ(EncodeDeployedPackage(*Fold(view)), EncodeDeployedPackage(*Fold({h.begin(), h.begin() + 60})));
  EXPECT_EQ(*log->Size("demo"), 60u);
  auto next = log->AppendBatch("demo", {h.begin() + 60, h.end()});
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(next->offset, ends.back());
  EXPECT_TRUE(log->skipped().empty());
  EXPECT_EQ(log->Read("demo")->size(), h.size() - 10);
  ASSERT_EQ(log->skipped().size(), 1u);
  EXPECT_EQ(log->skipped()[0].offset, ends[0]);
}

// Earlier releases took an append back by moving the chunks after it up:
// where a chunk said a definition was is then wrong, is found wrong, and
// the definition is searched for.
TEST_F(FileEventLogTest, AMovedDefinitionIsFoundWhereItIsNow) {
  const std::vector<Record> p = History(1, 2);
  const std::vector<Record> q = History(2, 3);
  auto log = Log(Options(5));
  auto mine = log->AppendBatch("p", p);
  ASSERT_TRUE(mine.ok());
  const std::size_t half = q.size() / 2;
  ASSERT_TRUE(log->AppendBatch("q", {q.begin(), q.begin() + half}).ok());
  ASSERT_TRUE(log->AppendBatch("q", {q.begin() + half, q.end()}).ok());
  const auto said = DefinitionsAt(Bytes(), fs::file_size(dir_ / "log"));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said.begin()->second, mine->offset + mine->length);
  // Earlier releases took an append back by moving the chunks after it up.
  std::string b = Bytes();
  b.erase(mine->offset, mine->length);
  Put(b);
  auto tail = log->ReadTail("q");
  ASSERT_TRUE(tail.ok()) << tail.status().message();
  ASSERT_TRUE(tail->checkpoint.has_value());
  EXPECT_EQ(tail->checkpoint->base->data, q[0].facts->data);
  EXPECT_EQ(Ids(*log->Read("q")), Ids(q));
}

// A log written before chunks said where definitions are (checked in: three
// redeploys of a 120-component package) reads, and appends to it refer to
// its definition instead of storing it again.
TEST_F(FileEventLogTest, ALogWithoutDefinitionLocationsReadsAndIsAppendedTo) {
  const std::string old = testing::ReadFile(testing::DataDir() / "logs" / "demo-v1-before-definition-at.log");
  Put(old);
  auto log = Log();
  auto all = log->Read("demo");
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 3u * 242u);
  auto tail = log->ReadTail("demo");
  ASSERT_TRUE(tail.ok()) << tail.status().message();
  ASSERT_TRUE(tail->checkpoint.has_value());
  std::vector<Record> view{*tail->checkpoint};
  view.insert(view.end(), tail->records.begin(), tail->records.end());
  EXPECT_EQ(EncodeDeployedPackage(*Fold(view)), EncodeDeployedPackage(*Fold(*all)));
  ASSERT_TRUE(log->Checkpoint("demo").ok());
  const std::string now = Bytes();
  std::string def;
  ASSERT_TRUE(json::AppendJson(&def, all->front().facts->data).ok());
  EXPECT_LT(now.size() - old.size(), def.size() / 4);
  const auto said = DefinitionsAt(now, now.size());
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said.begin()->second, internal::kLogHeaderSize);
  EXPECT_EQ(Ids(*log->Read("demo")), Ids(*all));
}

// A log the previous release wrote (JSON Lines), with the Secret it kept.
TEST_F(FileEventLogTest, ALogOfThePreviousReleaseReadsAndIsConvertedOnAppend) {
  const std::string old = testing::ReadFile(testing::DataDir() / "logs" / "podinfo-v0.log.jsonl");
  Put(old);
  auto log = Log();
  EXPECT_EQ(*log->Packages(), std::vector<std::string>{"podinfo"});
  auto records = log->Read("podinfo");
  ASSERT_TRUE(records.ok()) << records.status().message();
  ASSERT_EQ(records->size(), 22u);
  auto secret = json::ParseJson(testing::ReadFile(testing::DataDir() / "logs" / "podinfo-v0.secret.json"));
  ASSERT_TRUE(secret.ok());
  auto stored = DecodePackage(*secret);
  ASSERT_TRUE(stored.ok());
  auto folded = Fold(*records);
  ASSERT_TRUE(folded.ok());
  EXPECT_TRUE(CompareSnapshots(*stored, *folded).empty());
  // The first append converts it: the same records, then the new one.
  Record next = records->back();
  next.event.timestamp = Timestamp::FromUnixNanos(next.event.timestamp.unix_nanos() + 1);
  ASSERT_TRUE(log->Append("podinfo", next).ok());
  EXPECT_EQ(Bytes().substr(0, 8), "ZSEVLOG\n");
  auto after = log->Read("podinfo");
  ASSERT_TRUE(after.ok());
  records->push_back(next);
  EXPECT_EQ(Ids(*after), Ids(*records));
  EXPECT_LT(Bytes().size(), old.size());
}

}  // namespace
}  // namespace zs::engine
