#include "model/credentials.h"

#include <algorithm>
#include <cctype>

#include "base/hex.h"

namespace zs {
namespace {

char LowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerAscii(c);
  return out;
}

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLowerOrDigit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsUpper(c) || IsLowerOrDigit(c); }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

// Lower-case words of `name`: split at non-alphanumerics, before an upper-case
// letter that follows a lower-case one or a digit ("clientSecret"), and before
// the last capital of a run followed by a lower-case letter ("APIKey").
std::vector<std::string> Words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!IsAlnum(c)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    if (IsUpper(c) && !word.empty()) {
      const char prev = name[i - 1];
      const bool next_lower = i + 1 < name.size() && name[i + 1] >= 'a' && name[i + 1] <= 'z';
      if (IsLowerOrDigit(prev) || (IsUpper(prev) && next_lower)) {
        words.push_back(std::move(word));
        word.clear();
      }
    }
    word.push_back(LowerAscii(c));
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool CredentialWord(std::string w) {
  if (w.size() > 1 && w.back() == 's') w.pop_back();
  for (std::string_view tail : {"password", "passwd", "passphrase", "secret", "token", "credential"}) {
    if (w.ends_with(tail)) return true;
  }
  for (std::string_view whole :
       {"pw", "pwd", "apikey", "accesskey", "secretkey", "privatekey", "sshkey", "signature"}) {
    if (w == whole) return true;
  }
  return false;
}

// A query parameter's name as the server reads it: %XX decoded, '+' a space.
std::string DecodeParamName(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '%' && i + 2 < raw.size() && HexValue(raw[i + 1]) >= 0 &&
        HexValue(raw[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(raw[i + 1]) * 16 + HexValue(raw[i + 2])));
      i += 2;
    } else {
      out.push_back(raw[i] == '+' ? ' ' : raw[i]);
    }
  }
  return out;
}

bool Redactable(const json::Value& v) {
  return !v.is_null() && !(v.is_string() && v.as_string().empty());
}

// The member of `object` whose name equals `field` ASCII case-insensitively,
// the last such (Go's decoder takes exact matches first, and the writer we
// read from used the exact names).
json::Value* FindField(json::Value* object, std::string_view field) {
  if (!object->is_object()) return nullptr;
  if (json::Value* exact = object->Find(field)) return exact;
  json::Value* found = nullptr;
  for (json::Member& m : object->object()) {
    if (EqualsIgnoreCase(m.first, field)) found = &m.second;
  }
  return found;
}

}  // namespace

bool IsSensitiveVariable(std::string_view name, const std::vector<std::string>& sensitive) {
  return std::any_of(sensitive.begin(), sensitive.end(),
                     [&](const std::string& n) { return EqualsIgnoreCase(n, name); });
}

bool IsCredentialName(std::string_view name) {
  const std::string lower = Lower(name);
  if (lower.starts_with("x-amz-") || lower.starts_with("x-goog-")) return true;
  for (std::string_view whole : {"authorization", "sig", "pass", "jwt", "cookie"}) {
    if (lower == whole) return true;
  }
  const std::vector<std::string> words = Words(name);
  if (!words.empty() && words.back() == "key") return true;
  return std::any_of(words.begin(), words.end(), CredentialWord);
}

std::string ScrubSource(std::string_view source) {
  std::string_view rest = source;
  std::string out;
  if (const std::size_t scheme_end = rest.find("://"); scheme_end != std::string_view::npos) {
    out.append(rest.substr(0, scheme_end + 3));
    rest.remove_prefix(scheme_end + 3);
    // Userinfo ends at the last '@' before the path, query or fragment.
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
      rest.remove_prefix(at + 1);
    }
  }
  const std::size_t q = rest.find_first_of("?#");
  if (q == std::string_view::npos || rest[q] == '#') {
    out.append(rest);
    return out;
  }
  out.append(rest.substr(0, q));
  std::string_view query = rest.substr(q + 1);
  std::string_view fragment;
  if (const std::size_t hash = query.find('#'); hash != std::string_view::npos) {
    fragment = query.substr(hash);
    query = query.substr(0, hash);
  }
  std::string kept;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (param.empty() || IsCredentialName(DecodeParamName(param.substr(0, param.find('='))))) {
      continue;
    }
    if (!kept.empty()) kept += '&';
    kept.append(param);
  }
  if (!kept.empty()) {
    out += '?';
    out += kept;
  }
  out.append(fragment);
  return out;
}

namespace {

// A URL string with its userinfo marked redacted and its credential
// parameters dropped; false when there is nothing to hide.
bool RedactUrl(std::string* s) {
  const std::size_t scheme_end = s->find("://");
  if (scheme_end == std::string::npos) return false;
  const std::string scrubbed = ScrubSource(*s);
  if (scrubbed == *s) return false;
  const std::string_view authority =
      std::string_view(*s).substr(scheme_end + 3, s->find_first_of("/?#", scheme_end + 3) -
                                                      (scheme_end + 3));
  std::string out = scrubbed;
  if (authority.find('@') != std::string_view::npos) {
    out.insert(scheme_end + 3, std::string(kRedacted) + "@");
  }
  *s = std::move(out);
  return true;
}

const char* KindName(const json::Value& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_bool()) return "a boolean";
  return "a number";
}

Status CheckKinds(const json::Value& value, const std::string& path) {
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.array().size(); ++i) {
      ZS_RETURN_IF_ERROR(
          CheckKinds(value.array()[i], path + "[" + std::to_string(i) + "]"));
    }
    return Status::OK();
  }
  if (!value.is_object()) return Status::OK();
  for (const json::Member& m : value.object()) {
    const std::string at = path.empty() ? m.first : path + "." + m.first;
    // A plural name ("credentials", "apiKeys") may name a collection of them.
    const std::string_view name = m.first;
    const bool plural = name.size() > 1 && LowerAscii(name.back()) == 's' &&
                        IsCredentialName(name.substr(0, name.size() - 1));
    if (!IsCredentialName(name) || plural) {
      ZS_RETURN_IF_ERROR(CheckKinds(m.second, at));
    } else if (!m.second.is_null() && !m.second.is_string()) {
      return Status::InvalidArgument(at + " is " + KindName(m.second) +
                                     ", a credential must be a string");
    }
  }
  return Status::OK();
}

}  // namespace

Status CheckCredentialKinds(const json::Value& value) { return CheckKinds(value, ""); }

bool RedactCredentials(json::Value* value) {
  bool redacted = false;
  if (value->is_string()) return RedactUrl(&value->as_string());
  if (value->is_array()) {
    for (json::Value& item : value->array()) redacted |= RedactCredentials(&item);
    return redacted;
  }
  if (!value->is_object()) return false;
  for (json::Member& m : value->object()) {
    if (IsCredentialName(m.first)) {
      if (Redactable(m.second)) {
        m.second = json::Value::String(std::string(kRedacted));
        redacted = true;
      }
    } else {
      redacted |= RedactCredentials(&m.second);
    }
  }
  return redacted;
}

std::vector<std::string> SensitiveVariables(const json::Value& package) {
  std::vector<std::string> out;
  const json::Value* vars = package.Find("variables");
  if (vars == nullptr || !vars->is_array()) return out;
  for (const json::Value& v : vars->array()) {
    const json::Value* sensitive = v.Find("sensitive");
    if (sensitive == nullptr || !sensitive->is_bool() || !sensitive->as_bool()) continue;
    const std::string_view name = v.StringOr("name");
    if (!name.empty()) out.emplace_back(name);
  }
  return out;
}

bool RedactSensitiveVariables(json::Value* config, const std::vector<std::string>& sensitive) {
  if (sensitive.empty()) return false;
  json::Value* vars = FindField(config, "SetVariables");
  if (vars == nullptr || !vars->is_object()) return false;
  bool redacted = false;
  for (json::Member& m : vars->object()) {
    if (IsSensitiveVariable(m.first, sensitive) && Redactable(m.second)) {
      m.second = json::Value::String(std::string(kRedacted));
      redacted = true;
    }
  }
  return redacted;
}

bool RedactConfigForDisplay(json::Value* config, const std::vector<std::string>& sensitive) {
  const bool by_variable = RedactSensitiveVariables(config, sensitive);
  const bool by_name = RedactCredentials(config);
  return by_variable || by_name;
}

void RedactPackageForDisplay(json::Value* package) {
  if (!package->is_object()) return;
  json::Value* data = package->Find("data");
  const std::vector<std::string> sensitive =
      data != nullptr ? SensitiveVariables(*data) : std::vector<std::string>();
  if (json::Value* config = package->Find("deployConfig")) {
    RedactConfigForDisplay(config, sensitive);
  }
  if (json::Value* events = package->Find("events"); events != nullptr && events->is_array()) {
    for (json::Value& e : events->array()) {
      json::Value* source = e.Find("source");
      if (source != nullptr && source->is_string()) {
        *source = json::Value::String(ScrubSource(source->as_string()));
      }
    }
  }
  json::Value* vars = data != nullptr ? data->Find("variables") : nullptr;
  if (vars == nullptr || !vars->is_array()) return;
  for (json::Value& v : vars->array()) {
    json::Value* def = v.Find("default");
    if (def != nullptr && Redactable(*def) && IsSensitiveVariable(v.StringOr("name"), sensitive)) {
      *def = json::Value::String(std::string(kRedacted));
    }
  }
}

bool IsCredentialPath(std::string_view path, const std::vector<std::string>& sensitive) {
  // Segments are split at '.', and an index "[3]" ends the segment before it.
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '.' || path[i] == '[') {
      if (i > start) segments.push_back(path.substr(start, i - start));
      if (i < path.size() && path[i] == '[') {
        const std::size_t close = path.find(']', i);
        i = close == std::string_view::npos ? path.size() : close;
      }
      start = i + 1;
    }
  }
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const std::string_view s = segments[k];
    if (IsCredentialName(s)) return true;
    if (k > 0 && EqualsIgnoreCase(segments[k - 1], "SetVariables") && IsSensitiveVariable(s, sensitive)) {
      return true;
    }
    if (k > 0 && segments[k - 1] == "variables" && s == "default") return true;
    if (k > 0 && segments[k - 1] == "events" && s == "source") return true;
  }
  return false;
}

}  // namespace zs
