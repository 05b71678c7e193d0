// Damage to a record log (engine/FORMAT.md, "Rules": torn tail, damaged chunk,
// order): every bit flipped, every cut, every chunk deleted, duplicated or
// swapped is reported by the full check (FileEventLog::Check, what `replay
// --verify --log` prints), and an append after damage keeps every byte
// that was there: only a torn append is ever cut off.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/file_event_log.h"
#include "engine/internal/log_format.h"
#include "engine/lifecycle.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "testing/synthetic_package.h"

namespace zs::engine {
namespace {

namespace fs = std::filesystem;

// The records of `deploys` deploys of a package of two components.
std::vector<Record> Deploys(const std::string& name, int deploys) {
  auto mem = NewMemoryEventLog();
  auto t = std::make_shared<std::int64_t>(1767225600LL * 1000000000LL);
  Clock clock = [t] {
    *t += 1000000000LL;
    return Timestamp::FromUnixNanos(*t);
  };
  Lifecycle lc = std::move(Lifecycle::Open(mem.get(), name, {}, clock)).value();
  DeployRequest req;
  req.package = bench::MakeDefinition({.name = name, .components = 2, .seed = 3});
  req.package_digest = "sha256:abc";
  req.config = json::Value::MakeObject();
  for (int d = 0; d < deploys; ++d) {
    EXPECT_TRUE(lc.BeginDeploy(req).ok());
    for (const char* c : {"component-0", "component-1"}) {
      EXPECT_TRUE(lc.ComponentStarted(c).ok());
      EXPECT_TRUE(lc.ComponentSucceeded(c, {}).ok());
    }
    EXPECT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  }
  return std::move(mem->Read(name)).value();
}

class FileEventLogDamageTest : public ::testing::Test {
 protected:
  // Two packages appended in turns, a checkpoint among them: the chunk
  // boundaries go to ends_.
  void SetUp() override {
    dir_ = testing::FreshTestDir("log-damage");
    FileEventLogOptions o;
    o.checkpoint_every = 10;
    auto log = Log(o);
    const std::vector<Record> p = Deploys("p", 3), q = Deploys("q", 2);
    const std::size_t per_p = p.size() / 3, per_q = q.size() / 2;
    ends_.push_back(internal::kLogHeaderSize);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(log->AppendBatch("p", {p.begin() + i * per_p, p.begin() + (i + 1) * per_p}).ok());
      ends_.push_back(fs::file_size(Path()));
      if (i < 2) {
        ASSERT_TRUE(log->AppendBatch("q", {q.begin() + i * per_q, q.begin() + (i + 1) * per_q}).ok());
        ends_.push_back(fs::file_size(Path()));
      }
    }
    good_ = testing::ReadFile(Path());
    z_ = Deploys("z", 1)[0];
    auto check = log->Check();
    ASSERT_TRUE(check.ok()) << check.status().message();
    ASSERT_TRUE(check->ok());
    ASSERT_EQ(check->chunks, ends_.size() - 1);
    ASSERT_GT(check->checkpoints, 0u);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Path() const { return dir_ / ("log-" + std::to_string(version_)); }
  std::unique_ptr<FileEventLog> Log(FileEventLogOptions o = {}) {
    return std::move(FileEventLog::Open(Path().string(), o)).value();
  }
  // Each case a file of its own: truncating a file in place makes ext4 flush it
  // on close, which would make the test wait on the disk.
  void Put(const std::string& bytes) {
    fs::remove(Path());
    ++version_;
    std::ofstream(Path(), std::ios::binary) << bytes;
  }
  std::string Chunk(std::size_t k) const { return good_.substr(ends_[k], ends_[k + 1] - ends_[k]); }
  std::size_t Chunks() const { return ends_.size() - 1; }

  // "" when the check of `bytes` reports a problem (an error, damage or a
  // finding; a torn tail when `torn_counts`), else what it said. Damage
  // that is not a cut never reads as a torn append (which the next append
  // would remove).
  std::string Silent(const std::string& bytes, bool torn_counts = false) {
    Put(bytes);
    auto check = Log()->Check();
    if (!check.ok()) return "";
    if (!torn_counts && check->torn_bytes > 0) return "read as a torn append";
    if (!check->ok()) return "";
    if (torn_counts && check->torn_bytes > 0) return "";
    return "a clean check: " + std::to_string(check->chunks) + " chunks, " + std::to_string(check->records) +
           " records";
  }

  // An append after `bytes` (already in the file) keeps all of them.
  void ExpectAnAppendKeeps(const std::string& bytes, const std::string& what) {
    auto r = Log()->Append("z", z_);
    const std::string after = testing::ReadFile(Path());
    if (!r.ok()) {
      EXPECT_EQ(after, bytes) << what << ": a failed append changed the file";
      return;
    }
    EXPECT_GT(after.size(), bytes.size()) << what;
    EXPECT_EQ(after.substr(0, bytes.size()), bytes) << what << ": an append removed bytes";
  }

  fs::path dir_;
  int version_ = 0;
  std::vector<std::uint64_t> ends_;  // the header's end, then each chunk's
  std::string good_;
  Record z_;  // what an append after damage appends
};

// Every byte, one bit flipped; an append after it, for the header and a
// sample of the last chunk (only at the end could damage be taken for a
// torn append and cut off).
TEST_F(FileEventLogDamageTest, EveryFlippedBitIsReportedAndKept) {
  for (std::size_t i = 0; i < good_.size(); ++i) {
    std::string bad = good_;
    bad[i] = static_cast<char>(bad[i] ^ (1 << (i * 5 % 8)));
    const std::string what = "bit " + std::to_string(i * 5 % 8) + " of byte " + std::to_string(i);
    EXPECT_EQ(Silent(bad), "") << what;
    if (i < internal::kLogHeaderSize || (i >= ends_[Chunks() - 1] && i % 7 == 0)) ExpectAnAppendKeeps(bad, what);
    if (HasFailure()) return;
  }
}

// A cut inside a chunk reads as an append that never completed: reported,
// and the next append removes only the cut chunk's remains.
TEST_F(FileEventLogDamageTest, EveryCutInsideAChunkIsReported) {
  for (std::size_t k = 0; k < Chunks(); ++k) {
    for (std::uint64_t at = ends_[k] + 1; at < ends_[k + 1]; ++at) {
      EXPECT_EQ(Silent(good_.substr(0, at), /*torn_counts=*/true), "") << "cut at byte " << at;
      if (at % 16 != 0) continue;
      ASSERT_TRUE(Log()->Append("z", z_).ok());
      EXPECT_EQ(testing::ReadFile(Path()).substr(0, ends_[k]), good_.substr(0, ends_[k]));
      if (HasFailure()) return;
    }
  }
}

TEST_F(FileEventLogDamageTest, EveryChunkDeletedDuplicatedOrSwappedIsReported) {
  for (std::size_t k = 0; k < Chunks(); ++k) {
    const std::string before = good_.substr(0, ends_[k]);
    const std::string after = good_.substr(ends_[k + 1]);
    std::vector<std::pair<std::string, std::string>> cases;
    // The last chunk deleted whole is an append that never happened.
    if (k + 1 < Chunks()) cases.push_back({"chunk " + std::to_string(k) + " deleted", before + after});
    cases.push_back({"chunk " + std::to_string(k) + " twice", before + Chunk(k) + Chunk(k) + after});
    cases.push_back({"chunk " + std::to_string(k) + " again at the end", good_ + Chunk(k)});
    if (k + 1 < Chunks()) {
      cases.push_back({"chunks " + std::to_string(k) + " and " + std::to_string(k + 1) + " swapped",
                       before + Chunk(k + 1) + Chunk(k) + good_.substr(ends_[k + 2])});
    }
    for (const auto& [what, bytes] : cases) {
      EXPECT_EQ(Silent(bytes), "") << what;
      ExpectAnAppendKeeps(bytes, what);
    }
    if (HasFailure()) return;
  }
}

// Reading reports what the check does: the warnings of `replay`.
TEST_F(FileEventLogDamageTest, AFullReadReportsADeletedChunk) {
  Put(good_.substr(0, ends_[2]) + good_.substr(ends_[3]));  // p's second chunk
  auto log = Log();
  auto read = log->Read("p");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_FALSE(log->findings().empty());
  EXPECT_EQ(log->findings()[0].offset, ends_[2]);
}

}  // namespace
}  // namespace zs::engine
