// Helpers shared by the tests: locating and reading the bundled test data.
#ifndef ZARF_STATE_TESTS_TEST_UTIL_H_
#define ZARF_STATE_TESTS_TEST_UTIL_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compact/gzip.h"

namespace zs::testing {

inline std::filesystem::path DataDir() { return ZS_TEST_DATA_DIR; }

// A three-component package definition (a chart, a manifest, nothing) that
// the record tests deploy; Zarf's filter selects all three without
// --components (two required, one default).
inline constexpr const char* kDemoPackageYaml =
    "kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 1.0.0\ncomponents:\n"
    "  - name: web\n    required: true\n    charts:\n      - name: podinfo\n        namespace: web\n"
    "  - name: db\n    required: true\n    manifests:\n      - name: pg\n        namespace: data\n"
    "  - name: jobs\n    default: true\n";

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string ReadData(const std::string& relative) { return ReadFile(DataDir() / relative); }

// Writes `text` to file `name` in a folder of this process's own under the
// temp directory; returns its path. ctest runs a binary's tests as separate
// processes, in parallel: with a shared path one test could rewrite a file
// while another reads it.
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("zs-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// The non-empty lines of a data file; a name ending in ".gz" is read
// through gunzip (large vector files are stored compressed).
inline std::vector<std::string> ReadLines(const std::string& relative) {
  std::string text = ReadData(relative);
  if (relative.size() > 3 && relative.compare(relative.size() - 3, 3, ".gz") == 0) {
    Result<std::string> plain = Gunzip(text);
    if (!plain.ok()) return {};
    text = std::move(*plain);
  }
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// Every file of the legacy fixtures whose name matches `suffix`, sorted.
inline std::vector<std::filesystem::path> LegacyFiles(const std::string& suffix) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(DataDir() / "legacy")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_TEST_UTIL_H_
