// AppendCompactFromText against its reference, ParseJson + AppendJson: on
// every text it accepts the output must be the tree path's, byte for byte,
// and everything the tree path refuses it must refuse too.
#include "json/go_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json_reader.h"
#include "tests/test_random.h"
#include "tests/test_util.h"

namespace zs::json {
namespace {

// Random JSON text, mostly valid, with the odd spellings a reader meets.
class TextGenerator {
 public:
  explicit TextGenerator(std::uint32_t seed) : rng_(seed) {}

  std::string Value(int depth) {
    std::string s;
    AppendValue(&s, depth);
    return s;
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_.Below(n)); }

  void Space(std::string* s) {
    static const char* kSpaces[] = {"", "", "", " ", "\n", "\r\n  ", "\t"};
    s->append(kSpaces[Pick(7)]);
  }

  void AppendString(std::string* s) {
    static const char* kPieces[] = {
        "a", "plain", "Zarf", " ", "<", ">", "&", "\\u0026", "\\u003c", "\\u003E", "\\n", "\\t",
        "\\r", "\\b", "\\f", "\\/", "\\\\", "\\\"", "\\u0000", "\\u001f", "\\u00e9", "é", "—",
        "\xE2\x80\xA8", "\\u2028", "\\u2029", "\\ud83d\\ude00", "😀", "\\uD800", "\\uzzzz", "\\x",
        "\x7f", "sha256:0123456789abcdef0123456789abcdef", "\\u20AC", "€"};
    s->push_back('"');
    const int n = Pick(6);
    for (int i = 0; i < n; ++i) s->append(kPieces[Pick(sizeof kPieces / sizeof *kPieces)]);
    if (Pick(4) == 0) s->append(40 + Pick(40), 'x');  // long enough for the SIMD scan
    s->push_back('"');
  }

  void AppendNumber(std::string* s) {
    static const char* kNumbers[] = {"0",    "-0",   "1",    "42",   "-17",     "3.25", "1e5",
                                     "1E+5", "2e-7", "0.5",  "-0.0", "123456789012345678901234",
                                     "01",   "1.",   "-",    ".5",   "1e",      "+1",   "0x1F",
                                     "1.5e3"};
    s->append(kNumbers[Pick(sizeof kNumbers / sizeof *kNumbers)]);
  }

  void AppendValue(std::string* s, int depth) {
    const int kind = depth <= 0 ? Pick(5) : Pick(8);
    switch (kind) {
      case 0: AppendString(s); return;
      case 1: AppendNumber(s); return;
      case 2: s->append(Pick(2) ? "true" : "false"); return;
      case 3: s->append(Pick(8) ? "null" : "nul"); return;
      case 4: AppendString(s); return;
      case 5:
      case 6: {
        s->push_back('{');
        Space(s);
        const int n = Pick(5);
        for (int i = 0; i < n; ++i) {
          if (i > 0) s->push_back(',');
          Space(s);
          AppendString(s);
          Space(s);
          s->push_back(':');
          Space(s);
          AppendValue(s, depth - 1);
          Space(s);
        }
        if (Pick(20) == 0) s->push_back(',');  // trailing comma: invalid
        s->push_back('}');
        return;
      }
      default: {
        s->push_back('[');
        const int n = Pick(5);
        for (int i = 0; i < n; ++i) {
          if (i > 0) s->push_back(',');
          Space(s);
          AppendValue(s, depth - 1);
          Space(s);
        }
        s->push_back(']');
        return;
      }
    }
  }

  testing::Rng rng_;
};

// Checks one text as a member value, as ParseJsonTakingRaw's takers meet
// it (depth 2); returns whether the fast path took it.
bool ExpectSameAsTree(const std::string& text, std::size_t max_depth = 512) {
  ParseOptions options;
  options.max_depth = max_depth;
  const Result<Value> tree = ParseJson("{\"k\":" + text + "}", options);
  std::string fast;
  const std::size_t used = AppendCompactFromText(&fast, text, max_depth - 1);
  bool took = used != 0;
  for (std::size_t i = used; took && i < text.size(); ++i) {
    took = text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t';
  }
  if (took) {
    EXPECT_TRUE(tree.ok()) << "fast path accepted what the tree path refuses: " << text << "\n"
                           << tree.status().ToString();
    if (tree.ok()) {
      std::string want;
      EXPECT_TRUE(AppendJson(&want, *tree->Find("k")).ok());
      EXPECT_EQ(fast, want) << text;
    }
  }
  return took;
}

TEST(GoJsonTextTest, RandomTextsComeOutAsTheTreePathWritesThem) {
  TextGenerator gen(23);
  int took = 0, valid = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = gen.Value(4);
    if (ParseJson("[" + text + "]").ok()) ++valid;
    took += ExpectSameAsTree(text);
  }
  // The fast path must not refuse most valid texts (only surrogates and
  // control characters are left to the tree).
  EXPECT_GT(valid, 5000);
  EXPECT_GT(took, valid / 2);
}

TEST(GoJsonTextTest, BrokenTextsAreRefusedWhereTheTreePathRefusesThem) {
  TextGenerator gen(29);
  testing::Rng rng(31);
  const std::string junk = "{}[],:\"\\ 0-e.tfnx\x01";
  for (int i = 0; i < 20000; ++i) {
    std::string text = gen.Value(3);
    const std::size_t at = rng() % (text.size() + 1);
    switch (rng() % 3) {
      case 0: if (at < text.size()) text.erase(at, 1); break;
      case 1: text.insert(at, 1, junk[rng() % junk.size()]); break;
      default: text = text.substr(0, at); break;
    }
    ExpectSameAsTree(text);
  }
}

TEST(GoJsonTextTest, EverySpecialAtEveryPositionOfAStringMatchesTheTreePath) {
  // Escapes and bytes that end the plain-copy scan, inside strings of every
  // length around the 32-byte blocks.
  const std::vector<std::string> specials = {
      "\\\"", "\\\\", "\\/", "\\n", "\\u0026", "\\u00e9", "\\u2028", "<", ">", "&", "é",
      "\xE2\x80\xA8", "\x7f", "\xF0\x9F\x98\x80", "\\ud83d\\ude00",
      // Not UTF-8: a lone lead byte, a stray continuation, an overlong form,
      // an encoded surrogate, a lead byte cut by an escape.
      "\xC3", "\x80", "\xC0\xAF", "\xED\xA0\x80", "\xE2\x80\\n"};
  int took = 0;
  for (std::size_t len = 0; len <= 80; ++len) {
    const std::string plain(len, 'q');
    took += ExpectSameAsTree("\"" + plain + "\"");
    for (const std::string& special : specials) {
      for (std::size_t at = 0; at <= len; at += (len > 40 ? 3 : 1)) {
        std::string text = plain;
        text.insert(at, special);
        took += ExpectSameAsTree("[\"" + text + "\",{\"" + text + "\":1}]");
      }
    }
  }
  EXPECT_GT(took, 20000);
}

TEST(GoJsonTextTest, DepthLimitIsTheTreePaths) {
  for (std::size_t levels : {1u, 2u, 9u, 10u, 11u}) {
    std::string text = std::string(levels, '[') + "1" + std::string(levels, ']');
    ExpectSameAsTree(text, 10);
    std::string sink;
    // `levels` arrays and the number inside: levels + 1 deep.
    EXPECT_EQ(AppendCompactFromText(&sink, text, 10) != 0, levels + 1 <= 10) << levels;
  }
}

// The text is read by this path alone (the parser skips it), so bytes that
// are not UTF-8 are refused here, in strings and keys and between tokens.
TEST(GoJsonTextTest, TextThatIsNotUtf8IsRefused) {
  for (const std::string text :
       {"\"a\xFF\"", "{\"\xC3\":1}", "[\"\xC0\xAF\"]", "\"\xED\xA0\x80\"",
        "\"x\\n\xF4\x90\x80\x80\"", "[1,\xC3\xA9]", "\"<\xE9>\""}) {
    std::string out;
    EXPECT_EQ(AppendCompactFromText(&out, text, 512), 0u) << text;
  }
  std::string out;
  EXPECT_EQ(AppendCompactFromText(&out, "\"<\xC3\xA9>\"", 512), 6u);
  EXPECT_EQ(out, "\"\\u003c\xC3\xA9\\u003e\"");
}

TEST(GoJsonTextTest, StopsAfterTheValue) {
  std::string out;
  EXPECT_EQ(AppendCompactFromText(&out, "{ \"a\" : [1, 2 ] } ,\"b\":3}", 512), 17u);
  EXPECT_EQ(out, R"({"a":[1,2]})");
  out.clear();
  EXPECT_EQ(AppendCompactFromText(&out, "", 512), 0u);
  EXPECT_EQ(AppendCompactFromText(&out, "{\"a\":1", 512), 0u);
}

TEST(GoJsonTextTest, EveryLegacyPayloadFixtureMatchesTheTreePath) {
  int n = 0, took = 0;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    took += ExpectSameAsTree(testing::ReadFile(path));
    ++n;
  }
  EXPECT_GT(n, 100);
  EXPECT_GT(took, n / 2);
}

}  // namespace
}  // namespace zs::json
