// io/sync_directory.h: a directory syncs; what is not a directory is an
// IOError naming the path and the reason.
#include "io/sync_directory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_dir.h"

namespace zs::tools {
namespace {

TEST(SyncDirectoryTest, SyncsADirectory) {
  const std::filesystem::path dir = zs::testing::FreshTestDir("sync-dir");
  const Status s = SyncDirectory(dir.string());
  EXPECT_TRUE(s.ok()) << s.message();
  std::filesystem::remove_all(dir);
}

TEST(SyncDirectoryTest, RefusesAFileAndAMissingPathNamingThem) {
  const std::filesystem::path dir = zs::testing::FreshTestDir("sync-dir");
  const std::string file = (dir / "plain").string();
  std::ofstream(file) << "x";
  const Status on_file = SyncDirectory(file);
  EXPECT_EQ(on_file.code(), Status::Code::kIOError);
  EXPECT_NE(on_file.message().find(file), std::string::npos) << on_file.message();
  EXPECT_NE(on_file.message().find("Not a directory"), std::string::npos) << on_file.message();
  const std::string missing = (dir / "missing").string();
  const Status on_missing = SyncDirectory(missing);
  EXPECT_EQ(on_missing.code(), Status::Code::kIOError);
  EXPECT_NE(on_missing.message().find(missing), std::string::npos) << on_missing.message();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zs::tools
