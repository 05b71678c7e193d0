#include "codec/internal/yaml_parser.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <string>
#include <unordered_set>
#include <utility>

#include "codec/internal/yaml_cursor.h"
#include "codec/json_reader.h"
#include "codec/yaml.h"

// How the block grammar is read. A block collection is identified by the
// column of its first entry (`col`): later entries must start exactly there
// and their content deeper, except that a sequence may share its parent
// key's column. Functions also get `n`, the column of the enclosing
// collection (-1 for a document root); continuation lines of a plain scalar
// and the text of a block scalar must be indented deeper than `n`. A
// collection ends at the first content line left of `col`; a line right of
// it is an indentation error. NextContentLine is the only place that skips
// blank and comment lines, so every loop looks at content or at -1 (end of
// document).
//
// Keys need no backtracking: YAML's implicit keys fit on one line, so the
// first line of a scalar is read and a `: ` right after it makes it a key.

namespace zs::yaml::internal {
namespace {

using json::Value;

// Where a block node sits; decides which nodes may start on the line of the
// indicator that introduced them.
enum class Context {
  kDocument,  // the root, possibly on the `---` line
  kMapValue,  // after `key:`
  kSeqEntry,  // after `- `; the only place a block collection may start inline
};

// The first line of a scalar in block context: enough to tell a mapping key
// (`text:`) from a value.
struct ScalarHead {
  std::string text;  // decoded if quoted; the first line, trimmed, if plain
  bool quoted = false;
  bool multi_line = false;  // a quoted scalar that spans lines
  bool is_key = false;      // followed by `:` and whitespace
};

// One entry of a flow collection. A plain scalar is resolved only once we know
// it is not a key, so `{.inf: 1}` is not rejected for its key.
struct FlowItem {
  Value value;       // set unless `plain`
  std::string text;  // scalar text (plain or decoded quoted)
  std::size_t start = 0;
  bool scalar = false;
  bool plain = false;
  bool json_like = false;  // quoted or a collection: `:` may follow directly
};

class Parser : private Cursor {
 public:
  Parser(std::string src, std::size_t max_depth)
      : Cursor(std::move(src)),
        max_depth_(max_depth),
        budget_(json::DefaultElementBudget(src_.size())),
        elements_left_(budget_) {}

  Result<std::vector<Value>> Run();

 private:
  Status ParseDirective();
  Result<int> NextContentLine();

  Result<Value> ParseBlockValue(int n, Context ctx, std::size_t depth);
  Result<Value> ParseBlockNode(int n, Context ctx, std::size_t depth);
  Result<Value> ParseBlockMapping(int col, std::string key, std::size_t key_pos,
                                  std::size_t depth);
  Result<std::string> ParseBlockKey();
  Result<Value> ParseBlockSequence(int col, std::size_t depth);
  Result<Value> ParseBlockScalar(int n);
  Result<ScalarHead> ParseScalarHead();
  Status CheckKey(const ScalarHead& head, std::size_t start) const;
  Result<std::string> ContinuePlain(std::string text, int n);
  Status TooDeep(std::size_t at) const;
  // Takes `units` from the element budget, the JSON reader's: one per value
  // (a document, a mapping member, a sequence entry) and kObjectUnits - 1
  // more per mapping. InvalidArgument when it is spent.
  Status Charge(std::size_t at, std::size_t units = 1);

  const std::size_t max_depth_;
  const std::size_t budget_;
  std::size_t elements_left_;

  Status SkipFlowSpace(std::size_t start);
  Result<Value> ParseFlowCollection(std::size_t depth);
  Result<FlowItem> ParseFlowItem(std::size_t depth);
  Result<Value> FlowValue(FlowItem item) const;
  Result<Value> ParseFlowPairValue(std::size_t start, char close,
                                   std::size_t depth);
  std::string ScanPlainFlow();
};

Status Parser::ParseDirective() {
  const std::size_t start = pos_;
  std::size_t end = src_.find('\n', pos_);
  if (end == std::string::npos) end = src_.size();
  std::string_view line(src_.data() + pos_, end - pos_);
  if (const std::size_t hash = line.find(" #");
      hash != std::string_view::npos) {
    line = line.substr(0, hash);
  }
  while (!line.empty() && IsBlank(line.back())) line.remove_suffix(1);
  if (line.starts_with("%YAML") && line.size() > 5 && IsBlank(line[5])) {
    std::string_view version = line.substr(6);
    while (!version.empty() && IsBlank(version.front()))
      version.remove_prefix(1);
    if (!version.starts_with("1.")) {
      return Unsupported(start, "only YAML 1.x documents are supported");
    }
  } else if (line.starts_with("%TAG")) {
    return Unsupported(start, "tags (%TAG) are not supported");
  }  // Other directives are reserved; YAML says to ignore them.
  pos_ = end;
  return Status::OK();
}

// Moves to the first character of the next line that holds content, skipping
// blank and comment lines, and returns that line's indentation. Returns -1 at
// the end of input or at a document marker (pos_ then at the marker). Called
// at a line end, or at a content character preceded only by spaces (then it
// returns that character's column without moving).
Result<int> Parser::NextContentLine() {
  while (true) {
    if (AtEnd()) return -1;
    std::size_t ls;
    if (src_[pos_] == '\n') {
      ls = pos_ + 1;
    } else {
      ls = LineStart(pos_);
      assert(OnlySpacesBefore(pos_));
    }
    if (IsDocumentMarker(ls)) {
      pos_ = ls;
      return -1;
    }
    std::size_t p = ls;
    while (p < src_.size() && src_[p] == ' ') ++p;
    std::size_t q = p;
    while (q < src_.size() && IsBlank(src_[q])) ++q;
    if (q == src_.size() || src_[q] == '\n') {
      pos_ = q;
      continue;
    }
    if (src_[q] == '#') {
      pos_ = q;
      while (!AtEnd() && Peek() != '\n') ++pos_;
      continue;
    }
    if (q != p) return Corrupt(p, "found a tab character used for indentation");
    pos_ = p;
    return static_cast<int>(p - ls);
  }
}

Result<std::vector<Value>> Parser::Run() {
  ZS_RETURN_IF_ERROR(CheckCharacters());
  std::vector<Value> documents;
  bool directives_allowed = true;
  std::size_t directive_pos = std::string::npos;
  while (true) {
    ZS_ASSIGN_OR_RETURN(const int indent, NextContentLine());
    if (AtEnd()) {
      if (directive_pos != std::string::npos) {
        return Corrupt(directive_pos, "directive without a document");
      }
      break;
    }
    if (indent == 0 && Peek() == '%' && directives_allowed) {
      if (directive_pos == std::string::npos) directive_pos = pos_;
      ZS_RETURN_IF_ERROR(ParseDirective());
      continue;
    }
    const bool start_marker = indent < 0 && src_.compare(pos_, 3, "---") == 0;
    if (indent < 0 && !start_marker) {  // `...`
      if (directive_pos != std::string::npos) {
        return Corrupt(pos_, "expected '---' after the directives");
      }
      pos_ += 3;
      ZS_RETURN_IF_ERROR(ExpectLineEnd("'...'"));
      directives_allowed = true;
      continue;
    }
    if (start_marker) {
      pos_ += 3;
    } else if (directive_pos != std::string::npos) {
      return Corrupt(pos_, "expected '---' after the directives");
    }
    directive_pos = std::string::npos;
    directives_allowed = false;
    SkipBlanks();
    if (Peek() == '#' || Peek() == '\n' || AtEnd()) {
      ZS_RETURN_IF_ERROR(ExpectLineEnd("'---'"));
      ZS_ASSIGN_OR_RETURN(const int first, NextContentLine());
      if (first < 0) continue;  // an empty document
    }
    ZS_ASSIGN_OR_RETURN(Value root, ParseBlockValue(-1, Context::kDocument, 0));
    ZS_RETURN_IF_ERROR(Charge(pos_));
    documents.push_back(std::move(root));
    ZS_ASSIGN_OR_RETURN(const int after, NextContentLine());
    if (after >= 0) {
      return Corrupt(
          pos_, "expected a document start '---' or the end of the stream");
    }
  }
  return documents;
}

// Parses the node after an indicator (`:`, `-`, `---`), which may follow on
// the same line or start on a later, deeper line. `n` is the indentation of
// the enclosing block collection (-1 for a document). An absent node is null.
Status Parser::Charge(std::size_t at, std::size_t units) {
  if (elements_left_ >= units) {
    elements_left_ -= units;
    return Status::OK();
  }
  return Error(Status::Code::kInvalidArgument, at,
               "values go " + std::string(json::kOverBudget) + " of " +
                   std::to_string(budget_) + " for a " +
                   std::to_string(src_.size()) + "-byte text (" +
                   std::to_string(json::kElementFloor) + " + 1 per " +
                   std::to_string(json::kBytesPerElement) +
                   " bytes; a mapping costs " +
                   std::to_string(json::kObjectUnits) + ")");
}

Result<Value> Parser::ParseBlockValue(int n, Context ctx, std::size_t depth) {
  const std::size_t before = pos_;
  SkipBlanks();
  if (Peek() == '#' || Peek() == '\n' || AtEnd()) {
    ZS_RETURN_IF_ERROR(ExpectLineEnd("a value"));
    ZS_ASSIGN_OR_RETURN(const int indent, NextContentLine());
    const bool entry = Peek() == '-' && IsBlankOrEnd(Peek(1));
    // A sequence may sit at its key's own indentation (`key:\n- a`).
    if (indent > n ||
        (indent >= 0 && indent == n && entry && ctx == Context::kMapValue)) {
      return ParseBlockNode(n, ctx, depth);
    }
    return Value::Null();
  }
  // After `- ` the blanks are indentation: they set the column of a compact
  // `- key: v` mapping, so a tab there would make that column ambiguous.
  if (ctx == Context::kSeqEntry &&
      std::string_view(src_.data() + before, pos_ - before).find('\t') !=
          std::string_view::npos) {
    return Corrupt(before, "found a tab character used for indentation");
  }
  return ParseBlockNode(n, ctx, depth);
}

Result<Value> Parser::ParseBlockNode(int n, Context ctx, std::size_t depth) {
  const std::size_t start = pos_;
  const int col = static_cast<int>(pos_ - LineStart(pos_));
  // Block collections start on a line of their own, or inline after `- `.
  const bool collection_ok =
      ctx == Context::kSeqEntry || OnlySpacesBefore(pos_);
  const char c = Peek();
  if (c == '-' && IsBlankOrEnd(Peek(1))) {
    if (!collection_ok) {
      return Corrupt(start, "block sequence entries are not allowed here");
    }
    return ParseBlockSequence(col, depth + 1);
  }
  ZS_RETURN_IF_ERROR(CheckNodeStart(/*flow=*/false));
  if (c == '|' || c == '>') return ParseBlockScalar(n);
  if (c == '[' || c == '{') {
    ZS_ASSIGN_OR_RETURN(Value value, ParseFlowCollection(depth + 1));
    SkipBlanks();
    if (Peek() == ':' && IsBlankOrEnd(Peek(1))) {
      return Unsupported(start,
                         "flow collections as mapping keys are not supported");
    }
    ZS_RETURN_IF_ERROR(ExpectLineEnd("a flow collection"));
    return value;
  }
  ZS_ASSIGN_OR_RETURN(ScalarHead head, ParseScalarHead());
  if (head.is_key) {
    if (!collection_ok) {
      return Corrupt(pos_, "mapping values are not allowed here");
    }
    ZS_RETURN_IF_ERROR(CheckKey(head, start));
    return ParseBlockMapping(col, std::move(head.text), start, depth + 1);
  }
  if (head.quoted) {
    ZS_RETURN_IF_ERROR(ExpectLineEnd("a quoted scalar"));
    return Value::String(std::move(head.text));
  }
  ZS_ASSIGN_OR_RETURN(std::string text, ContinuePlain(std::move(head.text), n));
  ZS_RETURN_IF_ERROR(ExpectLineEnd("a plain scalar"));
  return Resolve(text, start);
}

Status Parser::TooDeep(std::size_t at) const {
  return Error(
      Status::Code::kInvalidArgument, at,
      "nesting deeper than " + std::to_string(max_depth_) + " levels");
}

Result<Value> Parser::ParseBlockMapping(int col, std::string key,
                                        std::size_t key_pos,
                                        std::size_t depth) {
  if (depth > max_depth_) return TooDeep(key_pos);
  ZS_RETURN_IF_ERROR(Charge(key_pos, json::kObjectUnits - 1));
  json::Object members;
  std::unordered_set<std::string> seen;
  while (true) {
    // pos_ is at the `:` after `key`.
    if (!seen.insert(key).second) {
      return Corrupt(key_pos, "duplicate mapping key \"" + key + "\"");
    }
    ++pos_;
    ZS_ASSIGN_OR_RETURN(Value value,
                        ParseBlockValue(col, Context::kMapValue, depth));
    ZS_RETURN_IF_ERROR(Charge(key_pos));
    members.emplace_back(std::move(key), std::move(value));
    ZS_ASSIGN_OR_RETURN(const int indent, NextContentLine());
    if (indent < col) break;
    if (indent > col) {
      return Corrupt(pos_,
                     "bad indentation of a mapping entry (expected column " +
                         std::to_string(col + 1) + ")");
    }
    key_pos = pos_;
    ZS_ASSIGN_OR_RETURN(key, ParseBlockKey());
  }
  return Value::MakeObject(std::move(members));
}

Result<std::string> Parser::ParseBlockKey() {
  const std::size_t start = pos_;
  const char c = Peek();
  if (c == '-' && IsBlankOrEnd(Peek(1))) {
    return Corrupt(start, "expected a mapping key, found a sequence entry");
  }
  ZS_RETURN_IF_ERROR(CheckNodeStart(/*flow=*/false));
  if (c == '[' || c == '{') {
    ZS_RETURN_IF_ERROR(ParseFlowCollection(1).status());
    SkipBlanks();
    if (Peek() == ':' && IsBlankOrEnd(Peek(1))) {
      return Unsupported(start,
                         "flow collections as mapping keys are not supported");
    }
    return Corrupt(start, "expected a mapping key, found a flow collection");
  }
  if (c == '|' || c == '>') {
    return Corrupt(start, "expected a mapping key, found a block scalar");
  }
  ZS_ASSIGN_OR_RETURN(ScalarHead head, ParseScalarHead());
  if (!head.is_key) {
    return Corrupt(start, "could not find expected ':' after a mapping key");
  }
  ZS_RETURN_IF_ERROR(CheckKey(head, start));
  return std::move(head.text);
}

Result<Value> Parser::ParseBlockSequence(int col, std::size_t depth) {
  if (depth > max_depth_) return TooDeep(pos_);
  json::Array items;
  while (true) {
    ++pos_;  // the `-`
    ZS_ASSIGN_OR_RETURN(Value item,
                        ParseBlockValue(col, Context::kSeqEntry, depth));
    ZS_RETURN_IF_ERROR(Charge(pos_));
    items.push_back(std::move(item));
    ZS_ASSIGN_OR_RETURN(const int indent, NextContentLine());
    if (indent < col) break;
    if (indent > col) {
      return Corrupt(pos_,
                     "bad indentation of a sequence entry (expected column " +
                         std::to_string(col + 1) + ")");
    }
    if (Peek() != '-' || !IsBlankOrEnd(Peek(1))) break;
  }
  return Value::MakeArray(std::move(items));
}

// `|` or `>` with optional indentation (1-9) and chomping (`-`, `+`)
// indicators. `n` is the enclosing collection's indentation; content lines
// are indented by n + indicator, or as the first non-empty line.
Result<Value> Parser::ParseBlockScalar(int n) {
  const bool folded = Peek() == '>';
  ++pos_;
  int increment = 0;
  char chomp = 0;  // '-' strip, '+' keep, 0 clip
  for (int k = 0; k < 2; ++k) {
    const char c = Peek();
    if (c >= '1' && c <= '9' && increment == 0) {
      increment = c - '0';
    } else if ((c == '-' || c == '+') && chomp == 0) {
      chomp = c;
    } else if (c == '0') {
      return Corrupt(
          pos_, "a block scalar indentation indicator must be between 1 and 9");
    } else {
      break;
    }
    ++pos_;
  }
  if (!IsBlankOrEnd(Peek())) {
    return Corrupt(pos_, "unexpected character in a block scalar header");
  }
  ZS_RETURN_IF_ERROR(ExpectLineEnd("a block scalar header"));

  const std::size_t size = src_.size();
  std::size_t indent = increment > 0 ? std::max(n, 0) + increment : 0;
  const std::size_t min_indent = std::max(n + 1, 1);
  std::string out;
  std::size_t pending = 0;    // empty lines since the last text line
  std::size_t max_blank = 0;  // widest leading empty line, for detection
  bool have_text = false;
  bool prev_more = false;   // last text line starts with white space
  bool terminated = false;  // last text line ends with a line break
  while (pos_ < size) {     // pos_ is at the '\n' ending a line
    const std::size_t ls = pos_ + 1;
    std::size_t p = ls;
    while (p < size && src_[p] == ' ' && (indent == 0 || p - ls < indent)) ++p;
    const std::size_t spaces = p - ls;
    if (p == size || src_[p] == '\n') {  // an empty line
      if (indent == 0) max_blank = std::max(max_blank, spaces);
      pos_ = p;
      if (p < size) ++pending;
      continue;
    }
    if (indent == 0) {  // the first text line sets the indentation
      if (spaces < min_indent) break;
      if (max_blank > spaces) {
        return Corrupt(ls,
                       "a leading empty line of a block scalar is more "
                       "indented than its first text line");
      }
      indent = spaces;
    } else if (spaces < indent) {
      break;
    }
    std::size_t eol = p;
    while (eol < size && src_[eol] != '\n') ++eol;
    const std::string_view text(src_.data() + p, eol - p);
    // Folding joins two lines with a space, or with the empty lines between
    // them, but never next to a "more indented" line (one starting with
    // white space): those keep every break, as in a literal block.
    const bool more = text[0] == ' ' || text[0] == '\t';
    if (!have_text) {
      out.append(pending, '\n');
    } else if (folded && !prev_more && !more) {
      if (pending == 0) {
        out += ' ';
      } else {
        out.append(pending, '\n');
      }
    } else {
      out.append(pending + 1, '\n');
    }
    out += text;
    have_text = true;
    prev_more = more;
    pending = 0;
    terminated = eol < size;
    pos_ = eol;
  }
  // Chomping decides the final break and the trailing empty lines: strip
  // drops both, clip keeps the break, keep keeps everything.
  if (chomp == '+') {
    out.append(pending + (have_text && terminated ? 1 : 0), '\n');
  } else if (chomp == 0 && have_text && terminated) {
    out += '\n';
  }
  return Value::String(std::move(out));
}

Result<ScalarHead> Parser::ParseScalarHead() {
  ScalarHead head;
  const char c = Peek();
  if (c == '"' || c == '\'') {
    head.quoted = true;
    ZS_ASSIGN_OR_RETURN(head.text, ParseQuoted(&head.multi_line));
    const std::size_t after = pos_;
    SkipBlanks();
    head.is_key = Peek() == ':' && IsBlankOrEnd(Peek(1));
    if (!head.is_key) pos_ = after;
    return head;
  }
  if (c == ':' && IsBlankOrEnd(Peek(1))) {  // `: value`, an empty key
    head.is_key = true;
    return head;
  }
  if (!CanStartPlain(/*flow=*/false)) {
    return Corrupt(pos_, std::string("found unexpected '") + c + "'");
  }
  head.text = std::string(ScanPlainLine(/*flow=*/false));
  head.is_key = Peek() == ':';
  return head;
}

Status Parser::CheckKey(const ScalarHead& head, std::size_t start) const {
  if (head.multi_line) {
    return Corrupt(start, "a mapping key must fit on one line");
  }
  if (!head.quoted && head.text.empty()) {
    return Unsupported(start, "empty (null) mapping keys are not supported");
  }
  if (!head.quoted && head.text == "<<") {
    return Unsupported(start, "merge keys (<<) are not supported");
  }
  return Status::OK();
}

// Appends the further lines of a multi-line plain scalar in block context:
// lines indented deeper than `n`, folded (one line break becomes a space, each
// empty line a '\n'). Stops before a comment, a shallower line, a document
// marker or the end; leaves pos_ at the end of the last line taken.
Result<std::string> Parser::ContinuePlain(std::string text, int n) {
  const std::size_t size = src_.size();
  while (true) {
    const std::size_t save = pos_;
    SkipBlanks();
    if (Peek() != '\n') {
      pos_ = save;
      return text;
    }
    std::size_t breaks = 0;
    std::size_t ls = 0;
    std::size_t content = pos_;
    while (content < size && src_[content] == '\n') {
      ++breaks;
      ls = content + 1;
      content = ls;
      while (content < size && IsBlank(src_[content])) ++content;
    }
    std::size_t spaces = 0;
    while (ls + spaces < size && src_[ls + spaces] == ' ') ++spaces;
    if (content >= size || IsDocumentMarker(ls) || src_[content] == '#' ||
        static_cast<int>(spaces) <= n) {
      pos_ = save;
      return text;
    }
    text += breaks == 1 ? std::string(" ") : std::string(breaks - 1, '\n');
    pos_ = content;
    text += ScanPlainLine(/*flow=*/false);
    if (Peek() == ':') {
      return Corrupt(pos_, "mapping values are not allowed here");
    }
  }
}

// Skips white space, line breaks and comments inside a flow collection that
// started at `start`.
Status Parser::SkipFlowSpace(std::size_t start) {
  while (true) {
    if (AtEnd()) {
      return Corrupt(start,
                     "found unexpected end of stream inside a flow collection");
    }
    const char c = Peek();
    if (IsBlank(c)) {
      ++pos_;
    } else if (c == '\n') {
      ++pos_;
      if (IsDocumentMarker(pos_)) {
        return Corrupt(pos_,
                       "found a document marker inside a flow collection");
      }
    } else if (c == '#' && IsBlankOrEnd(src_[pos_ - 1])) {
      while (!AtEnd() && Peek() != '\n') ++pos_;
    } else {
      return Status::OK();
    }
  }
}

Result<Value> Parser::ParseFlowCollection(std::size_t depth) {
  const std::size_t start = pos_;
  if (depth > max_depth_) return TooDeep(start);
  const bool is_map = src_[pos_] == '{';
  const char close = is_map ? '}' : ']';
  if (is_map) ZS_RETURN_IF_ERROR(Charge(start, json::kObjectUnits - 1));
  ++pos_;
  json::Array items;
  json::Object members;
  std::unordered_set<std::string> seen;
  while (true) {
    ZS_RETURN_IF_ERROR(SkipFlowSpace(start));
    if (Peek() == close) break;
    ZS_ASSIGN_OR_RETURN(FlowItem item, ParseFlowItem(depth));
    ZS_RETURN_IF_ERROR(SkipFlowSpace(start));
    // After a quoted key or a collection, `:` may touch the value
    // (`{"a":1}`, JSON style); after a plain key it needs a blank, since
    // `a:b` is one scalar.
    const bool has_value =
        Peek() == ':' &&
        (IsBlankOrEnd(Peek(1)) || IsFlowIndicator(Peek(1)) || item.json_like);
    if (is_map || has_value) {
      if (!item.scalar) {
        return Unsupported(
            item.start, "flow collections as mapping keys are not supported");
      }
      if (item.plain && item.text == "<<") {
        return Unsupported(item.start, "merge keys (<<) are not supported");
      }
      if (item.plain && item.text.empty()) {
        return Unsupported(item.start,
                           "empty (null) mapping keys are not supported");
      }
      Value value;
      if (has_value) {
        ++pos_;
        ZS_ASSIGN_OR_RETURN(value, ParseFlowPairValue(start, close, depth));
      }
      if (is_map) {
        if (!seen.insert(item.text).second) {
          return Corrupt(item.start,
                         "duplicate mapping key \"" + item.text + "\"");
        }
        ZS_RETURN_IF_ERROR(Charge(item.start));
        members.emplace_back(std::move(item.text), std::move(value));
      } else {  // `[a: 1]`, a single-pair mapping inside a sequence
        json::Object pair;
        ZS_RETURN_IF_ERROR(Charge(item.start));
        pair.emplace_back(std::move(item.text), std::move(value));
        items.push_back(Value::MakeObject(std::move(pair)));
      }
    } else {
      const std::size_t item_start = item.start;
      ZS_ASSIGN_OR_RETURN(Value value, FlowValue(std::move(item)));
      ZS_RETURN_IF_ERROR(Charge(item_start));
      items.push_back(std::move(value));
    }
    ZS_RETURN_IF_ERROR(SkipFlowSpace(start));
    if (Peek() == ',') {
      ++pos_;
    } else if (Peek() != close) {
      return Corrupt(
          pos_, std::string("did not find expected ',' or '") + close + "'");
    }
  }
  ++pos_;  // the closing bracket
  return is_map ? Value::MakeObject(std::move(members))
                : Value::MakeArray(std::move(items));
}

// The value after `key:` in a flow collection; empty means null.
Result<Value> Parser::ParseFlowPairValue(std::size_t start, char close,
                                         std::size_t depth) {
  ZS_RETURN_IF_ERROR(SkipFlowSpace(start));
  if (Peek() == ',' || Peek() == close) return Value::Null();
  ZS_ASSIGN_OR_RETURN(FlowItem item, ParseFlowItem(depth));
  return FlowValue(std::move(item));
}

Result<FlowItem> Parser::ParseFlowItem(std::size_t depth) {
  ZS_RETURN_IF_ERROR(CheckNodeStart(/*flow=*/true));
  FlowItem item;
  item.start = pos_;
  const char c = Peek();
  if (c == '[' || c == '{') {
    ZS_ASSIGN_OR_RETURN(item.value, ParseFlowCollection(depth + 1));
    item.json_like = true;
    return item;
  }
  item.scalar = true;
  if (c == '"' || c == '\'') {
    bool multi_line = false;
    ZS_ASSIGN_OR_RETURN(item.text, ParseQuoted(&multi_line));
    item.value = Value::String(item.text);
    item.json_like = true;
    return item;
  }
  item.plain = true;
  if (c == ':' && (IsBlankOrEnd(Peek(1)) || IsFlowIndicator(Peek(1)))) {
    return item;  // an empty key: `{: v}`
  }
  if (!CanStartPlain(/*flow=*/true)) {
    return Corrupt(pos_, std::string("found unexpected '") + c + "'");
  }
  item.text = ScanPlainFlow();
  return item;
}

Result<Value> Parser::FlowValue(FlowItem item) const {
  if (!item.plain) return std::move(item.value);
  return Resolve(item.text, item.start);
}

// A plain scalar in flow context, possibly over several lines.
std::string Parser::ScanPlainFlow() {
  std::string text(ScanPlainLine(/*flow=*/true));
  const std::size_t size = src_.size();
  while (true) {
    const std::size_t save = pos_;
    SkipBlanks();
    std::size_t breaks = 0;
    std::size_t ls = pos_;
    std::size_t content = pos_;
    while (content < size && src_[content] == '\n') {
      ++breaks;
      ls = content + 1;
      content = ls;
      while (content < size && IsBlank(src_[content])) ++content;
    }
    const char c = content < size ? src_[content] : '\0';
    const char next = content + 1 < size ? src_[content + 1] : '\0';
    if (breaks == 0 || c == '\0' || c == '#' || IsFlowIndicator(c) ||
        IsDocumentMarker(ls) ||
        (c == ':' && (IsBlankOrEnd(next) || IsFlowIndicator(next)))) {
      pos_ = save;
      return text;
    }
    text += breaks == 1 ? std::string(" ") : std::string(breaks - 1, '\n');
    pos_ = content;
    text += ScanPlainLine(/*flow=*/true);
  }
}

}  // namespace

Result<std::vector<Value>> ParseStream(std::string_view text, std::size_t max_depth) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  // YAML treats CRLF and a lone CR as line breaks; folding both into LF keeps
  // every line and column number unchanged.
  std::string src;
  src.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      src += text[i];
    } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
      src += '\n';
    }
  }
  return Parser(std::move(src), max_depth).Run();
}

}  // namespace zs::yaml::internal
