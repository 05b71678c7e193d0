// Every `console` example in README.md and docs/*.md is run, and what it
// prints is compared with what the page shows, so that no example in the
// documentation drifts from the program.
//
// A block of an example:
//
//   ```console
//   $ zarf-state size -f tests/data/legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json
//   PACKAGE   JSON ...
//   ...
//   ```
//
// - each line starting with "$ " is a command (a trailing "\" continues it on
//   the next line); the lines after it, up to the next command, are what it
//   prints on stdout and stderr together, as a terminal shows them;
// - a line "..." stands for any number of lines, and "..." inside a line for
//   any text within it; trailing blanks do not count;
// - the commands of a block run one after another in one fresh folder that
//   holds the sample files (tests/data/samples/*) and a `tests` link to the
//   repository's tests/, with `zarf-state` on PATH and HOME in the folder;
// - an HTML comment `<!-- doc-test setup: COMMAND -->` on the line before the
//   block runs COMMAND first, unseen (to create a file the page assumes);
// - examples that need what a test cannot have (a cluster) are `sh` blocks,
//   which are not run.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

struct Command {
  std::string text;
  std::vector<std::string> expected;
};

struct Example {
  std::string page;  // relative to the repository
  int line = 0;      // of the opening fence
  std::vector<std::string> setup;
  std::vector<Command> commands;
};

fs::path SourceDir() { return fs::path(ZS_TEST_DATA_DIR).parent_path().parent_path(); }

std::string RightTrimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<Example> ExamplesOf(const fs::path& page, const std::string& name) {
  std::vector<Example> out;
  std::ifstream in(page);
  std::string line, previous;
  int number = 0;
  Example* open = nullptr;
  while (std::getline(in, line)) {
    ++number;
    if (open == nullptr) {
      if (line == "```console") {
        out.push_back({name, number, {}, {}});
        open = &out.back();
        const std::string tag = "<!-- doc-test setup: ";
        if (previous.rfind(tag, 0) == 0 && previous.size() > tag.size() + 4) {
          open->setup.push_back(previous.substr(tag.size(), previous.size() - tag.size() - 4));
        }
      }
      previous = line;
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      open = nullptr;
      previous.clear();
      continue;
    }
    if (line.rfind("$ ", 0) == 0) {
      open->commands.push_back({line.substr(2), {}});
      while (!open->commands.back().text.empty() && open->commands.back().text.back() == '\\' &&
             std::getline(in, line)) {
        ++number;
        open->commands.back().text += "\n" + line;
      }
    } else if (!open->commands.empty()) {
      open->commands.back().expected.push_back(RightTrimmed(line));
    }
  }
  return out;
}

std::vector<Example> AllExamples() {
  std::vector<Example> all;
  const fs::path root = SourceDir();
  std::vector<fs::path> pages{root / "README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs")) {
    if (e.path().extension() == ".md") pages.push_back(e.path());
  }
  std::sort(pages.begin(), pages.end());
  for (const fs::path& p : pages) {
    for (Example& e : ExamplesOf(p, fs::relative(p, root).string())) all.push_back(std::move(e));
  }
  return all;
}

// `text` against `pattern`, where "..." matches any run of characters.
bool LineMatches(const std::string& pattern, const std::string& text) {
  const std::size_t dots = pattern.find("...");
  if (dots == std::string::npos) return pattern == text;
  if (text.compare(0, dots, pattern, 0, dots) != 0) return false;
  const std::string rest = pattern.substr(dots + 3);
  for (std::size_t at = dots; at <= text.size(); ++at) {
    if (LineMatches(rest, text.substr(at))) return true;
  }
  return false;
}

// `lines` against `expected`, where a line "..." matches any number of lines.
bool LinesMatch(const std::vector<std::string>& expected, std::size_t e,
                const std::vector<std::string>& lines, std::size_t l) {
  if (e == expected.size()) return l == lines.size();
  if (expected[e] == "...") {
    for (std::size_t skip = l; skip <= lines.size(); ++skip) {
      if (LinesMatch(expected, e + 1, lines, skip)) return true;
    }
    return false;
  }
  return l < lines.size() && LineMatches(expected[e], lines[l]) &&
         LinesMatch(expected, e + 1, lines, l + 1);
}

// Runs `command` with bash in `dir`; stdout and stderr together, by line.
std::vector<std::string> RunShell(const std::string& command, const fs::path& dir) {
  const fs::path script = dir / ".doc-test.sh";
  {
    std::ofstream s(script);
    s << "cd '" << dir.string() << "'\n"
      << "export HOME='" << dir.string() << "' PATH='"
      << fs::path(ZS_BINARY_PATH).parent_path().string() << ":/usr/bin:/bin'\n"
      << "unset ZARF_STATE_DB XDG_CACHE_HOME\n"
      << command << "\n";
  }
  const std::string run = "bash '" + script.string() + "' 2>&1 </dev/null";
  std::FILE* p = ::popen(run.c_str(), "r");
  std::string text;
  char buf[4096];
  for (std::size_t n; p != nullptr && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  if (p != nullptr) ::pclose(p);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(RightTrimmed(line));
  return lines;
}

// Names an example in test output (gtest would print its bytes).
void PrintTo(const Example& e, std::ostream* os) { *os << e.page << ":" << e.line; }

class DocExamplesTest : public ::testing::TestWithParam<Example> {};

TEST_P(DocExamplesTest, PrintsWhatThePageShows) {
  const Example& ex = GetParam();
  ASSERT_FALSE(ex.commands.empty()) << ex.page << ":" << ex.line << ": a console block without a command";
  const fs::path dir = FreshTestDir("doc_example");
  fs::create_directory_symlink(SourceDir() / "tests", dir / "tests");
  for (const auto& e : fs::directory_iterator(DataDir() / "samples")) {
    fs::copy_file(e.path(), dir / e.path().filename());
  }
  for (const std::string& s : ex.setup) RunShell(s, dir);
  for (const Command& c : ex.commands) {
    const std::vector<std::string> got = RunShell(c.text, dir);
    std::string shown;
    for (const std::string& l : got) shown += l + "\n";
    EXPECT_TRUE(LinesMatch(c.expected, 0, got, 0))
        << ex.page << ":" << ex.line << ": $ " << c.text << "\nprinted:\n" << shown;
  }
}

std::string ExampleName(const ::testing::TestParamInfo<Example>& info) {
  std::string name = info.param.page + "_" + std::to_string(info.param.line);
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Pages, DocExamplesTest, ::testing::ValuesIn(AllExamples()), ExampleName);

// The matcher itself, so that a broken matcher cannot pass every page.
TEST(DocExampleMatcherTest, DotsMatchTextAndLinesButNothingElse) {
  EXPECT_TRUE(LineMatches("sha256:6c3e... -> sha256:...", "sha256:6c3e50 -> sha256:caf6"));
  EXPECT_FALSE(LineMatches("sha256:6c3e... -> x", "sha256:6c3e50 -> y"));
  EXPECT_FALSE(LineMatches("exact", "exact but longer"));
  const std::vector<std::string> lines{"a", "b", "c", "d"};
  EXPECT_TRUE(LinesMatch({"a", "...", "d"}, 0, lines, 0));
  EXPECT_TRUE(LinesMatch({"...", "c", "d"}, 0, lines, 0));
  EXPECT_FALSE(LinesMatch({"a", "...", "c"}, 0, lines, 0));
  EXPECT_FALSE(LinesMatch({"a", "b"}, 0, lines, 0));
  EXPECT_FALSE(LinesMatch({"a", "x", "...", "d"}, 0, lines, 0));
}

TEST(DocExampleMatcherTest, EveryPageWithExamplesIsFound) {
  const std::vector<Example> all = AllExamples();
  EXPECT_GE(all.size(), 3u);
  bool readme = false;
  for (const Example& e : all) readme = readme || e.page == "README.md";
  EXPECT_TRUE(readme) << "the README's quick start is a console example";
}

}  // namespace
}  // namespace zs::testing
