#include "kube/secret.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "base/base64.h"
#include "json/json_reader.h"
#include "tests/subprocess_runner.h"
#include "tests/test_util.h"

namespace zs {
namespace {

TEST(SecretTest, ADataCompactValueWithoutTheMagicIsNotReadAsJson) {
  auto in = ReadInput(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-x"},)"
                      R"("type":"Opaque","data":{"data-compact":"eyJhIjoxfQ=="}})",
                      "c.json");
  ASSERT_TRUE(in.ok());
  EXPECT_NE(in->objects[0].error.message().find("data.data-compact: compact: bad magic"), std::string_view::npos)
      << in->objects[0].error.message();
}

TEST(SecretTest, AKindThatIsNotAStringIsNamedByItsType) {
  auto in = ReadInput("apiVersion: v1\nkind: 42\nmetadata:\n  name: zarf-package-x\n", "k.yaml");
  ASSERT_TRUE(in.ok());
  EXPECT_NE(in->objects[0].error.message().find("kind of type number is not a Secret"), std::string_view::npos)
      << in->objects[0].error.message();
}

TEST(SecretTest, EverySecretFixtureDecodesToItsPayloadBytes) {
  int checked = 0;
  for (const auto& path : testing::LegacyFiles(".secret.json")) {
    const std::string name = path.filename().string();
    if (name.starts_with("malformed-")) continue;
    auto input = ReadInput(testing::ReadFile(path), name);
    ASSERT_TRUE(input.ok()) << path << ": " << input.status().ToString();
    ASSERT_EQ(input->objects.size(), 1u);
    const InputObject& obj = input->objects[0];
    ASSERT_TRUE(obj.error.ok()) << obj.error.ToString();
    EXPECT_TRUE(obj.is_secret);
    std::string payload_path = path.string();
    payload_path.replace(payload_path.size() - strlen(".secret.json"), std::string::npos, ".payload.json");
    EXPECT_EQ(obj.payload, testing::ReadFile(payload_path)) << path;
    EXPECT_EQ(obj.payload_kind, name.starts_with("state-") ? PayloadKind::kState : PayloadKind::kPackage);
    auto size = SecretDataSize(obj.object);
    ASSERT_TRUE(size.ok());
    EXPECT_EQ(*size, obj.payload.size());
    ++checked;
  }
  EXPECT_GT(checked, 60);
}

TEST(SecretTest, ListsYieldEveryItemWithItsLabel) {
  auto input = ReadInput(testing::ReadData("legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json"), "list");
  ASSERT_TRUE(input.ok());
  EXPECT_TRUE(input->is_list);
  ASSERT_EQ(input->objects.size(), 10u);
  for (const InputObject& o : input->objects) EXPECT_TRUE(o.error.ok()) << o.error.ToString();
  EXPECT_EQ(input->list_envelope.StringOr("kind"), "List");
  EXPECT_TRUE(input->list_envelope.Find("items")->array().empty());
  EXPECT_NE(input->objects[0].label.find("list items[0] (secret zarf/"), std::string::npos);
}

TEST(SecretTest, BadObjectsFailAloneWithAClearError) {
  auto bad = ReadInput(testing::ReadData("legacy/e22-v0.80.0-v0.84.0/malformed-bad-base64.secret.json"), "f");
  ASSERT_TRUE(bad.ok());
  ASSERT_EQ(bad->objects.size(), 1u);
  EXPECT_NE(bad->objects[0].error.message().find("data.data: illegal base64 data at input byte"),
            std::string_view::npos)
      << bad->objects[0].error.ToString();
  auto mixed = ReadInput(R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}},
      {"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/tls","metadata":{"name":"t"}},
      {"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-x","namespace":"zarf"}},
      {"apiVersion":"v1","kind":"Secret","metadata":{"name":"zarf-package-y"},"data":{"data":"e30="}}]})",
                         "mixed");
  ASSERT_TRUE(mixed.ok());
  // Among several objects a Secret of another type is not Zarf's: skipped.
  ASSERT_EQ(mixed->objects.size(), 3u);
  ASSERT_EQ(mixed->skipped.size(), 1u);
  EXPECT_EQ(mixed->skipped[0], "mixed items[1] (secret t): type kubernetes.io/tls");
  EXPECT_NE(mixed->objects[0].error.message().find("kind 'ConfigMap' is not a Secret"), std::string_view::npos);
  EXPECT_NE(mixed->objects[1].error.message().find("no data key 'data'"), std::string_view::npos);
  EXPECT_TRUE(mixed->objects[2].error.ok());
  EXPECT_EQ(mixed->objects[2].payload, "{}");
  // Named on its own, it is an error.
  auto alone = ReadInput(R"({"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/tls","metadata":{"name":"t"}})",
                         "alone");
  ASSERT_TRUE(alone.ok());
  ASSERT_EQ(alone->objects.size(), 1u);
  EXPECT_NE(alone->objects[0].error.message().find("is not Opaque"), std::string_view::npos);
}

// Package and state names, in input order, of what `input` read.
std::vector<std::string> Names(const Input& input) {
  std::vector<std::string> names;
  for (const InputObject& o : input.objects) {
    EXPECT_TRUE(o.error.ok()) << o.error.ToString();
    names.emplace_back(ObjectName(o.object));
  }
  return names;
}

const char kEraList[] = "legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json";

TEST(SecretInputFormsTest, ConcatenatedJsonAndJsonLinesReadLikeTheList) {
  auto list = ReadInput(testing::ReadData(kEraList), "list");
  ASSERT_TRUE(list.ok());
  for (const char* file : {"inputs/all-secrets.jq-items.json", "inputs/all-secrets.jq-c-items.jsonl",
                           "kubectl/all-secrets-annotated.stream.json"}) {
    SCOPED_TRACE(file);
    auto stream = ReadInput(testing::ReadData(file), "s");
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    EXPECT_TRUE(stream->is_list);
    EXPECT_EQ(stream->format, TextFormat::kJson);
    EXPECT_EQ(Names(*stream), Names(*list));
    for (std::size_t i = 0; i < list->objects.size(); ++i) {
      EXPECT_EQ(stream->objects[i].payload, list->objects[i].payload) << i;
    }
    EXPECT_EQ(stream->objects[1].label, "s document 2 (secret zarf/zarf-state)");
    // The streaming reader hands out the same objects.
    Input header;
    std::vector<std::string> streamed;
    ASSERT_TRUE(ReadInputStreaming(testing::ReadData(file), "s", {}, &header, [&](InputObject o) {
                  streamed.emplace_back(ObjectName(o.object));
                  return o.error;
                }).ok());
    EXPECT_TRUE(header.is_list);
    EXPECT_TRUE(header.list_envelope.is_null());
    EXPECT_EQ(streamed, Names(*list));
  }
}

TEST(SecretInputFormsTest, ABrokenDocumentOfAStreamIsNamedByItsPlace) {
  auto r = ReadInput("{\"a\": 1}\n{\"b\": tru}\n", "s");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("s document 2 (at byte 9): json: "), std::string::npos)
      << r.status().ToString();
  // Text between documents is not a stream: the first document's error.
  r = ReadInput("{\"a\": 1} x {\"b\": 2}", "s");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unexpected content after the value"), std::string::npos)
      << r.status().ToString();
}

TEST(SecretInputFormsTest, YamlFlowDocumentsAndUnicodeEncodingsAreRead) {
  auto reference = ReadInput(testing::ReadData("kubectl/secret-dos-games.json"), "r");
  ASSERT_TRUE(reference.ok());
  for (const char* file : {"inputs/secret-dos-games.pyyaml-flow.yaml", "inputs/secret-dos-games.utf16le-bom.yaml",
                           "inputs/secret-dos-games.utf8-bom.json"}) {
    SCOPED_TRACE(file);
    auto in = ReadInput(testing::ReadData(file), "f");
    ASSERT_TRUE(in.ok()) << in.status().ToString();
    ASSERT_EQ(in->objects.size(), 1u);
    EXPECT_TRUE(in->objects[0].error.ok()) << in->objects[0].error.ToString();
    EXPECT_EQ(in->objects[0].payload, reference->objects[0].payload);
  }
  auto be = ReadInput(testing::ReadData("inputs/secret-pkg-unicode.utf16be-bom.json"), "f");
  auto utf8 = ReadInput(testing::ReadData("kubectl/secret-pkg-unicode-labelled.json"), "f");
  ASSERT_TRUE(be.ok() && utf8.ok());
  EXPECT_EQ(be->objects.at(0).object, utf8->objects.at(0).object);
  auto bad = ReadInput(testing::ReadData("bad-inputs/utf16le-lone-surrogate.yaml"), "f");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "f: encoding: UTF-16LE: unpaired high surrogate at byte 166");
}

TEST(SecretInputFormsTest, ANamespaceDumpSkipsSecretsThatAreNotZarfState) {
  auto in = ReadInput(testing::ReadData("inputs/namespace-dump.list.json"), "ns");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(Names(*in), (std::vector<std::string>{"zarf-state", "zarf-package-dos-games", "zarf-package-init",
                                                  "zarf-package-init", "zarf-package-dos-games-override-games-2",
                                                  "zarf-package-dos-games"}));
  EXPECT_EQ(in->skipped, (std::vector<std::string>{
                             "ns items[1] (secret zarf/agent-hook-tls): type kubernetes.io/tls",
                             "ns items[2] (secret zarf/private-registry): type kubernetes.io/dockerconfigjson",
                             "ns items[6] (secret zarf/sh.helm.release.v1.zarf-docker-registry.v1): type helm.sh/release.v1",
                             "ns items[7] (secret zarf/private-git-server): not named zarf-state or zarf-package-*",
                         }));
}

TEST(SecretTest, StringDataWinsAndCountsTowardsTheSize) {
  auto v = json::ParseJson(R"({"kind":"Secret","data":{"data":"YWJj","x":"AAAA"},"stringData":{"data":"hello"}})");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*SecretValue(*v, "data"), "hello");
  EXPECT_EQ(*SecretDataSize(*v), 5u + 3u);
}

TEST(SecretTest, AKnownValueSizeCountsLikeTheDecodedValue) {
  auto v = json::ParseJson(R"({"kind":"Secret","data":{"x":"AAAA"},"stringData":{"data":"hello"}})");
  ASSERT_TRUE(v.ok());
  const std::string payload(1000, 'p');
  SetSecretValue(&*v, "data", payload);  // drops stringData.data
  ASSERT_TRUE(SecretDataSize(*v).ok());
  EXPECT_EQ(*SecretDataSize(*v), 1000u + 3u);
  EXPECT_EQ(*SecretDataSize(*v, "data", payload.size()), *SecretDataSize(*v));
  // Only the known key is taken on trust: the others are still decoded.
  v->Find("data")->Set("x", json::Value::String("A"));
  EXPECT_FALSE(SecretDataSize(*v, "data", payload.size()).ok());
}

TEST(SecretTest, MadeSecretsCarryZarfNamesAndLabels) {
  json::Value s = MakePackageSecret("dos-games", "games-2", "{}");
  EXPECT_EQ(ObjectName(s), "zarf-package-dos-games-override-games-2");
  EXPECT_EQ(ObjectNamespace(s), "zarf");
  const json::Value* labels = s.Find("metadata")->Find("labels");
  EXPECT_EQ(labels->StringOr("app.kubernetes.io/managed-by"), "zarf");
  EXPECT_EQ(labels->StringOr("package-deploy-info"), "dos-games");
  EXPECT_EQ(s.StringOr("type"), "Opaque");
  EXPECT_EQ(*SecretValue(s, "data"), "{}");
}

TEST(SecretTest, SetSecretValueKeepsMetadataAndResourceVersion) {
  auto input = ReadInput(testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json"), "f");
  ASSERT_TRUE(input.ok());
  json::Value s = input->objects[0].object;
  SetSecretValue(&s, "data", "new");
  EXPECT_EQ(*SecretValue(s, "data"), "new");
  EXPECT_EQ(s.Find("metadata")->StringOr("resourceVersion"),
            input->objects[0].object.Find("metadata")->StringOr("resourceVersion"));
  EXPECT_EQ(s.Find("metadata")->StringOr("uid"), input->objects[0].object.Find("metadata")->StringOr("uid"));
}

TEST(SecretTest, WrittenSecretsReadBackInBothFormats) {
  auto input = ReadInput(testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json"), "f");
  ASSERT_TRUE(input.ok());
  const json::Value& s = input->objects[0].object;
  for (TextFormat f : {TextFormat::kJson, TextFormat::kYaml}) {
    auto back = ReadInput(WriteObject(s, f), "again");
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->format, f);
    EXPECT_EQ(back->objects[0].object, s);
  }
  // kubectl prints JSON with 4 spaces and its keys in order; so do we.
  EXPECT_EQ(WriteObject(s, TextFormat::kJson),
            testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json"));
}

// The real kubectl, offline: what it prints is our input, what we print is
// its input. kubectl ships on this project's machines; a machine without it
// skips this test and says so.
std::string RunShell(const std::string& cmd) {
  testing::ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", cmd};
  return testing::RunChild(spec).out;
}

TEST(SecretTest, RealKubectlAcceptsOurOutputAndWeAcceptItsOutput) {
  if (RunShell("kubectl version --client >/dev/null 2>&1 && echo ok") != "ok\n") {
    GTEST_SKIP() << "kubectl is not installed";
  }
  const std::string dir = ::testing::TempDir();
  const std::string payload = testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.payload.json");
  for (TextFormat f : {TextFormat::kJson, TextFormat::kYaml}) {
    const std::string path = dir + (f == TextFormat::kJson ? "/ours.json" : "/ours.yaml");
    FILE* out = fopen(path.c_str(), "w");
    ASSERT_NE(out, nullptr);
    const std::string text = WriteObject(MakePackageSecret("dos-games", "", payload), f);
    fwrite(text.data(), 1, text.size(), out);
    fclose(out);
    const std::string labelled = RunShell("kubectl label --local -f " + path + " -o json pkg=x 2>&1");
    auto back = ReadInput(labelled, "kubectl label");
    ASSERT_TRUE(back.ok()) << labelled;
    ASSERT_EQ(back->objects.size(), 1u);
    EXPECT_TRUE(back->objects[0].error.ok());
    EXPECT_EQ(back->objects[0].payload, payload);
    EXPECT_EQ(back->objects[0].object.Find("metadata")->Find("labels")->StringOr("pkg"), "x");
  }
  const std::string payload_path = (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.payload.json").string();
  for (const char* fmt : {"json", "yaml"}) {
    const std::string created = RunShell("kubectl create secret generic zarf-package-dos-games -n zarf --from-file=data=" +
                                    payload_path + " --dry-run=client -o " + fmt + " 2>&1");
    auto in = ReadInput(created, "kubectl create");
    ASSERT_TRUE(in.ok()) << created;
    ASSERT_EQ(in->objects.size(), 1u);
    ASSERT_TRUE(in->objects[0].error.ok()) << in->objects[0].error.ToString();
    EXPECT_EQ(in->objects[0].payload, payload);
  }
}

}  // namespace
}  // namespace zs
