// A folder of its own for each test that writes files.
//
// Thread safety: call from the test's own thread (reads the running test's
// name).
#ifndef ZARF_STATE_TESTS_TEST_DIR_H_
#define ZARF_STATE_TESTS_TEST_DIR_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace zs::testing {

// A fresh, empty folder for the running test:
// <gtest temp dir>/<prefix>-<pid>-<test name>; whatever an earlier run left
// there is removed first. The caller removes it when done.
inline std::filesystem::path FreshTestDir(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (prefix + "-" + std::to_string(::getpid()) + "-" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_TEST_DIR_H_
