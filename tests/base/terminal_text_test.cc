#include "base/terminal_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "engine/config_diff.h"
#include "cli/common.h"

namespace zs::tools {
namespace {

TEST(TerminalTextTest, EscapesEveryControlCharacter) {
  EXPECT_EQ(TerminalText("evil\x1b]0;title\x07"), "evil\\x1b]0;title\\x07");
  EXPECT_EQ(TerminalText("a\rb\bc\x7f"), "a\\x0db\\x08c\\x7f");
  EXPECT_EQ(TerminalText(std::string("nul\0", 4)), "nul\\x00");
  EXPECT_EQ(TerminalText("row\nfake\trow"), "row\\x0afake\\x09row");
  // C1 controls (CSI U+009B) as UTF-8; other non-ASCII text is kept.
  EXPECT_EQ(TerminalText("x\xc2\x9b" "2J \xc2\xa0 caf\xc3\xa9"), "x\\u009b2J \xc2\xa0 caf\xc3\xa9");
  EXPECT_EQ(TerminalText("\xff\xc2"), "\xff\xc2");  // invalid UTF-8 passes as is
  EXPECT_EQ(TerminalText("plain-name_1.0"), "plain-name_1.0");
}

TEST(TerminalTextTest, ATableKeepsItsLineFeedsAndTabs) {
  EXPECT_EQ(TerminalText("A\tB\nx\x1b[2J\ty\n", Layout::kTable), "A\tB\nx\\x1b[2J\ty\n");
}

TEST(TerminalTextTest, TableStreamEscapesOnlyTables) {
  std::ostringstream out;
  {
    TableStream table(out, true);
    table.stream() << "name\x1b[31m\n";
    EXPECT_EQ(out.str(), "");  // held until the command ends
  }
  EXPECT_EQ(out.str(), "name\\x1b[31m\n");
  std::ostringstream json;
  {
    TableStream table(json, false);
    table.stream() << "\x1b";
  }
  EXPECT_EQ(json.str(), "\x1b");
}

// A key with a line feed in a config diff stays on its change's line.
TEST(TerminalTextTest, TerminalChangesKeepsEachChangeOnOneLine) {
  engine::ConfigChange c;
  c.kind = engine::ConfigChange::Kind::kAdded;
  c.path = "Values.a\n+ Values.fake";
  c.new_value = json::Value::Int(1);
  EXPECT_EQ(TerminalChanges({c}), "+ Values.a\\x0a+ Values.fake: 1\n");
}

}  // namespace
}  // namespace zs::tools
