// The shared synthetic-package generator (testing/synthetic_package.h):
// the bytes benchmarks and the shipped dictionaries depend on stay pinned,
// and each shape is what its callers expect.
#include "testing/synthetic_package.h"

#include <gtest/gtest.h>

#include <string>

#include "base/digest.h"
#include "model/model_json.h"
#include "json/go_json.h"
#include "tests/cache_fixture.h"

namespace zs::bench {
namespace {

std::string Text(const json::Value& v) {
  std::string out;
  EXPECT_TRUE(json::AppendJson(&out, v).ok());
  return out;
}

// docs/performance.md quotes figures measured on these exact bytes.
TEST(SyntheticPackageTest, BenchmarkSampleBytesArePinned) {
  const std::string sample = MakeSamplePackageJson(kSampleBytes, kSampleSeed);
  EXPECT_EQ(sample.size(), 1049581u);
  EXPECT_EQ(Sha256Digest(sample),
            "sha256:fb0f30cb6c780141e6f7c011e260031bc09bded137d451958845251cd97b07f2");
  EXPECT_TRUE(ParseDeployedPackage(sample).ok());
}

TEST(SyntheticPackageTest, SampleReachesItsTargetAndFollowsTheSeed) {
  const std::string a = MakeSamplePackageJson(8 << 10, 7);
  EXPECT_GE(a.size(), 8u << 10);
  EXPECT_LT(a.size(), 16u << 10);
  EXPECT_EQ(a, MakeSamplePackageJson(8 << 10, 7));
  EXPECT_NE(a, MakeSamplePackageJson(8 << 10, 8));
}

// The committed dictionaries (codec/data) were trained on these samples.
TEST(SyntheticPackageTest, EraPackagesArePinnedAndDecode) {
  std::string all;
  for (unsigned seed : {100000u, 100001u, 100250u, 900000u, 900599u}) {
    all += Text(MakeEraPackage(seed)) + "\n";
  }
  EXPECT_EQ(Sha256Digest(all),
            "sha256:16bcd7a5d866adc42dfbf219ddd876e9538d50ee11d9720a523878098b05ddc3");
  for (unsigned seed = 100000; seed < 100060; ++seed) {
    EXPECT_TRUE(DecodeDeployedPackage(MakeEraPackage(seed)).ok()) << "seed " << seed;
  }
}

// The file event log benchmark's definition: 120 components, ~40 KB.
TEST(SyntheticPackageTest, DefinitionHasTheRequestedShape) {
  const DefinitionOptions options{.components = 120,
                                  .required = true,
                                  .charts_per_component = 1,
                                  .images_per_component = 2,
                                  .pin_digests = true,
                                  .seed = 42};
  const json::Value def = MakeDefinition(options);
  const json::Value* components = def.Find("components");
  ASSERT_NE(components, nullptr);
  ASSERT_EQ(components->array().size(), 120u);
  const std::string last = Text(components->array().back());
  EXPECT_NE(last.find(R"("name":"component-119","required":true)"), std::string::npos) << last;
  EXPECT_NE(last.find(R"({"name":"chart-119","namespace":"apps","version":"1.0.0"})"),
            std::string::npos)
      << last;
  EXPECT_NE(last.find("registry.example.com/app-119-1@sha256:"), std::string::npos) << last;
  EXPECT_EQ(Text(def).size(), 39128u);

  DefinitionOptions plain = options;
  plain.pin_digests = false;
  EXPECT_EQ(Text(MakeDefinition(plain)).find('@'), std::string::npos);
}

// tests/cache_fixture.h's snapshots carry the definition they always did.
TEST(SyntheticPackageTest, CacheFixtureDefinitionIsUnchanged) {
  const DeployedPackage snap = testing::Snapshot(testing::PackageSpec{}, 3);
  EXPECT_EQ(Text(snap.data),
            R"({"kind":"ZarfPackageConfig","metadata":{"name":"pkg","version":"1.3.0"},)"
            R"("components":[{"name":"web","images":["nginx:1.25","ghcr.io/acme/api:2.0"]},)"
            R"({"name":"db","images":[]}]})");
}

}  // namespace
}  // namespace zs::bench
