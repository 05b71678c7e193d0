#include "model/internal/go_value.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/internal/go_schema.h"
#include "json/json_reader.h"

namespace zs::internal {
namespace {

// Outer embeds Inner, whose `b` Outer's own `b` hides (Go's dominance rule).
constexpr const char* kTypes = R"json([
  {"name":"Key","package":"p","kind":"named","underlying":"string"},
  {"name":"Inner","package":"p","kind":"struct","fields":[
    {"goName":"A","json":"a","type":"string"},
    {"goName":"B","json":"b","omitempty":true,"type":"int"},
    {"goName":"C","json":"c","omitempty":true,"type":"bool"}]},
  {"name":"Outer","package":"p","kind":"struct","fields":[
    {"goName":"Inner","json":"Inner","embedded":true,"type":"Inner"},
    {"goName":"B","json":"b","type":"bool"},
    {"goName":"Data","json":"data","type":"[]byte"},
    {"goName":"Set","json":"set","omitempty":true,"type":"map[Key]struct{}"},
    {"goName":"Ptr","json":"ptr","omitempty":true,"type":"*Inner"},
    {"goName":"Any","json":"any","omitempty":true,"type":"any"}]},
  {"name":"WithFunc","package":"p","kind":"struct","fields":[
    {"goName":"F","json":"f","omitempty":true,"type":"func()"}]}
])json";

const GoSchema& Schema() {
  static const auto schema = GoSchema::Parse(kTypes);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return **schema;
}

Result<std::string> RoundTrip(const char* type, const std::string& text) {
  auto doc = json::ParseJson(text);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return GoRoundTrip(*Schema().Find(type), *doc, nullptr);
}

TEST(GoSchemaTest, FlattensEmbeddedStructsAndLetsTheShallowerFieldWin) {
  const GoType* outer = Schema().Find("p.Outer");
  ASSERT_NE(outer, nullptr);
  std::vector<std::string> names;
  for (const GoField& f : outer->fields) names.push_back(f.json_name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "c", "b", "data", "set", "ptr", "any"}));
  EXPECT_EQ(outer->fields[2].type->kind, GoKind::kBool);
  EXPECT_EQ(outer->fields[4].type->name, "map[p.Key]struct {}");
  EXPECT_EQ(Schema().Find("p.Missing"), nullptr);
}

TEST(GoSchemaTest, RefusesFilesItCannotResolve) {
  const char* unknown =
      R"([{"name":"S","package":"p","kind":"struct","fields":[{"json":"x","type":"q.T"}]}])";
  EXPECT_EQ(GoSchema::Parse(unknown).status().message(), "types file: unknown type q.T");
  const char* same_depth = R"([
    {"name":"A","package":"p","kind":"struct","fields":[{"json":"x","type":"string"}]},
    {"name":"B","package":"p","kind":"struct","fields":[{"json":"x","type":"int"}]},
    {"name":"S","package":"p","kind":"struct","fields":[
      {"json":"A","embedded":true,"type":"A"},{"json":"B","embedded":true,"type":"B"}]}])";
  EXPECT_EQ(GoSchema::Parse(same_depth).status().message(),
            "types file: p.S has two fields named x at the same depth");
  EXPECT_FALSE(GoSchema::Parse("{}").ok());
}

// Expected bytes from Go 1.19's encoding/json over the same types.
TEST(GoRoundTripTest, MatchesGoForEmbeddedBytesMapsAndPointers) {
  EXPECT_EQ(*RoundTrip("p.Outer",
                       R"({"a":"x","b":true,"c":true,"data":"aGk=","set":{"k":{}},"ptr":{"b":2}})"),
            R"({"a":"x","c":true,"b":true,"data":"aGk=","set":{"k":{}},"ptr":{"a":"","b":2}})");
  EXPECT_EQ(*RoundTrip("p.Outer", R"({"A":"y","data":"","ptr":null,"any":[1,{"z":1e2}]})"),
            R"({"a":"y","b":false,"data":"","any":[1,{"z":100}]})");
  // The embedded struct has no key of its own.
  EXPECT_EQ(*RoundTrip("p.Outer", R"({"Inner":{"a":"q"}})"), R"({"a":"","b":false,"data":null})");
  auto bad = RoundTrip("p.Outer", R"({"data":"!!"})");
  EXPECT_EQ(bad.status().message(), "data: illegal base64 data at input byte 0");
}

TEST(GoRoundTripTest, RefusesValuesOfTypesGoCannotEncode) {
  // Go's encoder refuses a func even when nil: omitempty does not skip it.
  EXPECT_EQ(RoundTrip("p.WithFunc", "{}").status().code(), Status::Code::kNotSupported);
  EXPECT_EQ(RoundTrip("p.WithFunc", R"({"f":1})").status().message(),
            "f: Go type func() is not supported");
}

}  // namespace
}  // namespace zs::internal
