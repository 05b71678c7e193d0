#include "json/json_reader.h"

#include <gtest/gtest.h>

namespace zs::json {
namespace {

std::string ErrorOf(std::string_view text, const ParseOptions& options = {}) {
  auto v = ParseJson(text, options);
  EXPECT_FALSE(v.ok()) << text;
  return v.ok() ? "" : std::string(v.status().message());
}

TEST(JsonReaderTest, KeepsMemberOrderAndNumberSpelling) {
  auto v = ParseJson(R"( {"z":5.0,"a":[1E-7,-0,123456789012345678901234],"m":{}} )");
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->object().size(), 3u);
  EXPECT_EQ(v->object()[0].first, "z");
  EXPECT_EQ(v->Find("z")->number_raw(), "5.0");
  EXPECT_EQ(v->Find("a")->array()[0].number_raw(), "1E-7");
  EXPECT_EQ(v->Find("a")->array()[1].number_raw(), "-0");
  EXPECT_EQ(v->Find("a")->array()[2].number_raw(), "123456789012345678901234");
}

TEST(JsonReaderTest, ATruncatedDocumentIsReportedAsTruncated) {
  for (std::string_view text : {R"({"a":[1,2)", R"({"a":[1,2,)", R"({"a":1)", R"({"a":{"b":1})", "[[1]",
                                R"({"a":"}"  )", R"({"a":["x\"]}"], "b":"]\\"  )",
                                R"({"a":"cut \"}]")"}) {
    EXPECT_NE(ErrorOf(text).find("json: truncated input:"), std::string::npos) << text << ": " << ErrorOf(text);
  }
  EXPECT_NE(ErrorOf(R"({"a":[1,2)").find("2 unclosed object or array"), std::string::npos);
  // Brackets inside strings, escaped quotes included, are not counted.
  EXPECT_NE(ErrorOf(R"({"a":["x\"]}"], "b":"]\\"  )").find("1 unclosed object or array"),
            std::string::npos);
  // Extra content is not truncation.
  EXPECT_EQ(ErrorOf(R"({"a":1} x)").find("truncated"), std::string::npos);
}

TEST(JsonReaderTest, ObjectsNestedToTheDefaultLimitParseWithinTheStack) {
  // 512 levels of objects: the reader recurses once per level, and each
  // level's frame must stay small enough for sanitizer builds' stacks too.
  std::string text;
  for (int i = 0; i < 511; ++i) text += "{\"k\":";
  text += "1" + std::string(511, '}');
  auto v = ParseJson(text, {DuplicateKeys::kReject});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_NE(ErrorOf("{\"k\":" + text + "}").find("nesting deeper than 512"), std::string::npos);
}

TEST(JsonReaderTest, UnescapesStrings) {
  auto v = ParseJson(R"(["\u003c\u00e9\ud83e\udd84\n\"\\\/"])");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->array()[0].as_string(), "<é🦄\n\"\\/");
}

TEST(JsonReaderTest, MalformedInputNamesTheByteOffset) {
  EXPECT_NE(ErrorOf(R"({"a":1,})").find("at byte"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"a":tru})").find("at byte 5"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"a":01})").find("at byte 5"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"a":1} x)").find("after the value at byte 8"), std::string::npos);
  EXPECT_NE(ErrorOf("{\"a\":\"\xff\"}").find("invalid UTF-8 at byte 6"), std::string::npos);
  EXPECT_NE(ErrorOf("[1,2").find("json:"), std::string::npos);
  EXPECT_NE(ErrorOf("").find("empty"), std::string::npos);
  EXPECT_NE(ErrorOf(R"({"a":"\x"})").find("invalid string"), std::string::npos);
}

TEST(JsonReaderTest, DuplicateKeyPolicies) {
  const char* text = R"({"a":1,"b":2,"a":3})";
  auto keep = ParseJson(text);
  ASSERT_TRUE(keep.ok());
  EXPECT_EQ(keep->object().size(), 3u);
  EXPECT_EQ(keep->Find("a")->number_raw(), "3");
  auto last = ParseJson(text, {.duplicates = DuplicateKeys::kLastWins});
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last->object().size(), 2u);
  EXPECT_EQ(last->object()[0].second.number_raw(), "3");
  EXPECT_NE(ErrorOf(text, {.duplicates = DuplicateKeys::kReject}).find("duplicate key \"a\""),
            std::string::npos);
}

TEST(JsonReaderTest, DuplicatePolicyHoldsInLargeObjects) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k7\":700}";
  auto last = ParseJson(text, {.duplicates = DuplicateKeys::kLastWins});
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->object().size(), 100u);
  EXPECT_EQ(last->object()[7].second.number_raw(), "700");
  EXPECT_FALSE(ParseJson(text, {.duplicates = DuplicateKeys::kReject}).ok());
}

TEST(JsonReaderTest, DepthAndSizeLimitsAreEnforced) {
  std::string deep(600, '[');
  deep += std::string(600, ']');
  EXPECT_NE(ErrorOf(deep).find("nesting deeper than 512"), std::string::npos);
  EXPECT_TRUE(ParseJson(deep, {.max_depth = 1000}).ok());
  std::string very_deep(10000, '[');
  very_deep += std::string(10000, ']');
  EXPECT_FALSE(ParseJson(very_deep).ok());
  EXPECT_NE(ErrorOf("[1]", {.max_bytes = 2}).find("exceeds the limit"), std::string::npos);
}

// A flat array of `n` copies of `item`.
std::string Repeat(std::string_view item, std::size_t n) {
  std::string s = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) s += ",";
    s += item;
  }
  return s + "]";
}

TEST(JsonReaderTest, TheMemoryBudgetIsProportionalToTheInput) {
  // Empty objects, 3 bytes for kObjectCost each: over 32 MiB + 4 per byte.
  const std::string dense = Repeat("{}", 1000000);
  const std::string err = ErrorOf(dense);
  EXPECT_NE(err.find("json: the values up to byte "), std::string::npos) << err;
  EXPECT_NE(err.find("needs more than " + std::to_string(MemoryBudgetFor(dense.size())) +
                     " bytes of memory, " + std::string(kOverMemoryBudget) + " of a " +
                     std::to_string(dense.size()) + "-byte input"),
            std::string::npos)
      << err;
  // Fewer values fit, as do small dense documents (the floor).
  EXPECT_TRUE(ParseJson(Repeat("0", 500000)).ok());
  EXPECT_TRUE(ParseJson(Repeat("{}", 20000)).ok());
  const std::string many = Repeat("{}", 100000);
  EXPECT_FALSE(ParseJson(many).ok());
  MemoryBudget roomy(many.size(), 100000 * kObjectCost + kValueCost);
  EXPECT_TRUE(ParseJson(many, {.budget = &roomy}).ok());
  // An array of ten zeros and the array itself: 11 values.
  MemoryBudget ten(21, 10 * kValueCost);
  EXPECT_FALSE(ParseJson(Repeat("0", 10), {.budget = &ten}).ok());
  MemoryBudget eleven(21, 11 * kValueCost);
  EXPECT_TRUE(ParseJson(Repeat("0", 10), {.budget = &eleven}).ok());
  EXPECT_EQ(eleven.left(), 0u);
  // Values a Selection leaves out are checked, not built: they cost nothing.
  const std::string doc = "{\"keep\":1,\"skip\":" + Repeat("{}", 100) + "}";
  Selection keep;
  keep.members.push_back({"keep", nullptr});
  MemoryBudget small(doc.size(), kObjectCost + 2 * kValueCost);
  EXPECT_TRUE(ParseJsonSelected(doc, keep, {.budget = &small}).ok());
  MemoryBudget small_again(doc.size(), kObjectCost + 2 * kValueCost);
  EXPECT_FALSE(ParseJson(doc, {.budget = &small_again}).ok());
}

TEST(JsonReaderTest, ValidNumberGrammar) {
  for (const char* ok : {"0", "-0", "1.5", "1e5", "1E+5", "-1.0e-5", "123456789012345678901234"}) {
    EXPECT_TRUE(IsValidNumber(ok)) << ok;
  }
  for (const char* bad : {"", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1", "NaN", "1 "}) {
    EXPECT_FALSE(IsValidNumber(bad)) << bad;
  }
}

}  // namespace
}  // namespace zs::json

namespace zs::json {
namespace {

TEST(JsonStreamingTest, HandsOutEachItemAndTheEnvelope) {
  const std::string text =
      R"({"apiVersion":"v1","items":[{"a":1},{"b":[2,"x\"y"]},3],"kind":"List","metadata":{}})";
  std::vector<Value> items;
  std::vector<std::size_t> seen_members;
  Value envelope;
  bool streamed = false;
  Status s = ParseJsonStreaming(
      text, "items", {},
      [&](Value item, std::size_t index, const Value& so_far) {
        EXPECT_EQ(index, items.size());
        seen_members.push_back(so_far.object().size());
        items.push_back(std::move(item));
        return Status::OK();
      },
      [&](Value env, bool was_streamed) {
        envelope = std::move(env);
        streamed = was_streamed;
        return Status::OK();
      });
  ASSERT_TRUE(s.ok()) << s.ToString();
  Result<Value> whole = ParseJson(text);
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(streamed);
  EXPECT_EQ(items, whole->Find("items")->array());
  EXPECT_EQ(seen_members, (std::vector<std::size_t>{2, 2, 2}));  // apiVersion, items
  whole->Find("items")->array().clear();
  EXPECT_EQ(envelope, *whole);
}

TEST(JsonStreamingTest, OtherDocumentsComeWhole) {
  for (const char* text : {R"({"kind":"Secret","data":{}})", R"([1,2])", R"({"items":5})", "7"}) {
    Value got;
    bool streamed = true;
    Status s = ParseJsonStreaming(
        text, "items", {}, [](Value, std::size_t, const Value&) { return Status::Corruption("no"); },
        [&](Value env, bool was_streamed) {
          got = std::move(env);
          streamed = was_streamed;
          return Status::OK();
        });
    ASSERT_TRUE(s.ok()) << text << ": " << s.ToString();
    EXPECT_FALSE(streamed) << text;
    EXPECT_EQ(got, *ParseJson(text)) << text;
  }
}

TEST(JsonStreamingTest, ErrorsStopTheParse) {
  int calls = 0;
  auto count = [&](Value, std::size_t, const Value&) {
    ++calls;
    return calls == 2 ? Status::InvalidArgument("stop here") : Status::OK();
  };
  auto ignore = [](Value, bool) { return Status::OK(); };
  Status s = ParseJsonStreaming(R"({"items":[1,2,3]})", "items", {}, count, ignore);
  EXPECT_EQ(s.message(), "stop here");
  EXPECT_EQ(calls, 2);
  s = ParseJsonStreaming(R"({"items":[1,2,)", "items", {}, count, ignore);
  EXPECT_FALSE(s.ok());
  s = ParseJsonStreaming(R"({"items":[1]} x)", "items", {}, count, ignore);
  EXPECT_NE(s.message().find("after the value"), std::string::npos) << s.ToString();
  ParseOptions shallow;
  shallow.max_depth = 3;
  s = ParseJsonStreaming(R"({"items":[[[1]]]})", "items", shallow, count, ignore);
  EXPECT_NE(s.message().find("nesting deeper than 3"), std::string::npos) << s.ToString();
}

// Each item's handler may parse other texts (a List's Secrets carry payloads
// that are parsed as they come): the List's own parse goes on undisturbed.
TEST(JsonStreamingTest, AHandlerMayParseOtherTextsMidStream) {
  std::string list = R"({"kind":"List","items":[)";
  for (int i = 0; i < 50; ++i) {
    if (i > 0) list += ',';
    list += R"({"payload":"{\"n\":[)" + std::to_string(i) + R"(,2,3]}"})";
  }
  list += "]}";
  for (const bool if_single : {false, true}) {
    std::vector<std::string> seen;
    auto on_item = [&](Value item, std::size_t, const Value&) -> Status {
      const std::string payload(item.StringOr("payload"));
      ZS_ASSIGN_OR_RETURN(Value parsed, ParseJson(payload));
      bool taken = false;
      ZS_ASSIGN_OR_RETURN(Value left, ParseJsonTakingRaw(payload, "x", {}, [](std::string_view) {
        return std::size_t{0};
      }, &taken));
      Status inner = ParseJsonStreaming(payload, "n", {}, [](Value, std::size_t, const Value&) {
        return Status::OK();
      }, [](Value, bool) { return Status::OK(); });
      ZS_RETURN_IF_ERROR(inner);
      bool inner_single = false;
      ZS_RETURN_IF_ERROR(ParseJsonStreamingIfSingle(
          payload, "n", {}, [](Value, std::size_t, const Value&) { return Status::OK(); },
          [](Value, bool) { return Status::OK(); }, &inner_single));
      seen.push_back(parsed.Find("n")->array()[0].number_raw());
      EXPECT_EQ(left, parsed);
      EXPECT_TRUE(inner_single);
      return Status::OK();
    };
    auto on_envelope = [](Value, bool) { return Status::OK(); };
    bool single = false;
    const Status s = if_single ? ParseJsonStreamingIfSingle(list, "items", {}, on_item,
                                                            on_envelope, &single)
                               : ParseJsonStreaming(list, "items", {}, on_item, on_envelope);
    ASSERT_TRUE(s.ok()) << if_single << ": " << s.ToString();
    ASSERT_EQ(seen.size(), 50u) << if_single;
    EXPECT_EQ(seen[49], "49");
  }
}

// A text whose first value is all it holds is streamed at once; anything
// else is left to the caller untouched, nothing handed out.
TEST(JsonStreamingTest, IfSingleStreamsOnlyATextOfOneValue) {
  struct Case {
    std::string text;
    bool single;
  };
  const std::vector<Case> cases = {
      {R"({"items":[1,{"a":"}{"},3]})", true},
      {" \n[1,2]\r\n\t ", true},
      {"7", true},
      {R"("}{")", true},
      {R"({"items":[1]}{"items":[2]})", false},
      {"{\"a\":1}\n{\"b\":2}\n", false},
      {"[1] [2]", false},
      {R"({"items":[1]} x)", false},
      {R"({"items":[1]}})", false},
      {R"({"items":[1,2,)", false},
      {"{\"a\":1}{\"b\":\"\xff\"}", false},  // refused whole: invalid UTF-8
  };
  for (const Case& c : cases) {
    int items = 0;
    int envelopes = 0;
    bool single = !c.single;
    Status s = ParseJsonStreamingIfSingle(
        c.text, "items", {},
        [&](Value, std::size_t, const Value&) {
          ++items;
          return Status::OK();
        },
        [&](Value, bool) {
          ++envelopes;
          return Status::OK();
        },
        &single);
    SCOPED_TRACE(c.text);
    EXPECT_EQ(single, c.single);
    if (c.single) {
      EXPECT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(envelopes, 1);
    } else {
      EXPECT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(items, 0);
      EXPECT_EQ(envelopes, 0);
    }
  }
}

}  // namespace
}  // namespace zs::json

namespace zs::json {
namespace {

// RFC 8259: whitespace may surround any value, a lone scalar included.
TEST(JsonReaderTest, ALoneScalarMayBeSurroundedByWhitespace) {
  const std::pair<const char*, Value> cases[] = {
      {"null", Value::Null()},
      {"true", Value::Bool(true)},
      {"false", Value::Bool(false)},
      {"-1.5e3", Value::RawNumber("-1.5e3")},
      {"\"s\"", Value::String("s")},
  };
  for (const auto& [text, want] : cases) {
    for (const char* pad : {"", " ", "\n", " \t\r\n "}) {
      const std::string doc = std::string(pad) + text + pad;
      SCOPED_TRACE("[" + doc + "]");
      auto got = ParseJson(doc);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_TRUE(*got == want);
    }
    auto trailing = ParseJson(std::string(text) + " x");
    EXPECT_FALSE(trailing.ok()) << text;
  }
}

// {"keep":..., "pick":{"a":..., "list":[{"x":..., "y":...}]}, "drop":...}:
// keep others at the top, only "a" and each list item's "x" below "pick".
const Selection& TestSelection() {
  static const Selection item{{{"x"}}, false};
  static const Selection pick{{{"a"}, {"list", &item}}, false};
  static const Selection top{{{"pick", &pick}}, true};
  return top;
}

TEST(JsonSelectedTest, BuildsOnlyTheSelectedParts) {
  const std::string text =
      R"({"keep":[1,{"b":2}],"pick":{"z":{"deep":[1,2]},"a":{"all":"of it"},)"
      R"("list":[{"y":"no","x":"yes"},7,{"x":[{"q":1}]}],"a":3},"drop":{"n":null}})";
  auto got = ParseJsonSelected(text, TestSelection());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = ParseJson(
      R"({"keep":[1,{"b":2}],"pick":{"a":{"all":"of it"},)"
      R"("list":[{"x":"yes"},7,{"x":[{"q":1}]}],"a":3},"drop":{"n":null}})");
  ASSERT_TRUE(want.ok());
  EXPECT_TRUE(*got == *want);
  // A selection names members of objects: a top-level array is built whole.
  auto array = ParseJsonSelected(R"([{"drop":1}])", TestSelection());
  ASSERT_TRUE(array.ok());
  EXPECT_EQ(array->array()[0].object().size(), 1u);
}

// What is left out is checked as ParseJson checks it: every malformed
// document fails with the very same message, wherever the fault sits.
TEST(JsonSelectedTest, PartsLeftOutAreCheckedAsStrictlyAsBuiltOnes) {
  const std::string faults[] = {
      "01", "1.", "-", "tru", "nul", "falsey", R"("\x")", R"("\ud800")", "\"\x01\"",
      "\"\xff\"", "\"\xc0\xaf\"", "[1,]", "[1 2]", R"({"k" 1})", R"({"k":1,})", R"({1:2})",
      R"({"\q":1})", "{\"k\x01\":1}", R"({"\u00e9\"":1,"\ud800":2})", "[1", R"({"k":)",
      std::string(600, '[') + std::string(600, ']'),
  };
  int checked = 0;
  for (const std::string& fault : faults) {
    // The fault in top-level members, which are built whole, and in members
    // left out: of a selected object, and of an item of a selected array.
    for (const std::string& text : {
             R"({"drop":)" + fault + R"(,"pick":{"a":1}})",
             R"({"keep":)" + fault + "}",
             R"({"pick":{"z":[)" + fault + R"(],"a":2}})",
             R"({"pick":{"list":[{"y":)" + fault + R"(,"x":0}]}})",
         }) {
      SCOPED_TRACE(text);
      auto whole = ParseJson(text);
      auto selected = ParseJsonSelected(text, TestSelection());
      ASSERT_FALSE(whole.ok());
      ASSERT_FALSE(selected.ok());
      EXPECT_EQ(selected.status().code(), whole.status().code());
      EXPECT_EQ(selected.status().message(), whole.status().message());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 88);
}

// Checking without building recurses too: the deepest document allowed
// fits the stack there as well (sanitizer builds included).
TEST(JsonSelectedTest, PartsLeftOutNestedToTheDefaultLimitAreCheckedWithinTheStack) {
  std::string deep;
  for (int i = 0; i < 509; ++i) deep += i % 2 ? "[" : "{\"k\":";
  deep += "1";
  for (int i = 508; i >= 0; --i) deep += i % 2 ? "]" : "}";
  const std::string text = R"({"pick":{"z":)" + deep + R"(,"a":1}})";
  auto got = ParseJsonSelected(text, TestSelection());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->Find("pick")->object().size(), 1u);
  auto too_deep = ParseJsonSelected(R"({"pick":{"z":[)" + deep + R"(],"a":1}})", TestSelection());
  ASSERT_FALSE(too_deep.ok());
  EXPECT_NE(too_deep.status().message().find("nesting deeper than 512"), std::string::npos);
}

TEST(JsonSelectedTest, OtherDuplicatePoliciesBuildEverything) {
  const std::string text = R"({"pick":{"z":1,"a":2,"z":3},"drop":4})";
  for (DuplicateKeys policy : {DuplicateKeys::kLastWins, DuplicateKeys::kReject}) {
    const ParseOptions options{.duplicates = policy};
    auto whole = ParseJson(text, options);
    auto selected = ParseJsonSelected(text, TestSelection(), options);
    ASSERT_EQ(selected.ok(), whole.ok());
    if (whole.ok()) {
      EXPECT_TRUE(*selected == *whole);
    } else {
      EXPECT_EQ(selected.status().message(), whole.status().message());
    }
  }
}

TEST(JsonReaderTest, ConcatenatedValuesSplitAtTheirBrackets) {
  const std::string text = " {\"a\": \"}{\\\"\\\\\"}\n[1, [2]]\r\n\t{}\n";
  const std::vector<Span> spans = SplitConcatenated(text);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(text.substr(spans[0].begin, spans[0].end - spans[0].begin), "{\"a\": \"}{\\\"\\\\\"}");
  EXPECT_EQ(text.substr(spans[1].begin, spans[1].end - spans[1].begin), "[1, [2]]");
  EXPECT_EQ(text.substr(spans[2].begin, spans[2].end - spans[2].begin), "{}");
  for (const char* not_a_stream : {"{}", "{} x {}", "{} 1", "{\"a\": 1", "{}{", "{\"a\": \"}", ""}) {
    EXPECT_TRUE(SplitConcatenated(not_a_stream).empty()) << not_a_stream;
  }
}

// The raw member is found without a parse, past members whose strings hold
// quotes, brackets and escapes; the taker gets its text, the tree `{}` in
// its place, and the rest parses as ParseJson parses it.
TEST(JsonReaderTest, TakingRawFindsTheMemberPastAnyOtherValue) {
  const std::string raw = R"({"kind":"Z","a":[1,{"b":"}"}]})";
  const std::vector<std::string> before = {
      "",
      R"("x":"\"data\":{",)",
      R"("x":"\"}],\\","y":["\\",{"z":"]"}],)",
      R"( "n" : -1.5e3 , "t":true,"f":null,)",
      R"("nest":{"data":{"data":[{}]}},"arr":[[],["data"]],)",
  };
  for (const std::string& b : before) {
    const std::string text = "{" + b + "\"data\" : " + raw + " ,\"after\":[1]}  ";
    std::string got;
    bool taken = false;
    Result<Value> tree = ParseJsonTakingRaw(text, "data", {}, [&](std::string_view t) {
      got = t.substr(0, raw.size());
      return raw.size();
    }, &taken);
    ASSERT_TRUE(tree.ok()) << b << ": " << tree.status().ToString();
    EXPECT_TRUE(taken) << b;
    EXPECT_EQ(got, raw) << b;
    Result<Value> want = ParseJson("{" + b + "\"data\" : {} ,\"after\":[1]}");
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(*tree, *want) << b;
  }
}

// Anything the finder does not vouch for, and any error, is ParseJson's.
TEST(JsonReaderTest, TakingRawLeavesOddTextsToTheParser) {
  auto take_all = [](std::string_view t) { return t.find('}') + 1; };
  for (const std::string text : {
           R"({"d\u0061ta":{"a":1}})",       // a key spelled with an escape
           R"({"x\"":1,"data":{"a":1}})",    // one before it (not compared)
           R"({"data":[1]})",                // not an object
           R"({"x":1 "data":{}})",           // no comma
           R"({"data":{"a":1}} x)",          // text after the value
           R"({"data":{"a":1},"b":})",       // an error after it
           R"(["data",{}])",                 // not an object at the top
           R"({"x":"unclosed, "data":{}})",  // strings as the parser reads them
       }) {
    bool taken = true;
    Result<Value> tree = ParseJsonTakingRaw(text, "data", {}, take_all, &taken);
    Result<Value> want = ParseJson(text);
    ASSERT_EQ(tree.ok(), want.ok()) << text;
    if (tree.ok()) {
      EXPECT_EQ(*tree, *want) << text;
    } else {
      EXPECT_EQ(tree.status().ToString(), want.status().ToString()) << text;
    }
    EXPECT_EQ(taken, false) << text;
  }
  bool taken = true;
  Result<Value> refused = ParseJsonTakingRaw(R"({"data":{"a":1}})", "data", {},
                                             [](std::string_view) { return std::size_t{0}; },
                                             &taken);
  ASSERT_TRUE(refused.ok());
  EXPECT_FALSE(taken);
  EXPECT_EQ(refused->Find("data")->Find("a")->number_raw(), "1");
}

TEST(JsonReaderTest, AnObjectOpeningWithAnUnquotedKeyIsYaml) {
  for (const char* json : {"{\"a\": 1}", " \n{ \n \"a\"", "{}", "[a]", "\t[]"}) {
    EXPECT_TRUE(LooksLikeJson(json)) << json;
  }
  for (const char* yaml : {"{a: 1}", "{ kind: Secret }", "a: 1", "", "{", "# {\"a\": 1}"}) {
    EXPECT_FALSE(LooksLikeJson(yaml)) << yaml;
  }
}

}  // namespace
}  // namespace zs::json
