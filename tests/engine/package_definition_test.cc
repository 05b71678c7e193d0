#include "engine/package_definition.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "json/go_json.h"
#include "engine/zarf_deploy.h"
#include "json/json_reader.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/record_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

class PackageDefinitionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("pkgdef");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  // `record deploy --package` of `definition` into a new Secret, codec auto
  // (json unless that would be too large for the API server).
  int Deploy(const std::string& definition, const std::string& file = "zarf.json") {
    fs::remove(P("secret.json"));
    std::ofstream(P(file), std::ios::binary) << definition;
    RecordOptions o;
    o.action = "deploy";
    o.session.secret_path = P("secret.json");
    o.package_file = P(file);
    std::ostringstream out;
    err_.str("");
    return FinishCommand(RunRecord(o, out, err_), err_);
  }

  // The bytes of the `data` member of the stored payload, as written; for a
  // compact envelope, as the decoded tree writes them.
  std::string StoredData() {
    auto secret = ReadDocument(P("secret.json"));
    EXPECT_TRUE(secret.ok()) << secret.status().ToString();
    auto payload = SecretValue(*secret, "data");
    if (!payload.ok()) {
      auto pkg = DecodePackage(*secret);
      EXPECT_TRUE(pkg.ok()) << pkg.status().ToString();
      return pkg.ok() ? *json::WriteJson(pkg->data) : "";
    }
    std::string data;
    auto take = [&](std::string_view text) {
      std::string scratch;
      const std::size_t n = json::AppendCompactFromText(&scratch, text, 1024);
      data = text.substr(0, n);
      return n;
    };
    bool taken = false;
    auto tree = json::ParseJsonTakingRaw(*payload, "data", {}, take, &taken);
    EXPECT_TRUE(tree.ok() && taken);
    return taken ? data : "";
  }

  fs::path dir_;
  std::ostringstream err_;
};

TEST_F(PackageDefinitionTest, RecordDeployStoresExactlyWhatZarfStoresForEveryVector) {
  const auto lines = testing::ReadLines("vectors/zarf-package-marshal.jsonl.gz");
  ASSERT_EQ(lines.size(), 98u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto vec = json::ParseJson(lines[i]);
    ASSERT_TRUE(vec.ok());
    const int code = Deploy(vec->Find("input")->as_string());
    if (vec->Find("error") != nullptr) {
      EXPECT_EQ(code, kExitSomeFailed) << "vector " << i;
      EXPECT_NE(err_.str().find("Zarf v0.84.0 refuses this package definition: "),
                std::string::npos)
          << err_.str();
      EXPECT_FALSE(fs::exists(P("secret.json"))) << "vector " << i;
      continue;
    }
    // Zarf stores the definition filtered to the components its deploy
    // selects (engine/zarf_deploy.h).
    auto go = json::ParseJson(vec->Find("go")->as_string());
    ASSERT_TRUE(go.ok());
    auto stored = engine::ZarfDeployDefinition(*go, "", json::Value::Null());
    if (!stored.ok()) {
      EXPECT_EQ(code, kExitSomeFailed) << "vector " << i;
      EXPECT_NE(err_.str().find(stored.status().message()), std::string::npos) << err_.str();
      continue;
    }
    ASSERT_EQ(code, kExitOk) << "vector " << i << ": " << err_.str();
    std::string want;
    ASSERT_TRUE(json::AppendJson(&want, *stored).ok());
    EXPECT_EQ(StoredData(), want) << "vector " << i;
  }
}

TEST_F(PackageDefinitionTest, AYamlDefinitionIsStoredAsZarfWritesIt) {
  ASSERT_EQ(Deploy(testing::kDemoPackageYaml, "zarf.yaml"), kExitOk) << err_.str();
  const std::string unset =
      R"("scripts":{},"actions":{"onCreate":{"defaults":{"shell":{}}},"onDeploy":{"defaults":)"
      R"({"shell":{}}},"onRemove":{"defaults":{"shell":{}}}}})";
  EXPECT_EQ(
      StoredData(),
      R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo","version":"1.0.0"},)"
      R"("build":{"architecture":"","timestamp":"","version":""},"components":[)"
      R"({"name":"web","required":true,"only":{"cluster":{}},"import":{},"charts":[{"name":"podinfo","namespace":"web"}],)" +
          unset +
          R"(,{"name":"db","required":true,"only":{"cluster":{}},"import":{},)"
          R"("manifests":[{"name":"pg","namespace":"data"}],)" +
          unset + R"(,{"name":"jobs","default":true,"only":{"cluster":{}},"import":{},)" + unset +
          R"(],"values":{}})");
  EXPECT_EQ(err_.str().find("warning"), std::string::npos) << err_.str();
}

TEST_F(PackageDefinitionTest, DroppedKeysAreNamedInOneWarning) {
  ASSERT_EQ(Deploy(R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo","labels":{"a":"b"}},)"
                   R"("components":[{"name":"app","optional":true},{"name":"b","optional":1},)"
                   R"({"name":"c","images":[],"x":{"optional":2}}],"x-notes":"n"})"),
            kExitOk)
      << err_.str();
  // A key dropped from several array elements is named once, with a count.
  EXPECT_EQ(err_.str(), "warning: " + P("zarf.json") +
                            ": package definition: dropped keys Zarf v0.84.0 does not declare: "
                            "metadata.labels, components[*].optional (2 keys), components[2].x, "
                            "x-notes\n");
  EXPECT_EQ(StoredData().find("labels"), std::string::npos);
}

TEST_F(PackageDefinitionTest, ADefinitionGoRefusesWritesNothing) {
  EXPECT_EQ(Deploy("kind: ZarfPackageConfig\nmetadata:\n  name: demo\ncomponents:\n"
                   "  - name: app\n    actions:\n      onDeploy:\n        defaults:\n"
                   "          maxTotalSeconds: 1.5\n",
                   "zarf.yaml"),
            kExitSomeFailed);
  EXPECT_EQ(err_.str(), "error: " + P("zarf.yaml") +
                            ": Zarf v0.84.0 refuses this package definition: "
                            "components[0].actions.onDeploy.defaults.maxTotalSeconds: "
                            "expected integer, got number 1.5\n");
  EXPECT_FALSE(fs::exists(P("secret.json")));
}

}  // namespace
}  // namespace zs::tools
