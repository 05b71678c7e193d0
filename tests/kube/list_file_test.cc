// ReadListFileStreaming against ReadInputStreaming on the same text: the
// same objects, header and outcome, or nullopt (nothing read) where the
// text must go to the parser whole.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "base/base64.h"
#include "json/go_json.h"
#include "kube/secret.h"

namespace zs {
namespace {

std::string Text(const json::Value& v) {
  Result<std::string> s = json::WriteJson(v);
  return s.ok() ? *s : "<unwritable>";
}

// Everything a streaming read handed out and how it ended, as text.
struct Outcome {
  std::vector<std::string> events;
  std::string status;
};

std::function<Status(InputObject)> Record(Outcome* out) {
  return [out](InputObject o) {
    out->events.push_back(o.label + " | " + std::to_string(o.is_secret) + " " +
                          std::to_string(static_cast<int>(o.payload_kind)) + " | " + o.payload +
                          " | " + o.error.ToString() + " | " + Text(o.object));
    return Status::OK();
  };
}

void Finish(const Input& header, const Status& s, Outcome* out) {
  out->events.push_back("header " + std::to_string(static_cast<int>(header.format)) + " " +
                        std::to_string(header.is_list) + " " + Text(header.list_envelope));
  for (const std::string& skipped : header.skipped) out->events.push_back("skipped " + skipped);
  out->status = s.ToString();
}

Outcome ReadWhole(const std::string& text, const ReadLimits& limits) {
  Outcome out;
  Input header;
  ReadLimits padded = limits;
  std::string copy = text;
  copy.reserve(text.size() + 64);
  padded.readable_padding = copy.capacity() - copy.size();
  const Status s = ReadInputStreaming(copy, "list.json", padded, &header, Record(&out));
  Finish(header, s, &out);
  return out;
}

std::optional<Outcome> ReadFile(const std::string& text, const ReadLimits& limits) {
  // A name of its own: ctest runs the cases of this file side by side.
  std::string path = ::testing::TempDir() + "list_file_test.XXXXXX";
  const int fd = ::mkstemp(path.data());
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  Outcome out;
  Input header;
  std::optional<Status> s =
      ReadListFileStreaming(fd, text.size(), "list.json", limits, &header, Record(&out));
  ::close(fd);
  ::unlink(path.c_str());
  if (!s) {
    EXPECT_TRUE(out.events.empty());
    return std::nullopt;
  }
  Finish(header, *s, &out);
  return out;
}

void ExpectSameAsWhole(const std::string& text, const ReadLimits& limits = {}) {
  const std::optional<Outcome> file = ReadFile(text, limits);
  ASSERT_TRUE(file.has_value()) << text.substr(0, 300);
  const Outcome whole = ReadWhole(text, limits);
  EXPECT_EQ(file->events, whole.events) << text.substr(0, 300);
  EXPECT_EQ(file->status, whole.status) << text.substr(0, 300);
}

std::string PackageSecret(std::string_view name, std::string_view payload) {
  return Text(MakePackageSecret(name, "", payload));
}

std::string List(const std::vector<std::string>& items, std::string_view after = R"("kind": "List")") {
  std::string text = "{\n    \"apiVersion\": \"v1\",\n    \"items\": [";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ",\n        " : "\n        ") + items[i];
  text += "\n    ],\n    " + std::string(after) + ",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n";
  return text;
}

std::vector<std::string> Secrets() {
  return {PackageSecret("a", R"({"name":"a"})"),
          R"({"apiVersion":"v1","data":{"state":")" + Base64Encode(R"({"distro":"k3s"})") +
              R"("},"kind":"Secret","metadata":{"name":"zarf-state","namespace":"zarf"},"type":"Opaque"})",
          R"({"apiVersion":"v1","data":{"tls.crt":"QUJD"},"kind":"Secret","metadata":{"name":"web-tls"},"type":"kubernetes.io/tls"})",
          R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})",
          R"({"apiVersion":"v1","data":{"data":"!!not base64"},"kind":"Secret","metadata":{"name":"zarf-package-b"},"type":"Opaque"})",
          R"({"apiVersion":"v1","data":{"data":"QU\/J"},"kind":"Secret","metadata":{"name":"zarf-package-c"},"type":"Opaque"})",
          PackageSecret("d", "caf\xc3\xa9")};
}

TEST(ListFileTest, AListIsReadAsWhenItIsReadWhole) {
  ExpectSameAsWhole(List(Secrets()));
  ExpectSameAsWhole(List({}));
  ExpectSameAsWhole(R"({"items":[1, "x", null, []]})");
  ExpectSameAsWhole(List(Secrets(), R"("kind": "List", "items": [1])"));
  // Items larger than a read step, and more of them than fit in one.
  const std::string big(3 << 20, 'x');
  ExpectSameAsWhole(List({PackageSecret("big", big), PackageSecret("b", "y"),
                          PackageSecret("big2", big + "z")}));
  std::vector<std::string> many;
  for (int i = 0; i < 40; ++i) {
    std::string name = "p";  // appended: a concatenation trips a false g++ 12 -Wrestrict
    name += std::to_string(i);
    many.push_back(PackageSecret(name, std::string(60000, 'p')));
  }
  ExpectSameAsWhole(List(many));
}

TEST(ListFileTest, AnItemThatDoesNotParseIsTheParsersErrorAfterTheItemsBeforeIt) {
  std::vector<std::string> items = Secrets();
  for (const std::string& bad : {std::string(R"({"kind" "Secret"})"), std::string(R"({"a":[1,]})"),
                                 std::string(R"({"n":01})"), std::string("tru")}) {
    std::vector<std::string> with_bad = items;
    with_bad.insert(with_bad.begin() + 3, bad);
    ExpectSameAsWhole(List(with_bad));
  }
  ExpectSameAsWhole(List(items, R"("kind": tru)"));
  // Limits: nesting and the memory budget.
  ReadLimits shallow;
  shallow.max_depth = 5;
  ExpectSameAsWhole(List(items), shallow);
  shallow.max_depth = 6;
  ExpectSameAsWhole(List({PackageSecret("a", "x"), R"({"a":{"b":{"c":{"d":1}}}})"}), shallow);
}

TEST(ListFileTest, WhatTheParserRefusesWholeIsLeftToIt) {
  const std::vector<std::string> items = Secrets();
  const std::string good = List(items);
  for (const std::string& text :
       {List({items[0], PackageSecret("x", "y") + "\xff"}), List({items[0], "\"a\x01\""}),
        // Invalid UTF-8 inside a string of an item's data.
        List({items[0], R"({"apiVersion":"v1","data":{"a":")" + std::string("\xc3(") + R"("}})"}),
        List({items[0], "\"a\tb\""}), good.substr(0, good.size() - 40), good + good,
        good + "x", std::string(R"({"kind":"List","items":5})"), std::string(R"([{"items":[]}])"),
        std::string(R"({"it\u0065ms":[]})"), "\xef\xbb\xbf" + good, std::string("{}"),
        std::string("")}) {
    EXPECT_FALSE(ReadFile(text, {}).has_value()) << text.substr(0, 200);
  }
  ReadLimits small;
  small.max_bytes = good.size() - 1;
  EXPECT_FALSE(ReadFile(good, small).has_value());
}

}  // namespace
}  // namespace zs
