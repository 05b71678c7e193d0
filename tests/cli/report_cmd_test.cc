// `zarf-state report` in-process: escaping, the credential rule over every
// init-state fixture, the optional inputs and their errors. The page in a
// real browser is tests/cli/report_browser_test.py.
#include "cli/report_cmd.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "model/credentials.h"
#include "json/json_reader.h"
#include "kube/secret.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "report/html_writer.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int code = 0;
  std::string page;
  std::string out;
  std::string err;
};

Ran Report(ReportOptions o) {
  static int n = 0;
  o.out = testing::WriteTempFile("report-" + std::to_string(++n) + ".html", "");
  if (o.now.empty()) o.now = "2026-12-01T12:00:00Z";
  std::ostringstream out, err;
  Ran r;
  r.code = FinishCommand(RunReport(o, out, err), err);
  r.page = testing::ReadFile(o.out);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::size_t Count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// Every credential value of an init state: members the credential rule names
// (non-empty strings) and the password of a URL's userinfo.
void CollectCredentials(const json::Value& v, std::string_view name, std::set<std::string>* out) {
  if (v.is_object()) {
    for (const auto& [k, m] : v.object()) CollectCredentials(m, k, out);
  } else if (v.is_array()) {
    for (const json::Value& m : v.array()) CollectCredentials(m, name, out);
  } else if (v.is_string() && !v.as_string().empty()) {
    const std::string& s = v.as_string();
    if (IsCredentialName(name)) out->insert(s);
    const std::size_t scheme = s.find("://"), at = s.find('@');
    if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
      const std::string userinfo = s.substr(scheme + 3, at - scheme - 3);
      const std::size_t colon = userinfo.find(':');
      if (colon != std::string::npos) out->insert(userinfo.substr(colon + 1));
    }
  }
}

TEST(HtmlEscapeTest, MarkupQuotesControlsAndBadUtf8AreNeutralised) {
  EXPECT_EQ(HtmlEscape("<script>alert('x')</script>"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("a&b \"c\""), "a&amp;b &quot;c&quot;");
  EXPECT_EQ(HtmlEscape(std::string("a\0b\x1b[31m\tc\n", 11)), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD[31m\tc\n");
  EXPECT_EQ(HtmlEscape("caf\xC3\xA9 \xF0\x9F\x9A\x80"), "caf\xC3\xA9 \xF0\x9F\x9A\x80");
  EXPECT_EQ(HtmlEscape("\xC3"), "\xEF\xBF\xBD");          // truncated
  EXPECT_EQ(HtmlEscape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(HtmlEscape("\xC0\xBC"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '<'
}

TEST(HtmlWriterTest, TextAndAttributeValuesAreEscapedTagsAreNot) {
  HtmlWriter h;
  h.Open("p", {{"title", "\"><b>"}}).Text("<i>").Element("span", "a<b", {{"class", "x"}}).Close("p");
  EXPECT_EQ(h.Take(), "<p title=\"&quot;&gt;&lt;b&gt;\">&lt;i&gt;<span class=\"x\">a&lt;b</span></p>");
}

TEST(ReportCmdTest, NoCredentialOfAnyInitStateFixtureIsInAnyReport) {
  // Every init state of every era, alone and in the Lists with packages.
  std::vector<fs::path> inputs;
  for (const fs::path& f : testing::LegacyFiles(".json")) {
    const std::string name = f.filename().string();
    if (name.rfind("state-", 0) == 0 || name == "all-secrets.list.json") inputs.push_back(f);
  }
  inputs.push_back(testing::DataDir() / "samples" / "multi-era.list.json");
  std::set<std::string> credentials;
  std::size_t states = 0;
  for (const fs::path& f : inputs) {
    auto input = ReadInput(testing::ReadFile(f), f.string());
    if (!input.ok()) continue;
    for (const InputObject& o : input->objects) {
      if (!o.error.ok() || o.payload_kind != PayloadKind::kState) continue;
      auto state = json::ParseJson(o.payload);
      if (!state.ok()) continue;
      ++states;
      CollectCredentials(*state, "", &credentials);
    }
  }
  ASSERT_GE(states, 40u);
  ASSERT_GE(credentials.size(), 20u);
  // The grep finds them where they are: in the fixtures themselves.
  const std::string raw = testing::ReadData("legacy/e22-v0.80.0-v0.84.0/state-internal.payload.json");
  EXPECT_NE(raw.find("fake-password-1"), std::string::npos);
  EXPECT_TRUE(credentials.count("fake-password-1"));

  // One report per file (what a user writes) and one of everything.
  ReportOptions all;
  for (const fs::path& f : inputs) {
    all.files.push_back(f.string());
    ReportOptions one;
    one.files = {f.string()};
    const Ran r = Report(one);
    ASSERT_FALSE(r.page.empty()) << f;
    for (const std::string& c : credentials) {
      EXPECT_EQ(r.page.find(c), std::string::npos) << "credential " << c << " in the report of " << f;
    }
  }
  const Ran r = Report(all);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_GE(Count(r.page, "<div class=\"init-state\">"), states);
  EXPECT_NE(r.page.find("<dt>distro</dt><dd>k3d</dd>"), std::string::npos);
  EXPECT_NE(r.page.find("<dt>agent TLS</dt><dd>present (not shown)</dd>"), std::string::npos);
  for (const std::string& c : credentials) {
    EXPECT_EQ(r.page.find(c), std::string::npos) << "credential " << c;
  }
}

TEST(ReportCmdTest, NamesHoldingMarkupStayText) {
  ReportOptions o;
  o.files = {(testing::DataDir() / "report" / "hostile-names.payload.json").string()};
  const Ran r = Report(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(Count(r.page, "<script"), 1u);  // the page's own
  EXPECT_EQ(Count(r.page, "<img"), 0u);
  EXPECT_EQ(Count(r.page, "<svg onload"), 0u);
  EXPECT_EQ(Count(r.page, "<b onmouseover"), 0u);
  EXPECT_NE(r.page.find("&lt;script&gt;console.error(&#39;xss-name&#39;)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(r.page.find("&lt;/td&gt;&lt;script&gt;"), std::string::npos);  // a chart namespace
  // An outcome outside the vocabulary names no CSS class of its own.
  EXPECT_NE(r.page.find("cell-Unknown\">&lt;i&gt;Succeeded&lt;/i&gt;"), std::string::npos);
}

TEST(ReportCmdTest, PageIsSelfContained) {
  ReportOptions o;
  o.files = {(testing::DataDir() / "samples" / "multi-era.list.json").string()};
  const Ran r = Report(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(r.page.find("default-src 'none'"), std::string::npos);
  // (URLs may be text: the init state's registry address is one.)
  for (const char* loads : {" src=", " href=\"http", "<link", "@import", "url(", "<iframe"}) {
    EXPECT_EQ(r.page.find(loads), std::string::npos) << loads;
  }
}

TEST(ReportCmdTest, MigrationAndPruneSectionsComeFromTheirJson) {
  const std::string migration = testing::WriteTempFile(
      "migration.json",
      R"({"target":"v2","objects":[{"name":"zarf/zarf-package-a","kind":"package","result":"migrated",)"
      R"("shape":"P5","target":"v2","bytesBefore":10,"bytesAfter":12,"mappings":["filled x"],)"
      R"("warnings":["ambiguous <P1>"]}],"summary":{"objects":1,"migrated":1,"unchanged":0,)"
      R"("skipped":0,"failed":0}})");
  const std::string plan = testing::WriteTempFile(
      "plan.json",
      R"({"package":"podinfo","operation":"upgrade","charts":[],"components":[{"name":"dash",)"
      R"("charts":["monitoring/raw"],"actions":[],"onFailure":[]}],"imagePruning":"planned",)"
      R"("imagePruningError":null,"images":[{"image":"nginx:1","references":["nginx:1"]}],)"
      R"("keptImages":[{"image":"redis:7","keptBy":["other"]}],"warnings":[]})");
  ReportOptions o;
  o.files = {(testing::DataDir() / "samples" / "multi-era.list.json").string()};
  o.migrate_report = migration;
  o.prune_plan = plan;
  const Ran r = Report(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.page.find("<section id=\"migration\">"), std::string::npos);
  EXPECT_NE(r.page.find("<li>ambiguous &lt;P1&gt;</li>"), std::string::npos);
  EXPECT_NE(r.page.find("<section id=\"prune\">"), std::string::npos);
  EXPECT_NE(r.page.find("uninstall chart monitoring/raw"), std::string::npos);
  EXPECT_NE(r.page.find("still used by other"), std::string::npos);
}

// A failing run writes no page (the existing file is left as it was) and
// prints nothing: a page would read as the state of every input.
TEST(ReportCmdTest, AnUnreadableOptionalInputIsNamedAndNoPageWritten) {
  ReportOptions o;
  o.files = {(testing::DataDir() / "samples" / "multi-era.list.json").string()};
  o.prune_plan = testing::WriteTempFile("not-a-plan.json", R"({"kind":"Secret"})");
  o.growth_dir = (testing::DataDir() / "no-such-dir").string();
  const Ran r = Report(o);
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: --prune-plan " + o.prune_plan + ": " + o.prune_plan +
                       ": not a prune plan"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("neither growth-cycles.csv nor growth-size.csv"), std::string::npos) << r.err;
  EXPECT_EQ(r.page, "") << "the file as it was";

  o.prune_plan.clear();
  o.growth_dir.clear();
  o.out = "-";
  std::ostringstream out, err;
  o.files.push_back((testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/malformed-bad-base64.secret.json").string());
  EXPECT_EQ(FinishCommand(RunReport(o, out, err), err), kExitSomeFailed);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("illegal base64"), std::string::npos) << err.str();
}

TEST(ReportCmdTest, OutIsRequiredAndNowMustParse) {
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReport(ReportOptions{}, out, err), err), kExitUsage);
  EXPECT_NE(err.str().find("--out FILE is required"), std::string::npos);
  ReportOptions o;
  o.out = testing::WriteTempFile("x.html", "");
  o.now = "yesterday";
  EXPECT_EQ(FinishCommand(RunReport(o, out, err), err), kExitUsage);
}

// The compact bar (zstd level 19, milliseconds a Secret) only where `size`
// measures it: a Secret far under the limit says it was not measured.
TEST(ReportCmdTest, CompactIsMeasuredOnlyNearTheLimitAsSizeDoes) {
  ReportOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.secret.json").string(),
             (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.secret.json").string()};
  const Ran r = Report(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(Count(r.page, "compact not measured;"), 1u);
  EXPECT_EQ(Count(r.page, "<span class=\"compact"), 1u);
  EXPECT_NE(r.page.find("compact, measured for Secrets stored compact or over 90% of the limit"),
            std::string::npos);
}

TEST(ReportCmdTest, AnOperationInProgressForAnHourIsAStaleWarning) {
  ReportOptions o;
  o.files = {testing::WriteTempFile(
      "in-progress.json",
      R"({"name":"web","digest":"","data":{"kind":"ZarfPackageConfig","metadata":{"name":"web"}},)"
      R"("cliVersion":"v0.84.0","generation":1,"deployedComponents":[],)"
      R"("events":[{"type":"Deploy","outcome":"InProgress","timestamp":"2026-12-01T10:00:00Z"}]})")};
  o.now = "2026-12-01T10:10:00Z";
  Ran r = Report(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.page.find("Deploy/InProgress for <time title=\"2026-12-01T10:00:00Z\">10m</time>"),
            std::string::npos);
  EXPECT_EQ(r.page.find("stale"), std::string::npos);
  o.now = "2026-12-01T12:00:00Z";
  r = Report(o);
  EXPECT_NE(r.page.find("Deploy/InProgress for 120m"), std::string::npos);
  EXPECT_NE(r.page.find(": stale, or the operation is still running"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
