#include "yaml/internal/yaml_parser.h"

#include <libfyaml.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "base/memory_budget.h"
#include "json/json_reader.h"
#include "json/utf8.h"
#include "yaml/internal/yaml_scalar.h"

// libfyaml tokenizes and parses; this file turns its event stream into
// json::Values and applies our policy on top: how plain scalars resolve
// (yaml_scalar.h), which tags mean what, duplicate keys, merge keys, the
// nesting limit and the memory budget (base/memory_budget.h). Every value is
// charged the bytes it takes, its text and its keys included. Aliases are
// expanded by copying the anchored value, and each copy is charged the full
// size of what it copies, so a document of nested aliases (a "billion
// laughs") or of aliases to one long scalar is refused before it is built.

namespace zs::yaml::internal {
namespace {

using json::DecodeUtf8;
using json::Value;

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

struct ParserDeleter {
  void operator()(fy_parser* p) const { fy_parser_destroy(p); }
};
struct DiagDeleter {
  void operator()(fy_diag* d) const { fy_diag_destroy(d); }
};
struct EventFree {
  fy_parser* parser;
  void operator()(fy_event* e) const { fy_parser_event_free(parser, e); }
};
using EventPtr = std::unique_ptr<fy_event, EventFree>;

void DiagOutput(fy_diag* /*diag*/, void* user, const char* buf, std::size_t len) {
  static_cast<std::string*>(user)->append(buf, len);
}

// "<L: C>: message" (0-based) as our "yaml: line L+1, column C+1: message".
Status PositionedError(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  unsigned line = 0, column = 0;
  int used = 0;
  const std::string copy(text);
  if (std::sscanf(copy.c_str(), "< %u: %u>: %n", &line, &column, &used) == 2 && used > 0) {
    return Status::Corruption("yaml: line " + std::to_string(line + 1) + ", column " +
                              std::to_string(column + 1) + ": " + copy.substr(used));
  }
  return Status::Corruption("yaml: " + (copy.empty() ? std::string("malformed YAML") : copy));
}

std::string_view TokenText(fy_token* t) {
  if (t == nullptr) return {};
  std::size_t len = 0;
  const char* s = fy_token_get_text(t, &len);
  return s == nullptr ? std::string_view() : std::string_view(s, len);
}

// A collection being built.
struct Frame {
  bool is_map = false;
  std::string anchor;
  std::size_t bytes = 0;  // budget bytes spent on it so far, itself included
  json::Array items;
  json::Object members;
  std::unordered_set<std::string> seen;
  // Mapping state: the key waiting for its value.
  bool have_key = false;
  bool key_is_merge = false;
  std::string key;
  fy_mark key_mark{};
  // `<<` values, with the member index where each was written.
  std::vector<std::pair<std::size_t, Value>> merges;
};

// An anchored value and the bytes a copy of it costs.
struct Anchored {
  Value value;
  std::size_t bytes = 0;
};

class Builder {
 public:
  Builder(std::string_view src, std::size_t max_depth)
      : src_(src),
        max_depth_(max_depth),
        budget_(src.size()) {}

  Result<std::vector<Value>> Run();

 private:
  Status Error(Status::Code code, const fy_mark* at, std::string_view msg) const;
  Status Error(Status::Code code, std::size_t line, std::size_t column, std::string_view msg) const;
  Status CheckCharacters() const;
  Status Charge(const fy_mark* at, std::size_t bytes);
  Status OnEvent(fy_event* e);
  Status StartCollection(fy_event* e, bool is_map);
  Status EndCollection();
  Status Scalar(fy_event* e);
  Status Alias(fy_event* e);
  Result<Value> ScalarValue(fy_event* e, std::string_view text, bool plain) const;
  // Hands a finished node to its parent (or ends the document).
  Status Attach(Value v, std::size_t bytes, std::string anchor);

  std::string_view src_;
  const std::size_t max_depth_;
  MemoryBudget budget_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, Anchored> anchors_;
  std::vector<Value> documents_;
};

Status Builder::Error(Status::Code code, std::size_t line, std::size_t column,
                      std::string_view msg) const {
  std::string text = "yaml: line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": " + std::string(msg);
  switch (code) {
    case Status::Code::kNotSupported:
      return Status::NotSupported(text);
    case Status::Code::kInvalidArgument:
      return Status::InvalidArgument(text);
    default:
      return Status::Corruption(text);
  }
}

Status Builder::Error(Status::Code code, const fy_mark* at, std::string_view msg) const {
  if (at == nullptr) return Error(code, 1, 1, msg);
  return Error(code, static_cast<std::size_t>(at->line) + 1, static_cast<std::size_t>(at->column) + 1,
               msg);
}

// libfyaml reads invalid UTF-8 and raw control characters as text; YAML
// forbids both, so they are refused first, with their line and column.
// Printable ASCII, the bulk of any manifest, takes the short path.
Status Builder::CheckCharacters() const {
  std::size_t i = 0;
  Status problem;
  while (i < src_.size()) {
    const auto c = static_cast<unsigned char>(src_[i]);
    if (c >= 0x20 && c < 0x7F) {
      ++i;
      continue;
    }
    char32_t cp = c;
    const std::size_t len = c < 0x80 ? 1 : DecodeUtf8(src_, i, &cp);
    if (len == 0) {
      problem = Status::Corruption("invalid UTF-8");
      break;
    }
    if (!IsPrintable(cp)) {
      problem = Status::Corruption(
          "control characters are not allowed (escape them in a double-quoted string)");
      break;
    }
    i += len;
  }
  if (problem.ok()) return problem;
  // Where: lines and columns (in characters) up to byte i.
  std::size_t line = 1, column = 1;
  for (std::size_t k = 0; k < i; ++k) {
    if (src_[k] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(src_[k]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return Error(Status::Code::kCorruption, line, column, problem.message());
}

Status Builder::Charge(const fy_mark* at, std::size_t bytes) {
  if (budget_.Take(bytes)) return Status::OK();
  // Aliases cost what they repeat; the message says so.
  return Error(Status::Code::kInvalidArgument, at,
               budget_.Exceeded("the values (an alias costs what it repeats)").message());
}

Result<std::vector<Value>> Builder::Run() {
  ZS_RETURN_IF_ERROR(CheckCharacters());
  // Errors tied to a token are collected with their line and column; the
  // others reach DiagOutput as "<L: C>: message" (0-based).
  std::string diag_text;
  fy_diag_cfg dcfg;
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = nullptr;
  dcfg.output_fn = DiagOutput;
  dcfg.user = &diag_text;
  dcfg.colorize = false;
  dcfg.show_source = false;
  dcfg.show_type = false;
  dcfg.show_module = false;
  dcfg.show_position = true;
  dcfg.position_width = 0;
  std::unique_ptr<fy_diag, DiagDeleter> diag(fy_diag_create(&dcfg));
  if (diag == nullptr) return Status::IOError("yaml: cannot create a libfyaml diagnostic object");
  fy_diag_set_collect_errors(diag.get(), true);
  fy_parse_cfg cfg{};
  // Duplicate keys and depth are checked here, with our messages and limit.
  cfg.flags = static_cast<fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 |
                                              FYPCF_ALLOW_DUPLICATE_KEYS |
                                              FYPCF_DISABLE_DEPTH_LIMIT | FYPCF_JSON_NONE |
                                              // `]` or `}` at the key's column, as people write
                                              FYPCF_SLOPPY_FLOW_INDENTATION);
  cfg.diag = diag.get();
  std::unique_ptr<fy_parser, ParserDeleter> parser(fy_parser_create(&cfg));
  if (parser == nullptr) return Status::IOError("yaml: cannot create a libfyaml parser");
  if (fy_parser_set_string(parser.get(), src_.data(), src_.size()) != 0) {
    return Status::IOError("yaml: libfyaml refused the input buffer");
  }
  while (true) {
    EventPtr e(fy_parser_parse(parser.get()), EventFree{parser.get()});
    if (e == nullptr) break;
    ZS_RETURN_IF_ERROR(OnEvent(e.get()));
  }
  if (fy_parser_get_stream_error(parser.get())) {
    void* iter = nullptr;
    if (fy_diag_error* err = fy_diag_errors_iterate(diag.get(), &iter)) {
      return Error(Status::Code::kCorruption, static_cast<std::size_t>(std::max(err->line, 1)),
                   static_cast<std::size_t>(std::max(err->column, 1)),
                   err->msg != nullptr ? err->msg : "malformed YAML");
    }
    return PositionedError(diag_text);
  }
  return std::move(documents_);
}

Status Builder::OnEvent(fy_event* e) {
  switch (e->type) {
    case FYET_DOCUMENT_START:
      anchors_.clear();  // anchors do not cross documents
      return Status::OK();
    case FYET_MAPPING_START:
      return StartCollection(e, true);
    case FYET_SEQUENCE_START:
      return StartCollection(e, false);
    case FYET_MAPPING_END:
    case FYET_SEQUENCE_END:
      return EndCollection();
    case FYET_SCALAR:
      return Scalar(e);
    case FYET_ALIAS:
      return Alias(e);
    default:
      return Status::OK();
  }
}

Status Builder::StartCollection(fy_event* e, bool is_map) {
  const fy_mark* at = fy_event_start_mark(e);
  if (!stack_.empty() && stack_.back().is_map && !stack_.back().have_key) {
    return Error(Status::Code::kNotSupported, at,
                 "collections as mapping keys (complex keys) are not supported");
  }
  if (stack_.size() + 1 > max_depth_) {
    return Error(Status::Code::kInvalidArgument, at,
                 "nesting deeper than " + std::to_string(max_depth_) + " levels");
  }
  const std::string_view tag = TokenText(fy_event_get_tag_token(e));
  if (!tag.empty()) {
    const std::string_view want = is_map ? "map" : "seq";
    if (!tag.starts_with(kTagPrefix) || tag.substr(kTagPrefix.size()) != want) {
      return Error(Status::Code::kNotSupported, at,
                   "tag " + std::string(tag) + " on a " + (is_map ? "mapping" : "sequence") +
                       " is not supported");
    }
  }
  Frame frame;
  frame.is_map = is_map;
  frame.anchor = std::string(TokenText(fy_event_get_anchor_token(e)));
  frame.bytes = is_map ? kObjectCost : kValueCost;
  ZS_RETURN_IF_ERROR(Charge(at, frame.bytes));
  stack_.push_back(std::move(frame));
  return Status::OK();
}

Status Builder::EndCollection() {
  Frame frame = std::move(stack_.back());
  stack_.pop_back();
  Value v;
  if (!frame.is_map) {
    v = Value::MakeArray(std::move(frame.items));
  } else if (frame.merges.empty()) {
    v = Value::MakeObject(std::move(frame.members));
  } else {
    // Keys of the mapping itself win over merged ones, and an earlier merged
    // mapping over a later one; merged members sit where `<<` was written.
    json::Object members;
    std::size_t next = 0;
    for (auto& [index, source] : frame.merges) {
      for (; next < index; ++next) members.push_back(std::move(frame.members[next]));
      const json::Array sources =
          source.is_array() ? std::move(source.array()) : json::Array{std::move(source)};
      for (const Value& s : sources) {
        for (const json::Member& m : s.object()) {
          if (frame.seen.insert(m.first).second) members.push_back(m);
        }
      }
    }
    for (; next < frame.members.size(); ++next) members.push_back(std::move(frame.members[next]));
    v = Value::MakeObject(std::move(members));
  }
  return Attach(std::move(v), frame.bytes, std::move(frame.anchor));
}

Status Builder::Attach(Value v, std::size_t bytes, std::string anchor) {
  if (!anchor.empty()) {  // the anchor keeps a copy
    ZS_RETURN_IF_ERROR(Charge(nullptr, bytes));
    anchors_[anchor] = Anchored{v, bytes};
  }
  if (stack_.empty()) {
    ZS_RETURN_IF_ERROR(Charge(nullptr, kDocumentCost));
    documents_.push_back(std::move(v));
    return Status::OK();
  }
  Frame& parent = stack_.back();
  parent.bytes += bytes;
  if (!parent.is_map) {
    parent.items.push_back(std::move(v));
    return Status::OK();
  }
  // A collection as a key was refused at its start; a key is always a scalar
  // handled by Scalar, so here the parent waits for a value.
  parent.have_key = false;
  if (parent.key_is_merge) {
    bool mergeable = v.is_object();
    if (v.is_array()) {
      mergeable = std::all_of(v.array().begin(), v.array().end(),
                              [](const Value& s) { return s.is_object(); });
    }
    if (!mergeable) {
      return Error(Status::Code::kInvalidArgument, &parent.key_mark,
                   "a merge key (<<) takes a mapping or a sequence of mappings");
    }
    parent.merges.emplace_back(parent.members.size(), std::move(v));
    return Status::OK();
  }
  parent.members.emplace_back(std::move(parent.key), std::move(v));
  return Status::OK();
}

Result<Value> Builder::ScalarValue(fy_event* e, std::string_view text, bool plain) const {
  const fy_mark* at = fy_event_start_mark(e);
  std::string_view tag = TokenText(fy_event_get_tag_token(e));
  if (tag == "!") return Value::String(std::string(text));  // non-specific: a string
  std::string_view want;
  if (!tag.empty()) {
    if (!tag.starts_with(kTagPrefix)) {
      return Error(Status::Code::kNotSupported, at,
                   "tag " + std::string(tag) + " is not supported (only the standard !! tags)");
    }
    want = tag.substr(kTagPrefix.size());
    if (want == "str") return Value::String(std::string(text));
    if (want == "binary") {
      std::string b64(text);
      std::erase_if(b64, [](char c) { return c == ' ' || c == '\n' || c == '\t'; });
      return Value::String(std::move(b64));
    }
    if (want != "int" && want != "float" && want != "bool" && want != "null") {
      return Error(Status::Code::kNotSupported, at,
                   "tag !!" + std::string(want) + " on a scalar is not supported");
    }
  } else if (!plain) {
    return Value::String(std::string(text));
  }
  const PlainResolution r = ResolvePlain(text);
  std::string quoted = "'";  // appended: a concatenation trips a false g++ 12 -Wrestrict
  quoted.append(text).push_back('\'');
  switch (r.kind) {
    case PlainKind::kNotFinite:
      return Error(Status::Code::kInvalidArgument, at,
                   quoted + " (infinity or NaN) cannot be represented in JSON; "
                            "quote it to keep it as a string");
    case PlainKind::kAmbiguousInteger:
      return Error(Status::Code::kInvalidArgument, at,
                   "integer " + quoted +
                       " has a leading zero, which YAML 1.1 reads as octal "
                       "and YAML 1.2 as decimal; quote it or write 0o...");
    default:
      break;
  }
  const bool fits = want.empty() || (want == "null" && r.kind == PlainKind::kNull) ||
                    (want == "bool" && r.kind == PlainKind::kBool) ||
                    ((want == "int" || want == "float") && r.kind == PlainKind::kNumber);
  if (!fits) {
    return Error(Status::Code::kInvalidArgument, at,
                 quoted + " is not a valid !!" + std::string(want));
  }
  switch (r.kind) {
    case PlainKind::kNull:
      return Value::Null();
    case PlainKind::kBool:
      return Value::Bool(r.boolean);
    case PlainKind::kNumber:
      return Value::RawNumber(r.number);
    default:
      return Value::String(std::string(text));
  }
}

Status Builder::Scalar(fy_event* e) {
  const fy_mark* at = fy_event_start_mark(e);
  fy_token* token = fy_event_get_token(e);
  std::string_view text = TokenText(token);
  // An absent node (`key:` with nothing after it) has no token: a null.
  const enum fy_scalar_style style = token == nullptr ? FYSS_PLAIN : fy_token_scalar_style(token);
  const bool plain = style == FYSS_PLAIN;
  // A block scalar that ends the input without a line break has none to
  // keep (YAML's b-chomped-last may be the end of input); libfyaml adds one.
  if ((style == FYSS_LITERAL || style == FYSS_FOLDED) && text.ends_with('\n') && !src_.empty() &&
      src_.back() != '\n') {
    const fy_mark* end = fy_event_end_mark(e);
    if (end != nullptr && end->input_pos >= src_.size()) text.remove_suffix(1);
  }
  if (!stack_.empty() && stack_.back().is_map && !stack_.back().have_key) {
    // A key keeps its source text; `<<` (plain) is a merge key.
    Frame& map = stack_.back();
    if (plain && text.empty()) {
      return Error(Status::Code::kNotSupported, at, "empty (null) mapping keys are not supported");
    }
    if (!TokenText(fy_event_get_anchor_token(e)).empty()) {
      return Error(Status::Code::kNotSupported, at, "anchors on mapping keys are not supported");
    }
    map.key_is_merge = plain && text == "<<";
    if (!map.key_is_merge && !map.seen.insert(std::string(text)).second) {
      return Error(Status::Code::kCorruption, at, "duplicate mapping key \"" + std::string(text) + "\"");
    }
    ZS_RETURN_IF_ERROR(Charge(at, text.size()));
    map.bytes += text.size();
    map.have_key = true;
    map.key = std::string(text);
    if (at != nullptr) map.key_mark = *at;
    return Status::OK();  // a member costs its key here and its value below
  }
  if (stack_.empty() && plain && text.empty() && TokenText(fy_event_get_tag_token(e)).empty()) {
    return Status::OK();  // a document without content yields no value
  }
  ZS_ASSIGN_OR_RETURN(Value v, ScalarValue(e, text, plain));
  const std::size_t bytes = kValueCost + text.size();
  ZS_RETURN_IF_ERROR(Charge(at, bytes));
  return Attach(std::move(v), bytes, std::string(TokenText(fy_event_get_anchor_token(e))));
}

Status Builder::Alias(fy_event* e) {
  const fy_mark* at = fy_event_start_mark(e);
  const std::string name(TokenText(fy_event_get_token(e)));
  if (!stack_.empty() && stack_.back().is_map && !stack_.back().have_key) {
    return Error(Status::Code::kNotSupported, at, "aliases as mapping keys are not supported");
  }
  const auto it = anchors_.find(name);
  if (it == anchors_.end()) {
    return Error(Status::Code::kCorruption, at, "alias *" + name + " names no anchor defined before it");
  }
  // The copy costs what the anchored value cost.
  ZS_RETURN_IF_ERROR(Charge(at, it->second.bytes));
  return Attach(it->second.value, it->second.bytes, "");
}

}  // namespace

Result<std::vector<Value>> ParseStream(std::string_view text, std::size_t max_depth) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  return Builder(text, max_depth).Run();
}

}  // namespace zs::yaml::internal
