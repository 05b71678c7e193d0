// Property: any document survives parse -> write (raw) -> parse unchanged,
// and writing it twice gives the same bytes.
#include <gtest/gtest.h>


#include "json/go_json.h"
#include "json/json_reader.h"
#include "tests/test_random.h"

namespace zs::json {
namespace {

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  Value Make(int depth) {
    const int pick = Uniform(0, depth >= 5 ? 3 : 5);
    switch (pick) {
      case 0: return Value::Null();
      case 1: return Value::Bool(Uniform(0, 1) == 1);
      case 2: return Value::RawNumber(Number());
      case 3: return Value::String(Text());
      case 4: {
        Array items;
        for (int i = Uniform(0, 4); i > 0; --i) items.push_back(Make(depth + 1));
        return Value::MakeArray(std::move(items));
      }
      default: {
        Object members;
        for (int i = Uniform(0, 5); i > 0; --i) members.emplace_back(Text(), Make(depth + 1));
        return Value::MakeObject(std::move(members));
      }
    }
  }

 private:
  int Uniform(int lo, int hi) { return testing::Uniform(rng_, lo, hi); }

  std::string Number() {
    static const char* kSpellings[] = {"0", "-0", "5", "5.0", "1e21", "1E-7", "-2.5", "0.000001",
                                       "123456789012345678901234", "1.5e300", "2e-308", "9223372036854775807"};
    if (Uniform(0, 2) == 0) return kSpellings[Uniform(0, 11)];
    std::string n = std::to_string(Uniform(-100000, 100000));
    if (Uniform(0, 1) == 1) {
      n.push_back('.');
      n.append(std::to_string(Uniform(0, 999)));
    }
    return n;
  }

  std::string Text() {
    static const char* kPieces[] = {"a", "Z", " ", "<", ">", "&", "\"", "\\", "/", "\n", "\t", "\x01",
                                    "\x1f", "\x7f", "é", "漢", "🦄", "\u2028", "\u2029", "key", ""};
    return testing::RandomPieces(rng_, kPieces, 6);
  }

  testing::Rng rng_;
};

TEST(RoundTripPropertyTest, RandomDocumentsSurviveWriteThenParse) {
  Generator gen(20261130);
  for (int i = 0; i < 2000; ++i) {
    const Value doc = gen.Make(0);
    auto text = WriteJson(doc);
    ASSERT_TRUE(text.ok());
    auto back = ParseJson(*text);
    ASSERT_TRUE(back.ok()) << *text << ": " << back.status().ToString();
    ASSERT_EQ(*back, doc) << *text;
    EXPECT_EQ(*WriteJson(*back), *text);
  }
}

TEST(RoundTripPropertyTest, GoAnyWriteIsAFixedPoint) {
  // Writing as Go's `any` twice changes nothing the second time: the output
  // is already sorted, de-duplicated and in float64 form.
  Generator gen(7);
  for (int i = 0; i < 1000; ++i) {
    const Value doc = gen.Make(0);
    auto once = WriteJson(doc, kGoAny);
    ASSERT_TRUE(once.ok());
    auto reparsed = ParseJson(*once);
    ASSERT_TRUE(reparsed.ok());
    EXPECT_EQ(*WriteJson(*reparsed, kGoAny), *once);
  }
}

}  // namespace
}  // namespace zs::json
