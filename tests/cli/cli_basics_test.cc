// cli/cli_basics.h: version, help, "did you mean" and the Examples
// sections, in-process and through the real binary.
#include "cli/cli_basics.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "cli/common.h"
#include "kube/input.h"

namespace zs::tools {
namespace {

using testing::RunBinary;
using testing::RunResult;

const std::string kBinary = ZS_BINARY_PATH;

// The names listed under "Subcommands:" in a help text.
std::vector<std::string> ListedSubcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "Subcommands:") {
      listing = true;
    } else if (listing && line.empty()) {
      break;
    } else if (listing && line.size() > 2 && line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

class CliBasicsBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTestDir("cli-basics"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  RunResult Run(const std::vector<std::string>& args) { return RunBinary(kBinary, args, dir_); }
  std::filesystem::path dir_;
};

TEST(CliBasicsTest, EditDistanceCountsInsertionsDeletionsAndReplacements) {
  EXPECT_EQ(EditDistance("inspect", "inspect"), 0u);
  EXPECT_EQ(EditDistance("insepct", "inspect"), 2u);
  EXPECT_EQ(EditDistance("insp", "inspect"), 3u);
  EXPECT_EQ(EditDistance("INSPECT", "inspect"), 0u);
  EXPECT_EQ(EditDistance("", "size"), 4u);
  EXPECT_EQ(EditDistance("migrate", "status"), 6u);
}

TEST(CliBasicsTest, SuggestionsAreNearOrStartLikeTheWordTyped) {
  const std::vector<std::string> names = {"inspect", "ingest", "migrate", "size", "status"};
  EXPECT_EQ(Suggestions("insp", names), std::vector<std::string>{"inspect"});
  EXPECT_EQ(Suggestions("migarte", names), std::vector<std::string>{"migrate"});
  EXPECT_EQ(Suggestions("sise", names), std::vector<std::string>{"size"});
  EXPECT_EQ(Suggestions("in", names), (std::vector<std::string>{"ingest", "inspect"}));
  EXPECT_TRUE(Suggestions("deploy", names).empty());
}

TEST(CliBasicsTest, ThePluginLinkIsNamedAsKubectlCallsIt) {
  EXPECT_EQ(ProgramName("/usr/local/bin/kubectl-zarf_state"), "kubectl zarf-state");
  EXPECT_EQ(ProgramName("kubectl-zarf_state"), "kubectl zarf-state");
  EXPECT_EQ(ProgramName("./build/zarf-state"), "zarf-state");
  EXPECT_EQ(ProgramName("/opt/kubectl-zarf_state/zarf-state"), "zarf-state");
}

TEST(CliBasicsTest, VersionRefusesAnUnknownFormat) {
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunVersion("wide", out), err), kExitUsage);
  EXPECT_NE(err.str().find("-o must be one of table | json | yaml, not 'wide'"), std::string::npos);
  EXPECT_EQ(out.str(), "");
}

TEST_F(CliBasicsBinaryTest, VersionYamlIsTheJsonDocument) {
  const RunResult json_out = Run({"version", "-o", "json"});
  const RunResult yaml_out = Run({"version", "-o", "yaml"});
  ASSERT_EQ(yaml_out.exit_code, kExitOk) << yaml_out.err;
  auto from_json = json::ParseJson(json_out.out);
  auto from_yaml = ParseDocument(yaml_out.out, "yaml output");
  ASSERT_TRUE(from_json.ok() && from_yaml.ok()) << yaml_out.out;
  EXPECT_EQ(*json::WriteJson(*from_yaml), *json::WriteJson(*from_json));
  EXPECT_EQ(Run({"version", "-o", "xml"}).exit_code, kExitUsage);
}

TEST_F(CliBasicsBinaryTest, VersionJsonNamesTheBuild) {
  const RunResult r = Run({"version", "-o", "json"});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  auto v = json::ParseJson(r.out);
  ASSERT_TRUE(v.ok()) << r.out;
  EXPECT_EQ(v->StringOr("version"), ZS_VERSION);
  EXPECT_TRUE(std::regex_match(std::string(v->StringOr("gitCommit")),
                               std::regex("[0-9a-f]{12}(-dirty)?|unknown")))
      << v->StringOr("gitCommit");
  EXPECT_FALSE(v->StringOr("buildType").empty());
  EXPECT_EQ(v->Find("compactFormatVersion")->number_raw(), "1");
  // The shipped dictionaries (compact/internal/format.h), the newest writing.
  ASSERT_EQ(v->Find("compactDictionaryIds")->array().size(), 2u);
  EXPECT_EQ(v->Find("compactDictionaryIds")->array()[0].number_raw(), "535113058");
  EXPECT_EQ(v->Find("compactDictionaryIds")->array()[1].number_raw(), "686577509");
  EXPECT_EQ(v->Find("compactWriterDictionaryId")->number_raw(), "686577509");
}

TEST_F(CliBasicsBinaryTest, VersionTableAndTheVersionFlag) {
  const RunResult table = Run({"version"});
  ASSERT_EQ(table.exit_code, kExitOk) << table.err;
  EXPECT_EQ(table.out.rfind(std::string("zarf-state ") + ZS_VERSION + "\n", 0), 0u) << table.out;
  EXPECT_NE(table.out.find("git commit:"), std::string::npos);
  EXPECT_NE(table.out.find("compact dictionaries:  535113058, 686577509 (writes with 686577509)"),
            std::string::npos)
      << table.out;
  const RunResult flag = Run({"--version"});
  EXPECT_EQ(flag.exit_code, kExitOk);
  EXPECT_EQ(flag.out, std::string("zarf-state ") + ZS_VERSION + "\n");
}

// Every command, nested ones too: `help PATH` prints what `PATH --help`
// prints, and that ends with an Examples section.
TEST_F(CliBasicsBinaryTest, EveryCommandHasHelpWithExamples) {
  std::vector<std::vector<std::string>> todo = {{}};
  std::size_t seen = 0;
  while (!todo.empty()) {
    const std::vector<std::string> path = todo.back();
    todo.pop_back();
    std::vector<std::string> args = path;
    args.push_back("--help");
    const RunResult flag = Run(args);
    std::string name;
    for (const std::string& p : path) name += (name.empty() ? "" : " ") + p;
    ASSERT_EQ(flag.exit_code, kExitOk) << name << ": " << flag.err;
    const std::size_t examples = flag.out.find("\nExamples:\n  ");
    EXPECT_NE(examples, std::string::npos) << "'" << name << " --help' has no Examples:\n"
                                           << flag.out;
    if (!path.empty()) {
      args = {"help"};
      args.insert(args.end(), path.begin(), path.end());
      const RunResult help = Run(args);
      EXPECT_EQ(help.exit_code, kExitOk) << name;
      EXPECT_EQ(help.out, flag.out) << name;
    }
    ++seen;
    for (const std::string& sub : ListedSubcommands(flag.out)) {
      std::vector<std::string> next = path;
      next.push_back(sub);
      todo.push_back(next);
    }
  }
  EXPECT_GE(seen, 30u);  // the program, its commands and their subcommands
}

TEST_F(CliBasicsBinaryTest, HelpAloneIsTheProgramsHelp) {
  const RunResult help = Run({"help"});
  const RunResult flag = Run({"--help"});
  EXPECT_EQ(help.exit_code, kExitOk);
  EXPECT_EQ(help.out, flag.out);
  EXPECT_EQ(help.out.rfind("zarf-state: ", 0), 0u);
  EXPECT_NE(help.out.find("Usage: zarf-state [OPTIONS] SUBCOMMAND"), std::string::npos);
}

TEST_F(CliBasicsBinaryTest, AMistypedCommandGetsTheNearOnes) {
  const RunResult r = Run({"insp", "-f", "x.json"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: unknown command 'insp' for 'zarf-state'\n\nDid you mean this?\n\tinspect\n\n"
            "Run 'zarf-state --help' for usage.\n");
  const RunResult nested = Run({"record", "deplyo", "-f", "x.json"});
  EXPECT_EQ(nested.exit_code, kExitUsage);
  EXPECT_NE(nested.err.find("unknown command 'deplyo' for 'zarf-state record'"),
            std::string::npos)
      << nested.err;
  EXPECT_NE(nested.err.find("\tdeploy\n"), std::string::npos) << nested.err;
  const RunResult help = Run({"help", "migarte"});
  EXPECT_EQ(help.exit_code, kExitUsage);
  EXPECT_NE(help.err.find("Did you mean this?\n\tmigrate\n"), std::string::npos) << help.err;
}

TEST_F(CliBasicsBinaryTest, AnUnknownCommandFarFromAnyGetsNoSuggestion) {
  const RunResult r = Run({"kubernetes"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.err,
            "error: unknown command 'kubernetes' for 'zarf-state'\n"
            "Run 'zarf-state --help' for usage.\n");
  // Not a word where a command goes: an unexpected argument.
  const RunResult extra = Run({"inspect", "extra"});
  EXPECT_EQ(extra.exit_code, kExitUsage);
  EXPECT_EQ(extra.err, "error: unexpected argument \"extra\"\nRun 'zarf-state inspect --help' for usage.\n");
}

TEST_F(CliBasicsBinaryTest, NoArgumentsIsTheHelpOnStdout) {
  const RunResult none = Run({});
  EXPECT_EQ(none.exit_code, kExitOk) << none.err;
  EXPECT_EQ(none.err, "");
  EXPECT_EQ(none.out, Run({"--help"}).out);
  const RunResult group = Run({"query"});
  EXPECT_EQ(group.exit_code, kExitOk) << group.err;
  EXPECT_EQ(group.out, Run({"query", "--help"}).out);
}

TEST_F(CliBasicsBinaryTest, ParseErrorsAreWordedAsKubectlWordsThem) {
  RunResult r = Run({"inspect", "--outptu", "json"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.err, "error: unknown flag: --outptu\nRun 'zarf-state inspect --help' for usage.\n");
  r = Run({"inspect", "--outptu=json"});
  EXPECT_EQ(r.err, "error: unknown flag: --outptu\nRun 'zarf-state inspect --help' for usage.\n");
  r = Run({"migrate", "--to"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.err, "error: flag needs an argument: --to\nRun 'zarf-state migrate --help' for usage.\n");
  r = Run({"report", "-f", "x.json"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.err, "error: required flag \"--out\" not set\nRun 'zarf-state report --help' for usage.\n");
  r = Run({"query", "history", "--db", "d", "p", "--typo"});
  EXPECT_EQ(r.err, "error: unknown flag: --typo\nRun 'zarf-state query history --help' for usage.\n");
}

TEST_F(CliBasicsBinaryTest, HelpShowsNoParserNotation) {
  for (const std::vector<std::string>& path :
       std::vector<std::vector<std::string>>{{}, {"inspect"}, {"migrate"}, {"report"}, {"query", "history"}}) {
    std::vector<std::string> args = path;
    args.push_back("--help");
    const RunResult r = Run(args);
    ASSERT_EQ(r.exit_code, kExitOk);
    for (const char* notation : {"-h,--help", "TEXT", "=[", "Excludes:", "Needs:", "REQUIRED", "UINT"}) {
      EXPECT_EQ(r.out.find(notation), std::string::npos) << notation << " in\n" << r.out;
    }
    EXPECT_NE(r.out.find("-h, --help"), std::string::npos) << r.out;
  }
  const RunResult migrate = Run({"migrate", "--help"});
  EXPECT_NE(migrate.out.find("-f, --filename string"), std::string::npos) << migrate.out;
  EXPECT_NE(migrate.out.find("(default \"v2\")"), std::string::npos) << migrate.out;
  EXPECT_NE(Run({"report", "--help"}).out.find("(required)"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
