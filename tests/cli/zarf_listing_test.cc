// No Secret a command writes may break Zarf's package listing: Zarf lists
// every Secret labelled `package-deploy-info` (names `zarf-package-*`) and
// decodes each one's `data`; one failure fails `zarf package list` for every
// package. Checked on the near-1 MiB fixtures of every era, where the codec
// choice is made, through the real binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs {
namespace {

namespace fs = std::filesystem;

class ZarfListingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("listing");
  }
  void TearDown() override { fs::remove_all(dir_); }

  testing::RunResult Run(const std::vector<std::string>& args) {
    return testing::RunBinary(ZS_BINARY_PATH, args, dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

  fs::path dir_;
};

// What Zarf's listing does with `text`: for each listed Secret, an empty
// string, or why Zarf would fail the whole list. Also counts the Secrets
// that are not listed (compact ones carry our label instead).
struct Listing {
  std::vector<std::string> listed;  // "" = decodes
  int unlisted_packages = 0;
};

Listing ListAsZarf(const std::string& text) {
  Listing l;
  auto input = ReadInput(text, "output");
  EXPECT_TRUE(input.ok()) << input.status().ToString();
  if (!input.ok()) return l;
  for (const InputObject& in : input->objects) {
    if (!in.is_secret || in.payload_kind != PayloadKind::kPackage) continue;
    if (!ListedByZarf(in.object)) {
      ++l.unlisted_packages;
      continue;
    }
    Result<std::string> data = SecretValue(in.object, kPackageDataKey);
    if (!data.ok()) {
      l.listed.push_back("no data key: " + data.status().ToString());
      continue;
    }
    Result<DeployedPackage> pkg = ParseDeployedPackage(*data);
    l.listed.push_back(pkg.ok() ? "" : pkg.status().ToString());
  }
  return l;
}

std::vector<fs::path> NearLimitFixtures() {
  std::vector<fs::path> out;
  for (const fs::path& p : testing::LegacyFiles("pkg-edge-near-1mib.secret.json")) out.push_back(p);
  return out;
}

TEST_F(ZarfListingTest, TheCheckFailsOnASecretZarfCannotDecode) {
  // A compact Secret that still carried Zarf's label: what must never be written.
  std::string secret = testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json");
  auto in = ReadInput(secret, "s");
  ASSERT_TRUE(in.ok());
  json::Value object = in->objects.at(0).object;
  ASSERT_TRUE(StorePackage(&object, *DecodePackage(object), {.codec = PackageCodec::kCompact}).ok());
  ASSERT_FALSE(ListedByZarf(object));
  object.Find("metadata")->Find("labels")->Set(kPackageLabel, json::Value::String("dos-games"));
  const Listing l = ListAsZarf(WriteObject(object, TextFormat::kJson));
  ASSERT_EQ(l.listed.size(), 1u);
  EXPECT_NE(l.listed[0].find("no data key"), std::string::npos);
}

TEST_F(ZarfListingTest, MigrateOfEveryEraNearTheLimitLeavesZarfAbleToList) {
  const std::vector<fs::path> fixtures = NearLimitFixtures();
  ASSERT_GE(fixtures.size(), 3u);
  for (const fs::path& p : fixtures) {
    SCOPED_TRACE(p.string());
    // Without --codec a package that fits only compact is left out, so
    // what is written is always Zarf's; with --codec auto, see below.
    const testing::RunResult plain = Run({"migrate", "-f", p.string()});
    if (plain.exit_code != 0) {
      EXPECT_NE(plain.err.find("fits only with the compact codec"), std::string::npos) << plain.err;
      EXPECT_EQ(plain.out, "");
    }
    const testing::RunResult r = Run({"migrate", "-f", p.string(), "--codec", "auto"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Listing l = ListAsZarf(r.out);
    for (const std::string& why : l.listed) EXPECT_EQ(why, "");
    // Whatever Zarf does not list was said on stderr.
    if (l.unlisted_packages > 0) {
      EXPECT_NE(r.err.find("Zarf's package list"), std::string::npos) << r.err;
    }
    EXPECT_EQ(l.listed.size() + l.unlisted_packages, 1u);
  }
}

TEST_F(ZarfListingTest, RecordOfEveryEraNearTheLimitLeavesZarfAbleToList) {
  for (const fs::path& p : NearLimitFixtures()) {
    SCOPED_TRACE(p.string());
    const std::string secret = Write("s.json", testing::ReadFile(p));
    // A deploy of its own definition: every component gains events.
    auto in = ReadInput(testing::ReadFile(p), "fixture");
    ASSERT_TRUE(in.ok());
    const std::string def = WriteObject(DecodePackage(in->objects.at(0).object)->data, TextFormat::kJson);
    const std::string def_path = Write("zarf.json", def);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"record", "deploy", "-f", secret, "--package", def_path},
          std::vector<std::string>{"record", "remove", "-f", secret, "--components", "service-0001"},
          std::vector<std::string>{"record", "deploy", "-f", secret, "--package", def_path}}) {
      const testing::RunResult r = Run(args);
      ASSERT_EQ(r.exit_code, 0) << args[1] << ": " << r.err;
      const Listing l = ListAsZarf(testing::ReadFile(secret));
      for (const std::string& why : l.listed) EXPECT_EQ(why, "") << args[1];
      if (l.unlisted_packages > 0) {
        EXPECT_NE(r.err.find("Zarf's package list"), std::string::npos) << r.err;
      }
      EXPECT_EQ(l.listed.size() + l.unlisted_packages, 1u);
    }
  }
}

}  // namespace
}  // namespace zs

namespace zs {
namespace {

TEST_F(ZarfListingTest, InspectStatusAndSizeMarkASecretZarfCannotRead) {
  const std::string fixture =
      (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json").string();
  const testing::RunResult compact = Run({"migrate", "-f", fixture, "--codec", "compact"});
  ASSERT_EQ(compact.exit_code, 0) << compact.err;
  const std::string path = Write("compact.json", compact.out);
  for (const auto& [file, readable] : {std::pair{fixture, true}, std::pair{path, false}}) {
    SCOPED_TRACE(file);
    const testing::RunResult inspect = Run({"inspect", "-f", file, "-o", "json"});
    ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
    auto report = json::ParseJson(inspect.out);
    ASSERT_TRUE(report.ok()) << inspect.out;
    const json::Value& pkg = report->array().at(0);
    EXPECT_EQ(pkg.Find("zarfReadable")->as_bool(), readable);
    EXPECT_EQ(pkg.Find("zarfNote") != nullptr, !readable);
    for (const char* command : {"inspect", "status", "size"}) {
      const testing::RunResult table = Run({command, "-f", file});
      ASSERT_EQ(table.exit_code, 0) << command << ": " << table.err;
      const std::string said = table.out + table.err;
      EXPECT_EQ(said.find("CANNOT READ") != std::string::npos, !readable) << command << ": " << said;
    }
  }
}

}  // namespace
}  // namespace zs
