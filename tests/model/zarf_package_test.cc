#include "model/zarf_package.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json_reader.h"
#include "tests/test_util.h"

namespace zs {
namespace {

using json::DuplicateKeys;
using json::ParseJson;

// What v0.84.0 writes for the struct-typed fields of a component and of a
// package that the input leaves unset.
constexpr const char* kBuild = R"("build":{"architecture":"","timestamp":"","version":""})";
constexpr const char* kUnsetParts =
    R"("only":{"cluster":{}},"import":{},"scripts":{},"actions":{"onCreate":{"defaults":)"
    R"({"shell":{}}},"onDeploy":{"defaults":{"shell":{}}},"onRemove":{"defaults":{"shell":{}}}})";

Result<std::string> Marshal(const std::string& text,
                            std::vector<std::string>* undeclared = nullptr) {
  auto doc = ParseJson(text);  // duplicates kept, in order, as Go reads them
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return MarshalZarfPackage(*doc, undeclared);
}

// A package of kind K as v0.84.0 writes it; `after_values` is written last.
std::string Package(const std::string& metadata, const std::string& components,
                    const std::string& after_values = "") {
  return R"({"kind":"K","metadata":)" + metadata + "," + kBuild + R"(,"components":)" + components +
         R"(,"values":{})" + after_values + "}";
}

// A component as v0.84.0 writes it: `fields` first, then the unset struct
// parts, with `images` in its place among them.
std::string Component(const std::string& fields, const std::string& images = "") {
  std::string parts = kUnsetParts;
  if (!images.empty()) parts.insert(parts.find(R"("scripts")"), R"("images":)" + images + ",");
  return "{" + fields + "," + parts + "}";
}

// A JSON array of `items`.
std::string List(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ",";
    out += item;
  }
  return out + "]";
}

TEST(ZarfPackageTest, EveryGoVectorIsReproducedOrRefused) {
  const auto lines = testing::ReadLines("vectors/zarf-package-marshal.jsonl.gz");
  ASSERT_EQ(lines.size(), 98u);
  int refused = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto vec = ParseJson(lines[i]);
    ASSERT_TRUE(vec.ok()) << vec.status().ToString();
    const std::string& input = vec->Find("input")->as_string();
    auto got = Marshal(input);
    if (vec->Find("error") != nullptr) {
      ++refused;
      EXPECT_FALSE(got.ok()) << "vector " << i << " should be refused: " << input;
      if (!got.ok()) {
        EXPECT_EQ(got.status().code(), Status::Code::kInvalidArgument);
      }
      continue;
    }
    ASSERT_TRUE(got.ok()) << "vector " << i << ": " << got.status().ToString();
    EXPECT_EQ(*got, vec->Find("go")->as_string()) << "vector " << i;
  }
  EXPECT_EQ(refused, 5);
}

TEST(ZarfPackageTest, KeysMatchFieldsCaseInsensitivelyAsGoFoldsThem) {
  EXPECT_EQ(
      *Marshal(
          R"({"KIND":"K","Metadata":{"NAME":"d"},"components":[{"Name":"a","REQUIRED":true}]})"),
      Package(R"({"name":"d"})", List({Component(R"("name":"a","required":true)")})));
  // U+212A KELVIN SIGN folds to k, U+017F LONG S to s.
  auto kelvin =
      Marshal("{\"\xE2\x84\xAAind\":\"K\",\"metadata\":{\"name\":\"d\"},\"components\":[]}");
  EXPECT_EQ(*kelvin, Package(R"({"name":"d"})", "[]"));
  // Every spelling lands in the same field: the last one wins.
  EXPECT_EQ(
      *Marshal(R"({"kind":"A","kInd":"B","KIND":"K","metadata":{"name":"d"},"components":[]})"),
      Package(R"({"name":"d"})", "[]"));
  // Not a fold: a different letter.
  std::vector<std::string> undeclared;
  ASSERT_TRUE(Marshal(R"({"kinx":"K","metadata":{"name":"d"},"components":[]})", &undeclared).ok());
  EXPECT_EQ(undeclared, std::vector<std::string>{"kinx"});
}

TEST(ZarfPackageTest, DuplicateKeysDecodeAgainIntoTheSameValue) {
  // A struct merges; a map merges, the last entry winning.
  EXPECT_EQ(
      *Marshal(
          R"({"kind":"K","metadata":{"name":"a","version":"1"},"metadata":{"description":"d"},)"
          R"("components":[],"documentation":{"a":"1"},"documentation":{"b":"2","a":"3"}})"),
      Package(R"({"name":"a","description":"d","version":"1"})", "[]",
              R"(,"documentation":{"a":"3","b":"2"})"));
  // A slice is decoded into its old elements: component 0 keeps its name and
  // images and gains a description; component 1 was cut off.
  EXPECT_EQ(
      *Marshal(R"({"kind":"K","metadata":{"name":"d"},"components":[{"name":"a","images":["x"]},)"
               R"({"name":"b"}],"components":[{"description":"z"}]})"),
      Package(R"({"name":"d"})", List({Component(R"("name":"a","description":"z")", R"(["x"])")})));
  // ...and elements past the length but within Go's capacity come back: four
  // elements, then one, then five gives a, b, c, d and a new one.
  auto regrown =
      Marshal(R"({"kind":"K","metadata":{"name":"d"},"components":[{"name":"a"},{"name":"b"},)"
              R"({"name":"c"},{"name":"d"}],"components":[{}],"components":[{},{},{},{},{}]})");
  std::vector<std::string> five;
  for (const char* name : {"a", "b", "c", "d", ""}) {
    five.push_back(Component(R"("name":")" + std::string(name) + R"(")"));
  }
  EXPECT_EQ(*regrown, Package(R"({"name":"d"})", List(five)));
}

TEST(ZarfPackageTest, NullSetsOnlyNilableFields) {
  // metadata (a struct) and kind (a string) keep their values; components (a
  // slice) and required (a *bool) become nil.
  EXPECT_EQ(
      *Marshal(R"({"kind":"K","kind":null,"metadata":{"name":"d"},"metadata":null,"build":null,)"
               R"("components":[{"name":"a","required":true,"required":null}],"components":null})"),
      Package(R"({"name":"d"})", "null"));
  // A null map value is the zero string.
  EXPECT_EQ(
      *Marshal(
          R"({"kind":"K","metadata":{"name":"d","annotations":{"b":"x","a":null}},"components":[]})"),
      Package(R"({"name":"d","annotations":{"a":"","b":"x"}})", "[]"));
  // The whole document null: the zero package, as Go leaves it.
  EXPECT_EQ(*Marshal("null"), R"({"kind":"","metadata":{"name":""},)" + std::string(kBuild) +
                                  R"(,"components":null,"values":{}})");
}

TEST(ZarfPackageTest, SetPointersAreWrittenEvenWhenZeroAndEmptySlicesAreDropped) {
  auto got = Marshal(R"({"kind":"K","metadata":{"name":"d"},"components":[{"name":"a","images":[],)"
                     R"("actions":{"onDeploy":{"before":[{"mute":false,"dir":"","maxRetries":-0,)"
                     R"("maxTotalSeconds":-9223372036854775808,"shell":{},"wait":null}]}}}]})");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_NE(got->find(R"("before":[{"mute":false,"maxTotalSeconds":-9223372036854775808,)"
                      R"("maxRetries":0,"dir":"","shell":{}}])"),
            std::string::npos)
      << *got;
  EXPECT_EQ(got->find(R"("images")"), std::string::npos);
}

TEST(ZarfPackageTest, AnyValuesAreFloat64sInSortedMaps) {
  auto got = Marshal(
      R"({"kind":"K","metadata":{"name":"d"},"components":[{"name":"a","actions":{"onDeploy":)"
      R"({"after":[{"setValues":[{"key":"k","value":{"b":1,"a":2.50,"c":[1e21,"<"],"b":3}},)"
      R"({"key":"z","value":0},{"key":"n","value":null}]}]}}}]})");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_NE(got->find(R"("setValues":[{"key":"k","value":{"a":2.5,"b":3,"c":[1e+21,"\u003c"]}},)"
                      R"({"key":"z","value":0},{"key":"n"}])"),
            std::string::npos)
      << *got;
}

TEST(ZarfPackageTest, UndeclaredKeysAreDroppedAndReportedByPath) {
  std::vector<std::string> undeclared;
  auto got =
      Marshal(R"({"kind":"K","unknownTop":{"x":1},"metadata":{"name":"d","labels":{}},)"
              R"("components":[{"name":"a"},{"name":"b","optional":true}],)"
              R"("variables":[{"name":"V","Variable":{"name":"W"},"prompt":true,"pattern":"p"}],)"
              R"("constants":[{"name":"C","value":"v","bogus":1}]})",
              &undeclared);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  // An embedded struct has no key of its own: "Variable" is unknown too.
  EXPECT_EQ(undeclared,
            (std::vector<std::string>{"unknownTop", "metadata.labels", "components[1].optional",
                                      "variables[0].Variable", "constants[0].bogus"}));
  EXPECT_NE(got->find(R"("constants":[{"name":"C","value":"v"}],)"
                      R"("variables":[{"name":"V","pattern":"p","prompt":true}])"),
            std::string::npos)
      << *got;
}

TEST(ZarfPackageTest, WrongKindsAreRefusedWithThePath) {
  const std::string before =
      R"({"kind":"K","components":[{"name":"a","actions":{"onDeploy":{"before":[{"cmd":"x",)";
  struct Case {
    std::string input;
    std::string message;
  };
  const std::vector<Case> cases = {
      {before + R"("maxRetries":1.5}]}}}]})",
       "components[0].actions.onDeploy.before[0].maxRetries: expected integer, got number 1.5"},
      {before + R"("maxRetries":1e2}]}}}]})",
       "components[0].actions.onDeploy.before[0].maxRetries: expected integer, got number 1e2"},
      {before + R"("maxRetries":9223372036854775808}]}}}]})",
       "components[0].actions.onDeploy.before[0].maxRetries: integer 9223372036854775808 out of "
       "range for int"},
      {R"({"components":[{"name":"a"},{"name":"b"},{"name":"c","required":"true"}]})",
       "components[2].required: expected boolean, got string"},
      {R"({"components":[{"name":"a","images":{}}]})",
       "components[0].images: expected array, got object"},
      {R"({"components":[{"name":"a","only":[]}]})",
       "components[0].only: expected object, got array"},
      {R"({"metadata":{"name":5}})", "metadata.name: expected string, got number 5"},
      {R"({"metadata":{"annotations":{"a":true}}})",
       "metadata.annotations.a: expected string, got boolean"},
      {R"({"components":[{"actions":{"onDeploy":{"after":[{"setValues":[{"value":[1e400]}]}]}}}]})",
       "components[0].actions.onDeploy.after[0].setValues[0].value: number 1e400 out of float64 "
       "range"},
      {"[]", "top level: expected object, got array"},
  };
  for (const Case& c : cases) {
    auto got = Marshal(c.input);
    ASSERT_FALSE(got.ok()) << c.input;
    EXPECT_EQ(got.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(ZarfPackageTest, UndeclaredKeysAreOnlyReportedOnSuccess) {
  std::vector<std::string> undeclared;
  EXPECT_FALSE(Marshal(R"({"x":1,"kind":true})", &undeclared).ok());
  EXPECT_TRUE(undeclared.empty());
}

}  // namespace
}  // namespace zs
