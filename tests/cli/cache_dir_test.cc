// Cache directories: ingest/query/verify refuse a folder or a RocksDB that
// is not a zarf-state cache before changing anything, and a full disk
// during ingest (simulated by a file size limit) is an error, not an abort.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

using Ran = RunResult;

// Runs the binary, stdout to /dev/null; `file_size_limit` (bytes, 0 none)
// makes writes past it fail, as on a full disk.
Ran RunZs(const std::vector<std::string>& args, const fs::path& dir, rlim_t file_size_limit = 0) {
  ChildSetup child;
  child.file_size_limit = file_size_limit;
  return RunLimited(ZS_BINARY_PATH, args, child, dir);
}

mode_t ModeOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

class CacheDirTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("zs-cachedir"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  const std::string list_ = (DataDir() / "samples/multi-era.list.json").string();
};

TEST_F(CacheDirTest, AFolderOfOtherFilesIsRefusedAndLeftAsItWas) {
  const fs::path folder = dir_ / "scripts";
  fs::create_directories(folder);
  ::chmod(folder.c_str(), 0755);
  std::ofstream(folder / "run.sh") << "#!/bin/sh\necho hi\n";
  ::chmod((folder / "run.sh").c_str(), 0755);
  const Ran r = RunZs({"ingest", "--db", folder.string(), "-f", list_}, dir_);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("not a zarf-state cache (the directory holds other files, such as 'run.sh')"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ModeOf(folder), 0755u);
  EXPECT_EQ(ModeOf(folder / "run.sh"), 0755u);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"run.sh"});
  for (const char* cmd : {"query", "verify"}) {
    std::vector<std::string> args = {cmd, "--db", folder.string()};
    if (std::string(cmd) == "query") args.push_back("status");
    const Ran q = RunZs(args, dir_);
    EXPECT_EQ(q.signal, 0) << cmd;
    EXPECT_EQ(q.exit_code, 1) << cmd << q.err;
  }
}

TEST_F(CacheDirTest, ANewDirectoryIs0700AndAnExistingEmptyOneKeepsItsMode) {
  ASSERT_EQ(RunZs({"ingest", "--db", P("new"), "-f", list_}, dir_).exit_code, 0);
  EXPECT_EQ(ModeOf(P("new")), 0700u);
  for (const auto& e : fs::directory_iterator(P("new"))) EXPECT_EQ(ModeOf(e.path()), 0600u) << e.path();
  fs::create_directories(P("empty"));
  ::chmod(P("empty").c_str(), 0750);
  const Ran r = RunZs({"ingest", "--db", P("empty"), "-f", list_}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ModeOf(P("empty")), 0750u);
  for (const auto& e : fs::directory_iterator(P("empty"))) EXPECT_EQ(ModeOf(e.path()), 0600u) << e.path();
  // And it is a cache now: a second ingest and the queries accept it.
  EXPECT_EQ(RunZs({"ingest", "--db", P("empty"), "-f", list_}, dir_).exit_code, 0);
  EXPECT_EQ(RunZs({"verify", "--db", P("empty")}, dir_).exit_code, 0);
}

// A kill while the first ingest creates the cache leaves our mark and maybe
// RocksDB's first files but no database: the next ingest completes it, as
// it would a cache of its own.
TEST_F(CacheDirTest, ACreationCutShortIsCompletedByTheNextIngest) {
  const fs::path db = dir_ / "db";
  fs::create_directories(db);
  std::ofstream(db / "ZARF-STATE-CACHE").flush();
  std::ofstream(db / "LOG") << "cut short\n";
  const Ran r = RunZs({"ingest", "--db", db.string(), "-f", list_}, dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunZs({"verify", "--db", db.string()}, dir_).exit_code, 0);
  // Without our mark the same leftovers are someone else's.
  const fs::path other = dir_ / "other";
  fs::create_directories(other);
  std::ofstream(other / "LOG") << "not ours\n";
  EXPECT_EQ(RunZs({"ingest", "--db", other.string(), "-f", list_}, dir_).exit_code, 1);
  EXPECT_FALSE(fs::exists(other / "CURRENT"));
}

TEST_F(CacheDirTest, AnotherProgramsRocksDbIsRefusedByEveryCommand) {
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, P("foreign"), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "user-key", "user-value").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  std::vector<std::string> before;
  for (const auto& e : fs::directory_iterator(P("foreign"))) before.push_back(e.path().filename());
  std::sort(before.begin(), before.end());
  const std::vector<std::vector<std::string>> commands = {
      {"ingest", "--db", P("foreign"), "-f", list_},
      {"query", "--db", P("foreign"), "status"},
      {"verify", "--db", P("foreign")},
  };
  for (const auto& args : commands) {
    const Ran r = RunZs(args, dir_);
    EXPECT_EQ(r.signal, 0) << args[0] << r.err;
    EXPECT_EQ(r.exit_code, 1) << args[0] << r.err;
    EXPECT_NE(r.err.find("not a zarf-state cache (a RocksDB database without zarf-state's format key)"),
              std::string::npos)
        << args[0] << r.err;
  }
  std::vector<std::string> after;
  for (const auto& e : fs::directory_iterator(P("foreign"))) after.push_back(e.path().filename());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, before) << "the ingest changed the foreign database";
}

TEST_F(CacheDirTest, AnEmptyFormatValueIsCorruptionNotAnOldFormat) {
  ASSERT_EQ(RunZs({"ingest", "--db", P("db"), "-f", list_}, dir_).exit_code, 0);
  {
    rocksdb::DBOptions o;
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(o, P("db"), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const std::string& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, P("db"), families, &handles, &raw).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "zarf-state.format", "").ok());
    for (auto* h : handles) ASSERT_TRUE(raw->DestroyColumnFamilyHandle(h).ok());
    ASSERT_TRUE(raw->Close().ok());
    delete raw;
  }
  for (const char* cmd : {"verify", "ingest"}) {
    std::vector<std::string> args = {cmd, "--db", P("db")};
    if (std::string(cmd) == "ingest") args.insert(args.end(), {"-f", list_});
    const Ran r = RunZs(args, dir_);
    EXPECT_EQ(r.exit_code, 1) << cmd << r.err;
    EXPECT_NE(r.err.find("empty format version"), std::string::npos) << cmd << r.err;
  }
}

TEST_F(CacheDirTest, AFullDiskDuringIngestIsAnErrorNotAnAbort) {
  // Limits at which the WAL, a table file or RocksDB's info LOG is the
  // first file to fill up (with and without --bulk).
  int failed = 0;
  for (const bool bulk : {false, true}) {
    for (const rlim_t kib : {2, 4, 8, 16, 24}) {
      const std::string db = P("db-" + std::to_string(bulk) + "-" + std::to_string(kib));
      std::vector<std::string> args = {"ingest", "--db", db, "-f", list_};
      if (bulk) args.push_back("--bulk");
      const Ran r = RunZs(args, dir_, kib * 1024);
      const std::string what = (bulk ? "--bulk " : "") + std::to_string(kib) + " KiB: " + r.err;
      EXPECT_EQ(r.signal, 0) << what;
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << what;
      if (r.exit_code == 1) {
        EXPECT_NE(r.err.find("File too large"), std::string::npos) << what;
      }
      failed += r.exit_code == 1;
    }
  }
  EXPECT_GE(failed, 6) << "the limits no longer make the ingest fail";
}

}  // namespace
}  // namespace zs::testing
