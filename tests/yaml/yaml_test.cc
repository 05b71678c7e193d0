#include "yaml/yaml.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "json/json_value.h"
#include "tests/test_random.h"
#include "tests/test_util.h"

namespace zs::yaml {
namespace {

using json::Value;

Value Str(std::string s) { return Value::String(std::move(s)); }
Value Num(std::string raw) { return Value::RawNumber(std::move(raw)); }
Value Obj(json::Object members) {
  return Value::MakeObject(std::move(members));
}
Value Arr(json::Array items) { return Value::MakeArray(std::move(items)); }

// Parses a stream that must hold exactly one document.
Value ParseOne(std::string_view text) {
  auto docs = ParseDocuments(text);
  EXPECT_TRUE(docs.ok()) << docs.status().ToString() << "\n" << text;
  if (!docs.ok()) return Value();
  EXPECT_EQ(docs->size(), 1u) << text;
  return docs->empty() ? Value() : docs->front();
}

// The status of parsing `text`, which must fail.
Status ParseError(std::string_view text) {
  auto docs = ParseDocuments(text);
  EXPECT_FALSE(docs.ok()) << "parsed without error:\n" << text;
  return docs.ok() ? Status::OK() : docs.status();
}

// Members sorted by name at every level: kubectl's JSON and YAML printers
// order keys differently.
Value Canonical(const Value& v) {
  if (v.is_array()) {
    json::Array items;
    for (const Value& item : v.array()) items.push_back(Canonical(item));
    return Arr(std::move(items));
  }
  if (!v.is_object()) return v;
  json::Object members;
  for (const auto& [k, child] : v.object())
    members.emplace_back(k, Canonical(child));
  std::stable_sort(
      members.begin(), members.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  return Obj(std::move(members));
}

// Every `"data": "..."` / `"state": "..."` base64 payload of kubectl's JSON
// text, in order, found textually so the check does not trust our parser.
std::vector<std::string> Base64Payloads(const std::string& json_text) {
  std::vector<std::string> out;
  for (std::size_t at = 0;
       (at = json_text.find("\": \"", at)) != std::string::npos;) {
    const std::size_t name_begin = json_text.rfind('"', at - 1) + 1;
    const std::string name = json_text.substr(name_begin, at - name_begin);
    const std::size_t begin = at + 4;
    at = json_text.find('"', begin);
    if (name == "data" || name == "state")
      out.push_back(json_text.substr(begin, at - begin));
  }
  return out;
}

std::string Kubectl(const std::string& name) {
  return zs::testing::ReadData("kubectl/" + name);
}

const char* const kSamples[] = {
    "secret-literal",
    "secret-dos-games",
    "secret-zarf-state-labelled",
    "secret-pkg-unicode-labelled",
    "configmap-tricky",
    "deployment",
    "cronjob",
};

// --- kubectl samples -------------------------------------------------------

TEST(YamlBudgetTest, ValuesBeyondTheMemoryBudgetAreRefused) {
  // Flow style, 3 bytes per empty mapping (kObjectCost): over 4 per byte.
  std::string flow = "items: [{}";
  for (int i = 1; i < 1000000; ++i) flow += ",{}";
  flow += "]\n";
  auto docs = ParseDocuments(flow);
  ASSERT_FALSE(docs.ok());
  EXPECT_EQ(docs.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(docs.status().message().find("yaml: line 1, column "), std::string::npos)
      << docs.status().message();
  EXPECT_NE(docs.status().message().find(std::string(kOverMemoryBudget)), std::string::npos)
      << docs.status().message();
  // Fewer fit: 20,000 mappings (20 MB) within the 32 MiB floor.
  std::string block = "items:\n";
  for (int i = 0; i < 20000; ++i) block += "-    {}\n";
  auto fits = ParseDocuments(block);
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  EXPECT_EQ(fits->at(0).Find("items")->array().size(), 20000u);
}

TEST(YamlKubectlTest, EverySampleParsesToTheValueOfItsJsonForm) {
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    const std::string yaml_text = Kubectl(std::string(name) + ".yaml");
    const std::string json_text = Kubectl(std::string(name) + ".json");
    ASSERT_FALSE(yaml_text.empty());
    // JSON is YAML's flow style, so the same parser reads kubectl's JSON.
    EXPECT_EQ(Canonical(ParseOne(yaml_text)), Canonical(ParseOne(json_text)));
  }
}

TEST(YamlKubectlTest, SecretPayloadsEqualTheBase64OfTheJsonForm) {
  const struct {
    const char* name;
    const char* key;
  } kSecrets[] = {{"secret-literal", "a"},
                  {"secret-dos-games", "data"},
                  {"secret-zarf-state-labelled", "state"},
                  {"secret-pkg-unicode-labelled", "data"}};
  for (const auto& s : kSecrets) {
    SCOPED_TRACE(s.name);
    const Value secret = ParseOne(Kubectl(std::string(s.name) + ".yaml"));
    const Value* data = secret.Find("data");
    ASSERT_NE(data, nullptr);
    const std::string json_text = Kubectl(std::string(s.name) + ".json");
    if (std::string(s.key) == "a") {
      EXPECT_EQ(data->StringOr("a"), "Yg==");
      EXPECT_NE(json_text.find("\"a\": \"Yg==\""), std::string::npos);
      continue;
    }
    const std::vector<std::string> payloads = Base64Payloads(json_text);
    ASSERT_EQ(payloads.size(), 1u);
    EXPECT_GT(payloads[0].size(), 1000u);
    EXPECT_EQ(data->StringOr(s.key), payloads[0]);
  }
}

TEST(YamlKubectlTest, SecretsCarryMetadataAsKubectlPrintedIt) {
  const Value secret = ParseOne(Kubectl("secret-zarf-state-labelled.yaml"));
  const Value* metadata = secret.Find("metadata");
  ASSERT_NE(metadata, nullptr);
  EXPECT_EQ(metadata->StringOr("creationTimestamp"), "2026-08-23T21:25:09Z");
  EXPECT_EQ(metadata->StringOr("resourceVersion"), "4503930");
  EXPECT_EQ(metadata->Find("labels")->StringOr("zarf.dev/test"), "yes");
  EXPECT_EQ(ParseOne(Kubectl("deployment.yaml"))
                .Find("spec")
                ->Find("replicas")
                ->number_raw(),
            "2");
}

TEST(YamlKubectlTest, AnAnnotatedListIsAStreamWithOneDocumentPerSecret) {
  auto docs = ParseDocuments(Kubectl("all-secrets-annotated.stream.yaml"));
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  const std::vector<std::string> payloads =
      Base64Payloads(Kubectl("all-secrets-annotated.stream.json"));
  ASSERT_EQ(docs->size(), 10u);
  ASSERT_EQ(payloads.size(), docs->size());
  for (std::size_t i = 0; i < docs->size(); ++i) {
    const Value& doc = (*docs)[i];
    const Value* data = doc.Find("data");
    ASSERT_NE(data, nullptr);
    ASSERT_EQ(data->object().size(), 1u);
    EXPECT_EQ(data->object()[0].second.as_string(), payloads[i])
        << "document " << i;
    EXPECT_EQ(
        doc.Find("metadata")->Find("annotations")->StringOr("zarf.dev/note"),
        "checked: yes # not a comment");
  }
}

TEST(YamlKubectlTest,
     LabelOnAListPrintsItemsWithoutSeparatorsWhichIsADuplicateKey) {
  // `kubectl label --local -f list.json -o yaml` concatenates the items
  // without `---`; as one document the second `apiVersion` repeats a key.
  const Status s = ParseError(Kubectl("list-label-concatenated.yaml"));
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("line 15, column 1"), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.message().find("duplicate mapping key \"apiVersion\""),
            std::string::npos);
}

TEST(YamlKubectlTest, TrickyConfigMapValuesComeBackExactly) {
  const Value cm = ParseOne(Kubectl("configmap-tricky.yaml"));
  const Value* data = cm.Find("data");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->StringOr("multi"), "line one\nline two\n");
  EXPECT_EQ(data->StringOr("nofinal"), "a\nb");
  EXPECT_EQ(data->StringOr("trailing"), "keep\n\n\n");
  EXPECT_EQ(data->StringOr("lead"), "  indented\nnext\n");
  EXPECT_EQ(data->StringOr("empty"), "");
  EXPECT_EQ(data->StringOr("yes"), "yes");
  EXPECT_EQ(data->StringOr("null"), "null");
  EXPECT_EQ(data->StringOr("num"), "0755");
  EXPECT_EQ(data->StringOr("ctrl"), "bell\a");
  EXPECT_EQ(data->StringOr("tab"), "a\tb");
  EXPECT_EQ(data->StringOr("unicode"), "h\u00e9llo \U0001F984 \u2211");
  EXPECT_EQ(data->StringOr("quote"), "it's");
  EXPECT_EQ(data->StringOr("hash"), "x #y");
  EXPECT_EQ(data->StringOr("trailsp"), "line \nnext");
}

TEST(YamlKubectlTest, WriteReproducesKubectlOutputByteForByte) {
  // kubectl sorts keys and we keep the parsed order, so writing the parsed
  // document must give kubectl's text back. (configmap-tricky is left out:
  // kubectl escapes the emoji as \U0001F984 where we write it as UTF-8.)
  for (const char* name : kSamples) {
    if (std::string(name) == "configmap-tricky") continue;
    SCOPED_TRACE(name);
    const std::string text = Kubectl(std::string(name) + ".yaml");
    EXPECT_EQ(Write(ParseOne(text)), text);
  }
  const std::string stream = Kubectl("all-secrets-annotated.stream.yaml");
  auto docs = ParseDocuments(stream);
  ASSERT_TRUE(docs.ok());
  std::string written;
  for (const Value& doc : *docs) {
    if (!written.empty()) written += "---\n";
    written += Write(doc);
  }
  EXPECT_EQ(written, stream);
}

TEST(YamlKubectlTest, WriteMatchesKubectlQuotingOfTrickyStrings) {
  const std::string text = Kubectl("configmap-tricky.yaml");
  const std::string written = Write(ParseOne(text));
  std::string expected = text;
  // kubectl double-quotes this line only to escape the emoji.
  const std::string kubectl_line = "\"h\u00e9llo \\U0001F984 \u2211\"";
  const std::size_t at = expected.find(kubectl_line);
  ASSERT_NE(at, std::string::npos);
  expected.replace(at, kubectl_line.size(), "h\u00e9llo \U0001F984 \u2211");
  EXPECT_EQ(written, expected);
}

// --- scalars ---------------------------------------------------------------

TEST(YamlScalarTest, PlainScalarsResolveWithTheCoreSchema) {
  const Value v = ParseOne(
      "a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: true\ng: False\nh: TRUE\n"
      "i: yes\nj: 42\nk: -17\nl: +5\nm: 1.50\nn: 1e3\no: .5\np: 1.\n"
      "q: 0o17\nr: 0x1F\ns: -.5e-3\nt: 0\nu: -0\nv: 1.2.3\nw: 0x\nx: 1_000\n"
      "y: 0xFFFFFFFFFFFFFFFFFFFF\nz: 007.5\n");
  const Value expected = Obj({{"a", Value()},
                              {"b", Value()},
                              {"c", Value()},
                              {"d", Value()},
                              {"e", Value()},
                              {"f", Value::Bool(true)},
                              {"g", Value::Bool(false)},
                              {"h", Value::Bool(true)},
                              {"i", Str("yes")},
                              {"j", Num("42")},
                              {"k", Num("-17")},
                              {"l", Num("5")},
                              {"m", Num("1.50")},
                              {"n", Num("1e3")},
                              {"o", Num("0.5")},
                              {"p", Num("1")},
                              {"q", Num("15")},
                              {"r", Num("31")},
                              {"s", Num("-0.5e-3")},
                              {"t", Num("0")},
                              {"u", Num("-0")},
                              {"v", Str("1.2.3")},
                              {"w", Str("0x")},
                              {"x", Str("1_000")},
                              {"y", Num("1208925819614629174706175")},
                              {"z", Num("7.5")}});
  EXPECT_EQ(v, expected);
  for (const auto& [key, value] : v.object()) {
    if (value.is_number()) {
      EXPECT_TRUE(json::IsValidNumber(value.number_raw())) << key;
    }
  }
}

TEST(YamlScalarTest, InfinityNanAndLeadingZeroIntegersAreRefused) {
  for (const char* text :
       {"x: .inf\n", "x: -.Inf\n", "x: .NaN\n", "x: 0755\n", "x: +010\n"}) {
    const Status s = ParseError(text);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << text;
    EXPECT_NE(s.message().find("line 1, column 4"), std::string::npos)
        << s.ToString();
  }
  EXPECT_EQ(ParseOne("x: '.inf'\ny: \"0755\"\n"),
            Obj({{"x", Str(".inf")}, {"y", Str("0755")}}));
}

TEST(YamlScalarTest, QuotedScalarsDecodeEveryEscape) {
  const Value v =
      ParseOne(R"(a: "\n\t\"\\\/\0\a\b\e\f\r\v\x41\u00e9\U0001F984\N\_\L\P\ ")"
               "\n"
               "b: 'it''s # not a comment'\n"
               "c: \"tab\\\there\"\n");
  const char kDecoded[] =
      "\n\t\"\\/\0\a\b\x1b\f\r\vA\u00e9\U0001F984\u0085\u00a0\u2028\u2029 ";
  EXPECT_EQ(v.StringOr("a"), std::string(kDecoded, sizeof(kDecoded) - 1));
  EXPECT_EQ(v.StringOr("b"), "it's # not a comment");
  EXPECT_EQ(v.StringOr("c"), "tab\there");
}

TEST(YamlScalarTest, MultiLineScalarsFoldLikeYamlSays) {
  const Value v = ParseOne(
      "plain: one\n  two\n\n  three\n"
      "double: \"a\n   b  \n\n  c\\\n   d\"\n"
      "single: 'x\n  y'\n"
      "seq:\n- first\n  continued\n");
  EXPECT_EQ(v.StringOr("plain"), "one two\nthree");
  EXPECT_EQ(v.StringOr("double"), "a b\ncd");
  EXPECT_EQ(v.StringOr("single"), "x y");
  EXPECT_EQ(v.Find("seq")->array()[0].as_string(), "first continued");
}

TEST(YamlScalarTest, BlockScalarsHonourStyleChompingAndIndentation) {
  const Value v = ParseOne(
      "lit: |\n  a\n   b\n\n  c\n"
      "strip: |-\n  a\n\n"
      "keep: |+\n  a\n\n\n"
      "folded: >\n  one\n  two\n\n  three\n    more\n  four\n"
      "explicit: |2\n    lead\n  x\n"
      "empty: |\n"
      "comment: > # note\n  text\n"
      "last: |\n  no newline at end");
  EXPECT_EQ(v.StringOr("lit"), "a\n b\n\nc\n");
  EXPECT_EQ(v.StringOr("strip"), "a");
  EXPECT_EQ(v.StringOr("keep"), "a\n\n\n");
  EXPECT_EQ(v.StringOr("folded"), "one two\nthree\n  more\nfour\n");
  EXPECT_EQ(v.StringOr("explicit"), "  lead\nx\n");
  EXPECT_EQ(v.StringOr("empty"), "");
  EXPECT_EQ(v.StringOr("comment"), "text\n");
  EXPECT_EQ(v.StringOr("last"), "no newline at end");
}

// --- structure -------------------------------------------------------------

TEST(YamlStructureTest, BlockCollectionsNestInEveryKubectlShape) {
  const Value v = ParseOne(
      "# leading comment\n"
      "items:\n"
      "- name: a   # trailing comment\n"
      "  ports:\n"
      "  - 80\n"
      "  -   443\n"
      "  env: {}\n"
      "-\n"
      "  name: b\n"
      "- - x\n"
      "  - y\n"
      "- ~\n"
      "nested:\n"
      "    deep:\n"
      "        deeper: [1, {k: v}]\n"
      "\"quoted key\": 'v'\n"
      "'single': \"w\"\n");
  const Value expected = Obj(
      {{"items",
        Arr({Obj({{"name", Str("a")},
                  {"ports", Arr({Num("80"), Num("443")})},
                  {"env", Obj({})}}),
             Obj({{"name", Str("b")}}), Arr({Str("x"), Str("y")}), Value()})},
       {"nested",
        Obj({{"deep",
              Obj({{"deeper", Arr({Num("1"), Obj({{"k", Str("v")}})})}})}})},
       {"quoted key", Str("v")},
       {"single", Str("w")}});
  EXPECT_EQ(v, expected);
}

TEST(YamlStructureTest, FlowCollectionsMaySpanLinesAndHoldJson) {
  const Value v = ParseOne(
      "a: {x: 1, y: [p, \"q\", 'r'], z: }\n"
      "b: [\n  one,   # comment\n  two words,\n  {\"k\":\"v\"},\n]\n"
      "c: [k: v, http://x.y/z, {}]\n"
      "d: {a, b: }\n");
  const Value expected =
      Obj({{"a", Obj({{"x", Num("1")},
                      {"y", Arr({Str("p"), Str("q"), Str("r")})},
                      {"z", Value()}})},
           {"b", Arr({Str("one"), Str("two words"), Obj({{"k", Str("v")}})})},
           {"c", Arr({Obj({{"k", Str("v")}}), Str("http://x.y/z"), Obj({})})},
           {"d", Obj({{"a", Value()}, {"b", Value()}})}});
  EXPECT_EQ(v, expected);
}

TEST(YamlStructureTest, StreamsYieldOneValuePerNonEmptyDocument) {
  auto docs = ParseDocuments(
      "%YAML 1.2\n---\na: 1\n---\n# only a comment\n---\n- x\n...\n"
      "plain scalar\n...\n--- |\n  text\n--- {b: 2}\n---\n");
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  ASSERT_EQ(docs->size(), 5u);
  EXPECT_EQ((*docs)[0], Obj({{"a", Num("1")}}));
  EXPECT_EQ((*docs)[1], Arr({Str("x")}));
  EXPECT_EQ((*docs)[2], Str("plain scalar"));
  EXPECT_EQ((*docs)[3], Str("text\n"));
  EXPECT_EQ((*docs)[4], Obj({{"b", Num("2")}}));

  auto empty = ParseDocuments("# nothing\n---\n...\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(ParseOne("---\n~\n"), Value());
}

TEST(YamlStructureTest, ByteOrderMarkAndCrlfLineEndsAreAccepted) {
  EXPECT_EQ(ParseOne("\xEF\xBB\xBFkey: |\r\n  a\r\n  b\r\nother: x\r\n"),
            Obj({{"key", Str("a\nb\n")}, {"other", Str("x")}}));
}

TEST(YamlStructureTest, NestingIsLimitedTo512Levels) {
  const std::string ok_flow = std::string(512, '[') + std::string(512, ']');
  EXPECT_TRUE(ParseDocuments(ok_flow).ok());
  const std::string deep_flow = std::string(513, '[') + std::string(513, ']');
  Status s = ParseError(deep_flow);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("line 1, column 513"), std::string::npos)
      << s.ToString();

  std::string deep_block;
  for (int i = 0; i < 513; ++i) deep_block += std::string(i, ' ') + "k:\n";
  s = ParseError(deep_block);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("line 513"), std::string::npos) << s.ToString();
}

TEST(YamlStructureTest, AMegabyteLongLineParses) {
  const std::string payload(1 << 20, 'A');
  EXPECT_EQ(ParseOne("data:\n  state: " + payload + "\n"),
            Obj({{"data", Obj({{"state", Str(payload)}})}}));
}

// --- errors ----------------------------------------------------------------

struct BadInput {
  const char* text;
  Status::Code code;
  const char* where;  // "line L, column C"
  const char* what;   // part of the message
};

TEST(YamlErrorTest, EveryProblemIsReportedWithItsLineAndColumn) {
  using C = Status::Code;
  const BadInput kCases[] = {
      {"a: *x\n", C::kCorruption, "line 1, column 5", "*x names no anchor"},
      {"a: &x [*x]\n", C::kCorruption, "line 1, column 9", "*x names no anchor"},
      {"- !foo x\n", C::kNotSupported, "line 1, column 8", "tag !foo"},
      {"a: !!set {x: 1}\n", C::kNotSupported, "line 1, column 10", "tag tag:yaml.org,2002:set"},
      {"a: !!int x\n", C::kInvalidArgument, "line 1, column 10", "'x' is not a valid !!int"},
      {"x: {<<: 1}\n", C::kInvalidArgument, "line 1, column 5", "merge key (<<) takes a mapping"},
      {"[a]: b\n", C::kNotSupported, "line 1, column 1",
       "collections as mapping keys"},
      {"k: v\n{x: [1]}: y\n", C::kNotSupported, "line 2, column 1",
       "collections as mapping keys"},
      {"k: v\n[x]\n", C::kCorruption, "line 2, column 1", "did not find expected key"},
      {": v\n", C::kNotSupported, "line 1, column 1", "empty"},
      {"a:\n\tb: 1\n", C::kCorruption, "line 2, column 1", "tab"},
      {"a: 1\na: 2\n", C::kCorruption, "line 2, column 1",
       "duplicate mapping key \"a\""},
      {"x: {k: 1, k: 2}\n", C::kCorruption, "line 1, column 11", "duplicate"},
      {"a: b: c\n", C::kCorruption, "line 1, column 5",
       "invalid nested block mapping"},
      {"a: b\n  c: d\n", C::kCorruption, "line 1, column 4",
       "invalid multiline plain key"},
      {"a:\n  b: 1\n c: 2\n", C::kCorruption, "line 3, column 2",
       "invalid indentation"},
      {"a: - b\n", C::kCorruption, "line 1, column 4",
       "block sequence on the same line"},
      {"a: 'open\n", C::kCorruption, "line 1, column 5", "without closing quote"},
      {"a: \"bad \\q\"\n", C::kCorruption, "line 1, column 9", "escape"},
      {"a: \"\\uD800\"\n", C::kCorruption, "line 1, column 5", "invalid UTF8 escape"},
      {"a: [1, 2\n", C::kCorruption, "line 2, column 1", "without a closing bracket"},
      {"a: [1 2]\nb: {x: 1 y: 2}\n", C::kCorruption, "line 2, column 11",
       "missing comma"},
      {"a: \"x\" y\n", C::kCorruption, "line 1, column 8",
       "invalid trailing content"},
      {"a: |0\n  x\n", C::kCorruption, "line 1, column 5",
       "indentation indicator 0"},
      {"a: @x\n", C::kCorruption, "line 1, column 4", "cannot start with '@'"},
      {"k: v\nplain\n", C::kCorruption, "line 2, column 1", "invalid value after mapping"},
      {"\"x\"\nmore: 1\n", C::kCorruption, "line 2, column 1",
       "invalid mapping"},
      {"a: \xC3\x28\n", C::kCorruption, "line 1, column 4", "invalid UTF-8"},
      {"a: b\x01\n", C::kCorruption, "line 1, column 5", "control characters"},
      {"a: \"x\n---\ny\"\n", C::kCorruption, "line 2, column 1",
       "document-start marker"},
      {"%YAML 2.0\n---\na\n", C::kCorruption, "line 2, column 1", "version"},
      {"a: \"k\n  2\": v\n", C::kCorruption, "line 1, column 4",
       "multiline double-quoted scalar used as key"},
      {"- \"k\n  2\": v\n", C::kCorruption, "line 1, column 3", "used as key"},
      {"- a\nb: 1\n", C::kCorruption, "line 2, column 1",
       "invalid scalar at the end of block sequence"},
      {"- [a]\n  - b\n", C::kCorruption, "line 2, column 3", "wrongly indented sequence item"},
      {"a:\n  - x\n - y\n", C::kCorruption, "line 3, column 2",
       "indendation"},
      {"k: \u00e9\u00e9 &\n  x: 1\n", C::kCorruption, "line 1, column 4",
       "invalid multiline plain key"},
  };
  for (const BadInput& c : kCases) {
    SCOPED_TRACE(c.text);
    const Status s = ParseError(c.text);
    EXPECT_EQ(s.code(), c.code) << s.ToString();
    const std::string prefix = std::string("yaml: ") + c.where + ": ";
    EXPECT_EQ(s.message().substr(0, prefix.size()), prefix) << s.ToString();
    EXPECT_NE(s.message().find(c.what), std::string::npos) << s.ToString();
  }
}

// --- anchors, merge keys, tags ---------------------------------------------

TEST(YamlAliasTest, AliasesRepeatTheAnchoredValue) {
  const Value v = ParseOne(
      "base: &b {app: web, tier: 1}\n"
      "copy: *b\n"
      "list: [&s x, *s]\n"
      "labels: &l\n  a: 1\n"
      "again: *l\n");
  EXPECT_EQ(*v.Find("copy"), Obj({{"app", Str("web")}, {"tier", Num("1")}}));
  EXPECT_EQ(*v.Find("list"), Arr({Str("x"), Str("x")}));
  EXPECT_EQ(*v.Find("again"), Obj({{"a", Num("1")}}));
  // PyYAML writes a dict shared by several objects once, then as aliases.
  auto docs = ParseDocuments(zs::testing::ReadData("inputs/packages-shared-labels.pyyaml.yaml"));
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  const Value& items = *docs->at(0).Find("items");
  ASSERT_EQ(items.array().size(), 3u);
  for (const Value& item : items.array()) {
    EXPECT_EQ(*item.Find("metadata")->Find("labels"), *items.array()[0].Find("metadata")->Find("labels"));
  }
  EXPECT_EQ(items.array()[2].Find("metadata")->Find("labels")->StringOr("app.kubernetes.io/managed-by"), "zarf");
}

TEST(YamlAliasTest, MergeKeysAddWhatTheMappingDoesNotSay) {
  const Value v = ParseOne(
      "defaults: &d {a: 1, b: 2}\n"
      "more: &m {b: 3, c: 4}\n"
      "one:\n  <<: *d\n  b: 9\n"
      "many:\n  x: 0\n  <<: [*d, *m]\n"
      "inline: {<<: {k: v}, z: 1}\n"
      "quoted: {'<<': 1}\n");
  EXPECT_EQ(*v.Find("one"), Obj({{"a", Num("1")}, {"b", Num("9")}}));
  EXPECT_EQ(*v.Find("many"), Obj({{"x", Num("0")}, {"a", Num("1")}, {"b", Num("2")}, {"c", Num("4")}}));
  EXPECT_EQ(*v.Find("inline"), Obj({{"k", Str("v")}, {"z", Num("1")}}));
  EXPECT_EQ(*v.Find("quoted"), Obj({{"<<", Num("1")}}));
}

TEST(YamlAliasTest, StandardTagsSayWhatAScalarIs) {
  const Value v = ParseOne(
      "s: !!str 1\nt: !!str true\nu: ! 0755\ni: !!int 42\nf: !!float 1.5\nb: !!bool false\n"
      "n: !!null ~\nm: !!map {k: v}\nq: !!seq [1]\nbin: !!binary |\n  aGVs\n  bG8=\n"
      "local: !<tag:yaml.org,2002:str> 7\n");
  EXPECT_EQ(v, Obj({{"s", Str("1")},
                    {"t", Str("true")},
                    {"u", Str("0755")},
                    {"i", Num("42")},
                    {"f", Num("1.5")},
                    {"b", Value::Bool(false)},
                    {"n", Value()},
                    {"m", Obj({{"k", Str("v")}})},
                    {"q", Arr({Num("1")})},
                    {"bin", Str("aGVsbG8=")},
                    {"local", Str("7")}}));
}

TEST(YamlAliasTest, AnAliasOfALongScalarCostsItsLength) {
  // One 64 KiB scalar repeated 1,000 times by aliases: 64 MB built from a
  // text of 70 KB. Each alias is charged the scalar's bytes, not one value.
  std::string text = "a: &a " + std::string(64 << 10, 'x') + "\nb: [";
  for (int i = 0; i < 1000; ++i) text += i ? ", *a" : "*a";
  text += "]\n";
  const Status s = ParseError(text);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find(std::string(kOverMemoryBudget)), std::string::npos) << s.ToString();
  // A hundred copies (6.5 MB) fit.
  std::string few = "a: &a " + std::string(64 << 10, 'x') + "\nb: [";
  for (int i = 0; i < 100; ++i) few += i ? ", *a" : "*a";
  few += "]\n";
  auto fits = ParseDocuments(few);
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  EXPECT_EQ(fits->at(0).Find("b")->array().size(), 100u);
}

TEST(YamlBudgetTest, EveryDocumentOfAStreamCostsItsShare) {
  // 100k empty documents in 600 KB: each costs kDocumentCost (200 MB).
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "--- {}\n";
  const Status s = ParseError(text);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find(std::string(kOverMemoryBudget)), std::string::npos) << s.ToString();
  std::string few;
  for (int i = 0; i < 1000; ++i) few += "--- {}\n";
  EXPECT_TRUE(ParseDocuments(few).ok());
}

TEST(YamlAliasTest, ABillionLaughsIsRefusedWithinTheBudget) {
  // Each level repeats the previous one ten times: 10^9 strings at level 9,
  // from a text of under 1 KiB.
  std::string text = "a0: &a0 [lol]\n";
  for (int i = 1; i <= 9; ++i) {
    // Appended piece by piece: concatenations here trip a false g++ 12
    // -Wrestrict.
    const std::string n = std::to_string(i);
    text.append("a").append(n).append(": &a").append(n).append(" [");
    for (int k = 0; k < 10; ++k) {
      text.append(k ? ", " : "").append("*a").append(std::to_string(i - 1));
    }
    text += "]\n";
  }
  const Status s = ParseError(text);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find(std::string(kOverMemoryBudget)), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("an alias costs what it repeats"), std::string::npos) << s.ToString();
  // Three levels (1,111 values) fit.
  const std::size_t cut = text.find("a4:");
  EXPECT_TRUE(ParseDocuments(text.substr(0, cut)).ok());
}

TEST(YamlStructureTest, FlowDocumentsAndExplicitScalarKeysAreRead) {
  EXPECT_EQ(ParseOne("{kind: Secret, data: {a: YQ==},\n  type: Opaque}\n"),
            Obj({{"kind", Str("Secret")}, {"data", Obj({{"a", Str("YQ==")}})}, {"type", Str("Opaque")}}));
  EXPECT_EQ(ParseOne("? complex\n: value\n"), Obj({{"complex", Str("value")}}));
  EXPECT_EQ(ParseOne("%TAG !k! tag:yaml.org,2002:\n---\na: !k!str 1\n"), Obj({{"a", Str("1")}}));
}

TEST(YamlStructureTest, AnEmptyLastEntryOfAnUnindentedSequenceIsALibfyamlLimit) {
  // libfyaml 0.7 refuses an empty entry closing a sequence written at its
  // key's column; indented, or spelled `~`, it reads.
  EXPECT_FALSE(ParseDocuments("items:\n- a\n-\nnext: 1\n").ok());
  EXPECT_EQ(ParseOne("items:\n  - a\n  -\nnext: 1\n"),
            Obj({{"items", Arr({Str("a"), Value()})}, {"next", Num("1")}}));
}

TEST(YamlErrorTest, ColumnsCountCharactersNotBytes) {
  const Status s = ParseError("\u00e9\u00e9\u00e9: \"\\q\"\n");
  EXPECT_NE(s.message().find("line 1, column 7"), std::string::npos)
      << s.ToString();
}

// --- writing -----------------------------------------------------------------

TEST(YamlWriteTest, ObjectsAreWrittenInKubectlLayout) {
  const Value v = Obj(
      {{"kind", Str("Secret")},
       {"items", Arr({Obj({{"name", Str("a")}, {"ports", Arr({Num("80")})}}),
                      Arr({Str("x"), Str("y")})})},
       {"empty", Obj({})},
       {"none", Arr({})},
       {"meta", Obj({{"n", Value()}, {"b", Value::Bool(false)}})},
       {"script", Str("echo a\necho b\n")},
       {"z", Num("1.50")}});
  EXPECT_EQ(Write(v),
            "kind: Secret\n"
            "items:\n"
            "- name: a\n"
            "  ports:\n"
            "  - 80\n"
            "- - x\n"
            "  - \"y\"\n"
            "empty: {}\n"
            "none: []\n"
            "meta:\n"
            "  \"n\": null\n"
            "  b: false\n"
            "script: |\n"
            "  echo a\n"
            "  echo b\n"
            "z: 1.50\n");
  EXPECT_EQ(Write(Obj({})), "{}\n");
  EXPECT_EQ(Write(Arr({})), "[]\n");
  EXPECT_EQ(Write(Str("")), "\"\"\n");
  EXPECT_EQ(Write(Num("-1e-7")), "-1e-7\n");
}

TEST(YamlWriteTest, StringsAreQuotedOnlyWhenPlainTextWouldReadBackDifferently) {
  const struct {
    const char* in;
    const char* out;
  } kCases[] = {
      {"plain text", "plain text"},
      {"", "\"\""},
      {"true", "\"true\""},
      {"yes", "\"yes\""},
      {"null", "\"null\""},
      {"~", "\"~\""},
      {"123", "\"123\""},
      {"1e3", "\"1e3\""},
      {"0755", "\"0755\""},
      {"1_000", "\"1_000\""},
      {"12:30", "\"12:30\""},
      {"- x", "'- x'"},
      {"a: b", "'a: b'"},
      {"#x", "'#x'"},
      {" lead", "' lead'"},
      {"trail ", "'trail '"},
      {"{x}", "'{x}'"},
      {"*a", "'*a'"},
      {"&a", "'&a'"},
      {"!t", "'!t'"},
      {"%", "'%'"},
      {"@", "'@'"},
      {"`", "'`'"},
      {"it's", "it's"},
      {"'q'", "'''q'''"},
      {"a #b", "'a #b'"},
      {"a#b", "a#b"},
      {"-x", "-x"},
      {"--- x", "'--- x'"},
      {"tab\there", "\"tab\\there\""},
      {"bell\a", "\"bell\\a\""},
      {"\xC3\xA9 \xF0\x9F\xA6\x84", "\xC3\xA9 \xF0\x9F\xA6\x84"},
      {"1.2.3", "1.2.3"},
      {"2024-01-02", "\"2024-01-02\""},
      {"x\xFFy", "\"x\xEF\xBF\xBDy\""},
      {"line \nnext", "\"line \\nnext\""},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(Write(Str(c.in)), std::string(c.out) + "\n") << c.in;
  }
}

// Values whose YAML is easy to get wrong.
std::vector<Value> TrickyValues() {
  std::vector<Value> out;
  const char* const kStrings[] = {
      "",
      "true",
      "false",
      "123",
      "1e3",
      "- x",
      "a: b",
      "#x",
      " lead",
      "trail ",
      "multi\nline",
      "multi\nline\n",
      "keep\n\n\n",
      "\nleading break",
      "  indented\nx\n",
      "tab\there",
      "\t",
      "\xC3\xA9 \xF0\x9F\xA6\x84",
      "null",
      "~",
      "{x}",
      "[x]",
      "*a",
      "&a",
      "!t",
      "%",
      "@",
      "`",
      "'",
      "\"",
      "\\",
      "---",
      "...",
      "? x",
      ":",
      "-",
      "?",
      "a:",
      "a :b",
      "x # y",
      "\r\n",
      "nul\0byte",
      "\u0085\u2028\u2029\ufeff",
      "0o17",
      "0x1F",
      ".inf",
      ".5",
      "+1",
      "<<",
      "=",
      "y",
      "No",
      "  \n  ",
      "a\n\n\nb",
      "# c\n- d\n",
      "line \nnext",
      "\xEF\xBF\xBD",
      "\x7F",
      "\xC2\x80",
  };
  for (const char* s : kStrings) out.push_back(Str(s));
  out.push_back(Str(std::string("nul\0byte", 8)));
  for (const char* n :
       {"0", "-0", "1.50", "1E+2", "-1e-7", "123456789012345678901234567890"}) {
    out.push_back(Num(n));
  }
  out.push_back(Value());
  out.push_back(Value::Bool(true));
  out.push_back(Arr({}));
  out.push_back(Obj({}));
  out.push_back(Arr({Arr({}), Obj({}), Arr({Arr({Arr({})})})}));
  out.push_back(
      Obj({{"a", Obj({{"b", Obj({})}})}, {"c", Arr({Obj({}), Arr({})})}}));
  return out;
}

TEST(YamlWriteTest, TrickyValuesRoundTripThroughWriteAndParse) {
  std::vector<Value> values = TrickyValues();
  json::Object as_keys;
  json::Array as_items;
  for (const Value& v : values) {
    if (v.is_string()) as_keys.emplace_back(v.as_string(), v);
    as_items.push_back(v);
  }
  values.push_back(Obj(as_keys));
  values.push_back(Arr(as_items));
  values.push_back(Arr({Obj(as_keys), Arr(as_items)}));
  for (const Value& v : values) {
    const std::string text = Write(v);
    SCOPED_TRACE(text);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(ParseOne(text), v);
  }
}

// A random Value built from pieces that stress quoting, folding and nesting.
class RandomValues {
 public:
  explicit RandomValues(unsigned seed) : rng_(seed) {}

  Value Next(int depth = 0) {
    const int kind = Pick(depth >= 5 ? 4 : 7);
    switch (kind) {
      case 0:
        return Value();
      case 1:
        return Value::Bool(Pick(2) == 0);
      case 2:
        return Num(Number());
      case 3:
        return Str(Text());
      case 4: {
        json::Array items;
        for (int i = Pick(5); i > 0; --i) items.push_back(Next(depth + 1));
        return Arr(std::move(items));
      }
      default: {
        json::Object members;
        for (int i = Pick(5); i > 0; --i) {
          std::string key = Text();
          const bool taken = std::any_of(
              members.begin(), members.end(),
              [&](const json::Member& m) { return m.first == key; });
          if (!taken) members.emplace_back(std::move(key), Next(depth + 1));
        }
        return Obj(std::move(members));
      }
    }
  }

 private:
  int Pick(int n) { return testing::Uniform(rng_, 0, n - 1); }

  std::string Number() {
    std::string s = Pick(3) == 0 ? "-" : "";
    s += Pick(4) == 0 ? "0" : std::to_string(1 + Pick(100000));
    if (Pick(2) == 0) {
      // Appended piece by piece: g++ 12 warns (-Wrestrict, falsely) on
      // "." + std::to_string(...) chains.
      s += '.';
      s += std::to_string(Pick(1000));
      if (Pick(3) == 0) s += '0';
    }
    if (Pick(4) == 0) {
      s += std::string(Pick(2) ? "e" : "E") + (Pick(2) ? "-" : "+") +
           std::to_string(Pick(30));
    }
    return s;
  }

  std::string Text() {
    static const char* const kPieces[] = {"a",
                                          "Z",
                                          "word",
                                          " ",
                                          "  ",
                                          "\n",
                                          "\n\n",
                                          "\t",
                                          ":",
                                          ": ",
                                          "#",
                                          " #",
                                          "-",
                                          "- ",
                                          "?",
                                          "'",
                                          "\"",
                                          "\\",
                                          "{",
                                          "}",
                                          "[",
                                          "]",
                                          ",",
                                          "&",
                                          "*",
                                          "!",
                                          "|",
                                          ">",
                                          "%",
                                          "@",
                                          "`",
                                          "0",
                                          "1",
                                          ".",
                                          "e",
                                          "+",
                                          "0x",
                                          "0o",
                                          "true",
                                          "null",
                                          "~",
                                          "yes",
                                          "---",
                                          "...",
                                          "\xC3\xA9",
                                          "\xE2\x88\x91",
                                          "\xF0\x9F\xA6\x84",
                                          "\x01",
                                          "\x7F",
                                          "\r",
                                          "\xC2\x85",
                                          "\xE2\x80\xA8",
                                          "\xEF\xBB\xBF",
                                          "2024-01-02",
                                          "<<",
                                          "=",
                                          ".inf",
                                          "0755"};
    return testing::RandomPieces(rng_, kPieces, 6);
  }

  testing::Rng rng_;
};

TEST(YamlWriteTest, FiveHundredRandomValuesRoundTripUnchanged) {
  RandomValues gen(20240229);
  for (int i = 0; i < 500; ++i) {
    const Value v = gen.Next();
    const std::string text = Write(v);
    auto docs = ParseDocuments(text);
    ASSERT_TRUE(docs.ok()) << "value " << i << ": " << docs.status().ToString()
                           << "\n"
                           << text;
    ASSERT_EQ(docs->size(), 1u) << text;
    ASSERT_EQ(docs->front(), v) << "value " << i << ":\n" << text;
  }
}

TEST(YamlWriteTest, WrittenDocumentsConcatenateIntoAStream) {
  const Value a = Obj({{"a", Str("x\n")}});
  const Value b = Arr({Str("keep\n\n")});
  const Value c = Str("---");
  auto docs =
      ParseDocuments(Write(a) + "---\n" + Write(b) + "---\n" + Write(c));
  ASSERT_TRUE(docs.ok()) << docs.status().ToString();
  EXPECT_EQ(*docs, (std::vector<Value>{a, b, c}));
}

}  // namespace
}  // namespace zs::yaml
