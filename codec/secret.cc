#include "codec/secret.h"

#include "codec/base64.h"
#include "codec/compact.h"
#include "codec/go_json.h"
#include "codec/json_reader.h"
#include "codec/yaml.h"

namespace zs {
namespace {

bool LooksLikeJson(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

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

// Classifies one object and extracts its payload.
InputObject Classify(json::Value obj, std::string label) {
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

Result<Input> ReadInput(std::string_view text, std::string_view source,
                        const ReadLimits& limits) {
  ZS_RETURN_IF_ERROR(CheckSize(text, source, limits));
  Input input;
  std::vector<json::Value> docs;
  std::vector<std::string> raw_docs;  // bare JSON payload bytes, kept exactly
  if (LooksLikeJson(text)) {
    input.format = TextFormat::kJson;
    json::ParseOptions options;
    options.max_bytes = limits.max_bytes;
    options.max_depth = limits.max_depth;
    options.readable_padding = limits.readable_padding;
    auto v = json::ParseJson(text, options);
    if (!v.ok()) return v.status().WithContext(source);
    docs.push_back(std::move(v).value());
  } else {
    input.format = TextFormat::kYaml;
    auto v = yaml::ParseDocuments(text, limits.max_depth);
    if (!v.ok()) return v.status().WithContext(source);
    docs = std::move(v).value();
    if (docs.empty()) return Status::InvalidArgument(std::string(source) + ": no documents");
    input.is_list = docs.size() > 1;
  }
  for (std::size_t d = 0; d < docs.size(); ++d) {
    json::Value& doc = docs[d];
    std::string doc_label(source);
    if (docs.size() > 1) doc_label += " document " + std::to_string(d + 1);
    const std::string_view kind = doc.is_object() ? doc.StringOr("kind") : "";
    const json::Value* items = doc.Find("items");
    if ((kind == "List" || kind == "SecretList") || (kind.empty() && items && doc.Find("apiVersion"))) {
      input.is_list = true;
      if (items == nullptr || !items->is_array()) {
        return Status::InvalidArgument(doc_label + ": a " + std::string(kind) +
                                       " without an items array");
      }
      json::Array taken = std::move(doc.Find("items")->array());
      json::Value envelope = doc;
      envelope.Find("items")->array().clear();
      if (input.list_envelope.is_null()) input.list_envelope = std::move(envelope);
      for (std::size_t i = 0; i < taken.size(); ++i) {
        input.objects.push_back(
            Classify(std::move(taken[i]), doc_label + " items[" + std::to_string(i) + "]"));
      }
      continue;
    }
    InputObject obj = Classify(std::move(doc), doc_label);
    if (!obj.is_secret && obj.error.ok()) {
      // A bare payload: its bytes are the input itself when it is JSON, so a
      // round trip can be checked against them; YAML is re-encoded.
      if (input.format == TextFormat::kJson) {
        obj.payload = std::string(text);
        while (!obj.payload.empty() &&
               (obj.payload.back() == '\n' || obj.payload.back() == '\r' ||
                obj.payload.back() == ' ' || obj.payload.back() == '\t')) {
          obj.payload.pop_back();
        }
      } else {
        obj.payload = json::WriteJson(obj.object).value();
      }
    }
    input.objects.push_back(std::move(obj));
  }
  return input;
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

Status ReadInputStreaming(std::string_view text, std::string_view source,
                          const ReadLimits& limits, Input* header,
                          const std::function<Status(InputObject)>& on_object) {
  auto whole = [&]() -> Status {
    ZS_ASSIGN_OR_RETURN(Input input, ReadInput(text, source, limits));
    std::vector<InputObject> objects = std::move(input.objects);
    *header = std::move(input);
    for (InputObject& o : objects) ZS_RETURN_IF_ERROR(on_object(std::move(o)));
    return Status::OK();
  };
  if (!LooksLikeJson(text)) return whole();
  ZS_RETURN_IF_ERROR(CheckSize(text, source, limits));
  header->format = TextFormat::kJson;
  json::ParseOptions parse;
  parse.max_bytes = limits.max_bytes;
  parse.max_depth = limits.max_depth;
  parse.readable_padding = limits.readable_padding;
  bool streamed = false;
  Status s = json::ParseJsonStreaming(
      text, "items", parse,
      [&](json::Value item, std::size_t index, const json::Value& so_far) {
        if (!header->is_list) {
          header->is_list = true;
          header->list_envelope = so_far;
        }
        return on_object(Classify(std::move(item), std::string(source) + " items[" +
                                                       std::to_string(index) + "]"));
      },
      [&](json::Value envelope, bool was_streamed) {
        streamed = was_streamed;
        if (was_streamed) {
          header->is_list = true;
          header->list_envelope = std::move(envelope);
        }
        return Status::OK();
      });
  if (!s.ok()) return s.WithContext(source);
  // Anything but an object with an items array is read whole, as ReadInput
  // does (a single Secret, a bare payload with its bytes kept exactly).
  return streamed ? Status::OK() : whole();
}

}  // namespace zs
