// Zarf conformance: package Secrets written by the real zarf-state binary
// (migrated from every era's fixtures, then recorded on) are read by
// zarf-conformance, a Go program decoding them with Zarf v0.84.0's and
// ZEP-0026's own types (tests/conformance/, docs/zarf-conformance.md).
// The checker's own tests sit at the end: each check is shown to fail.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/base64.h"
#include "json/json_reader.h"
#include "gtest/gtest.h"
#include "tests/run_binary.h"
#include "tests/test_util.h"

namespace {

namespace fs = std::filesystem;
using zs::testing::DataDir;
using zs::testing::ReadFile;
using zs::testing::RunBinary;
using zs::testing::RunResult;

class ConformanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name =
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir_ = fs::path(::testing::TempDir()) /
           ("conformance-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  RunResult Zs(const std::vector<std::string>& args) {
    return RunBinary(ZS_BINARY_PATH, args, dir_);
  }
  RunResult Check(const std::vector<std::string>& args) {
    return RunBinary(ZS_CONFORMANCE_PATH, args, dir_);
  }

  // Runs the checker and returns "" when it passed, else what it printed.
  std::string Failures(const std::vector<std::string>& args) {
    const RunResult r = Check(args);
    if (r.exit_code == 0) return "";
    std::string shown;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("skipped ", 0) != 0 && line.rfind("ok ", 0) != 0 &&
          line.rfind("listed ", 0) != 0) {
        shown += line + "\n";
      }
    }
    return "exit " + std::to_string(r.exit_code) + "\n" + shown + r.err;
  }

  std::string Path(const std::string& name) const {
    return (dir_ / name).string();
  }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return Path(name);
  }

  fs::path dir_;
};

// ---- Secrets written by zarf-state, from every era's package fixtures ----

std::vector<fs::path> PackageFixtures() {
  std::vector<fs::path> out;
  for (const fs::path& p : zs::testing::LegacyFiles(".secret.json")) {
    if (p.filename().string().rfind("pkg-", 0) == 0) out.push_back(p);
  }
  return out;
}

// "e04-v0.22.0-v0.25.2/pkg-small-dos-games.secret.json" ->
// "e04_pkg_small_dos_games".
std::string FixtureName(const ::testing::TestParamInfo<fs::path>& info) {
  std::string era = info.param.parent_path().filename().string().substr(0, 3);
  std::string file = info.param.filename().string();
  file = file.substr(0, file.size() - std::string(".secret.json").size());
  std::string name = era + "_" + file;
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class WrittenSecretsTest : public ConformanceTest,
                           public ::testing::WithParamInterface<fs::path> {
 protected:
  // The last release of the fixture's era ("e04-v0.22.0-v0.25.2" -> "v0.25.2").
  std::string EraRelease() const {
    const std::string era = GetParam().parent_path().filename().string();
    return era.substr(era.rfind('-') + 1);
  }
  bool EraIsV084Shape() const { return EraRelease() == "v0.84.0"; }

  // Migrates the fixture into file `out`; returns whether it was written. The
  // one accepted refusal is a Secret over the API server's size limit (the
  // near-1 MiB fixtures as JSON), which no Zarf could store either.
  bool Migrate(const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"migrate", "-f", GetParam().string(),
                                     "--out", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = Zs(args);
    if (r.exit_code != 0 && r.err.find("TooLarge") != std::string::npos) {
      EXPECT_TRUE(!fs::exists(Path(out)) || fs::file_size(Path(out)) == 0)
          << out << ": a refused Secret was written";
      return false;
    }
    EXPECT_EQ(r.exit_code, 0) << "migrate " << out << ": " << r.err;
    return r.exit_code == 0;
  }
};

// Every Secret that zarf-state writes for the ZEP-0026 shape: Zarf v0.84
// lists it, and a Zarf with ZEP-0026's types reads and writes back the same
// bytes.
TEST_P(WrittenSecretsTest, ZarfListsAndRoundTripsEveryWrittenSecret) {
  std::vector<std::string> written;
  for (const auto& [name, args] :
       std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"v2.json", {"--codec", "auto"}},
           {"v2-default.json", {}},
           {"v2-json.json", {"--codec", "json"}},
           {"v2-compact.json", {"--codec", "compact"}}}) {
    if (Migrate(name, args)) written.push_back(name);
  }
  ASSERT_TRUE(fs::exists(Path("v2.json")));  // the codec picks a size that fits

  const RunResult def = Check({"payload", "-definition", GetParam().string()});
  ASSERT_EQ(def.exit_code, 0) << def.err;
  const std::string def_path = Write("definition.json", def.out);
  const RunResult inspect = Zs({"inspect", "-f", Path("v2.json"), "-o", "json"});
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  auto report = zs::json::ParseJson(inspect.out);
  ASSERT_TRUE(report.ok()) << inspect.out;
  // A package deployed with a namespace override lives in the Secret named
  // for it: a redeploy into that Secret says the same override.
  const std::string secret_name(report->array().at(0).StringOr("secretName"));
  const std::size_t at = secret_name.find("-override-");
  const std::string config =
      at == std::string::npos
          ? "{}"
          : R"({"NamespaceOverride":")" + secret_name.substr(at + 10) + R"("})";
  fs::copy_file(Path("v2.json"), Path("deployed.json"));
  const RunResult deploy = Zs({"record", "deploy", "-f", Path("deployed.json"), "--package",
                               def_path, "--config", config});
  EXPECT_EQ(deploy.exit_code, 0) << "record deploy: " << deploy.err;
  // A remove of every component deletes the Secret, as Zarf does; a remove
  // of one of several leaves a Secret to check.
  fs::copy_file(Path("v2.json"), Path("removed-all.json"));
  const RunResult remove_all = Zs({"record", "remove", "-f", Path("removed-all.json")});
  EXPECT_EQ(remove_all.exit_code, 0) << "record remove: " << remove_all.err;
  EXPECT_FALSE(fs::exists(Path("removed-all.json"))) << "a remove of every component";
  const zs::json::Value* components = report->array().at(0).Find("components");
  if (components != nullptr && components->array().size() >= 2) {
    fs::copy_file(Path("v2.json"), Path("removed.json"));
    const std::string first(components->array()[0].StringOr("name"));
    const RunResult remove =
        Zs({"record", "remove", "-f", Path("removed.json"), "--components", first});
    EXPECT_EQ(remove.exit_code, 0) << "record remove: " << remove.err;
    written.push_back("removed.json");
  }
  const RunResult fresh =
      Zs({"record", "deploy", "-f", Path("new.json"), "--package", def_path, "--config", config});
  EXPECT_EQ(fresh.exit_code, 0) << "record deploy (new Secret): " << fresh.err;
  written.insert(written.end(), {"deployed.json", "new.json"});

  for (const std::string& name : written) {
    if (!fs::exists(Path(name))) {
      ADD_FAILURE() << name << " was not written";
      continue;
    }
    EXPECT_EQ(Failures({"list", Path(name)}), "") << name << ": list";
    // A Secret built from a package definition stores Go's bytes of it.
    std::vector<std::string> roundtrip = {"roundtrip", Path(name)};
    if (name == "new.json")
      roundtrip.insert(roundtrip.begin() + 1, "-data=exact");
    EXPECT_EQ(Failures(roundtrip), "") << name << ": roundtrip";
  }
}

// --to legacy writes P10, the shape Zarf v0.84 itself writes: v0.84 lists
// it and writes it back unchanged.
TEST_P(WrittenSecretsTest, LegacySecretsAreWhatZarfV084Writes) {
  if (!Migrate("legacy.json", {"--to", "legacy"})) return;
  EXPECT_EQ(Failures({"list", Path("legacy.json")}), "") << "list";
  EXPECT_EQ(Failures({"roundtrip", "-types=v084", Path("legacy.json")}), "")
      << "roundtrip";
}

// --to the era's own release: v0.84 lists it (an upgrade reads it), and its
// payload is what that release wrote (v0.84's types for the e22 shape; the
// fixture's own bytes for older releases, whose types are not v0.84's).
TEST_P(WrittenSecretsTest, EraSecretsAreWhatTheirReleaseWrote) {
  if (!Migrate("era.json", {"--to", EraRelease()})) return;
  EXPECT_EQ(Failures({"list", Path("era.json")}), "") << "list";
  if (EraIsV084Shape()) {
    EXPECT_EQ(Failures({"roundtrip", "-types=v084", Path("era.json")}), "")
        << "roundtrip";
  } else {
    const RunResult p = Check({"payload", Path("era.json")});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    std::string fixture_payload = GetParam().string();
    fixture_payload.replace(fixture_payload.rfind(".secret.json"), 12,
                            ".payload.json");
    // A top-level `events` is a ZEP-0026 history whatever its types; an
    // era's shape has none, so that member alone does not come back.
    static const std::regex kEvents(R"re(,"events":\[[^\]]*\])re");
    EXPECT_TRUE(p.out == std::regex_replace(ReadFile(fixture_payload), kEvents, ""))
        << "payload differs from " << fixture_payload;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, WrittenSecretsTest,
                         ::testing::ValuesIn(PackageFixtures()), FixtureName);

// ---- The checker on the fixtures, which hold what each Zarf release wrote
// ----

std::vector<std::string> Strings(const std::vector<fs::path>& paths) {
  return std::vector<std::string>(paths.begin(), paths.end());
}

TEST_F(ConformanceTest, ZarfV084ListsTheSecretsOfEveryRelease) {
  std::vector<std::string> args =
      Strings(zs::testing::LegacyFiles("all-secrets.list.json"));
  args.insert(args.begin(), "list");
  EXPECT_EQ(Failures(args), "");
  for (const std::string& malformed :
       Strings(zs::testing::LegacyFiles(".secret.json"))) {
    if (malformed.find("/malformed-") == std::string::npos) continue;
    EXPECT_EQ(Check({"list", malformed}).exit_code, 1) << malformed;
  }
}

// The checker is not stricter than Go: what v0.84 wrote comes back unchanged.
TEST_F(ConformanceTest, ZarfV084sOwnSecretsRoundTripUnchanged) {
  std::vector<std::string> args = {"roundtrip", "-types=v084"};
  int n = 0;
  for (const fs::path& p : PackageFixtures()) {
    if (p.string().find("/e22-") != std::string::npos) {
      args.push_back(p.string());
      ++n;
    }
  }
  EXPECT_GE(n, 8);
  EXPECT_EQ(Failures(args), "");
}

// ---- The checker can fail ----

// A v2 payload exactly as Go writes it with ZEP-0026's types, plus keys those
// types do not declare (which a Zarf write-back drops and roundtrip ignores).
constexpr const char* kGoodPayload =
    R"({"name":"demo","digest":"","data":{"kind":"ZarfPackageConfig","metadata":{"name":"demo"},)"
    R"("build":{"architecture":"","timestamp":"","version":""},"components":[{"name":"web",)"
    R"("only":{"cluster":{}},"import":{},"scripts":{},"actions":{"onCreate":{"defaults":)"
    R"({"shell":{}}},"onDeploy":{"defaults":{"shell":{}}},"onRemove":{"defaults":{"shell":{}}}}}],)"
    R"("values":{}},"cliVersion":"v0.84.0","generation":1,"deployedComponents":[{"name":"web",)"
    R"("installedCharts":[],"status":"Succeeded","observedGeneration":1,"lastEvent":{"type":)"
    R"("Deploy","outcome":"Succeeded","timestamp":"2025-01-02T03:04:05Z"},"unknownKey":[1]}],)"
    R"("packageConnectivity":"","deployConfig":{"a":"b"},"events":[{"type":"Deploy","outcome":)"
    R"("Succeeded","timestamp":"2025-01-02T03:04:05Z","version":"1.0.0",)"
    R"("configDigest":"sha256:0"}]})";

std::string Replace(std::string text, const std::string& from,
                    const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string PackageSecret(
    const std::string& data_key, const std::string& payload,
    const std::string& name = "zarf-package-demo",
    const std::string& labels = R"("package-deploy-info":"demo")") {
  return R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":")" + name +
         R"(","namespace":"zarf","labels":{)" + labels +
         R"(}},"type":"Opaque","data":{")" + data_key + R"(":")" +
         zs::Base64Encode(payload) + R"("}})";
}

TEST_F(ConformanceTest, AGoExactPayloadPassesListAndRoundtrip) {
  const std::string secret =
      Write("good.json", PackageSecret("data", kGoodPayload));
  EXPECT_EQ(Failures({"list", secret}), "");
  EXPECT_EQ(Failures({"roundtrip", secret}), "");
  EXPECT_EQ(Failures({"roundtrip", "-data=exact", secret}), "");
}

TEST_F(ConformanceTest, ListFailsOnALabelledSecretWithoutData) {
  const std::string secret =
      Write("compact.json", PackageSecret("data-compact", kGoodPayload));
  const RunResult r = Check({"list", secret});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL " + secret +
                       ": zarf/zarf-package-demo: Zarf v0.84 cannot decode "
                       "data: unexpected end of JSON input"),
            std::string::npos)
      << r.out;
  // Without the label, Zarf never looks at it.
  const std::string unlabelled =
      Write("unlabelled.json",
            PackageSecret("data-compact", kGoodPayload, "zarf-package-demo",
                          R"("app.kubernetes.io/managed-by":"zarf")"));
  EXPECT_EQ(Failures({"list", unlabelled}), "");
}

TEST_F(ConformanceTest, ListFailsOnAWrongTypeAnywhere) {
  const std::string generation =
      Write("generation.json",
            PackageSecret("data", Replace(kGoodPayload, R"("generation":1)",
                                          R"("generation":"1")")));
  const RunResult r = Check({"list", generation});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("cannot unmarshal string into Go struct field "
                       "DeployedPackage.generation "
                       "of type int"),
            std::string::npos)
      << r.out;
  // Deep in the package definition: required is a *bool.
  const std::string required = Write(
      "required.json",
      PackageSecret("data", Replace(kGoodPayload, R"({"name":"web",)",
                                    R"({"name":"web","required":"yes",)")));
  EXPECT_NE(Failures({"list", required}), "");
}

TEST_F(ConformanceTest, ListSkipsWhatZarfDoesNotList) {
  const std::string list =
      Write("list.json", R"({"kind":"List","items":[)" +
                             PackageSecret("data", "not json", "zarf-state",
                                           R"("package-deploy-info":"x")") +
                             "," +
                             PackageSecret("data", "not json", "zarf-package-x",
                                           R"("other":"x")") +
                             "]}");
  const RunResult r = Check({"list", list});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("zarf/zarf-state: name without prefix zarf-package-"),
            std::string::npos);
  EXPECT_NE(r.out.find("zarf/zarf-package-x: no label package-deploy-info"),
            std::string::npos);
}

TEST_F(ConformanceTest, RoundtripFailsOnTwoFieldsSwapped) {
  const std::string secret =
      Write("swapped.json",
            PackageSecret("data",
                          Replace(kGoodPayload,
                                  R"("cliVersion":"v0.84.0","generation":1)",
                                  R"("generation":1,"cliVersion":"v0.84.0")")));
  EXPECT_EQ(Failures({"list", secret}), "");  // Go reads it,
  const RunResult r = Check({"roundtrip", secret});
  EXPECT_EQ(r.exit_code, 1);  // but writes it back otherwise.
  EXPECT_NE(r.out.find("differs at byte"), std::string::npos) << r.out;
}

TEST_F(ConformanceTest, RoundtripFailsOnAMissingLastEvent) {
  const std::string secret = Write(
      "no-last-event.json",
      PackageSecret(
          "data",
          Replace(kGoodPayload,
                  R"(,"lastEvent":{"type":"Deploy","outcome":"Succeeded",)"
                  R"("timestamp":"2025-01-02T03:04:05Z"})",
                  "")));
  const RunResult r = Check({"roundtrip", secret});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("near deployedComponents[0].lastEvent"),
            std::string::npos)
      << r.out;
}

TEST_F(ConformanceTest, ExactDataFailsOnADefinitionGoWouldRewrite) {
  const std::string secret =
      Write("extra.json",
            PackageSecret("data", Replace(kGoodPayload, R"("values":{}})",
                                          R"("values":{},"future":1})")));
  EXPECT_EQ(Failures({"roundtrip", secret}), "");
  const RunResult r = Check({"roundtrip", "-data=exact", secret});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("-data=exact: differs at byte"), std::string::npos)
      << r.out;
}

TEST_F(ConformanceTest, TheGoTypesMatchZarfsFieldTable) {
  const std::string table =
      (DataDir() / "zarf" / "types-v0.84.0.json").string();
  EXPECT_EQ(Failures({"check-types", table}), "");
  const std::string renamed =
      Write("renamed.json",
            Replace(ReadFile(table), R"("json": "observedGeneration")",
                    R"("json": "observedGen")"));
  const RunResult r = Check({"check-types", renamed});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL DeployedComponent field 3"), std::string::npos)
      << r.out;
}

TEST_F(ConformanceTest, TheGoTypesMarshalPackagesAsZarfDoes) {
  const std::string vectors =
      (DataDir() / "vectors" / "zarf-package-marshal.jsonl.gz").string();
  EXPECT_EQ(Failures({"check-vectors", vectors}), "");
  // Wrong expectations fail: omitted struct fields, and an input Go refuses.
  const std::string wrong = Write(
      "wrong.jsonl",
      R"({"input":"{\"kind\":\"ZarfPackageConfig\",\"components\":[]}",)"
      R"("go":"{\"kind\":\"ZarfPackageConfig\",\"components\":[]}"})"
      "\n"
      R"({"input":"{\"kind\":\"ZarfPackageConfig\",\"components\":[]}","error":"refused"})"
      "\n");
  const RunResult r = Check({"check-vectors", wrong});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(":1: differs at byte"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(":2: Go refuses this input"), std::string::npos)
      << r.out;
}

}  // namespace
