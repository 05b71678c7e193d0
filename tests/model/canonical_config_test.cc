// The canonical digest of typed configs (model/config.h); the canonical form
// itself is tested in tests/json/canonical_json_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "model/config.h"
#include "json/canonical_json.h"
#include "json/json_reader.h"

namespace zs {
namespace {

TEST(CanonicalConfigDigestTest, IsTheCanonicalDigestOfTheGoMarshal) {
  auto doc = json::ParseJson(
      R"({"SetVariables":{"B":"2","A":"1"},"Values":{"replicas":3},)"
      R"("NamespaceOverride":"ns","ValuesOverridesMap":{"web":{"podinfo":{"x":1}}}})");
  ASSERT_TRUE(doc.ok());
  auto config = DecodeDeployConfig(*doc);
  ASSERT_TRUE(config.ok());
  auto marshaled = json::ParseJson(*MarshalDeployConfig(*config));
  ASSERT_TRUE(marshaled.ok());
  auto digest = CanonicalDeployConfigDigest(*config);
  ASSERT_TRUE(digest.ok()) << digest.status().ToString();
  EXPECT_EQ(*digest, *json::CanonicalDigest(*marshaled));
  EXPECT_EQ(digest->rfind("jcs-sha256:", 0), 0u);
  EXPECT_NE(*digest, *DeployConfigDigest(*config));
}

TEST(CanonicalConfigDigestTest, FieldCaseAndNumberSpellingDoNotMatter) {
  auto a = json::ParseJson(R"({"values":{"replicas":5,"ratio":0.50}})");
  auto b = json::ParseJson(R"({"VALUES":{"ratio":5e-1,"replicas":5.0}})");
  ASSERT_TRUE(a.ok() && b.ok());
  auto ca = DecodeDeployConfig(*a);
  auto cb = DecodeDeployConfig(*b);
  ASSERT_TRUE(ca.ok() && cb.ok());
  EXPECT_EQ(*CanonicalDeployConfigDigest(*ca),
            *CanonicalDeployConfigDigest(*cb));

  auto ra = DecodeRemoveConfig(*a);
  auto rb = DecodeRemoveConfig(*b);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(*CanonicalRemoveConfigDigest(*ra),
            *CanonicalRemoveConfigDigest(*rb));
  EXPECT_NE(*CanonicalRemoveConfigDigest(*ra),
            *CanonicalDeployConfigDigest(*ca));
}

TEST(CanonicalConfigDigestTest, NilMapAndEmptyMapDiffer) {
  DeployConfig nil_map;
  DeployConfig empty_map;
  empty_map.set_variables.emplace();
  EXPECT_NE(*CanonicalDeployConfigDigest(nil_map),
            *CanonicalDeployConfigDigest(empty_map));
}

}  // namespace
}  // namespace zs
