#include "kube/package_secret.h"

#include <gtest/gtest.h>

#include "base/base64.h"
#include "compact/compact.h"
#include "json/json_reader.h"
#include "model/model_json.h"
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
  auto stored = StorePackage(&secret, pkg);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->codec, PackageCodec::kJson);
  EXPECT_EQ(stored->warning, "");
  EXPECT_EQ(secret, before);  // same bytes back: nothing changed
}

TEST(PackageSecretTest, CompactSecretsUseTheirOwnKeyAndAnnotationAndReadBack) {
  json::Value secret = SecretFixture("pkg-realistic-init-failed.secret.json");
  const DeployedPackage pkg = *DecodePackage(secret);
  ASSERT_TRUE(ListedByZarf(secret));
  auto stored = StorePackage(&secret, pkg, {.codec = PackageCodec::kCompact});
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  EXPECT_EQ(stored->codec, PackageCodec::kCompact);
  // Zarf's listing would fail on it for every package: it does not list it.
  EXPECT_FALSE(ListedByZarf(secret));
  const json::Value* labels = secret.Find("metadata")->Find("labels");
  EXPECT_EQ(labels->Find("package-deploy-info"), nullptr);
  EXPECT_EQ(labels->StringOr("zarf-state.dev/package-deploy-info"), "init");
  EXPECT_EQ(labels->StringOr("app.kubernetes.io/managed-by"), "zarf");
  EXPECT_NE(stored->warning.find("package init: written with the compact codec"), std::string::npos)
      << stored->warning;
  EXPECT_NE(stored->warning.find("which fits: --codec json"), std::string::npos) << stored->warning;
  EXPECT_NE(stored->warning.find("Zarf's package list"), std::string::npos) << stored->warning;
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
  // Back to JSON: the compact key and the annotation go away, Zarf's label
  // comes back: the Secret is the one it was.
  ASSERT_TRUE(StorePackage(&secret, pkg, {.codec = PackageCodec::kJson}).ok());
  EXPECT_EQ(secret.Find("data")->Find("data-compact"), nullptr);
  EXPECT_EQ(secret.Find("metadata")->Find("annotations"), nullptr);
  EXPECT_TRUE(ListedByZarf(secret));
  EXPECT_EQ(secret, SecretFixture("pkg-realistic-init-failed.secret.json"));
}

TEST(PackageSecretTest, AutoTakesCompactOnlyWhenTheJsonCannotFit) {
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const DeployedPackage big = Huge(1500);
  ASSERT_GT(EncodeDeployedPackage(big).size(), kSecretSizeLimit);
  auto stored = StorePackage(&secret, big);
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  EXPECT_EQ(stored->codec, PackageCodec::kCompact);
  EXPECT_FALSE(ListedByZarf(secret));
  EXPECT_LT(stored->secret_bytes, kSecretSizeLimit);
  EXPECT_EQ(stored->json_bytes, EncodeDeployedPackage(big).size());
  EXPECT_NE(stored->warning.find("over the limit of 1048576"), std::string::npos) << stored->warning;
}

TEST(PackageSecretTest, AutoKeepsJsonPastNinetyPercentWithAWarning) {
  // The largest package whose JSON Secret still fits.
  std::size_t n = 1000;
  while (EncodeDeployedPackage(Huge(n + 10)).size() < kSecretSizeLimit - 4096) n += 10;
  const DeployedPackage near = Huge(n);
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  auto stored = StorePackage(&secret, near);
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  ASSERT_GT(stored->secret_bytes, kSecretWarnBytes);
  EXPECT_EQ(stored->codec, PackageCodec::kJson);
  EXPECT_TRUE(ListedByZarf(secret));
  EXPECT_NE(stored->warning.find("Secret zarf-package-dos-games: " +
                                 std::to_string(stored->secret_bytes) + " of 1048576 bytes"),
            std::string::npos)
      << stored->warning;
  EXPECT_NE(stored->warning.find("past 90%"), std::string::npos) << stored->warning;
}

TEST(PackageSecretTest, TheGuardRefusesAnOverLimitSecretAndChangesNothing) {
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const json::Value before = secret;
  const DeployedPackage big = Huge(1500);
  ASSERT_GT(EncodeDeployedPackage(big).size(), kSecretSizeLimit);
  auto stored = StorePackage(&secret, big, {.codec = PackageCodec::kJson});
  ASSERT_FALSE(stored.ok());
  EXPECT_EQ(stored.status().code(), Status::Code::kTooLarge);
  const std::string_view msg = stored.status().message();
  EXPECT_NE(msg.find("package dos-games"), std::string_view::npos) << msg;
  EXPECT_NE(msg.find("limit of 1048576"), std::string_view::npos) << msg;
  EXPECT_NE(msg.find("biggest parts: data.components "), std::string_view::npos) << msg;
  EXPECT_EQ(secret, before);
  // The same package fits when compact.
  EXPECT_TRUE(StorePackage(&secret, big, {.codec = PackageCodec::kCompact}).ok());
}

// A writer that encodes the payload itself gets the Secret StorePackageJson
// makes, but for the one value, and the bytes whose base64 goes there.
TEST(PackageSecretTest, StoringApartLeavesOnlyThePayloadOut) {
  for (PackageCodec codec : {PackageCodec::kJson, PackageCodec::kCompact}) {
    const json::Value fixture = SecretFixture("pkg-realistic-init-failed.secret.json");
    const std::string json_payload = EncodeDeployedPackage(*DecodePackage(fixture));
    json::Value whole = fixture;
    auto stored = StorePackageJson(&whole, json_payload, {.codec = codec});
    ASSERT_TRUE(stored.ok()) << stored.status().ToString();
    json::Value apart = fixture;
    std::string payload = json_payload;
    auto stored_apart = StorePackageJsonApart(&apart, &payload, {.codec = codec});
    ASSERT_TRUE(stored_apart.ok()) << stored_apart.status().ToString();
    EXPECT_EQ(stored_apart->codec, stored->codec);
    EXPECT_EQ(stored_apart->data_key, codec == PackageCodec::kJson ? kPackageDataKey : kCompactDataKey);
    EXPECT_EQ(stored_apart->secret_bytes, stored->secret_bytes);
    EXPECT_EQ(stored_apart->payload_bytes, payload.size());
    EXPECT_EQ(stored_apart->warning, stored->warning);
    json::Value* value = apart.Find("data")->Find(stored_apart->data_key);
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(value->as_string(), "");
    *value = json::Value::String(Base64Encode(payload));
    EXPECT_EQ(apart, whole);
  }
  // Refused: neither the Secret nor the payload changes.
  json::Value secret = SecretFixture("pkg-small-dos-games.secret.json");
  const json::Value before = secret;
  std::string payload = EncodeDeployedPackage(Huge(1500));
  const std::string payload_before = payload;
  auto refused = StorePackageJsonApart(&secret, &payload, {.codec = PackageCodec::kJson});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Status::Code::kTooLarge);
  EXPECT_EQ(secret, before);
  EXPECT_EQ(payload, payload_before);
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
