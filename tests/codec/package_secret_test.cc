#include "codec/package_secret.h"

#include <gtest/gtest.h>

#include "codec/compact.h"
#include "codec/json_reader.h"
#include "codec/model_json.h"
#include "tests/test_util.h"

namespace zs {
namespace {

const std::string kEra = "legacy/e22-v0.80.0-v0.84.0/";

json::Value SecretFixture(const std::string& name) {
  auto in = ReadInput(testing::ReadData(kEra + name), name);
  return in->objects.at(0).object;
}

// A package whose JSON grows past the limit: many components with images.
DeployedPackage Huge(std::size_t components) {
  DeployedPackage pkg = *ParseDeployedPackage(testing::ReadData(kEra + "pkg-small-dos-games.payload.json"));
  json::Array comps;
  for (std::size_t i = 0; i < components; ++i) {
    json::Array images;
    for (int k = 0; k < 20; ++k) {
      images.push_back(json::Value::String("ghcr.io/acme/service-" + std::to_string(i) + "-" +
                                           std::to_string(k) + ":1." + std::to_string(k) + ".0"));
    }
    comps.push_back(json::Value::MakeObject({{"name", json::Value::String("component-" + std::to_string(i))},
                                             {"images", json::Value::MakeArray(std::move(images))}}));
  }
  pkg.data.Set("components", json::Value::MakeArray(std::move(comps)));
  return pkg;
}

TEST(PackageSecretTest, AutoKeepsJsonWhileItFitsUnderTheThreshold) {
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const json::Value before = secret;
  const DeployedPackage pkg = *DecodePackage(secret);
  auto codec = StorePackage(&secret, pkg);
  ASSERT_TRUE(codec.ok());
  EXPECT_EQ(*codec, PackageCodec::kJson);
  EXPECT_EQ(secret, before);  // same bytes back: nothing changed
}

TEST(PackageSecretTest, CompactSecretsUseTheirOwnKeyAndAnnotationAndReadBack) {
  json::Value secret = SecretFixture("pkg-realistic-init-failed.secret.json");
  const DeployedPackage pkg = *DecodePackage(secret);
  auto codec = StorePackage(&secret, pkg, {.codec = PackageCodec::kCompact});
  ASSERT_TRUE(codec.ok()) << codec.status().ToString();
  EXPECT_EQ(*codec, PackageCodec::kCompact);
  EXPECT_EQ(secret.Find("data")->Find("data"), nullptr);  // Zarf's key is gone
  EXPECT_NE(secret.Find("data")->Find("data-compact"), nullptr);
  EXPECT_EQ(secret.Find("metadata")->Find("annotations")->StringOr("zarf-state.dev/codec"), "compact/v1");
  EXPECT_EQ(secret.Find("metadata")->StringOr("resourceVersion"),
            SecretFixture("pkg-realistic-init-failed.secret.json").Find("metadata")->StringOr("resourceVersion"));
  auto back = DecodePackage(secret);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(EncodeDeployedPackage(*back), EncodeDeployedPackage(pkg));
  // The input reader sees the compact payload, and sniffs it.
  auto in = ReadInput(WriteObject(secret, TextFormat::kJson), "compact");
  ASSERT_TRUE(in->objects[0].error.ok()) << in->objects[0].error.ToString();
  EXPECT_EQ(EncodeDeployedPackage(*DecodePackagePayload(in->objects[0].payload)), EncodeDeployedPackage(pkg));
  // Back to JSON: the compact key and the annotation go away.
  ASSERT_TRUE(StorePackage(&secret, pkg, {.codec = PackageCodec::kJson}).ok());
  EXPECT_EQ(secret.Find("data")->Find("data-compact"), nullptr);
  EXPECT_EQ(secret.Find("metadata")->Find("annotations"), nullptr);
}

TEST(PackageSecretTest, AutoSwitchesToCompactPastTheThreshold) {
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const DeployedPackage pkg = *DecodePackage(secret);
  auto codec = StorePackage(&secret, pkg, {.codec = PackageCodec::kAuto, .auto_threshold = 100});
  ASSERT_TRUE(codec.ok());
  EXPECT_EQ(*codec, PackageCodec::kCompact);
}

TEST(PackageSecretTest, TheGuardRefusesAnOverLimitSecretAndChangesNothing) {
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const json::Value before = secret;
  const DeployedPackage big = Huge(1500);
  ASSERT_GT(EncodeDeployedPackage(big).size(), kSecretSizeLimit);
  auto codec = StorePackage(&secret, big, {.codec = PackageCodec::kJson});
  ASSERT_FALSE(codec.ok());
  EXPECT_EQ(codec.status().code(), Status::Code::kTooLarge);
  const std::string_view msg = codec.status().message();
  EXPECT_NE(msg.find("package dos-games"), std::string_view::npos) << msg;
  EXPECT_NE(msg.find("limit of 1048576"), std::string_view::npos) << msg;
  EXPECT_NE(msg.find("biggest parts: data.components "), std::string_view::npos) << msg;
  EXPECT_EQ(secret, before);
  // The same package fits when compact.
  EXPECT_TRUE(StorePackage(&secret, big, {.codec = PackageCodec::kCompact}).ok());
}

TEST(PackageSecretTest, BiggestContributorsAreSortedAndNamed) {
  const DeployedPackage pkg = Huge(50);
  auto parts = BiggestContributors(pkg, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].first, "data.components");
  EXPECT_GE(parts[0].second, parts[1].second);
  EXPECT_GE(parts[1].second, parts[2].second);
}

TEST(PackageSecretTest, CodecNamesParse) {
  EXPECT_EQ(*ParsePackageCodec("json"), PackageCodec::kJson);
  EXPECT_EQ(*ParsePackageCodec("compact"), PackageCodec::kCompact);
  EXPECT_EQ(*ParsePackageCodec("auto"), PackageCodec::kAuto);
  EXPECT_FALSE(ParsePackageCodec("gzip").ok());
}

}  // namespace
}  // namespace zs
