// Every -o value and --no-headers of inspect, status, query, replay and ingest, as
// the binary prints them (cli/output.h), and exit 2 for a format a
// command cannot print.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "kube/input.h"

namespace zs {
namespace {

using testing::RunResult;

const std::string kNow = "2026-12-02T12:00:00Z";

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }
std::string AfterFirstLine(const std::string& text) { return text.substr(text.find('\n') + 1); }

// `text` with each run of spaces as one: --no-headers aligns the rows on
// their own widths (as kubectl does), so only the cells must be the same.
std::string Cells(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  }
  return out;
}

class OutputCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("output-commands");
    secret_ = (testing::DataDir() / "logs/podinfo-v0.secret.json").string();
    log_ = (testing::DataDir() / "logs/podinfo-v0.log.jsonl").string();
  }

  RunResult Run(std::vector<std::string> args) {
    return testing::RunBinary(ZS_BINARY_PATH, args, dir_);
  }

  RunResult RunWith(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return Run(args);
  }

  // Runs `args` with every -o of `formats` and checks the layer's promises:
  // a table whose header starts `header`; --no-headers the same rows without
  // it; wide the same rows with `wide_header` more; json and yaml the same
  // document; name one `kind/...` per line; anything else exit 2 and no
  // output. Returns the json document.
  json::Value CheckFormats(const std::vector<std::string>& args,
                           const std::vector<std::string>& formats, const std::string& header,
                           const std::string& wide_header, const std::string& name_kind) {
    const RunResult table = RunWith(args, {"-o", "table"});
    EXPECT_EQ(table.exit_code, 0) << table.err;
    EXPECT_EQ(FirstLine(table.out).rfind(header, 0), 0u) << table.out;
    EXPECT_EQ(FirstLine(table.out).find(wide_header), std::string::npos) << table.out;
    EXPECT_EQ(RunWith(args, {}).out, table.out) << "table is the default";
    const RunResult bare = RunWith(args, {"--no-headers"});
    EXPECT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_EQ(Cells(bare.out), Cells(AfterFirstLine(table.out)));
    EXPECT_FALSE(bare.out.empty());

    const RunResult wide = RunWith(args, {"-o", "wide"});
    EXPECT_EQ(wide.exit_code, 0) << wide.err;
    EXPECT_NE(FirstLine(wide.out).find(wide_header), std::string::npos) << wide.out;
    EXPECT_EQ(Cells(RunWith(args, {"-o", "wide", "--no-headers"}).out), Cells(AfterFirstLine(wide.out)));

    const RunResult json_out = RunWith(args, {"-o", "json"});
    EXPECT_EQ(json_out.exit_code, 0) << json_out.err;
    auto document = json::ParseJson(json_out.out);
    EXPECT_TRUE(document.ok()) << json_out.out;
    const RunResult yaml_out = RunWith(args, {"-o", "yaml"});
    EXPECT_EQ(yaml_out.exit_code, 0) << yaml_out.err;
    auto from_yaml = tools::ParseDocument(yaml_out.out, "yaml output");
    EXPECT_TRUE(from_yaml.ok()) << yaml_out.out;
    if (document.ok() && from_yaml.ok()) {
      EXPECT_EQ(*json::WriteJson(*from_yaml), *json::WriteJson(*document));
    }

    const bool has_name =
        std::find(formats.begin(), formats.end(), "name") != formats.end();
    const RunResult names = RunWith(args, {"-o", "name"});
    if (has_name) {
      EXPECT_EQ(names.exit_code, 0) << names.err;
      EXPECT_FALSE(names.out.empty());
      for (std::size_t at = 0; at < names.out.size(); at = names.out.find('\n', at) + 1) {
        EXPECT_EQ(names.out.compare(at, name_kind.size() + 1, name_kind + "/"), 0) << names.out;
      }
    } else {
      EXPECT_EQ(names.exit_code, tools::kExitUsage) << names.out;
      EXPECT_EQ(names.out, "");
    }
    const RunResult bad = RunWith(args, {"-o", "xml"});
    EXPECT_EQ(bad.exit_code, tools::kExitUsage);
    EXPECT_EQ(bad.out, "");
    EXPECT_NE(bad.err.find("xml"), std::string::npos) << bad.err;
    return document.ok() ? *document : json::Value();
  }

  std::filesystem::path dir_;
  std::string secret_, log_;
};

const std::vector<std::string> kAll = {"table", "wide", "json", "yaml", "name"};
const std::vector<std::string> kNoName = {"table", "wide", "json", "yaml"};

TEST_F(OutputCommandsTest, Inspect) {
  const json::Value doc = CheckFormats({"inspect", "-f", secret_, "--now", kNow}, kAll,
                                       "NAME      VERSION   SIZE", "SECRET", "secret");
  // inspect -o json | jq '.[].latestEvent.outcome'
  ASSERT_EQ(doc.array().size(), 1u);
  const json::Value* latest = doc.array()[0].Find("latestEvent");
  ASSERT_NE(latest, nullptr);
  EXPECT_EQ(latest->StringOr("outcome"), "Succeeded");
  EXPECT_EQ(latest->StringOr("type"), "Remove");
  EXPECT_EQ(latest->StringOr("timestamp"), "2026-12-02T09:00:11Z");  // UTC, to the second
  EXPECT_EQ(Run({"inspect", "-f", secret_, "-o", "name"}).out, "secret/zarf-package-podinfo\n");
  EXPECT_EQ(Run({"inspect", "-f", secret_, "--now", kNow}).out,
            "NAME      VERSION   SIZE   USED   LATEST             AGE    EVENTS   COMPONENTS\n"
            "podinfo   6.5.0     3624   0.3%   Remove/Succeeded   179m   8        1\n");
}

TEST_F(OutputCommandsTest, Status) {
  const json::Value doc = CheckFormats({"status", "-f", secret_, "--now", kNow}, kAll,
                                       "NAME      LATEST", "LATEST DEPLOY", "secret");
  ASSERT_EQ(doc.array().size(), 1u);
  const json::Value& s = doc.array()[0];
  // The same event record as inspect's, under the same names.
  EXPECT_EQ(s.Find("latestEvent")->StringOr("outcome"), "Succeeded");
  EXPECT_EQ(s.Find("lastSuccessfulDeploy")->StringOr("version"), "6.5.0");
  EXPECT_TRUE(s.Find("inProgressSince")->is_null());
  EXPECT_EQ(s.Find("components")->array()[0].Find("lastEvent")->StringOr("type"), "Deploy");
  // Two Secrets of one package (an override) are told apart by the Secret's name.
  EXPECT_EQ(s.StringOr("secret"), "zarf-package-podinfo");
  EXPECT_NE(Run({"status", "-f", secret_, "-o", "wide"}).out.find("SECRET"), std::string::npos);
  EXPECT_EQ(Run({"status", "-f", secret_, "--now", kNow}).out,
            "NAME      LATEST             AGE    IN PROGRESS   DEPLOYED\n"
            "podinfo   Remove/Succeeded   179m   -             6.5.0\n");
}

TEST_F(OutputCommandsTest, QueryEverySubcommand) {
  const std::string db = (dir_ / "db").string();
  ASSERT_EQ(Run({"ingest", "--db", db, "-f", secret_}).exit_code, 0);
  const json::Value status = CheckFormats({"query", "--db", db, "--now", kNow, "status"}, kAll,
                                          "PACKAGE   VERSION", "SECRET", "secret");
  EXPECT_EQ(status.Find("packages")->array()[0].Find("latestEvent")->StringOr("outcome"),
            "Succeeded");
  CheckFormats({"query", "--db", db, "--now", kNow, "component", "podinfo"}, kAll, "PACKAGE",
               "SECRET", "secret");
  CheckFormats({"query", "--db", db, "--now", kNow, "source",
                "oci://registry.example.com/podinfo:6.5.0"},
               kAll, "PACKAGE", "SECRET", "secret");
  const json::Value history = CheckFormats({"query", "--db", db, "--now", kNow, "history", "podinfo"},
                                           kNoName, "SEQ   TIME", "DIGEST", "");
  const json::Value& first = history.Find("events")->array()[0];
  EXPECT_EQ(first.Find("event")->StringOr("outcome"), "InProgress");
  EXPECT_EQ(first.Find("event")->StringOr("timestamp"), "2026-12-02T09:00:08Z");
  EXPECT_EQ(Run({"query", "--db", db, "--now", kNow, "-o", "wide", "config-changed", "podinfo",
                 "-f", (testing::DataDir() / "samples/deploy-config-1.json").string()})
                .exit_code,
            tools::kExitUsage);
}

TEST_F(OutputCommandsTest, Replay) {
  const json::Value secret_steps =
      CheckFormats({"replay", "-f", secret_}, kNoName, "SEQ   TIME", "RECORD", "");
  ASSERT_EQ(secret_steps.array().size(), 8u);
  EXPECT_EQ(secret_steps.array()[0].Find("event")->StringOr("version"), "6.4.0");
  const json::Value log_steps =
      CheckFormats({"replay", "--log", log_}, kNoName, "SEQ   TIME", "RECORD", "");
  // A component's event: the same record, naming its component.
  EXPECT_EQ(log_steps.array()[1].Find("event")->StringOr("component"), "podinfo");
  // --dump stays JSON Lines of the stored records, nanoseconds and all.
  const RunResult dump = Run({"replay", "--log", log_, "--dump"});
  EXPECT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_EQ(dump.out.rfind("{\"package\":", 0), 0u) << dump.out;
  // Several JSON lines are not the one document -o json|yaml promises.
  for (const std::string format : {"json", "yaml", "wide"}) {
    const RunResult r = Run({"replay", "--log", log_, "--dump", "-o", format});
    EXPECT_EQ(r.exit_code, tools::kExitUsage) << format;
    EXPECT_EQ(r.out, "") << format;
  }
}

TEST_F(OutputCommandsTest, ReplayVerifyIsInsideTheDocument) {
  // A Secret written with 8 events checked against a cap of 3: the fold
  // keeps 3, so both checks find drift and exit 1.
  for (const bool with_log : {true, false}) {
    std::vector<std::string> args = {"replay", "-f", secret_, "--verify", "--max-events", "3"};
    if (with_log) args.insert(args.end(), {"--log", log_});
    const RunResult text = Run(args);
    EXPECT_EQ(text.exit_code, tools::kExitSomeFailed) << text.err;
    EXPECT_NE(text.out.find("1 field(s) differ\n  events: stored "), std::string::npos) << text.out;
    const RunResult json_out = RunWith(args, {"-o", "json"});
    EXPECT_EQ(json_out.exit_code, tools::kExitSomeFailed) << json_out.err;
    auto doc = json::ParseJson(json_out.out);
    ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << json_out.out;
    ASSERT_TRUE(doc->is_object());
    EXPECT_EQ(doc->Find("timeline")->array().size(), with_log ? 22u : 8u);
    const json::Value* verify = doc->Find("verify");
    ASSERT_NE(verify, nullptr);
    EXPECT_FALSE(verify->Find("ok")->as_bool());
    EXPECT_EQ(verify->Find("drift")->array().at(0).StringOr("path"), "events");
    EXPECT_EQ(verify->Find("checkpoints") != nullptr, with_log);
    const RunResult yaml_out = RunWith(args, {"-o", "yaml"});
    EXPECT_EQ(yaml_out.exit_code, tools::kExitSomeFailed) << yaml_out.err;
    auto from_yaml = tools::ParseDocument(yaml_out.out, "yaml output");
    ASSERT_TRUE(from_yaml.ok()) << yaml_out.out;
    EXPECT_EQ(*json::WriteJson(*from_yaml), *json::WriteJson(*doc));
  }
  // No drift: ok, exit 0; without --verify the document stays the timeline array.
  const RunResult clean = Run({"replay", "-f", secret_, "--log", log_, "--verify", "-o", "json"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  auto doc = json::ParseJson(clean.out);
  ASSERT_TRUE(doc.ok()) << clean.out;
  EXPECT_TRUE(doc->Find("verify")->Find("ok")->as_bool());
  EXPECT_TRUE(doc->Find("verify")->Find("drift")->array().empty());
  // A log alone is checked itself: its own document.
  const RunResult log_only = Run({"replay", "--log", log_, "--verify", "-o", "json"});
  EXPECT_EQ(log_only.exit_code, 0) << log_only.err;
  auto log_doc = json::ParseJson(log_only.out);
  ASSERT_TRUE(log_doc.ok()) << log_only.out;
  EXPECT_TRUE(log_doc->Find("ok")->as_bool());
  EXPECT_EQ(log_doc->Find("records")->number_raw(), "22");
  // A check that cannot run prints no document at all.
  const std::string newer = (dir_ / "newer.log").string();
  std::ofstream(newer, std::ios::binary) << std::string("ZSEVLOG\n\x63\0\0\0\0\0\0\0", 16);
  const RunResult refused = Run({"replay", "--log", newer, "--verify", "-o", "json"});
  EXPECT_EQ(refused.exit_code, tools::kExitSomeFailed);
  EXPECT_NE(refused.err.find("format version 99"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");
}

TEST_F(OutputCommandsTest, ReplayVerifyOfTheCacheIsInsideTheDocument) {
  const std::string db = (dir_ / "db").string();
  ASSERT_EQ(Run({"ingest", "--db", db, "-f", secret_}).exit_code, 0);
  const RunResult yaml_out = Run({"replay", "--db", db, "podinfo", "--verify", "-o", "yaml"});
  EXPECT_EQ(yaml_out.exit_code, 0) << yaml_out.err;
  auto doc = tools::ParseDocument(yaml_out.out, "yaml output");
  ASSERT_TRUE(doc.ok()) << yaml_out.out;
  EXPECT_TRUE(doc->Find("verify")->Find("ok")->as_bool());
  EXPECT_TRUE(doc->Find("verify")->Find("problems")->array().empty());
  const RunResult text = Run({"replay", "--db", db, "podinfo", "--verify"});
  EXPECT_NE(text.out.find("verify: podinfo in " + db + ": no drift\n"), std::string::npos) << text.out;
}

TEST_F(OutputCommandsTest, IngestEveryFormat) {
  const std::string init = (testing::DataDir() / "kubectl/secret-zarf-state-labelled.json").string();
  auto ingest = [&](const std::string& db, std::vector<std::string> more) {
    std::vector<std::string> args = {"ingest", "--db", (dir_ / db).string(), "-f", secret_};
    args.insert(args.end(), more.begin(), more.end());
    return Run(args);
  };
  // table: the acknowledgement lines, no header to leave out.
  const RunResult table = ingest("t", {"-o", "table"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out, "ingested podinfo (+9 records, snapshot updated)\n");
  EXPECT_EQ(ingest("t", {}).out, "unchanged podinfo\n");
  EXPECT_EQ(ingest("t", {"--no-headers"}).out, "unchanged podinfo\n");
  // json and yaml: one summary document, the same in both.
  const RunResult json_out = ingest("j", {"-o", "json", "-f", init});
  EXPECT_EQ(json_out.exit_code, 0) << json_out.err;
  auto doc = json::ParseJson(json_out.out);
  ASSERT_TRUE(doc.ok()) << json_out.out;
  EXPECT_EQ(doc->Find("summary")->Find("ingested")->number_raw(), "1");
  EXPECT_EQ(doc->Find("summary")->Find("skipped")->number_raw(), "1");
  const json::Value& first = doc->Find("objects")->array().at(0);
  EXPECT_EQ(first.StringOr("name"), "podinfo");
  EXPECT_EQ(first.StringOr("result"), "ingested");
  EXPECT_EQ(first.Find("newRecords")->number_raw(), "9");
  EXPECT_EQ(doc->Find("objects")->array().at(1).StringOr("result"), "skipped");
  const RunResult yaml_out = ingest("y", {"-o", "yaml", "-f", init});
  EXPECT_EQ(yaml_out.exit_code, 0) << yaml_out.err;
  auto from_yaml = tools::ParseDocument(yaml_out.out, "yaml output");
  ASSERT_TRUE(from_yaml.ok()) << yaml_out.out;
  EXPECT_EQ(*json::WriteJson(*from_yaml), *json::WriteJson(*doc));
  // A failed object: listed with its reason, exit 1, still one document.
  const std::string bad = (dir_ / "bad.json").string();
  { std::ofstream(bad) << "{\"kind\": \"Secret\", \"metadata\": {\"name\": \"zarf-package-x\"}}"; }
  const RunResult failed = Run({"ingest", "--db", (dir_ / "j").string(), "-f", bad, "-o", "json"});
  EXPECT_EQ(failed.exit_code, tools::kExitSomeFailed) << failed.err;
  auto failed_doc = json::ParseJson(failed.out);
  ASSERT_TRUE(failed_doc.ok()) << failed.out;
  EXPECT_EQ(failed_doc->Find("summary")->Find("failed")->number_raw(), "1") << failed.out;
  // Anything else is a usage error before the cache is touched.
  for (const std::string format : {"wide", "name", "xml"}) {
    const RunResult r = ingest("x", {"-o", format});
    EXPECT_EQ(r.exit_code, tools::kExitUsage) << format;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(std::filesystem::exists(dir_ / "x")) << format;
  }
}

}  // namespace
}  // namespace zs
