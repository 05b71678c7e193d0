#include "cli/observe_cmd.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base/base64.h"
#include "engine/cache.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "kube/input.h"
#include "tests/test_dir.h"
#include "cli/common.h"
#include "testing/zarf_writes.h"
#include "cli/observer.h"
#include "cli/replay_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;
using dev::ZarfWrite;
using dev::ZarfWriter;

// A namespace's package Secrets as `kubectl get secrets -o json` prints
// them: each package's current payload, its resourceVersion and the time
// of its last apply. A package without a payload is absent (deleted).
class Cluster {
 public:
  // Applies one write of `writer`'s package; returns the dump after it.
  std::string Apply(const ZarfWriter& writer, const ZarfWrite& write) {
    ++rv_;
    if (write) {
      secrets_[writer.SecretName()] = {*write, rv_};
    } else {
      secrets_.erase(writer.SecretName());
    }
    return Dump();
  }
  std::string Dump() const {
    json::Value items = json::Value::MakeArray();
    for (const auto& [name, s] : secrets_) items.array().push_back(Secret(name, s.payload, s.rv));
    json::Value list = json::Value::MakeObject(
        {{"apiVersion", json::Value::String("v1")}, {"kind", json::Value::String("List")},
         {"items", std::move(items)}});
    return WriteJson(list).value();
  }
  static json::Value Secret(const std::string& name, const std::string& payload, int rv) {
    const std::string time = "2026-03-01T10:" + std::to_string(10 + rv / 60) + ":" +
                             (rv % 60 < 10 ? "0" : "") + std::to_string(rv % 60) + "Z";
    json::Value field = json::Value::MakeObject(
        {{"manager", json::Value::String("zarf")}, {"operation", json::Value::String("Apply")},
         {"time", json::Value::String(time)}});
    json::Value md = json::Value::MakeObject(
        {{"name", json::Value::String(name)}, {"namespace", json::Value::String("zarf")},
         {"resourceVersion", json::Value::String(std::to_string(rv))},
         {"labels", json::Value::MakeObject({{"package-deploy-info", json::Value::String(name)}})},
         {"managedFields", json::Value::MakeArray({field})}});
    return json::Value::MakeObject(
        {{"apiVersion", json::Value::String("v1")}, {"kind", json::Value::String("Secret")},
         {"metadata", std::move(md)}, {"type", json::Value::String("Opaque")},
         {"data", json::Value::MakeObject({{"data", json::Value::String(Base64Encode(payload))}})}});
  }

 private:
  struct Stored {
    std::string payload;
    int rv;
  };
  std::map<std::string, Stored> secrets_;
  int rv_ = 100;
};

class ObserveCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("observecmd");
    db_ = (dir_ / "db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes each dump of `writes` applied in turn to a file; returns the paths.
  std::vector<std::string> Snapshots(const ZarfWriter& writer, const std::vector<ZarfWrite>& writes) {
    std::vector<std::string> paths;
    for (const ZarfWrite& w : writes) paths.push_back(Save(cluster_.Apply(writer, w)));
    return paths;
  }
  std::string Save(const std::string& text) {
    const std::string path = (dir_ / ("snap-" + std::to_string(++files_) + ".json")).string();
    std::ofstream(path) << text;
    return path;
  }
  int Observe(std::vector<std::string> files, std::string* out, std::string* err) {
    ObserveCmdOptions o;
    o.db = db_;
    o.files = std::move(files);
    std::ostringstream so, se;
    const int rc = FinishCommand(RunObserve(o, so, se), se);
    *out = so.str();
    *err = se.str();
    return rc;
  }
  std::vector<std::string> History(const std::string& key) {
    auto cache = engine::OpenCache(db_, {.create_if_missing = false, .read_only = true});
    EXPECT_TRUE(cache.ok()) << cache.status().message();
    std::vector<std::string> out;
    auto h = (*cache)->History(key, {});
    if (!h.ok()) return out;
    for (const engine::HistoryEntry& e : *h) {
      const engine::Record& r = e.record;
      out.push_back(r.kind == engine::RecordKind::kComponentEvent
                        ? r.component + " " + r.component_event.type + "/" + r.component_event.outcome
                        : r.event.type + "/" + r.event.outcome + " " + r.event.source);
    }
    return out;
  }

  fs::path dir_;
  std::string db_;
  Cluster cluster_;
  int files_ = 0;
};

const std::vector<std::string> kDeployThenRemove = {
    "Deploy/InProgress observed", "c0 Deploy/InProgress", "c0 Deploy/Succeeded",
    "c1 Deploy/InProgress",       "c1 Deploy/Failed",     "Deploy/Failed observed",
    "Deploy/InProgress observed", "c0 Deploy/InProgress", "c0 Deploy/Succeeded",
    "c1 Deploy/InProgress",       "c1 Deploy/Succeeded",  "Deploy/Succeeded observed",
    "Remove/InProgress ",         "c1 Remove/InProgress", "c1 Remove/Succeeded",
    "c0 Remove/InProgress",       "c0 Remove/Succeeded",  "Remove/Succeeded "};

TEST_F(ObserveCmdTest, NamespaceDumpsInOrderGiveTheHistoryAndAgainNothing) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 2));
  std::vector<std::string> files = Snapshots(zarf, zarf.Deploy({.components = {}, .fail = "c1", .stop_after = -1}));
  for (const std::string& f : Snapshots(zarf, zarf.Deploy({}))) files.push_back(f);
  for (const std::string& f : Snapshots(zarf, zarf.Remove({}))) files.push_back(f);
  std::string out, err;
  ASSERT_EQ(Observe(files, &out, &err), kExitOk) << err;
  EXPECT_EQ(History("demo"), kDeployThenRemove);
  EXPECT_NE(out.find("demo c1 Deploy/Failed 2026-03-01T10:"), std::string::npos) << out;
  EXPECT_NE(out.find("demo Remove/Succeeded 1.0.0"), std::string::npos) << out;
  struct stat st {};
  ASSERT_EQ(::stat((fs::path(db_) / kObserveStateFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  ASSERT_EQ(Observe(files, &out, &err), kExitOk) << err;
  EXPECT_EQ(out, "");
  EXPECT_NE(err.find("0 events"), std::string::npos) << err;
  EXPECT_EQ(History("demo"), kDeployThenRemove);

  // The cache's own check of the package finds the history consistent.
  ReplayOptions r;
  r.db = db_;
  r.package = "demo";
  r.verify = true;
  std::ostringstream so, se;
  EXPECT_EQ(FinishCommand(RunReplay(r, so, se), se), kExitOk) << so.str() << se.str();
}

TEST_F(ObserveCmdTest, ASnapshotOutOfOrderIsRefusedAndTheRestKept) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 1));
  const std::vector<std::string> files = Snapshots(zarf, zarf.Deploy({}));
  ASSERT_EQ(files.size(), 2u);
  std::string out, err;
  EXPECT_EQ(Observe({files[1], files[0]}, &out, &err), kExitSomeFailed);
  EXPECT_NE(err.find("out of order: resourceVersion 101 is older than 102"), std::string::npos)
      << err;
  EXPECT_NE(err.find(files[0]), std::string::npos) << err;
  const std::vector<std::string> whole = {"Deploy/InProgress observed", "c0 Deploy/InProgress",
                                          "c0 Deploy/Succeeded", "Deploy/Succeeded observed"};
  EXPECT_EQ(History("demo"), whole);
}

TEST_F(ObserveCmdTest, APayloadThatDoesNotDecodeIsNamedAndTheOthersObserved) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 1));
  std::vector<ZarfWrite> writes = zarf.Deploy({});
  const std::string good = Save(cluster_.Apply(zarf, writes.back()));
  json::Value bad = Cluster::Secret("zarf-package-broken", "{\"name\": 3}", 7);
  const std::string bad_file = Save(WriteJson(bad).value());
  std::string out, err;
  EXPECT_EQ(Observe({bad_file, good}, &out, &err), kExitSomeFailed);
  EXPECT_NE(err.find("zarf-package-broken"), std::string::npos) << err;
  EXPECT_NE(err.find("does not decode"), std::string::npos) << err;
  EXPECT_EQ(History("demo").size(), 4u);
}

TEST_F(ObserveCmdTest, ASecretThatIsNotZarfsIsAnError) {
  json::Value tls = json::Value::MakeObject(
      {{"apiVersion", json::Value::String("v1")}, {"kind", json::Value::String("Secret")},
       {"metadata", json::Value::MakeObject({{"name", json::Value::String("web-tls")},
                                             {"namespace", json::Value::String("zarf")}})},
       {"type", json::Value::String("kubernetes.io/tls")},
       {"data", json::Value::MakeObject({{"tls.crt", json::Value::String("eA==")}})}});
  std::string out, err;
  EXPECT_EQ(Observe({Save(WriteJson(tls).value())}, &out, &err), kExitSomeFailed);
  EXPECT_NE(err.find("web-tls"), std::string::npos) << err;
}

TEST_F(ObserveCmdTest, APackageALaterDumpLacksWasDeleted) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 1));
  ZarfWriter other(dev::ZarfDefinition("other", "2.0.0", 1));
  Snapshots(other, other.Deploy({}));
  const std::vector<std::string> deployed = Snapshots(zarf, zarf.Deploy({}));
  std::string out, err;
  ASSERT_EQ(Observe({deployed.back()}, &out, &err), kExitOk) << err;
  // Zarf deletes the Secret: the next dump lacks it.
  const std::string after = Save(cluster_.Apply(zarf, std::nullopt));
  ASSERT_EQ(Observe({after}, &out, &err), kExitOk) << err;
  EXPECT_EQ(History("demo").back(), "Remove/Succeeded ");
  EXPECT_EQ(History("other").back(), "Deploy/Succeeded observed");
}

// `text` with each time that has a fraction of a second as NOW: a deletion
// is dated when it is observed (to the nanosecond), while the dumps' own
// times have no fraction.
std::string WithoutObservationTimes(std::string text) {
  constexpr std::size_t kNone = std::string::npos;
  for (std::size_t dot = text.find('.'); dot != kNone; dot = text.find('.', dot + 1)) {
    const std::size_t z = text.find_first_not_of("0123456789", dot + 1);
    const std::size_t t = text.rfind('T', dot);
    if (z == kNone || z == dot + 1 || text[z] != 'Z' || t == kNone || t < 10) continue;
    if (text.find_first_not_of("0123456789:", t + 1) != dot) continue;
    const std::size_t begin = t - 10;  // YYYY-MM-DD
    if (text.find_first_not_of("0123456789-", begin) != t) continue;
    text.replace(begin, z + 1 - begin, "NOW");
    dot = begin;
  }
  return text;
}

// A dump file is read through a reused buffer, any other input whole: the
// same dumps read both ways give the same output, errors and history.
TEST_F(ObserveCmdTest, DumpFilesAndTheSameTextsReadWholeObserveAlike) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 2));
  ZarfWriter other(dev::ZarfDefinition("other", "2.0.0", 1));
  std::vector<std::string> files = Snapshots(other, other.Deploy({}));
  for (const std::string& f :
       Snapshots(zarf, zarf.Deploy({.components = {}, .fail = "c1", .stop_after = -1}))) {
    files.push_back(f);
  }
  for (const std::string& f : Snapshots(zarf, zarf.Remove({}))) files.push_back(f);
  files.push_back(Save(cluster_.Apply(other, std::nullopt)));
  // One dump with a payload that does not decode among good ones.
  json::Value dump = json::ParseJson(cluster_.Dump()).value();
  dump.Find("items")->array().push_back(Cluster::Secret("zarf-package-broken", "{\"name\": 3}", 7));
  files.push_back(Save(WriteJson(dump).value()));

  std::string file_out, file_err;
  const int file_rc = Observe(files, &file_out, &file_err);
  const std::vector<std::string> file_history = History("demo");
  EXPECT_EQ(file_rc, kExitSomeFailed) << file_err;
  EXPECT_NE(file_err.find("zarf-package-broken"), std::string::npos) << file_err;

  db_ = (dir_ / "db-whole").string();
  for (const std::string& f : files) {
    std::ifstream in(f);
    ProvideInput(f, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  std::string whole_out, whole_err;
  EXPECT_EQ(Observe(files, &whole_out, &whole_err), file_rc);
  EXPECT_EQ(WithoutObservationTimes(whole_out), WithoutObservationTimes(file_out));
  EXPECT_EQ(whole_err, file_err);
  EXPECT_EQ(History("demo"), file_history);
  EXPECT_EQ(History("other").back(), "Remove/Succeeded ");
}

}  // namespace
}  // namespace zs::tools
