#include "engine/image_ref.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/test_util.h"

namespace zs::engine {
namespace {

TEST(ImageRefTest, CrcTagsMatchEveryZarfVector) {
  const auto lines = testing::ReadLines("vectors/image-crc-tags.tsv");
  ASSERT_GT(lines.size(), 20u);
  EXPECT_EQ(lines[0], "image\tzarf_crc_tag");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::istringstream row(lines[i]);
    std::string image, want;
    std::getline(row, image, '\t');
    std::getline(row, want, '\t');
    auto ref = ParseImageRef(image);
    ASSERT_TRUE(ref.ok()) << image << ": " << ref.status().ToString();
    EXPECT_EQ(ZarfCrcTag(*ref), want) << image;
  }
}

TEST(ImageRefTest, SingleNameGainsDockerHubLibrary) {
  auto ref = ParseImageRef("busybox");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->domain, "docker.io");
  EXPECT_EQ(ref->path, "library/busybox");
  EXPECT_EQ(ref->tag, "latest");
  EXPECT_EQ(ref->Name(), "docker.io/library/busybox");
}

TEST(ImageRefTest, SpellingsOfNginxShareOneKeyAndCrc) {
  const char* spellings[] = {"nginx:1.25",
                             "library/nginx:1.25",
                             "docker.io/nginx:1.25",
                             "docker.io/library/nginx:1.25",
                             "index.docker.io/library/nginx:1.25",
                             "index.docker.io/nginx:1.25"};
  for (const char* s : spellings) {
    auto ref = ParseImageRef(s);
    ASSERT_TRUE(ref.ok()) << s;
    EXPECT_EQ(ref->Key(), "docker.io/library/nginx:1.25") << s;
    EXPECT_EQ(ZarfCrc(*ref), 3793515731u) << s;
  }
}

TEST(ImageRefTest, OtherDockerHostsAreNotDockerHub) {
  auto ref = ParseImageRef("registry-1.docker.io/library/nginx:1.25");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->domain, "registry-1.docker.io");
  EXPECT_NE(ref->Key(), ParseImageRef("nginx:1.25")->Key());
}

TEST(ImageRefTest, UppercaseFirstComponentIsARegistryHost) {
  auto ref = ParseImageRef("MyRegistry/app:1");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(ref->domain, "MyRegistry");
  EXPECT_EQ(ref->path, "app");
  auto local = ParseImageRef("localhost/app");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->domain, "localhost");
  EXPECT_EQ(local->path, "app");
}

TEST(ImageRefTest, PortIsNotATag) {
  auto ref = ParseImageRef("localhost:5000/a/b");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->domain, "localhost:5000");
  EXPECT_EQ(ref->path, "a/b");
  EXPECT_EQ(ref->tag, "latest");
}

const std::string kDigest = "sha256:" + std::string(64, 'a');

TEST(ImageRefTest, DigestReferencesHaveNoCrcTag) {
  auto ref = ParseImageRef("ghcr.io/x/y@" + kDigest);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->tag, "");
  EXPECT_EQ(ref->digest, kDigest);
  EXPECT_EQ(ZarfCrcTag(*ref), "");
  EXPECT_EQ(PushedReferences(*ref), std::vector<std::string>{"x/y@" + kDigest});
}

TEST(ImageRefTest, TagAndDigestIsADigestReference) {
  auto ref = ParseImageRef("nginx:1.25@" + kDigest);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->tag, "1.25");
  EXPECT_EQ(ZarfCrcTag(*ref), "");
  EXPECT_EQ(ref->Key(), "docker.io/library/nginx@" + kDigest);
  EXPECT_EQ(ref->Key(),
            ParseImageRef("docker.io/library/nginx@" + kDigest)->Key());
  EXPECT_EQ(
      PushedReferences(*ref, "127.0.0.1:31999"),
      std::vector<std::string>{"127.0.0.1:31999/library/nginx@" + kDigest});
}

TEST(ImageRefTest, PushedReferencesAreThePlainAndTheCrcTag) {
  auto ref = ParseImageRef("nginx:1.25");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(PushedReferences(*ref),
            (std::vector<std::string>{"library/nginx:1.25",
                                      "library/nginx:1.25-zarf-3793515731"}));
  EXPECT_EQ(PushedReferences(*ref, "127.0.0.1:31999")[1],
            "127.0.0.1:31999/library/nginx:1.25-zarf-3793515731");
}

TEST(ImageRefTest, AViewPointsIntoTheTextAndNamesTheLibraryPrefix) {
  const std::string text = "nginx";
  ImageRefView ref;
  ASSERT_TRUE(ParseImageRef(text, &ref).ok());
  EXPECT_EQ(ref.domain, "docker.io");
  EXPECT_EQ(ref.path_prefix, "library/");
  EXPECT_EQ(ref.path_rest, "nginx");
  EXPECT_EQ(ref.path_rest.data(), text.data());
  EXPECT_EQ(ref.tag, "latest");
  EXPECT_EQ(ref.digest, "");

  const std::string full = "ghcr.io/acme/api:2.0@" + kDigest;
  ASSERT_TRUE(ParseImageRef(full, &ref).ok());
  EXPECT_EQ(ref.domain.data(), full.data());
  EXPECT_EQ(ref.path_prefix, "");
  EXPECT_EQ(ref.path_rest, "acme/api");
  EXPECT_EQ(ref.tag, "2.0");
  EXPECT_EQ(ref.digest, kDigest);
  std::string key;
  AppendImageKey(&key, ref);
  EXPECT_EQ(key, "ghcr.io/acme/api@" + kDigest);

  // An explicit library/ is part of the path, not a prefix the rule added.
  ASSERT_TRUE(ParseImageRef("docker.io/library/nginx", &ref).ok());
  EXPECT_EQ(ref.path_prefix, "");
  EXPECT_EQ(ref.path_rest, "library/nginx");
}

TEST(ImageRefTest, MalformedReferencesAreInvalidArgument) {
  const std::string bad[] = {
      "",
      "nginx 1.25",
      " nginx",
      "nginx\t",
      "Nginx:1",            // uppercase path (single name: docker.io)
      "ghcr.io/Org/app:1",  // uppercase path
      "nginx@sha256:abc",   // short digest
      "nginx@sha256:" + std::string(64, 'A'),
      "nginx@" + std::string(64, 'a'),  // no algorithm
      "nginx@md5:xyz",
      "nginx:",
      "nginx:.bad",
      "nginx:" + std::string(129, 'a'),
      "ghcr.io//app",
      "ghcr.io/app/",
      "/app",
      "a/-b",
      "a/b..c",
      ":1.0",
  };
  for (const std::string& s : bad) {
    auto ref = ParseImageRef(s);
    EXPECT_FALSE(ref.ok()) << "\"" << s << "\" parsed as "
                           << (ref.ok() ? ref->String() : "");
    if (!ref.ok()) {
      EXPECT_EQ(ref.status().code(), Status::Code::kInvalidArgument) << s;
    }
  }
  EXPECT_EQ(ParseImageRef("Nginx:1").status().message(),
            "image reference \"Nginx:1\": repository name must be lowercase");
}

TEST(ImageRefTest, SeparatorsInsidePathComponentsAreAccepted) {
  for (const char* s : {"a/b_c", "a/b__c", "a/b---c", "a/b.c",
                        "registry.opensource.zalan.do/acid/spilo-14:2.1-p6"}) {
    EXPECT_TRUE(ParseImageRef(s).ok()) << s;
  }
}

}  // namespace
}  // namespace zs::engine
