// io/state_file.h: output files replace their path whole or not at all,
// through an unnamed file where the filesystem has O_TMPFILE and through a
// named temp file where it has not (both ways are run).
#include "io/state_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

class StateFileTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    UseNamedTempFilesForTesting(GetParam());
    dir_ = fs::path(::testing::TempDir()) /
           ("state-file-" + std::to_string(::getpid()) + "-" + std::to_string(GetParam()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    UseNamedTempFilesForTesting(false);
    fs::remove_all(dir_);
  }

  std::string Read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::vector<std::string> Names() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_P(StateFileTest, ACommittedOutputReplacesTheFileWholeWithMode0600) {
  const fs::path out = dir_ / "out.json";
  std::ofstream(out) << "old";
  ::chmod(out.c_str(), 0644);
  auto file = OutputFile::Create(out.string());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Append("new ").ok());
  EXPECT_EQ(Read(out), "old");  // untouched until Commit
  // Unnamed until Commit where O_TMPFILE works (here it does); else a temp.
  EXPECT_EQ(Names().size(), GetParam() ? 2u : 1u);
  ASSERT_TRUE((*file)->Append("text").ok());
  ASSERT_TRUE((*file)->Commit().ok());
  EXPECT_EQ(Read(out), "new text");
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(Names(), std::vector<std::string>{"out.json"});  // no temp file left
}

TEST_P(StateFileTest, AnOutputDroppedBeforeCommitLeavesNothing) {
  const fs::path out = dir_ / "out.json";
  std::ofstream(out) << "old";
  {
    auto file = OutputFile::Create(out.string());
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("half").ok());
  }
  EXPECT_EQ(Read(out), "old");
  EXPECT_EQ(Names(), std::vector<std::string>{"out.json"});
  {
    auto file = OutputFile::Create((dir_ / "new.json").string());
    ASSERT_TRUE(file.ok());
  }
  EXPECT_EQ(Names(), std::vector<std::string>{"out.json"});
}

TEST_P(StateFileTest, WriteOutputFileCreatesAndReplaces) {
  const fs::path out = dir_ / "a";
  ASSERT_TRUE(WriteOutputFile(out.string(), "one").ok());
  EXPECT_EQ(Read(out), "one");
  ASSERT_TRUE(WriteOutputFile(out.string(), "two").ok());
  EXPECT_EQ(Read(out), "two");
  EXPECT_EQ(Names(), std::vector<std::string>{"a"});
}

TEST_P(StateFileTest, AMissingDirectoryIsAnErrorNamingThePath) {
  const std::string out = (dir_ / "no" / "such" / "out.json").string();
  auto file = OutputFile::Create(out);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().ToString().find(out), std::string::npos) << file.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(Ways, StateFileTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "NamedTemp" : "Unnamed"; });

}  // namespace
}  // namespace zs::tools
