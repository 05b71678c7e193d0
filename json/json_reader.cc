#include "json/json_reader.h"

#include <simdjson.h>

#include <cstring>
#include <deque>
#include <iterator>
#include <string>
#include <unordered_map>

#include "json/concatenated.h"
#include "json/internal/reader_support.h"

namespace zs::json {
namespace {

namespace od = simdjson::ondemand;
using internal::FirstInvalidUtf8;
using internal::ParserLease;
using internal::ReleaseIdleParser;
using internal::UnclosedBrackets;

// simdjson's own ceiling; ParseOptions::max_depth is clamped to it.
constexpr std::size_t kSimdjsonMaxDepth = 1024;

class TreeBuilder {
 public:
  TreeBuilder(std::string_view input, const ParseOptions& options, MemoryBudget* budget)
      : input_(input), options_(options), budget_(budget) {}

  Result<Value> Build(od::document& doc) {
    od::json_type type;
    if (auto err = doc.type().get(type)) return Fail(err, doc);
    Value out;
    if (type == od::json_type::object || type == od::json_type::array) {
      od::value root;
      if (auto err = doc.get_value().get(root)) return Fail(err, doc);
      ZS_RETURN_IF_ERROR(Visit(root, doc, 1, &out, selection_));
    } else {
      ZS_RETURN_IF_ERROR(VisitScalarDocument(doc, type, &out));
    }
    // Anything but whitespace after the value is an error. (A lone number's
    // raw token already runs to the end of the input and was checked whole.)
    const char* loc = nullptr;
    if (type != od::json_type::number && !doc.current_location().get(loc)) {
      if (const std::size_t open = UnclosedBrackets(input_); open > 0) return Truncated(open);
      return Status::Corruption("json: unexpected content after the value at byte " +
                                std::to_string(loc - input_.data()));
    }
    return out;
  }

  // ParseJsonStreaming's walk: see json_reader.h. The first `skip_items`
  // items are checked but neither built nor handed out
  // (ParseJsonStreamingFrom).
  Status Stream(od::document& doc, std::string_view array_key, const ItemHandler& on_item,
                const EnvelopeHandler& on_envelope, std::size_t skip_items = 0) {
    od::json_type type;
    if (auto err = doc.type().get(type)) return Fail(err, doc);
    if (type != od::json_type::object) {
      ZS_ASSIGN_OR_RETURN(Value whole, Build(doc));
      return on_envelope(std::move(whole), false);
    }
    od::value root;
    if (auto err = doc.get_value().get(root)) return Fail(err, doc);
    od::object obj;
    if (auto err = root.get_object().get(obj)) return Fail(err, doc);
    Value envelope = Value::MakeObject();
    bool streamed = false;
    for (auto field : obj) {
      std::string_view key;
      if (auto err = field.unescaped_key().get(key)) return Fail(err, doc);
      od::value child;
      if (auto err = field.value().get(child)) return Fail(err, doc);
      od::json_type child_type;
      if (auto err = child.type().get(child_type)) return Fail(err, doc);
      if (!streamed && key == array_key && child_type == od::json_type::array) {
        streamed = true;
        envelope.object().emplace_back(std::string(key), Value::MakeArray());
        od::array arr;
        if (auto err = child.get_array().get(arr)) return Fail(err, doc);
        std::size_t index = 0;
        for (auto element : arr) {
          od::value item_value;
          if (auto err = element.get(item_value)) return Fail(err, doc);
          if (index < skip_items) {
            ZS_RETURN_IF_ERROR(Visit(item_value, doc, 3, nullptr, nullptr));
            ++index;
            continue;
          }
          Value item;
          ZS_RETURN_IF_ERROR(Visit(item_value, doc, 3, &item, nullptr));
          ZS_RETURN_IF_ERROR(on_item(std::move(item), index++, envelope));
        }
        continue;
      }
      envelope.object().emplace_back(std::string(key), Value());
      ZS_RETURN_IF_ERROR(Visit(child, doc, 2, &envelope.object().back().second, nullptr));
    }
    const char* loc = nullptr;
    if (!doc.current_location().get(loc)) {
      return Status::Corruption("json: unexpected content after the value at byte " +
                                std::to_string(loc - input_.data()));
    }
    return on_envelope(std::move(envelope), streamed);
  }

 private:
  [[gnu::noinline]] Status Fail(simdjson::error_code err, od::document& doc) {
    const char* loc = nullptr;
    const bool located = !doc.current_location().get(loc);
    // Failing where only whitespace is left, with brackets still open: the
    // document was cut short, which says more than simdjson's message.
    const std::size_t end = input_.find_last_not_of(" \t\r\n") + 1;
    if (!located || static_cast<std::size_t>(loc - input_.data()) >= end) {
      if (const std::size_t open = UnclosedBrackets(input_); open > 0) return Truncated(open);
    }
    std::string msg = "json: ";
    msg += simdjson::error_message(err);
    if (located) {
      msg += " at byte " + std::to_string(loc - input_.data());
    } else {
      msg += " at end of input";
    }
    return Status::Corruption(msg);
  }

  Status Truncated(std::size_t open) const {
    return Status::Corruption("json: truncated input: " + std::to_string(open) +
                              " unclosed object or array at the end (byte " +
                              std::to_string(input_.size()) + ")");
  }

  // simdjson serves a document that is a lone scalar through the document
  // itself, not through a value.
  Status VisitScalarDocument(od::document& doc, od::json_type type, Value* out) {
    switch (type) {
      case od::json_type::number: {
        std::string_view raw;
        if (auto err = doc.raw_json_token().get(raw)) return Fail(err, doc);
        while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' ||
                                raw.back() == '\r' || raw.back() == '\t')) {
          raw.remove_suffix(1);
        }
        if (!IsValidNumber(raw)) {
          return Status::Corruption("json: invalid number '" + std::string(raw) + "' at byte 0");
        }
        // The raw token stops at the first space; only whitespace may follow.
        const std::size_t end = static_cast<std::size_t>(raw.data() + raw.size() - input_.data());
        for (std::size_t i = end; i < input_.size(); ++i) {
          const char c = input_.data()[i];
          if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            return Status::Corruption("json: unexpected content after the value at byte " +
                                      std::to_string(i));
          }
        }
        *out = Value::RawNumber(std::string(raw));
        return Status::OK();
      }
      case od::json_type::string: {
        std::string_view s;
        if (auto err = doc.get_string().get(s)) return Fail(err, doc);
        *out = Value::String(std::string(s));
        return Status::OK();
      }
      case od::json_type::boolean: {
        bool b;
        if (auto err = doc.get_bool().get(b)) return Fail(err, doc);
        *out = Value::Bool(b);
        return Status::OK();
      }
      default: {
        bool is_null = false;
        if (auto err = doc.is_null().get(is_null)) return Fail(err, doc);
        if (!is_null) return Status::Corruption("json: invalid literal at byte 0");
        *out = Value::Null();
        return Status::OK();
      }
    }
  }

  std::size_t Offset(od::value& v) {
    const char* loc = nullptr;
    if (v.current_location().get(loc)) return input_.size();
    return static_cast<std::size_t>(loc - input_.data());
  }

  // The recursion is Visit -> VisitObject/VisitArray -> Visit. Everything
  // else (scalars, error messages, duplicate lookup) lives in functions that
  // are kept out of line, so each nesting level costs a small stack frame:
  // under 1 KiB optimised (the deepest document allowed, kSimdjsonMaxDepth,
  // needs under 1 MiB of stack). AddressSanitizer builds take about ten
  // times that; the default max_depth of 512 fits their 8 MiB stack.
  //
  // `out` null: check the value as strictly, build nothing (a part that a
  // Selection leaves out). `select` null: build the whole value.
  Status Visit(od::value& v, od::document& doc, std::size_t depth, Value* out,
               const Selection* select) {
    if (depth > options_.max_depth) return TooDeep(v);
    od::json_type type;
    if (auto err = v.type().get(type)) return Fail(err, doc);
    if (out != nullptr) {
      if (!budget_->Take(type == od::json_type::object ? kObjectCost : kValueCost)) {
        return OverBudget(v);
      }
    }
    if (type == od::json_type::object) {
      if (out == nullptr) return CheckObject(v, doc, depth);
      return VisitObject(v, doc, depth, out, select);
    }
    if (type == od::json_type::array) return VisitArray(v, doc, depth, out, select);
    return VisitScalar(v, doc, type, out);
  }

  [[gnu::noinline]] Status OverBudget(od::value& v) {
    return budget_->Exceeded("json: the values up to byte " + std::to_string(Offset(v)));
  }

  [[gnu::noinline]] Status TooDeep(od::value& v) {
    return Status::InvalidArgument("json: nesting deeper than " +
                                   std::to_string(options_.max_depth) + " at byte " +
                                   std::to_string(Offset(v)));
  }

  [[gnu::noinline]] Status VisitArray(od::value& v, od::document& doc, std::size_t depth,
                                      Value* out, const Selection* select) {
    od::array arr;
    if (auto err = v.get_array().get(arr)) return Fail(err, doc);
    // Checking only (`out` null), the items are not collected.
    Array* items = out != nullptr ? &Scratch(&array_scratch_, depth) : nullptr;
    for (auto element : arr) {
      od::value child;
      if (auto err = element.get(child)) return Fail(err, doc);
      Value* item = items != nullptr ? &items->emplace_back() : nullptr;
      ZS_RETURN_IF_ERROR(Visit(child, doc, depth + 1, item, select));
    }
    if (out != nullptr) *out = Value::MakeArray(TakeItems(items));
    return Status::OK();
  }

  // The items collected in `scratch`: copied to an array of their own size,
  // the scratch kept for the next array at its depth; or, for a large array
  // that fills three quarters of the scratch or more, the scratch itself,
  // so that the array is never held twice (a million numbers are 40 MiB).
  static Array TakeItems(Array* scratch) {
    constexpr std::size_t kLarge = 4096;
    if (scratch->size() >= kLarge && scratch->size() >= scratch->capacity() / 4 * 3) {
      return std::move(*scratch);
    }
    return Array(std::make_move_iterator(scratch->begin()),
                 std::make_move_iterator(scratch->end()));
  }

  [[gnu::noinline]] Status VisitScalar(od::value& v, od::document& doc, od::json_type type,
                                       Value* out) {
    switch (type) {
      case od::json_type::number: {
        const char* start = nullptr;
        if (v.current_location().get(start)) start = input_.data();
        std::string_view raw = v.raw_json_token();
        while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' ||
                                raw.back() == '\r' || raw.back() == '\t')) {
          raw.remove_suffix(1);
        }
        // simdjson's raw token ends at the next structural character; the
        // grammar check below is what rejects `01`, `1.`, `-` and friends.
        if (!IsValidNumber(raw)) {
          return Status::Corruption("json: invalid number '" + std::string(raw) +
                                    "' at byte " + std::to_string(start - input_.data()));
        }
        if (out != nullptr) *out = Value::RawNumber(std::string(raw));
        return Status::OK();
      }
      case od::json_type::string: {
        // Most strings (base64 Secret data above all) hold no escape: their
        // text in the input is their value, so take it from there rather
        // than have simdjson unescape it into its buffer and copy it again.
        // Stage 1 has already validated the whole input's UTF-8 and refused
        // unescaped control characters.
        std::string_view raw = v.raw_json_token();
        while (!raw.empty() && raw.back() != '"') raw.remove_suffix(1);
        if (raw.size() >= 2) {
          const std::string_view body = raw.substr(1, raw.size() - 2);
          if (body.find('\\') == std::string_view::npos) {
            if (out != nullptr) *out = Value::String(std::string(body));
            return Status::OK();
          }
        }
        std::string_view s;
        const std::size_t at = Offset(v);
        if (v.get_string().get(s)) {
          return Status::Corruption("json: invalid string at byte " +
                                    std::to_string(at));
        }
        if (out != nullptr) *out = Value::String(std::string(s));
        return Status::OK();
      }
      case od::json_type::boolean: {
        bool b;
        if (auto err = v.get_bool().get(b)) return Fail(err, doc);
        if (out != nullptr) *out = Value::Bool(b);
        return Status::OK();
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto err = v.is_null().get(is_null)) return Fail(err, doc);
        if (!is_null) {
          return Status::Corruption("json: invalid literal at byte " +
                                    std::to_string(Offset(v)));
        }
        if (out != nullptr) *out = Value::Null();
        return Status::OK();
      }
      default:
        break;
    }
    return Status::Corruption("json: unknown token");
  }

  // The position of an earlier member named `key`, or members.size().
  // `index` is built once an object is large enough that a linear scan for
  // duplicates would hurt.
  [[gnu::noinline]] static std::size_t FindMember(
      const Object& members, std::unordered_map<std::string, std::size_t>& index,
      std::string_view key) {
    if (members.size() < 16) {
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i].first == key) return i;
      }
      return members.size();
    }
    if (index.empty()) {
      for (std::size_t i = 0; i < members.size(); ++i) index.emplace(members[i].first, i);
    }
    auto it = index.find(std::string(key));
    return it == index.end() ? members.size() : it->second;
  }

  [[gnu::noinline]] Status DuplicateKey(std::string_view key, od::value& child) {
    return Status::Corruption("json: duplicate key \"" + std::string(key) + "\" at byte " +
                              std::to_string(Offset(child)));
  }

  // The key of `field`. Most keys hold no escape: their text in the input
  // is their value, so it is taken from there rather than copied into
  // simdjson's string buffer. Stage 1 has checked that the key's string is
  // closed, so its first quote is found and, with no backslash before it,
  // ends it.
  simdjson::error_code KeyOf(od::field& field, std::string_view* key) {
    const char* raw = field.key().raw();
    const char* end = input_.data() + input_.size();
    if (const void* quote = std::memchr(raw, '"', static_cast<std::size_t>(end - raw))) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(quote) - raw);
      const std::string_view body(raw, length);
      if (body.find('\\') == std::string_view::npos) {
        *key = body;
        return simdjson::SUCCESS;
      }
    }
    return field.unescaped_key().get(*key);
  }

  // Visit's `out == nullptr` case for an object.
  [[gnu::noinline]] Status CheckObject(od::value& v, od::document& doc, std::size_t depth) {
    od::object obj;
    if (auto err = v.get_object().get(obj)) return Fail(err, doc);
    for (auto result : obj) {
      od::field field;
      if (auto err = std::move(result).get(field)) return Fail(err, doc);
      std::string_view key;
      if (auto err = KeyOf(field, &key)) return Fail(err, doc);
      ZS_RETURN_IF_ERROR(Visit(field.value(), doc, depth + 1, nullptr, nullptr));
    }
    return Status::OK();
  }

  // The entry of `select` for member `key`, or nullptr.
  static const Selection::Member* Selected(const Selection& select, std::string_view key) {
    for (const Selection::Member& m : select.members) {
      if (m.key == key) return &m;
    }
    return nullptr;
  }

  [[gnu::noinline]] Status VisitObject(od::value& v, od::document& doc, std::size_t depth,
                                       Value* out, const Selection* select) {
    od::object obj;
    if (auto err = v.get_object().get(obj)) return Fail(err, doc);
    Object& members = Scratch(&object_scratch_, depth);
    // Key -> member position, for FindMember.
    std::unordered_map<std::string, std::size_t> index;
    for (auto result : obj) {
      od::field field;
      if (auto err = std::move(result).get(field)) return Fail(err, doc);
      std::string_view key;
      if (auto err = KeyOf(field, &key)) return Fail(err, doc);
      od::value& child = field.value();
      const Selection* child_select = nullptr;
      if (select != nullptr) {
        const Selection::Member* m = Selected(*select, key);
        if (m == nullptr && !select->keep_others) {
          ZS_RETURN_IF_ERROR(Visit(child, doc, depth + 1, nullptr, nullptr));
          continue;
        }
        if (m != nullptr) child_select = m->select;
      }
      if (options_.duplicates != DuplicateKeys::kKeep) {
        const std::size_t found = FindMember(members, index, key);
        if (found != members.size()) {
          if (options_.duplicates == DuplicateKeys::kReject) return DuplicateKey(key, child);
          ZS_RETURN_IF_ERROR(Visit(child, doc, depth + 1, &members[found].second, child_select));
          continue;
        }
      }
      if (!index.empty()) index.emplace(std::string(key), members.size());
      members.emplace_back(std::string(key), Value());
      ZS_RETURN_IF_ERROR(Visit(child, doc, depth + 1, &members.back().second, child_select));
    }
    *out = Value::MakeObject(Object(std::make_move_iterator(members.begin()),
                                    std::make_move_iterator(members.end())));
    return Status::OK();
  }

  // The members (items) of the object (array) being built at `depth`,
  // emptied. An object or array collects its children here and is then
  // allocated once at its exact size: asking simdjson for the count first
  // walks the whole subtree an extra time at every level, and growing a
  // vector reallocates. A deque, so that deeper levels never
  // move the shallower ones that are still being filled.
  template <typename Container>
  static Container& Scratch(std::deque<Container>* stack, std::size_t depth) {
    while (stack->size() <= depth) stack->emplace_back();
    Container& c = (*stack)[depth];
    c.clear();
    return c;
  }

  std::string_view input_;
  const ParseOptions& options_;
  MemoryBudget* budget_;  // what building values may still take
  std::deque<Object> object_scratch_;
  std::deque<Array> array_scratch_;

 public:
  // ParseJsonSelected: the root value is built as `select` says.
  void Select(const Selection* select) { selection_ = select; }

 private:
  const Selection* selection_ = nullptr;
};

}  // namespace

namespace {

// Runs `body(builder, doc)` on `text` once simdjson has indexed it: the
// checks, limits and error messages shared by ParseJson and
// ParseJsonStreaming.
template <typename Body>
auto WithDocument(std::string_view text, const ParseOptions& options, Body body)
    -> decltype(body(std::declval<TreeBuilder&>(), std::declval<od::document&>())) {
  if (text.size() > options.max_bytes) {
    return Status::InvalidArgument(
        "json: input of " + std::to_string(text.size()) +
        " bytes exceeds the limit of " + std::to_string(options.max_bytes));
  }
  ParseOptions effective = options;
  if (effective.max_depth > kSimdjsonMaxDepth) {
    effective.max_depth = kSimdjsonMaxDepth;
  }
  MemoryBudget own_budget(text.size());
  MemoryBudget* budget = options.budget != nullptr ? options.budget : &own_budget;
  // simdjson refuses a lone scalar followed by whitespace ("null "), which
  // RFC 8259 allows: such a document is parsed without its trailing
  // whitespace (which stays readable, as padding). Objects and arrays are
  // left as they are, so their error offsets do not move.
  std::size_t padding = options.readable_padding;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] != '{' && text[first] != '[') {
    const std::size_t keep = text.find_last_not_of(" \t\r\n") + 1;
    padding += text.size() - keep;
    text = text.substr(0, keep);
  }
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse in place
  // when the caller vouches for them, else from a padded copy.
  simdjson::padded_string copy;
  simdjson::padded_string_view input;
  if (padding >= simdjson::SIMDJSON_PADDING) {
    input = simdjson::padded_string_view(text.data(), text.size(), text.size() + padding);
  } else {
    copy = simdjson::padded_string(text);
    input = simdjson::padded_string_view(copy);
  }
  ParserLease lease;
  od::document doc;
  if (auto err = lease.parser().iterate(input).get(doc)) {
    if (err == simdjson::UTF8_ERROR) {
      return Status::Corruption("json: invalid UTF-8 at byte " +
                                std::to_string(FirstInvalidUtf8(text)));
    }
    if (err == simdjson::EMPTY) {
      return Status::Corruption("json: empty input");
    }
    return Status::Corruption(std::string("json: ") +
                              simdjson::error_message(err));
  }
  TreeBuilder builder(std::string_view(input.data(), input.length()), effective, budget);
  return body(builder, doc);
}

}  // namespace

Result<Value> ParseJson(std::string_view text, const ParseOptions& options) {
  return WithDocument(text, options, [](TreeBuilder& builder, od::document& doc) {
    return builder.Build(doc);
  });
}

Result<Value> ParseJsonSelected(std::string_view text, const Selection& selection,
                                const ParseOptions& options) {
  return WithDocument(text, options, [&](TreeBuilder& builder, od::document& doc) {
    if (options.duplicates == DuplicateKeys::kKeep) builder.Select(&selection);
    return builder.Build(doc);
  });
}

Status ParseJsonStreaming(std::string_view text, std::string_view array_key,
                          const ParseOptions& options, const ItemHandler& on_item,
                          const EnvelopeHandler& on_envelope) {
  return WithDocument(text, options, [&](TreeBuilder& builder, od::document& doc) {
    return builder.Stream(doc, array_key, on_item, on_envelope);
  });
}

Status ParseJsonStreamingFrom(std::string_view text, std::string_view array_key,
                              const ParseOptions& options, const ItemHandler& on_item,
                              const EnvelopeHandler& on_envelope, std::size_t skip_items) {
  return WithDocument(text, options, [&](TreeBuilder& builder, od::document& doc) {
    return builder.Stream(doc, array_key, on_item, on_envelope, skip_items);
  });
}

Status ParseJsonStreamingIfSingle(std::string_view text, std::string_view array_key,
                                  const ParseOptions& options, const ItemHandler& on_item,
                                  const EnvelopeHandler& on_envelope, bool* single) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || (text[first] != '{' && text[first] != '[')) {
    *single = true;
    return ParseJsonStreaming(text, array_key, options, on_item, on_envelope);
  }
  // Undecided until the text is indexed: a text the parser refuses whole
  // (a limit, invalid UTF-8 in a later value) is left to the caller.
  *single = false;
  auto stream_if_single = [&](TreeBuilder& builder, od::document& doc) -> Status {
    // Skipping the first value walks simdjson's index of brackets, not the
    // bytes; past it only the end of the input may come.
    std::string_view first_value;
    const char* after = nullptr;
    if (doc.raw_json().get(first_value) || !doc.current_location().get(after)) {
      return Status::OK();
    }
    *single = true;
    doc.rewind();
    return builder.Stream(doc, array_key, on_item, on_envelope);
  };
  Status s = WithDocument(text, options, stream_if_single);
  if (*single) return s;
  // The caller parses the values one by one next: the index of the whole
  // text, as large as the text again or more, is given back first.
  ReleaseIdleParser();
  return Status::OK();
}

}  // namespace zs::json
