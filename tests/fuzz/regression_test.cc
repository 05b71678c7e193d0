// Replays every input the fuzzers ever found (tests/data/fuzz-regressions/
// <target>/) through the same target body the fuzzer runs (fuzz/targets.h),
// and runs each body over the bundled fixtures, so the properties the
// fuzzers check also hold on the inputs we know.
#include "fuzz/targets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "tests/test_util.h"

namespace zs::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> FilesUnder(const fs::path& dir, std::uintmax_t max_size) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.file_size() <= max_size) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FuzzRegressionTest, EveryRegressionFolderNamesATarget) {
  std::set<std::string> names;
  for (const Target& t : AllTargets()) names.insert(std::string(t.name));
  const fs::path root = testing::DataDir() / "fuzz-regressions";
  ASSERT_TRUE(fs::is_directory(root));
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_directory()) {
      EXPECT_TRUE(names.count(e.path().filename().string())) << e.path();
    }
  }
}

TEST(FuzzRegressionTest, EveryFindingNowHoldsItsTargetsProperties) {
  int replayed = 0;
  for (const Target& t : AllTargets()) {
    int of_target = 0;
    for (const fs::path& file :
         FilesUnder(testing::DataDir() / "fuzz-regressions" / std::string(t.name), 1 << 20)) {
      EXPECT_EQ(t.run(testing::ReadFile(file)), "") << t.name << " on " << file;
      ++of_target;
    }
    // A target whose folder is missing or empty (renamed, or the data not
    // found) would otherwise pass without replaying anything.
    EXPECT_GT(of_target, 0) << "no regression input replayed for target " << t.name;
    replayed += of_target;
  }
  std::cout << replayed << " fuzz regression inputs replayed\n";
}

TEST(FuzzRegressionTest, EveryTargetHoldsOnTheBundledFixtures) {
  // Every fixture up to 64 KiB (what the fuzzers are seeded with), through
  // every target: the properties are not only for hostile input.
  const std::vector<fs::path> files = FilesUnder(testing::DataDir(), 64 << 10);
  ASSERT_GT(files.size(), 100u);
  for (const Target& t : AllTargets()) {
    for (const fs::path& file : files) {
      if (file.string().find("fuzz-regressions") != std::string::npos) continue;
      EXPECT_EQ(t.run(testing::ReadFile(file)), "") << t.name << " on " << file;
    }
  }
}

}  // namespace
}  // namespace zs::fuzz
