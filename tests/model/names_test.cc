#include "model/names.h"

#include <gtest/gtest.h>

#include <string>

namespace zs {
namespace {

TEST(PackageNameTest, FollowsZarfsRule) {
  for (const char* ok : {"podinfo", "dos-games", "a", "0", "9lives", "a-", "a--b"}) {
    EXPECT_TRUE(CheckPackageName(ok).ok()) << ok;
  }
  for (const char* bad : {"Pod_Info", "", "-lead", "Podinfo", "pod.info", "pod info", "pod_info"}) {
    const Status s = CheckPackageName(bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("package name '" + std::string(bad) + "'"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("^[a-z0-9][a-z0-9-]*$"), std::string::npos) << s.message();
  }
}

TEST(SecretNameTest, IsADns1123Subdomain) {
  EXPECT_TRUE(CheckSecretName("zarf-package-podinfo").ok());
  EXPECT_TRUE(CheckSecretName("a.b-c.d").ok());
  EXPECT_TRUE(CheckSecretName(std::string(253, 'a')).ok());
  const Status long_name = CheckSecretName(std::string(254, 'a'));
  EXPECT_EQ(long_name.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(long_name.message().find("is 254 bytes long"), std::string::npos) << long_name.message();
  EXPECT_NE(long_name.message().find("DNS-1123 subdomain"), std::string::npos);
  for (const char* bad : {"zarf-package-Pod_Info", "zarf-package-a-", "a..b", ".a", "", "-a"}) {
    const Status s = CheckSecretName(bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("Secret name '" + std::string(bad) + "'"), std::string::npos)
        << s.message();
  }
}

TEST(NamespaceOverrideTest, IsADns1123Label) {
  EXPECT_TRUE(CheckNamespaceOverride("").ok());
  EXPECT_TRUE(CheckNamespaceOverride("team-b").ok());
  EXPECT_TRUE(CheckNamespaceOverride(std::string(63, 'n')).ok());
  for (const std::string& bad : {std::string("Team_B"), std::string("team-"), std::string("a.b"),
                                 std::string(64, 'n')}) {
    const Status s = CheckNamespaceOverride(bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("NamespaceOverride '" + bad + "'"), std::string::npos) << s.message();
  }
}

TEST(PackageNamesTest, ChecksTheSecretAndItsLabelToo) {
  EXPECT_TRUE(CheckPackageNames("podinfo", "").ok());
  EXPECT_TRUE(CheckPackageNames("podinfo", "team-b").ok());
  EXPECT_TRUE(CheckPackageNames(std::string(63, 'p'), std::string(63, 'n')).ok());
  // Zarf's rule allows a trailing '-', Kubernetes' Secret name does not.
  const Status trailing = CheckPackageNames("podinfo-", "");
  EXPECT_NE(trailing.message().find("Secret name 'zarf-package-podinfo-'"), std::string::npos)
      << trailing.message();
  // The label package-deploy-info holds at most 63 bytes.
  const Status long_name = CheckPackageNames(std::string(64, 'p'), "");
  EXPECT_EQ(long_name.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(long_name.message().find("label package-deploy-info"), std::string::npos)
      << long_name.message();
  EXPECT_FALSE(CheckPackageNames("Pod_Info", "").ok());
  EXPECT_FALSE(CheckPackageNames("podinfo", "Team_B").ok());
}

}  // namespace
}  // namespace zs
