// Paths as messages spell them, built into a string or on the stack.
#include "json/json_path.h"

#include <gtest/gtest.h>

#include <string>

namespace zs::json {
namespace {

TEST(JsonPathTest, PathOnStackSpellsWhatJoinPathAndIndexPathSpell) {
  const std::string long_parent(300, 'p');  // past what the object holds itself
  for (const std::string& parent : {std::string(), std::string("deployedComponents[12]"),
                                    long_parent}) {
    for (const std::string& field : {std::string("installedCharts"), std::string()}) {
      const PathOnStack joined(parent, field);
      EXPECT_EQ(joined.view(), JoinPath(parent, field)) << parent << " . " << field;
    }
    for (std::size_t index : {std::size_t{0}, std::size_t{7}, std::size_t{18446744073709551615u}}) {
      const PathOnStack item(parent, index);
      EXPECT_EQ(item.view(), IndexPath(parent, index)) << parent << " [" << index << "]";
    }
  }
  EXPECT_EQ(PathOnStack("a[3]", "b").view(), "a[3].b");
  EXPECT_EQ(PathOnStack("", std::size_t{2}).view(), "[2]");
}

}  // namespace
}  // namespace zs::json
