#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "model/config.h"
#include "json/json_reader.h"
#include "kube/input.h"
#include "model/model_json.h"
#include "engine/cache.h"
#include "engine/internal/cache_db.h"
#include "tests/cache_fixture.h"
#include "tests/subprocess_runner.h"
#include "tests/test_random.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/ingest_cmd.h"
#include "cli/prune_cmd.h"
#include "cli/query_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/report_cmd.h"
#include "cli/verify_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;
using testing::PackageSpec;

class CacheCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("cachecmd-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  int Ingest(std::vector<std::string> files, std::string* out, bool full_dump = false) {
    IngestOptions o;
    o.db = db_;
    o.files = std::move(files);
    o.full_dump = full_dump;
    std::ostringstream so, se;
    const int rc = FinishCommand(RunIngest(o, so, se), se);
    *out = so.str();
    return rc;
  }
  std::string Query(QueryOptions o, int want_rc = kExitOk) {
    o.db = db_;
    std::ostringstream so, se;
    EXPECT_EQ(FinishCommand(RunQuery(o, so, se), se), want_rc) << se.str();
    return so.str() + se.str();
  }
  // Ingests `pkg` as package "pkg" and sets *q up to ask config-changed of it.
  void IngestForConfigChanged(const DeployedPackage& pkg, QueryOptions* q) {
    std::string out;
    ASSERT_EQ(Ingest({Write("s.json", testing::SecretJson("pkg", EncodeDeployedPackage(pkg)))}, &out),
              kExitOk);
    q->what = "config-changed";
    q->arg = "pkg";
  }

 public:
  std::string Write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  const std::string& db() const { return db_; }

 protected:
  fs::path dir_;
  std::string db_;
};

TEST_F(CacheCmdTest, IngestAcknowledgesEachSecretAndReingestingTheDumpChangesNothing) {
  const std::string dump = Write("dump.json", testing::ListJson(
      {{"a", testing::Payload(PackageSpec{.name = "a"}, 2)},
       {"b", testing::Payload(PackageSpec{.name = "b"}, 3)}}));
  std::string out;
  ASSERT_EQ(Ingest({dump}, &out), kExitOk);
  EXPECT_EQ(out,
            "ingested a (+6 records, snapshot updated)\n"
            "ingested b (+8 records, snapshot updated)\n");
  ASSERT_EQ(Ingest({dump}, &out), kExitOk);
  EXPECT_EQ(out, "unchanged a\nunchanged b\n");
}

// A List file is read through a reused buffer, any other input whole: the
// same List read both ways is ingested alike, its size included.
TEST_F(CacheCmdTest, AListFileAndTheSameTextReadWholeIngestAlike) {
  const std::string dump = Write("dump.json", testing::ListJson(
      {{"a", testing::Payload(PackageSpec{.name = "a"}, 2)},
       {"bad", "{\"name\": 5}"},
       {"b", testing::Payload(PackageSpec{.name = "b"}, 3)}}));
  auto ingest = [&](std::string* out, std::string* err) {
    IngestOptions o;
    o.db = db_;
    o.files = {dump};
    std::ostringstream so, se;
    const int rc = FinishCommand(RunIngest(o, so, se), se);
    *out = so.str();
    // The cache's path and the time taken left out.
    std::string e = se.str().substr(0, se.str().find(" bytes) in "));
    e.replace(e.find(db_), db_.size(), "DB");
    *err = e;
    return rc;
  };
  std::string file_out, file_err;
  EXPECT_EQ(ingest(&file_out, &file_err), kExitSomeFailed);
  EXPECT_NE(file_err.find("items[1] (secret zarf/zarf-package-bad)"), std::string::npos)
      << file_err;
  EXPECT_NE(file_err.find(std::to_string(fs::file_size(dump))), std::string::npos) << file_err;
  QueryOptions history;
  history.what = "history";
  history.arg = "b";
  const std::string file_history = Query(history);

  db_ = (dir_ / "db-whole").string();
  std::ifstream in(dump);
  ProvideInput(dump, std::string(std::istreambuf_iterator<char>(in), {}));
  std::string whole_out, whole_err;
  EXPECT_EQ(ingest(&whole_out, &whole_err), kExitSomeFailed);
  EXPECT_EQ(whole_out, file_out);
  EXPECT_EQ(whole_err, file_err);
  EXPECT_EQ(Query(history), file_history);
}

TEST_F(CacheCmdTest, ABulkIngestAcknowledgesTheSameAndLeavesAVerifiedCache) {
  const std::string dump = Write("dump.json", testing::ListJson(
      {{"a", testing::Payload(PackageSpec{.name = "a"}, 2)},
       {"b", testing::Payload(PackageSpec{.name = "b"}, 3)}}));
  IngestOptions o;
  o.db = db_;
  o.files = {dump};
  o.bulk = true;
  std::ostringstream so, se;
  ASSERT_EQ(FinishCommand(RunIngest(o, so, se), se), kExitOk) << se.str();
  EXPECT_EQ(so.str(),
            "ingested a (+6 records, snapshot updated)\n"
            "ingested b (+8 records, snapshot updated)\n");
  std::ostringstream vo, ve;
  VerifyOptions verify;
  verify.db = db_;
  EXPECT_EQ(FinishCommand(RunVerify(verify, vo, ve), ve), kExitOk) << vo.str() << ve.str();
  std::string out;
  ASSERT_EQ(Ingest({dump}, &out), kExitOk);  // and then with the WAL again
  EXPECT_EQ(out, "unchanged a\nunchanged b\n");

  o.no_sync = true;
  std::ostringstream so2, se2;
  EXPECT_EQ(FinishCommand(RunIngest(o, so2, se2), se2), kExitUsage);
  EXPECT_NE(se2.str().find("--bulk"), std::string::npos) << se2.str();
}

TEST_F(CacheCmdTest, ABadObjectIsNamedAndTheOthersAreStillIngested) {
  std::string list = testing::ListJson({{"a", testing::Payload(PackageSpec{.name = "a"}, 1)},
                                        {"b", "{\"name\": 5}"}});
  const std::string dump = Write("dump.json", list);
  IngestOptions o;
  o.db = db_;
  o.files = {dump};
  o.full_dump = true;
  std::ostringstream so, se;
  EXPECT_EQ(FinishCommand(RunIngest(o, so, se), se), kExitSomeFailed);
  EXPECT_EQ(so.str(), "ingested a (+4 records, snapshot updated)\n");
  EXPECT_NE(se.str().find("items[1] (secret zarf/zarf-package-b)"), std::string::npos) << se.str();
  EXPECT_NE(se.str().find("not marking any package removed"), std::string::npos) << se.str();
}

TEST_F(CacheCmdTest, AFullDumpMarksVanishedPackagesRemoved) {
  std::string out;
  ASSERT_EQ(Ingest({Write("1.json", testing::ListJson(
                        {{"a", testing::Payload(PackageSpec{.name = "a"}, 1)},
                         {"b", testing::Payload(PackageSpec{.name = "b"}, 1)}}))},
                   &out, true),
            kExitOk);
  const std::string second =
      Write("2.json", testing::ListJson({{"a", testing::Payload(PackageSpec{.name = "a"}, 1)}}));
  ASSERT_EQ(Ingest({second}, &out, true), kExitOk);
  EXPECT_EQ(out, "unchanged a\nremoved b\n");
  ASSERT_EQ(Ingest({second}, &out, true), kExitOk);
  EXPECT_EQ(out, "unchanged a\n");
  QueryOptions q;
  q.what = "status";
  q.output.format = "json";
  auto v = json::ParseJson(Query(q));
  ASSERT_TRUE(v.ok());
  const auto& pkgs = v->Find("packages")->array();
  ASSERT_EQ(pkgs.size(), 2u);
  EXPECT_FALSE(pkgs[0].Find("removed")->as_bool());
  EXPECT_TRUE(pkgs[1].Find("removed")->as_bool());
  EXPECT_EQ(pkgs[1].Find("latestEvent")->StringOr("type"), "Deploy");
  EXPECT_EQ(pkgs[1].Find("latestEvent")->StringOr("outcome"), "Succeeded");
}

TEST_F(CacheCmdTest, QueriesAnswerImageComponentSourceStatusAndHistory) {
  std::string out;
  ASSERT_EQ(Ingest({Write("d.json", testing::ListJson(
                        {{"a", testing::Payload(PackageSpec{.name = "a", .images = {"nginx:1.25"}}, 1)},
                         {"b", testing::Payload(PackageSpec{.name = "b", .images = {"nginx:1.26"},
                                                            .components = {"api"},
                                                            .source = "https://u:p@h/b.tar.zst",
                                                            .last_in_progress = true},
                                                2)}}))},
                   &out),
            kExitOk);
  QueryOptions q;
  q.what = "image";
  q.arg = "docker.io/library/nginx:1.25";
  q.output.format = "json";
  auto v = json::ParseJson(Query(q));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->StringOr("normalized"), "docker.io/library/nginx:1.25");
  ASSERT_EQ(v->Find("packages")->array().size(), 1u);
  EXPECT_EQ(v->Find("packages")->array()[0].StringOr("package"), "a");
  q.arg = "nginx";
  q.by_repository = true;
  EXPECT_EQ(json::ParseJson(Query(q))->Find("packages")->array().size(), 2u);

  q = {};
  q.what = "component";
  q.arg = "api";
  q.now = "2023-11-14T22:14:00Z";
  EXPECT_EQ(Query(q),
            "PACKAGE   VERSION   GEN   LATEST              AGE   IN PROGRESS   REMOVED\n"
            "b         1.2.0     2     Deploy/InProgress   20s   for 20s       no\n");
  q.output.format = "wide";
  EXPECT_NE(Query(q).find("   2023-11-14T22:13:40Z\n"), std::string::npos) << Query(q);
  q.output.format = "table";
  q.what = "source";
  q.arg = "https://u:p@h/b.tar.zst";
  EXPECT_NE(Query(q).find("\nb "), std::string::npos);
  q.what = "status";
  q.arg = "";
  q.outcome = "InProgress";
  EXPECT_EQ(Query(q).find("\na "), std::string::npos);

  q = {};
  q.what = "history";
  q.arg = "b";
  q.no_components = true;
  q.type = "Deploy";
  q.outcome = "InProgress";
  q.now = "2023-11-14T22:14:00Z";
  const std::string history = Query(q);
  EXPECT_EQ(history,
            "SEQ   TIME                   AGE   COMPONENT   EVENT               VERSION   SOURCE\n"
            "1     2023-11-14T22:13:30Z   30s   -           Deploy/InProgress   1.1.0     https://h/b.tar.zst\n"
            "3     2023-11-14T22:13:40Z   20s   -           Deploy/InProgress   1.2.0     https://h/b.tar.zst\n");
  q.arg = "nope";
  EXPECT_NE(Query(q, kExitSomeFailed).find("package nope is not in the cache"), std::string::npos);
}

TEST_F(CacheCmdTest, ConfigChangedComparesDigestsThenDiffs) {
  auto cfg_value = json::ParseJson(R"({"SetVariables":{"DOMAIN":"a.example"},"Values":{"replicas":2}})");
  auto cfg = DecodeDeployConfig(*cfg_value);
  ASSERT_TRUE(cfg.ok());
  DeployedPackage pkg = testing::Snapshot(PackageSpec{}, 2);
  pkg.deploy_config = *json::ParseJson(*MarshalDeployConfig(*cfg));
  pkg.config_digest = *DeployConfigDigest(*cfg);
  QueryOptions q;
  ASSERT_NO_FATAL_FAILURE(IngestForConfigChanged(pkg, &q));
  q.config = Write("same.yaml", "SetVariables:\n  DOMAIN: a.example\nValues:\n  replicas: 2\n");
  EXPECT_EQ(Query(q), "pkg: unchanged (" + pkg.config_digest + ")\n");
  q.config = Write("new.json", R"({"SetVariables":{"DOMAIN":"a.example"},"Values":{"replicas":3}})");
  const std::string changed = Query(q);
  EXPECT_EQ(changed.find("pkg: changed " + pkg.config_digest + " -> sha256:"), 0u) << changed;
  EXPECT_NE(changed.find("~ Values.replicas: 2 -> 3"), std::string::npos) << changed;
}

TEST_F(CacheCmdTest, ConfigChangedSeesAChangedSensitiveValueOnlyThroughTheDigest) {
  const std::string clear = R"({"SetVariables":{"ADMIN_LOGIN":"s3cr3t-1","DOMAIN":"a"}})";
  DeployedPackage pkg = testing::Snapshot(PackageSpec{}, 2);
  pkg.data.Set("variables", *json::ParseJson(R"([{"name":"ADMIN_LOGIN","sensitive":true}])"));
  // As record stores it: the sensitive value redacted, the digest over the clear config.
  pkg.deploy_config =
      *json::ParseJson(R"({"SetVariables":{"ADMIN_LOGIN":"[REDACTED]","DOMAIN":"a"},"Values":null,)"
                       R"("NamespaceOverride":"","ValuesOverridesMap":null})");
  pkg.config_digest = *DeployConfigDigest(*DecodeDeployConfig(*json::ParseJson(clear)));
  QueryOptions q;
  ASSERT_NO_FATAL_FAILURE(IngestForConfigChanged(pkg, &q));
  q.config = Write("same.json", clear);
  EXPECT_EQ(Query(q), "pkg: unchanged (" + pkg.config_digest + ")\n");
  q.config = Write("other.json", R"({"SetVariables":{"ADMIN_LOGIN":"s3cr3t-2","DOMAIN":"a"}})");
  const std::string changed = Query(q);
  EXPECT_NE(changed.find("~ SetVariables: \"[REDACTED]\" -> \"[REDACTED]\"\n"), std::string::npos)
      << changed;
  EXPECT_EQ(changed.find("s3cr3t"), std::string::npos) << changed;
}

TEST_F(CacheCmdTest, VerifyPassesThenReportsACorruptedIndexEntryAndExitsNonZero) {
  std::string out;
  ASSERT_EQ(Ingest({Write("s.json", testing::SecretJson("pkg", testing::Payload(PackageSpec{}, 3)))}, &out),
            kExitOk);
  VerifyOptions v;
  v.db = db_;
  std::ostringstream o1, e1;
  EXPECT_EQ(FinishCommand(RunVerify(v, o1, e1), e1), kExitOk) << o1.str() << e1.str();
  // The row under CACHE PACKAGES RECORDS INDEX ENTRIES PROBLEMS RESULT.
  auto row = [&](const std::string& table) {
    std::istringstream lines(table);
    std::string header, line, word, fields;
    std::getline(lines, header);
    std::getline(lines, line);
    std::istringstream words(line.substr(db_.size()));
    while (words >> word) fields += word + " ";
    return fields;
  };
  EXPECT_EQ(o1.str().rfind("CACHE ", 0), 0u) << o1.str();
  EXPECT_EQ(row(o1.str()), "1 8 6 0 ok ") << o1.str();
  {
    auto db = engine::internal::CacheDb::Open(db_, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->db()->Put(rocksdb::WriteOptions(), (*db)->cf(engine::internal::kCfComponent),
                                 engine::internal::IndexKey("ghost", "pkg"), "").ok());
  }
  std::ostringstream o2, e2;
  EXPECT_EQ(FinishCommand(RunVerify(v, o2, e2), e2), kExitSomeFailed);
  EXPECT_EQ(row(o2.str()), "1 8 7 1 FAILED ") << o2.str();
  EXPECT_NE(o2.str().find("FAILED\n  extra index entry: idx_component 'ghost' -> pkg\n"),
            std::string::npos) << o2.str();
}

TEST_F(CacheCmdTest, ReplayAndPrunePlanReadTheCache) {
  std::string out;
  const std::string a = testing::SecretJson("a", testing::Payload(PackageSpec{.name = "a", .images = {"nginx:1.25", "redis:7"}}, 12));
  ASSERT_EQ(Ingest({Write("a.json", a), Write("b.json", testing::SecretJson("b", testing::Payload(
                                           PackageSpec{.name = "b", .images = {"redis:7"}}, 1)))},
                   &out),
            kExitOk);
  ReplayOptions r;
  r.db = db_;
  r.package = "a";
  r.verify = true;
  std::ostringstream ro, re;
  ASSERT_EQ(FinishCommand(RunReplay(r, ro, re), re), kExitOk) << re.str();
  EXPECT_NE(ro.str().find("\n12    2023-11-14T22:15:21Z   Deploy/Succeeded version 1.12.0 "), std::string::npos) << ro.str();
  EXPECT_NE(ro.str().find("verify: a in " + db_ + ": no drift"), std::string::npos) << ro.str();

  PrunePlanOptions p;
  p.deployed = Write("a-deployed.json", a);
  p.new_package = Write("new.yaml", "kind: ZarfPackageConfig\nmetadata:\n  name: a\ncomponents:\n  - name: web\n  - name: db\n");
  p.db = db_;
  p.output.format = "json";
  std::ostringstream po, pe;
  ASSERT_EQ(FinishCommand(RunPrunePlan(p, po, pe), pe), kExitOk) << pe.str();
  auto plan = json::ParseJson(po.str());
  ASSERT_TRUE(plan.ok()) << po.str();
  EXPECT_EQ(plan->StringOr("imagePruning"), "planned");
  ASSERT_EQ(plan->Find("images")->array().size(), 1u);  // redis:7 is kept by b
  EXPECT_EQ(plan->Find("images")->array()[0].StringOr("normalized"), "docker.io/library/nginx:1.25");
}

// The real binary, SIGKILLed at random points while ingesting with
// `mode_args`, many times: afterwards the cache verifies and every
// acknowledged Secret is in it.
void KillIngestRepeatedly(CacheCmdTest* t, const std::vector<std::string>& mode_args) {
  constexpr int kFiles = 6, kPackages = 150, kKills = 30;
  std::vector<std::string> files;
  for (int k = 1; k <= kFiles; ++k) {
    std::vector<std::pair<std::string, std::string>> secrets;
    for (int p = 0; p < kPackages; ++p) {
      std::string name = "p";  // appended: g++ 12 -Wrestrict false positive
      name += std::to_string(p);
      secrets.emplace_back(name, testing::Payload(PackageSpec{.name = name}, k));
    }
    files.push_back(t->Write("snap" + std::to_string(k) + ".json", testing::ListJson(secrets)));
  }
  // How long one whole run takes here, into a scratch cache: the kills are
  // spread over that window so that most land mid-ingest however fast the
  // machine (or the ingest) is.
  const auto t0 = std::chrono::steady_clock::now();
  const std::string& db = t->db();
  const std::string scratch = db + "-timing";
  testing::ChildSpec timing;
  timing.argv = {ZS_BINARY_PATH, "ingest", "--db", scratch, "-f", files[0]};
  timing.argv.insert(timing.argv.end(), mode_args.begin(), mode_args.end());
  ASSERT_EQ(testing::WaitChild(testing::SpawnChild(timing)).exit_code, 0);
  const int run_us = static_cast<int>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count());
  std::filesystem::remove_all(scratch);
  testing::Rng rng(7);
  std::set<std::pair<int, std::string>> acked;  // (snapshot k, package)
  int killed = 0;
  // At least kKills rounds; on a loaded machine, where a run may end before
  // its kill more often than the timing above predicts, more rounds (up to
  // three times as many) until a quarter of them have landed mid-run.
  for (int round = 0; round < kKills || (killed <= kKills / 4 && round < 3 * kKills); ++round) {
    const int k = 1 + (round % kFiles);
    testing::ChildPipe out;
    ASSERT_TRUE(out.ok());
    testing::ChildSpec spec;
    spec.argv = {ZS_BINARY_PATH, "ingest", "--db", db, "-f", files[k - 1]};
    spec.argv.insert(spec.argv.end(), mode_args.begin(), mode_args.end());
    spec.stdout_fd = out.write_end();
    const pid_t pid = testing::SpawnChild(spec);
    ASSERT_GE(pid, 0);
    out.CloseWriteEnd();
    // Kill before, during and (sometimes) after the Secrets.
    ::usleep(testing::Uniform(rng, 0, run_us * 6 / 5));
    if (testing::SignalChild(pid, SIGKILL).signal != 0) ++killed;
    const std::string text = out.ReadAll();
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (lines.eof()) break;  // a line cut by the kill is no acknowledgement
      std::istringstream words(line);
      std::string verb, package;
      words >> verb >> package;
      ASSERT_TRUE(verb == "ingested" || verb == "unchanged") << line;
      acked.emplace(k, package);
    }
  }
  EXPECT_GT(killed, kKills / 4);
  EXPECT_GT(acked.size(), 100u);
  auto cache = OpenCacheReadOnly(db);
  ASSERT_TRUE(cache.ok()) << cache.status().message();
  auto report = (*cache)->Verify();
  ASSERT_TRUE(report.ok()) << report.status().message();
  for (const std::string& p : report->problems) ADD_FAILURE() << p;
  for (const auto& [k, package] : acked) {
    const DeployedPackage snap = testing::Snapshot(PackageSpec{.name = package}, k);
    auto history = (*cache)->History(package, {});
    ASSERT_TRUE(history.ok()) << package << ": " << history.status().message();
    std::set<std::string> logged;
    for (const auto& h : *history) logged.insert(engine::EncodeRecord(h.record));
    for (const PackageEvent& e : snap.events) {
      engine::Record r;
      r.event = e;
      EXPECT_EQ(logged.count(engine::EncodeRecord(r)), 1u)
          << "snapshot " << k << " of " << package << " was acknowledged but is lost";
    }
  }
}

TEST_F(CacheCmdTest, SigkillDuringIngestLosesNoAcknowledgedSecretAndVerifies) {
  KillIngestRepeatedly(this, {"--sync-every", "8"});
}

// Without the write-ahead log a kill loses whatever was not flushed; what
// was acknowledged was flushed, and no batch is left half-written.
TEST_F(CacheCmdTest, SigkillDuringABulkIngestLosesNoAcknowledgedSecretAndVerifies) {
  KillIngestRepeatedly(this, {"--bulk", "--sync-every", "8"});
}

TEST_F(CacheCmdTest, ReportShowsTheCachesFullHistoryAndDrift) {
  PackageSpec spec;  // keeps 10 events in the Secret
  std::string out;
  ASSERT_EQ(Ingest({Write("s3.json", testing::SecretJson("pkg", testing::Payload(spec, 3)))}, &out), kExitOk);
  const std::string now = Write("s8.json", testing::SecretJson("pkg", testing::Payload(spec, 8)));
  ASSERT_EQ(Ingest({now}, &out), kExitOk);
  auto report = [&](const std::string& secret) {
    ReportOptions o;
    o.files = {secret};
    o.db = db_;
    o.now = "2026-12-01T00:00:00Z";
    o.out = (dir_ / "report.html").string();
    std::ostringstream so, se;
    EXPECT_EQ(FinishCommand(RunReport(o, so, se), se), kExitOk) << se.str();
    return testing::ReadFile(o.out);
  };
  std::string page = report(now);
  EXPECT_NE(page.find("the cache's full history"), std::string::npos);
  // Deploy 1 fell out of the Secret's 10 events; the cache still has it.
  EXPECT_EQ(testing::Payload(spec, 8).find("\"1.1.0\""), std::string::npos);
  EXPECT_NE(page.find(" version 1.1.0"), std::string::npos);
  EXPECT_NE(page.find("component <b>web</b>"), std::string::npos);
  EXPECT_EQ(page.find("drift: "), std::string::npos);
  // A Secret the cache has not seen in this state.
  page = report(Write("s9.json", testing::SecretJson("pkg", testing::Payload(spec, 9))));
  EXPECT_NE(page.find("drift: the cache&#39;s snapshot of pkg differs from this Secret"),
            std::string::npos);
  PackageSpec other;
  other.name = "other";
  page = report(Write("o.json", testing::SecretJson("other", testing::Payload(other, 1))));
  EXPECT_NE(page.find("not in the cache"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
