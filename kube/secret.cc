#include "kube/secret.h"

#include "base/base64.h"
#include "base/memory_budget.h"
#include "compact/compact.h"
#include "json/concatenated.h"
#include "model/input_hints.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "json/text_encoding.h"
#include "kube/internal/list_items.h"
#include "yaml/yaml.h"

namespace zs {
namespace {

using json::LooksLikeJson;

// A bare payload: which kind, judged by fields only one of the two has.
bool DetectBarePayload(const json::Value& v, PayloadKind* kind) {
  if (!v.is_object()) return false;
  if (v.Find("deployedComponents") || (v.Find("cliVersion") && v.Find("data"))) {
    *kind = PayloadKind::kPackage;
    return true;
  }
  for (std::string_view k : {"registryInfo", "agentTLS", "gitServer", "distro",
                             "zarfAppliance", "storageClass"}) {
    if (v.Find(k)) {
      *kind = PayloadKind::kState;
      return true;
    }
  }
  return false;
}

std::string Describe(const json::Value& obj) {
  std::string ns(ObjectNamespace(obj));
  std::string name(ObjectName(obj));
  std::string kind(obj.StringOr("kind", "object"));
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name.empty()) return kind;
  return kind + " " + (ns.empty() ? name : ns + "/" + name);
}

// Why a Secret met among other objects (a namespace dump) is not Zarf state,
// or "" when it may be: Zarf's Secrets are Opaque and named zarf-state or
// zarf-package-* (Zarf itself passes over other names when it lists).
std::string NotZarfState(const json::Value& secret) {
  const std::string_view type = secret.StringOr("type", "Opaque");
  if (type != "Opaque") return "type " + std::string(type);
  const std::string_view name = ObjectName(secret);
  if (name == kStateSecretName || name.starts_with(kPackageSecretPrefix)) return "";
  return "not named " + std::string(kStateSecretName) + " or " + std::string(kPackageSecretPrefix) +
         "*";
}

// An object Classify has judged: used, failed, or (`skip` non-empty) left
// out as not Zarf state.
struct Classified {
  InputObject object;
  std::string skip;
};

void Keep(Classified c, Input* input) {
  if (c.skip.empty()) {
    input->objects.push_back(std::move(c.object));
  } else {
    input->skipped.push_back(c.object.label + ": " + c.skip);
  }
}

InputObject ClassifyOne(json::Value obj, std::string label, bool several, std::string* skip);

// Classifies one object and extracts its payload. Among `several` objects,
// a Secret that is not Zarf state is skipped instead of failed.
Classified Classify(json::Value obj, std::string label, bool several) {
  Classified c;
  c.object = ClassifyOne(std::move(obj), std::move(label), several, &c.skip);
  return c;
}

InputObject ClassifyOne(json::Value obj, std::string label, bool several, std::string* skip) {
  InputObject in;
  in.object = std::move(obj);
  const json::Value& o = in.object;
  in.label = std::move(label);
  if (!o.is_object()) {
    in.error = Status::InvalidArgument(in.label + ": expected an object, got " +
                                       std::string(json::KindName(o.kind())));
    return in;
  }
  const json::Value* kind = o.Find("kind");
  if (kind == nullptr && !o.Find("apiVersion")) {
    if (DetectBarePayload(o, &in.payload_kind)) {
      // The caller keeps the original bytes for bare payloads.
      return in;
    }
    in.error = Status::InvalidArgument(
        in.label + ": neither a Kubernetes object nor a Zarf state payload");
    return in;
  }
  in.is_secret = true;
  in.label += " (" + Describe(o) + ")";
  if (kind == nullptr || !kind->is_string() || kind->as_string() != "Secret") {
    in.error = Status::InvalidArgument(
        in.label + ": kind " +
        (kind == nullptr     ? std::string("missing")
         : kind->is_string() ? "'" + kind->as_string() + "'"
                             : "of type " + std::string(json::KindName(kind->kind()))) +
        " is not a Secret");
    return in;
  }
  if (several) {
    *skip = NotZarfState(o);
    if (!skip->empty()) return in;
  }
  const std::string_view type = o.StringOr("type", "Opaque");
  if (type != "Opaque") {
    in.error = Status::InvalidArgument(in.label + ": Secret type '" + std::string(type) +
                                       "' is not Opaque; Zarf state Secrets are Opaque");
    return in;
  }
  const bool is_state = ObjectName(o) == kStateSecretName;
  in.payload_kind = is_state ? PayloadKind::kState : PayloadKind::kPackage;
  const std::string_view key = is_state ? kStateDataKey : kPackageDataKey;
  auto payload = SecretValue(o, key);
  if (!is_state && payload.status().code() == Status::Code::kNotFound) {
    payload = SecretValue(o, kCompactDataKey);
    if (payload.status().code() == Status::Code::kNotFound) {
      payload = Status::NotFound("no data key 'data' (or '" + std::string(kCompactDataKey) + "')");
    } else if (payload.ok() && !compact::LooksCompact(*payload)) {
      // Payloads are told apart by their magic; under this key it must be
      // there, else the bytes would be misread as JSON.
      payload = Status::Corruption("data." + std::string(kCompactDataKey) +
                                   ": compact: bad magic, not a compact envelope");
    }
  }
  if (!payload.ok()) {
    in.error = payload.status().WithContext(in.label);
    return in;
  }
  in.payload = std::move(payload).value();
  return in;
}

}  // namespace

std::string_view ObjectName(const json::Value& object) {
  const json::Value* md = object.Find("metadata");
  return md ? md->StringOr("name") : std::string_view();
}

std::string_view ObjectNamespace(const json::Value& object) {
  const json::Value* md = object.Find("metadata");
  return md ? md->StringOr("namespace") : std::string_view();
}

namespace {

Status CheckSize(std::string_view text, std::string_view source, const ReadLimits& limits) {
  if (text.size() <= limits.max_bytes) return Status::OK();
  return Status::InvalidArgument(std::string(source) + ": input of " +
                                 std::to_string(text.size()) + " bytes exceeds the limit of " +
                                 std::to_string(limits.max_bytes) + " bytes");
}

}  // namespace

namespace {

json::ParseOptions JsonOptions(const ReadLimits& limits, std::size_t padding) {
  json::ParseOptions options;
  options.max_bytes = limits.max_bytes;
  options.max_depth = limits.max_depth;
  options.readable_padding = padding;
  return options;
}

std::string_view TrimTrailingSpace(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

// Classifies the documents of one input into `input`: a List's items one by
// one, other documents as objects. `raw` holds each JSON document's bytes
// (empty for YAML), kept as a bare payload's exact bytes. A Secret that is
// not Zarf state is skipped rather than failed when the input holds several
// objects (`several`), as a dump of a whole namespace does.
Status ClassifyDocuments(std::vector<json::Value> docs, const std::vector<std::string_view>& raw,
                         std::string_view source, bool several, Input* input) {
  for (std::size_t d = 0; d < docs.size(); ++d) {
    json::Value& doc = docs[d];
    std::string doc_label(source);
    if (docs.size() > 1) doc_label += " document " + std::to_string(d + 1);
    const std::string_view kind = doc.is_object() ? doc.StringOr("kind") : "";
    const json::Value* items = doc.Find("items");
    if ((kind == "List" || kind == "SecretList") || (kind.empty() && items && doc.Find("apiVersion"))) {
      input->is_list = true;
      if (items == nullptr || !items->is_array()) {
        return Status::InvalidArgument(doc_label + ": a " + std::string(kind) +
                                       " without an items array");
      }
      json::Array taken = std::move(doc.Find("items")->array());
      json::Value envelope = doc;
      envelope.Find("items")->array().clear();
      if (input->list_envelope.is_null()) input->list_envelope = std::move(envelope);
      for (std::size_t i = 0; i < taken.size(); ++i) {
        Keep(Classify(std::move(taken[i]), doc_label + " items[" + std::to_string(i) + "]", true),
             input);
      }
      continue;
    }
    Classified c = Classify(std::move(doc), doc_label, several);
    InputObject& obj = c.object;
    if (c.skip.empty() && !obj.is_secret && obj.error.ok()) {
      // A bare payload: its bytes are the input itself when it is JSON, so a
      // round trip can be checked against them; YAML is re-encoded.
      if (d < raw.size()) {
        obj.payload = std::string(TrimTrailingSpace(raw[d]));
      } else {
        obj.payload = json::WriteJson(obj.object).value();
      }
      // Its tree is most of the input: released here, before a reader
      // decodes the bytes into its own model beside it.
      obj.object = json::Value();
    }
    Keep(std::move(c), input);
  }
  return Status::OK();
}

// ReadInput on text already in UTF-8 with `padding` readable bytes after
// it. `in_stream`: the text is one document of a JSON stream.
Result<Input> ReadDecoded(std::string_view text, std::string_view source, const ReadLimits& limits,
                          std::size_t padding, bool in_stream = false,
                          MemoryBudget* budget = nullptr) {
  // One budget for the whole input: every document of a stream takes from it.
  MemoryBudget own_budget(text.size());
  if (budget == nullptr) budget = &own_budget;
  auto options = [&](std::size_t pad) {
    json::ParseOptions o = JsonOptions(limits, pad);
    o.budget = budget;
    return o;
  };
  Input input;
  std::vector<json::Value> docs;
  std::vector<std::string_view> raw_docs;  // JSON documents' bytes
  if (LooksLikeJson(text)) {
    input.format = TextFormat::kJson;
    const std::size_t used_before = budget->used();
    auto v = json::ParseJson(text, options(padding));
    if (v.ok()) {
      docs.push_back(std::move(v).value());
      raw_docs.push_back(text);
    } else {
      // Several objects one after another (`jq '.items[]'`, JSON Lines):
      // each is a document, as in a YAML stream.
      budget->Give(budget->used() - used_before);  // that tree is gone
      const std::vector<json::Span> spans =
          json::SplitConcatenatedAtMost(text, budget->left() / kDocumentCost);
      if (spans.empty()) return v.status().WithContext(source);
      for (std::size_t k = 0; k < spans.size(); ++k) {
        const json::Span& span = spans[k];
        const std::string_view doc = text.substr(span.begin, span.end - span.begin);
        if (!budget->Take(kDocumentCost)) {
          return budget->Exceeded("document " + std::to_string(k + 1)).WithContext(source);
        }
        auto parsed = json::ParseJson(doc, options(padding + text.size() - span.end));
        if (!parsed.ok()) {
          return parsed.status().WithContext(std::string(source) + " document " +
                                             std::to_string(k + 1) + " (at byte " +
                                             std::to_string(span.begin) + ")");
        }
        docs.push_back(std::move(parsed).value());
        raw_docs.push_back(doc);
      }
      input.is_list = true;
    }
  } else {
    // Where YAML would misread it ("expected an object, got string"): a
    // kubectl table, an HTML page.
    if (std::string hint = MistakenInputHint(text); !hint.empty()) {
      return Status::InvalidArgument(std::string(source) + ": " + hint);
    }
    input.format = TextFormat::kYaml;
    auto v = yaml::ParseDocuments(text, limits.max_depth);
    if (!v.ok()) return v.status().WithContext(source);
    docs = std::move(v).value();
    if (docs.empty()) return Status::InvalidArgument(std::string(source) + ": no documents");
    input.is_list = docs.size() > 1;
  }
  const bool several = in_stream || docs.size() > 1;
  ZS_RETURN_IF_ERROR(ClassifyDocuments(std::move(docs), raw_docs, source, several, &input));
  return input;
}

}  // namespace

Result<Input> ReadInput(std::string_view text, std::string_view source,
                        const ReadLimits& limits) {
  ZS_RETURN_IF_ERROR(CheckSize(text, source, limits));
  std::string decoded;
  if (Status s = DecodeToUtf8(&text, &decoded); !s.ok()) return s.WithContext(source);
  // A decoded copy has no readable bytes after it; a BOM cut off the front
  // leaves the padding as it was.
  const std::size_t padding = text.data() == decoded.data() ? 0 : limits.readable_padding;
  return ReadDecoded(text, source, limits, padding);
}

Result<std::string> SecretValue(const json::Value& secret, std::string_view key) {
  if (const json::Value* sd = secret.Find("stringData")) {
    if (const json::Value* v = sd->Find(key)) {
      if (!v->is_string()) {
        return Status::InvalidArgument("stringData." + std::string(key) + " is not a string");
      }
      return v->as_string();
    }
  }
  const json::Value* data = secret.Find("data");
  const json::Value* v = data ? data->Find(key) : nullptr;
  if (v == nullptr) {
    return Status::NotFound("no data key '" + std::string(key) + "'");
  }
  if (!v->is_string()) {
    return Status::Corruption("data." + std::string(key) + " is not a base64 string");
  }
  auto decoded = Base64Decode(v->as_string());
  if (!decoded.ok()) return decoded.status().WithContext("data." + std::string(key));
  return decoded;
}

Result<std::size_t> SecretDataSize(const json::Value& secret) {
  return SecretDataSize(secret, {}, 0);
}

Result<std::size_t> SecretDataSize(const json::Value& secret, std::string_view known_key,
                                   std::size_t known_size) {
  std::size_t total = 0;
  const json::Value* sd = secret.Find("stringData");
  if (const json::Value* data = secret.Find("data"); data && data->is_object()) {
    for (const json::Member& m : data->object()) {
      if (sd && sd->Find(m.first)) continue;  // replaced by stringData
      if (!known_key.empty() && m.first == known_key && m.second.is_string()) {
        total += known_size;
        continue;
      }
      if (!m.second.is_string()) {
        return Status::Corruption("data." + m.first + " is not a base64 string");
      }
      // Decoded only to be checked and measured: into one reused buffer.
      thread_local std::string scratch;
      const Status decoded = Base64DecodeTo(m.second.as_string(), &scratch);
      if (!decoded.ok()) return decoded.WithContext("data." + m.first);
      total += scratch.size();
    }
  }
  if (sd && sd->is_object()) {
    for (const json::Member& m : sd->object()) {
      if (m.second.is_string()) total += m.second.as_string().size();
    }
  }
  return total;
}

json::Value MakePackageSecret(std::string_view package,
                              std::string_view namespace_override,
                              std::string_view payload) {
  std::string name(kPackageSecretPrefix);
  name += package;
  if (!namespace_override.empty()) {
    name += "-override-";
    name += namespace_override;
  }
  using json::Value;
  Value labels = Value::MakeObject({{std::string(kManagedByLabel), Value::String("zarf")},
                                    {std::string(kPackageLabel), Value::String(std::string(package))}});
  Value metadata = Value::MakeObject({{"labels", std::move(labels)},
                                      {"name", Value::String(name)},
                                      {"namespace", Value::String(std::string(kZarfNamespace))}});
  Value data = Value::MakeObject(
      {{std::string(kPackageDataKey), Value::String(Base64Encode(payload))}});
  return Value::MakeObject({{"apiVersion", Value::String("v1")},
                            {"data", std::move(data)},
                            {"kind", Value::String("Secret")},
                            {"metadata", std::move(metadata)},
                            {"type", Value::String("Opaque")}});
}

void SetSecretValue(json::Value* secret, std::string_view key, std::string_view value) {
  if (json::Value* sd = secret->Find("stringData"); sd && sd->is_object()) {
    sd->Erase(key);
    if (sd->object().empty()) secret->Erase("stringData");
  }
  json::Value* data = secret->Find("data");
  if (data == nullptr || !data->is_object()) {
    secret->Set("data", json::Value::MakeObject());
    data = secret->Find("data");
  }
  data->Set(key, json::Value::String(Base64Encode(value)));
}

std::string WriteObject(const json::Value& object, TextFormat format) {
  if (format == TextFormat::kYaml) return yaml::Write(object);
  std::string out;
  json::AppendIndentedJson(&out, object, "    ");
  out += '\n';
  return out;
}

namespace {

Status StreamDecoded(std::string_view text, std::string_view source, const ReadLimits& limits,
                     std::size_t padding, bool several, Input* header,
                     const std::function<Status(InputObject)>& on_object,
                     MemoryBudget* budget = nullptr);

// Several JSON values one after another (json::SplitConcatenated): each is
// streamed as a document of its own (a List among them item by item), taking
// kDocumentCost from `budget` each. `*split` false when `text` is not such a
// stream (nothing is handed out).
Status StreamEachDocument(std::string_view text, std::string_view source,
                          const ReadLimits& limits, std::size_t padding, Input* header,
                          const std::function<Status(InputObject)>& on_object,
                          MemoryBudget* budget, bool* split) {
  const std::vector<json::Span> spans =
      json::SplitConcatenatedAtMost(text, budget->left() / kDocumentCost);
  *split = !spans.empty();
  if (*split) header->is_list = true;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const json::Span& span = spans[k];
    if (!budget->Take(kDocumentCost)) {
      return budget->Exceeded("document " + std::to_string(k + 1)).WithContext(source);
    }
    ZS_RETURN_IF_ERROR(StreamDecoded(
        text.substr(span.begin, span.end - span.begin),
        std::string(source) + " document " + std::to_string(k + 1), limits,
        padding + text.size() - span.end, true, header, on_object, budget));
  }
  return Status::OK();
}

// ReadInputStreaming on text already in UTF-8. `several`: the text is one
// document of a stream, so a Secret that is not Zarf state is skipped.
// `budget`: the stream's, for one of its documents (null: one for `text`).
Status StreamDecoded(std::string_view text, std::string_view source, const ReadLimits& limits,
                     std::size_t padding, bool several, Input* header,
                     const std::function<Status(InputObject)>& on_object,
                     MemoryBudget* budget) {
  MemoryBudget own_budget(text.size());
  if (budget == nullptr) budget = &own_budget;
  auto hand_out = [&](Input input) -> Status {
    std::vector<InputObject> objects = std::move(input.objects);
    header->format = input.format;
    header->is_list = header->is_list || input.is_list;
    if (!several && header->list_envelope.is_null()) {
      header->list_envelope = std::move(input.list_envelope);
    }
    for (std::string& s : input.skipped) header->skipped.push_back(std::move(s));
    for (InputObject& o : objects) ZS_RETURN_IF_ERROR(on_object(std::move(o)));
    return Status::OK();
  };
  auto whole = [&]() -> Status {
    ZS_ASSIGN_OR_RETURN(Input input, ReadDecoded(text, source, limits, padding, several, budget));
    return hand_out(std::move(input));
  };
  if (!LooksLikeJson(text)) return whole();
  header->format = TextFormat::kJson;
  bool streamed = false;
  std::vector<json::Value> document;  // the whole document, when it is not a List
  json::ParseOptions stream_options = JsonOptions(limits, padding);
  stream_options.budget = budget;
  auto on_item = [&](json::Value item, std::size_t index, const json::Value& so_far) {
    header->is_list = true;
    // A List inside a stream is not the input's envelope.
    if (!several && header->list_envelope.is_null()) header->list_envelope = so_far;
    return internal::DeliverListItem(
        std::move(item), std::string(source) + " items[" + std::to_string(index) + "]", header,
        on_object);
  };
  auto on_envelope = [&](json::Value envelope, bool was_streamed) {
    streamed = was_streamed;
    if (was_streamed) {
      header->is_list = true;
      if (!several) header->list_envelope = std::move(envelope);
    } else {
      document.push_back(std::move(envelope));
    }
    return Status::OK();
  };
  // The input's first value is streamed at once when nothing but whitespace
  // follows it, the common case, told without a pass over the text's bytes.
  bool single = several;
  Status s = several ? json::ParseJsonStreaming(text, "items", stream_options, on_item, on_envelope)
                     : json::ParseJsonStreamingIfSingle(text, "items", stream_options, on_item,
                                                        on_envelope, &single);
  if (!single) {
    bool split = false;
    ZS_RETURN_IF_ERROR(
        StreamEachDocument(text, source, limits, padding, header, on_object, budget, &split));
    if (split) return Status::OK();
    // Not a stream of values either: parsed as one, for its error.
    s = json::ParseJsonStreaming(text, "items", stream_options, on_item, on_envelope);
  }
  if (!s.ok()) return s.WithContext(source);
  if (streamed) return Status::OK();
  // Anything but an object with an items array is classified whole, as
  // ReadInput does (a single Secret, a bare payload with its bytes kept
  // exactly), from the tree just built rather than a second parse beside it.
  Input input;
  input.format = TextFormat::kJson;
  ZS_RETURN_IF_ERROR(ClassifyDocuments(std::move(document), {text}, source, several, &input));
  return hand_out(std::move(input));
}

}  // namespace

namespace internal {

Status DeliverListItem(json::Value item, std::string label, Input* header,
                       const std::function<Status(InputObject)>& on_object) {
  Classified c = Classify(std::move(item), std::move(label), true);
  if (!c.skip.empty()) {
    header->skipped.push_back(c.object.label + ": " + c.skip);
    return Status::OK();
  }
  return on_object(std::move(c.object));
}

}  // namespace internal

Status ReadInputStreaming(std::string_view text, std::string_view source,
                          const ReadLimits& limits, Input* header,
                          const std::function<Status(InputObject)>& on_object) {
  ZS_RETURN_IF_ERROR(CheckSize(text, source, limits));
  std::string decoded;
  if (Status s = DecodeToUtf8(&text, &decoded); !s.ok()) return s.WithContext(source);
  const std::size_t padding = text.data() == decoded.data() ? 0 : limits.readable_padding;
  return StreamDecoded(text, source, limits, padding, false, header, on_object);
}

}  // namespace zs
