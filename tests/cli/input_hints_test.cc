// Inputs given by mistake get an error that says what they are and what to
// give instead: kubectl's table (no -o json), an HTML page, a directory.
#include "model/input_hints.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "kube/secret.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/input_paths.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;
using zs::testing::DataDir;

TEST(InputHintsTest, KubectlTableIsNamedWithTheFlagItLacks) {
  const std::string table = zs::testing::ReadData("kubectl/secrets.table.txt");
  Result<Input> in = ReadInput(table, "secrets.txt");
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message(),
            "secrets.txt: this is kubectl's table, not the Secrets themselves: add -o json "
            "(kubectl get secrets -n zarf -o json), or let --cluster run kubectl");
  // All namespaces (-A) too, and the streaming reader (migrate) the same.
  const std::string all = "NAMESPACE   NAME          TYPE     DATA   AGE\nzarf   zarf-state   Opaque   1   3d\n";
  EXPECT_NE(MistakenInputHint(all).find("-o json"), std::string::npos);
  Input header;
  const Status streamed =
      ReadInputStreaming(table, "t", CurrentReadLimits(), &header, [](InputObject) { return Status::OK(); });
  EXPECT_NE(streamed.message().find("kubectl's table"), std::string::npos) << streamed.ToString();
}

TEST(InputHintsTest, HtmlPageIsNamed) {
  for (const char* page : {"<!DOCTYPE html>\n<html><body>report</body></html>\n",
                           "\n  <html lang=\"en\"><head></head></html>"}) {
    Result<Input> in = ReadInput(page, "report.html");
    ASSERT_FALSE(in.ok());
    EXPECT_NE(in.status().message().find("report.html: this is an HTML page"), std::string::npos)
        << in.status().ToString();
  }
}

TEST(InputHintsTest, StateAndOtherYamlAreNotMistaken) {
  EXPECT_EQ(MistakenInputHint("apiVersion: v1\nkind: Secret\n"), "");
  EXPECT_EQ(MistakenInputHint("NAME: value\n"), "");
  EXPECT_EQ(MistakenInputHint("NAME TYPE\n"), "") << "single spaces: not kubectl's columns";
  EXPECT_EQ(MistakenInputHint("name   type   data\n"), "");
  EXPECT_EQ(MistakenInputHint("<p>not a page</p>"), "");
}

TEST(InputHintsTest, ADirectoryIsRefusedBeforeReadingWithAHint) {
  const fs::path dir = zs::testing::FreshTestDir("input_hints");
  fs::create_directories(dir / "secrets");
  EXPECT_TRUE(RefuseDirectoryInputs({"-", (dir / "nope.json").string()}).ok());
  const Status s = RefuseDirectoryInputs({"-", (dir / "secrets/").string()});
  EXPECT_EQ(s.message(), (dir / "secrets").string() + ": is a directory, not a file of Secrets; "
                             "give its files (-f " + (dir / "secrets").string() +
                             "/*.json) or one kubectl dump (kubectl get secrets -n zarf -o json "
                             "> secrets.json)");
  const zs::testing::RunResult r =
      zs::testing::RunBinary(ZS_BINARY_PATH, {"inspect", "-f", (dir / "secrets").string()}, dir);
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_NE(r.err.find("error: " + (dir / "secrets").string() + ": is a directory"), std::string::npos)
      << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zs::tools
